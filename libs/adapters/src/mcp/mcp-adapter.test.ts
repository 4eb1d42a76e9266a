import { describe, expect, it } from 'vitest';
import { buildTool, weatherTool } from '../../test/support/tool-factory';
import callToolResult from './__fixtures__/call-tool-result.json';
import toolDefinition from './__fixtures__/tool-definition.json';
import request from './__fixtures__/tools-call-request.json';
import { mcpAdapter as adapter } from './mcp-adapter';

describe('mcp tools', () => {
  it('maps behavior to the four annotation hints and back', () => {
    const destructive = buildTool({
      name: 'drop_table',
      title: 'Drop table',
      behavior: { readonly: false, destructive: true, idempotent: true, open_world: false },
    });
    const [wire] = adapter.toolsToWire([destructive]).tools;
    expect(wire).toEqual({
      name: 'drop_table',
      title: 'Drop table',
      description: 'The drop_table tool.',
      inputSchema: { type: 'object', properties: {} },
      annotations: {
        title: 'Drop table',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    });
    expect(adapter.toolFromWire(wire).behavior).toEqual({
      readonly: false,
      destructive: true,
      idempotent: true,
      open_world: false,
      requires_approval: 'if_destructive',
    });
  });

  it('imports a documented Tool with the spec defaults: destructive unless read-only', () => {
    const tool = adapter.toolFromWire(toolDefinition);
    expect(tool).toMatchObject({
      name: 'get_weather_data',
      title: 'Weather Data Retriever',
      version: '1.0.0',
      behavior: { readonly: true, destructive: false, idempotent: true, open_world: true },
      outputSchema: toolDefinition.outputSchema,
      protocol_meta: { icons: toolDefinition.icons },
    });
    expect(
      adapter.toolFromWire({ name: 'x', inputSchema: { type: 'object' } }).behavior,
    ).toMatchObject({ readonly: false, destructive: true, idempotent: false, open_world: true });
    expect(adapter.toolFromWire({ name: 'x', inputSchema: { type: 'object' } }).id).toBe(
      adapter.toolFromWire({ name: 'x', inputSchema: { type: 'object' } }).id,
    );
  });

  it('writes boolean property schemas as objects and wraps a non-object outputSchema', () => {
    const tool = buildTool({
      name: 'any',
      parameters: { type: 'object', properties: { anything: true, nothing: false } },
      outputSchema: { type: 'array', items: { type: 'string' } },
    });
    const { tools, report } = adapter.toolsToWire([tool]);
    expect(tools[0]?.inputSchema).toEqual({
      type: 'object',
      properties: { anything: {}, nothing: { not: {} } },
    });
    expect(tools[0]?.outputSchema).toEqual({
      type: 'object',
      properties: { result: { type: 'array', items: { type: 'string' } } },
      required: ['result'],
    });
    expect(report.entries.map((entry) => entry.path)).toEqual([
      '/properties/anything',
      '/properties/nothing',
      '/outputSchema',
    ]);
  });
});

describe('mcp calls and results', () => {
  it('reads a documented tools/call request; the JSON-RPC id is the call id', () => {
    expect(adapter.callsFromWire(request)).toEqual([
      { id: '2', name: 'get_weather', arguments: { location: 'New York' } },
    ]);
    expect(adapter.callsFromWire(request.params)[0]?.id).toMatch(/^call_[0-9a-f]{16}$/);
    const bare = adapter.parseCalls(request.params);
    expect(bare.synthesizedIds).toEqual([bare.calls[0]?.id]);
    expect(adapter.parseCalls(request).synthesizedIds).toBeUndefined();
  });

  it('reads a documented CallToolResult: structuredContent is the data, its JSON text duplicate is not content', () => {
    expect(
      adapter.resultsFromWire(callToolResult, {
        calls: [{ id: '2', name: 'get_weather', arguments: {} }],
      }),
    ).toEqual([
      {
        call_id: '2',
        name: 'get_weather',
        ok: true,
        data: { temperature: 22.5, conditions: 'Partly cloudy', humidity: 65 },
      },
    ]);
  });

  it("carries the result's own _meta (the gateway's notes) beside the truncation mark", () => {
    const budget = { state: 'soft_exceeded', scope: 'team', period: 'day' };
    const [response] = adapter.resultsToWire([
      {
        call_id: '8',
        name: 'get_weather',
        ok: true,
        data: { temperature: 3 },
        truncated: true,
        _meta: { toolgate: { budget } },
      },
    ]);
    expect(response?.result._meta).toEqual({
      toolgate: { budget },
      'dev.toolgate/truncated': true,
    });
  });

  it('writes errors as isError results with JSON text, and reads JSON-RPC errors as upstream_error', () => {
    const [response] = adapter.resultsToWire([
      {
        call_id: '7',
        name: 'get_weather',
        ok: false,
        error: { code: 'timeout', message: 'slow', retryable: true },
        truncated: true,
      },
    ]);
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: '7',
      result: {
        content: [
          { type: 'text', text: '{"error":{"code":"timeout","message":"slow","retryable":true}}' },
        ],
        isError: true,
        _meta: { 'dev.toolgate/truncated': true },
      },
    });
    expect(
      adapter.resultsFromWire({
        jsonrpc: '2.0',
        id: 9,
        error: { code: -32602, message: 'Unknown tool: nope' },
      }),
    ).toEqual([
      {
        call_id: '9',
        name: 'unknown',
        ok: false,
        error: {
          code: 'upstream_error',
          message: 'Unknown tool: nope',
          retryable: false,
          details: { jsonrpc_code: -32602 },
        },
      },
    ]);
  });

  it('round-trips every content type: text, image, audio, resource_link, embedded resource', () => {
    const results = [
      {
        call_id: '1',
        name: 'get_current_weather',
        ok: true,
        content: [
          {
            type: 'text' as const,
            text: 'hi',
            annotations: { audience: ['user' as const], priority: 0.5 },
          },
          { type: 'image' as const, data: 'iVBORw0KGgo=', mimeType: 'image/png' },
          { type: 'audio' as const, data: 'UklGRg==', mimeType: 'audio/wav' },
          {
            type: 'resource_link' as const,
            uri: 'file:///report.pdf',
            name: 'report.pdf',
            mimeType: 'application/pdf',
            size: 1024,
          },
          {
            type: 'resource' as const,
            resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'A' },
          },
          { type: 'resource' as const, resource: { uri: 'file:///b.bin', blob: 'AAE=' } },
        ],
      },
    ];
    expect(
      adapter.resultsFromWire(adapter.resultsToWire(results), {
        calls: [{ id: '1', name: 'get_current_weather', arguments: {} }],
        tools: [weatherTool()],
      }),
    ).toEqual(results);
  });
});
