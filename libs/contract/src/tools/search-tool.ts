import { parseToolIR, type ToolIR } from '@toolgate/toolir';
import { z } from 'zod';
import { SearchTextSchema } from './tools.schemas';

/**
 * The tool search tool a model is given instead of a whole catalog (MCP `tools=search`, the SDK's
 * `toolSearch`): it asks for tools by what they do and gets their definitions. One definition
 * here, so every face describes it and checks its arguments alike.
 */
export const SEARCH_TOOL_NAME = 'toolgate_search_tools';

/** Tools one search returns at most, and when the model does not say. */
export const MAX_SEARCH_TOOL_RESULTS = 20;
export const DEFAULT_SEARCH_TOOL_RESULTS = 5;

export const SEARCH_TOOL_DESCRIPTION =
  'Finds the tools of this catalog that can do a task. Describe what you want to do in a few ' +
  'words (for example "weather forecast for a city"); the best matches come back with their ' +
  'full definitions and can be called by name at once.';

/** The arguments' JSON Schema, as the model sees it. */
export const SEARCH_TOOL_PARAMETERS: {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  additionalProperties: false;
} = {
  type: 'object',
  properties: {
    query: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'What the tool should do, in a few words.',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_SEARCH_TOOL_RESULTS,
      default: DEFAULT_SEARCH_TOOL_RESULTS,
      description: 'How many tools to return at most.',
    },
  },
  required: ['query'],
  additionalProperties: false,
};

/** The arguments as they are checked: the same bounds as SEARCH_TOOL_PARAMETERS. */
export const SearchToolArgumentsSchema = z.strictObject({
  query: SearchTextSchema,
  /** Absent when the model did not ask: each face applies its default (DEFAULT_SEARCH_TOOL_RESULTS). */
  limit: z.number().int().min(1).max(MAX_SEARCH_TOOL_RESULTS).optional(),
});
export type SearchToolArguments = z.output<typeof SearchToolArgumentsSchema>;

/** The arguments, or a sentence telling the model what to send instead. */
export function parseSearchToolArguments(
  args: unknown,
): { ok: true; value: SearchToolArguments } | { ok: false; message: string } {
  const parsed = SearchToolArgumentsSchema.safeParse(args);
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = parsed.error.issues.map(
    (issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`,
  );
  return {
    ok: false,
    message: `${SEARCH_TOOL_NAME} takes {"query": "<what the tool should do>", "limit": 1-${MAX_SEARCH_TOOL_RESULTS}}: ${problems.join('; ')}.`,
  };
}

/** The tool search tool as a ToolIR, for writing it in any wire format with the adapters. */
export function searchToolIR(): ToolIR {
  return parseToolIR({
    schema_version: '1.0',
    // A fixed id: the tool is the same everywhere and never stored.
    id: '0b5c3f2e-6f1d-4c8a-9a57-3e2d7c1b9f40',
    version: '1.0.0',
    name: SEARCH_TOOL_NAME,
    description: SEARCH_TOOL_DESCRIPTION,
    parameters: SEARCH_TOOL_PARAMETERS,
    behavior: { readonly: true, destructive: false, idempotent: true },
    constraints: { timeout_ms: 10_000 },
  });
}
