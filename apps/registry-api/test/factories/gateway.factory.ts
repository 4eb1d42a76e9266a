import { expect } from 'vitest';
import type { ToolInputFormat } from '@toolgate/toolir';
import type { TestApp } from '../support/test-app';
import { createTool, publish, setStable, type TestTeam, type TestTool } from './registry.factory';

/** A tool that deletes something: the gateway holds its calls for a person's approval. */
export const DESTRUCTIVE_BEHAVIOR = {
  readonly: false,
  destructive: true,
  idempotent: false,
  requires_approval: 'if_destructive',
} as const;

/** Registers a tool run by a builtin handler, publishes 1.0.0 and makes it stable. */
export async function createBuiltinTool(
  api: TestApp,
  team: TestTeam,
  fields: {
    handler: string;
    name?: string;
    description?: string;
    /** The arguments' JSON Schema; the factory's default takes one `query` string. */
    parameters?: Record<string, unknown>;
    /** A free-text tool's input format (give `textInputParameters()` as `parameters` with it). */
    input_format?: ToolInputFormat;
    /** Opts the version in to repairing cut-off arguments. */
    repair_cut_arguments?: boolean;
    visibility?: 'private' | 'public';
    behavior?: {
      readonly?: boolean;
      destructive?: boolean;
      idempotent?: boolean;
      requires_approval?: 'always' | 'never' | 'if_destructive';
    };
  },
): Promise<TestTool> {
  const tool = await createTool(api, team, {
    ...(fields.name === undefined ? {} : { name: fields.name }),
    ...(fields.description === undefined ? {} : { description: fields.description }),
    ...(fields.visibility === undefined ? {} : { visibility: fields.visibility }),
  });
  const ir = tool.ir.with({
    ...(fields.description === undefined ? {} : { description: fields.description }),
    ...(fields.parameters === undefined ? {} : { parameters: fields.parameters }),
    ...(fields.input_format === undefined ? {} : { input_format: fields.input_format }),
    ...(fields.repair_cut_arguments === undefined
      ? {}
      : { repair_cut_arguments: fields.repair_cut_arguments }),
    behavior: {
      readonly: true,
      destructive: false,
      idempotent: true,
      ...fields.behavior,
    },
    protocol_meta: { toolgate: { executor: { kind: 'builtin', handler: fields.handler } } },
  });
  await publish(api, team, { ...tool, ir }, '1.0.0', ir);
  await setStable(api, team, tool, '1.0.0');
  return { ...tool, ir };
}

/** Polls GET /v1/calls/:id until the call reaches one of the statuses. */
export async function waitForCallStatus(
  api: TestApp,
  options: { key: string; id: string; statuses: string[]; timeoutMs?: number },
): Promise<{ status: string; [field: string]: unknown }> {
  const deadline = Date.now() + (options.timeoutMs ?? 5_000);
  for (;;) {
    const response = await api.request({ url: `/v1/calls/${options.id}`, key: options.key });
    expect(response.status, response.text).toBe(200);
    const body = response.body as { status: string; [field: string]: unknown };
    if (options.statuses.includes(body.status)) return body;
    if (Date.now() > deadline) {
      throw new Error(`call ${options.id} stayed ${String(response.body.status)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An OpenAI Chat assistant message with one tool call per entry. */
export function openAIChatMessage(calls: Array<{ id: string; name: string; arguments: string }>) {
  return {
    role: 'assistant',
    content: null,
    tool_calls: calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    })),
  };
}

/** An Anthropic assistant content array with one tool_use block per entry. */
export function anthropicContent(calls: Array<{ id: string; name: string; input: unknown }>) {
  return [
    { type: 'text', text: 'Let me look that up.' },
    ...calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.input })),
  ];
}
