import type { ToolAdapter } from '../../src/index';
import { getAdapter, PROVIDERS, type Provider } from '../../src/index';
import anthropicMessage from '../../src/anthropic/__fixtures__/message-parallel-tool-use.json';
import geminiWithIds from '../../src/gemini/__fixtures__/generate-content-function-calls-with-ids.json';
import geminiCalls from '../../src/gemini/__fixtures__/generate-content-function-calls.json';
import mcpResult from '../../src/mcp/__fixtures__/call-tool-result.json';
import mcpTool from '../../src/mcp/__fixtures__/tool-definition.json';
import mcpRequest from '../../src/mcp/__fixtures__/tools-call-request.json';
import chatCompletion from '../../src/openai-chat/__fixtures__/chat-completion-parallel-tool-calls.json';
import responsesResponse from '../../src/openai-responses/__fixtures__/response-function-calls.json';
import { weatherTool } from './tool-factory';

/** Valid payloads of one wire, per reading function: the seeds of the bad-input and fuzz tests. */
export interface ValidPayloads {
  tool: unknown[];
  calls: unknown[];
  results: unknown[];
}

const FIXTURE_CALLS: Record<Provider, unknown[]> = {
  'openai-chat': [chatCompletion],
  'openai-responses': [responsesResponse],
  anthropic: [anthropicMessage],
  gemini: [geminiCalls, geminiWithIds],
  mcp: [mcpRequest],
};

/** Fixtures plus what the adapter itself writes (tools, calls, results including errors and images). */
export function validPayloads(provider: Provider): ValidPayloads {
  const adapter = getAdapter(provider) as ToolAdapter;
  const tool = weatherTool();
  const calls = [
    { id: 'call_1', name: tool.name, arguments: { location: 'Oslo', unit: 'celsius' } },
  ];
  const results = adapter.resultsToWire([
    { call_id: 'call_1', name: tool.name, ok: true, data: { temperature: 3 } },
    {
      call_id: 'call_2',
      name: tool.name,
      ok: false,
      error: { code: 'timeout', message: 'slow', retryable: true },
    },
    {
      call_id: 'call_3',
      name: tool.name,
      ok: true,
      content: [
        { type: 'text', text: 'x' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
    },
  ]);
  return {
    tool: [
      ...adapter.toolsToWire([tool], { strict: true }).definitions,
      ...(provider === 'mcp' ? [mcpTool] : []),
    ],
    calls: [...FIXTURE_CALLS[provider], adapter.callsToWire(calls)],
    results: [results, ...(provider === 'mcp' ? [mcpResult] : [])],
  };
}

/** Every provider with its adapter. */
export const ALL_ADAPTERS = PROVIDERS.map(
  (provider) => [provider, getAdapter(provider) as ToolAdapter] as const,
);
