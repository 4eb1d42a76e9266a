import { describe, expect, it } from 'vitest';
import {
  behaviorOfAnnotations,
  recordedBehaviorDefaults,
  upstreamToolToCandidate,
  type UpstreamTool,
} from './upstream-mcp-tools';

const server = {
  id: 'a7c1f1de-5f7e-4d5b-9a51-1c2b3d4e5f60',
  name: 'up',
  url: 'http://up/mcp',
  headers: {},
};

function importOf(tool: Partial<UpstreamTool>, defaults?: Record<string, boolean>) {
  return upstreamToolToCandidate(
    { name: 'tool', inputSchema: { type: 'object' }, ...tool },
    server,
    { namePrefix: '', taken: new Set(), defaults },
  );
}

describe('behaviorOfAnnotations with import defaults', () => {
  it('fills only the hints the upstream left out', () => {
    expect(
      behaviorOfAnnotations(
        { destructiveHint: true },
        { destructive: false, idempotent: true, open_world: false },
      ),
    ).toEqual({
      readonly: false,
      destructive: true,
      idempotent: true,
      open_world: false,
      requires_approval: 'if_destructive',
    });
    expect(behaviorOfAnnotations(undefined, { destructive: false })).toMatchObject({
      readonly: false,
      destructive: false,
      idempotent: false,
      open_world: true,
    });
  });

  it('lets a read-only default make an un-annotated tool safe, but not overrule a hint', () => {
    expect(behaviorOfAnnotations({}, { read_only: true })).toMatchObject({
      readonly: true,
      destructive: false,
      idempotent: true,
    });
    expect(behaviorOfAnnotations({ readOnlyHint: false }, { read_only: true })).toMatchObject({
      readonly: false,
      destructive: true,
    });
  });
});

describe('upstreamToolToCandidate', () => {
  it('refuses a tool that requires task-augmented execution', () => {
    expect(importOf({ execution: { taskSupport: 'required' } })).toEqual({
      ok: false,
      reason: expect.stringMatching(/task-augmented execution .* not support/),
    });
  });

  it("keeps an optional tool's execution in its protocol metadata, and the defaults in its source", () => {
    const imported = importOf({ execution: { taskSupport: 'optional' } }, { read_only: true });
    if (!imported.ok) throw new Error(imported.reason);
    expect(imported.candidate.protocolMeta).toMatchObject({
      execution: { taskSupport: 'optional' },
      toolgate: { source: { behavior_defaults: { read_only: true } } },
    });
    expect(recordedBehaviorDefaults({ protocol_meta: imported.candidate.protocolMeta })).toEqual({
      read_only: true,
    });
    expect(recordedBehaviorDefaults({ protocol_meta: {} })).toBeUndefined();
    const plain = importOf({});
    expect(plain.ok && plain.candidate.protocolMeta).not.toHaveProperty('execution');
  });

  it('writes draft-07 input and output schemas as 2020-12, each rewrite a warning', () => {
    const imported = importOf({
      inputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { point: { type: 'array', items: [{ type: 'number' }, { type: 'number' }] } },
      },
      outputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { city: { $ref: '#/definitions/city' } },
        definitions: { city: { type: 'string' } },
      },
    });
    if (!imported.ok) throw new Error(imported.reason);
    expect(imported.candidate.parameters).toEqual({
      type: 'object',
      properties: {
        point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }] },
      },
    });
    expect(imported.outputSchema).toEqual({
      type: 'object',
      properties: { city: { $ref: '#/$defs/city' } },
      $defs: { city: { type: 'string' } },
    });
    expect(imported.candidate.warnings).toEqual([
      'inputSchema / $schema: http://json-schema.org/draft-07/schema# is read as draft 2020-12',
      'inputSchema /properties/point items: the tuple form became "prefixItems"',
      'outputSchema / $schema: http://json-schema.org/draft-07/schema# is read as draft 2020-12',
      'outputSchema / definitions: became "$defs"',
      'outputSchema /properties/city $ref: #/definitions/city became #/$defs/city',
    ]);
  });
});
