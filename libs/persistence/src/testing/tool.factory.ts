import { randomUUID } from 'node:crypto';
import { TOOL_IR_SCHEMA_VERSION, parseToolIR } from '@toolgate/toolir';
import type { ToolCallIR, ToolIR } from '@toolgate/toolir';
import type { PolicyPrincipal } from '@toolgate/engine';

/** What a test tool varies; everything else is a sensible default. */
export interface TestToolInput {
  name?: string;
  handler?: string;
  idempotent?: boolean;
  rpm?: number;
  timeoutMs?: number;
}

/** A builtin tool version taking optional `ms` and `tag` arguments. */
export function buildTool(input: TestToolInput = {}): ToolIR {
  return parseToolIR({
    schema_version: TOOL_IR_SCHEMA_VERSION,
    id: randomUUID(),
    name: input.name ?? 'sleepy',
    version: '1.0.0',
    description: 'A test tool.',
    parameters: {
      type: 'object',
      properties: { ms: { type: 'integer', minimum: 0 }, tag: { type: 'string' } },
      additionalProperties: false,
    },
    behavior: {
      readonly: false,
      destructive: false,
      idempotent: input.idempotent ?? true,
      requires_approval: 'never',
    },
    constraints: {
      timeout_ms: input.timeoutMs ?? 30_000,
      max_retries: 0,
      ...(input.rpm === undefined ? {} : { rate_limit: { rpm: input.rpm } }),
    },
    protocol_meta: {
      toolgate: { executor: { kind: 'builtin', handler: input.handler ?? 'toolgate.sleep' } },
    },
  });
}

/** A call of a tool with fresh id. */
export function buildCall(tool: ToolIR, args: Record<string, unknown> = {}): ToolCallIR {
  // Ids are uuids, as the registry's `calls` table requires; tool_version is what the registry resolved.
  return { id: randomUUID(), name: tool.name, arguments: args, tool_version: tool.version };
}

/** The caller every test call is made by. */
export const TEST_CALLER: PolicyPrincipal = {
  key_id: '00000000-0000-4000-8000-00000000000a',
  team: '00000000-0000-4000-8000-00000000000b',
  scopes: ['calls:execute'],
};
