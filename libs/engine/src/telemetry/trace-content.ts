import type { Attributes } from '@opentelemetry/api';
import type { ToolIR } from '@toolgate/toolir';
import { z } from 'zod';
import { GEN_AI_ATTRIBUTES } from './tracing';

/**
 * Which calls put their content (arguments, result, the tool's definition) on their spans:
 * `off` none, `per_tool` the tool versions that opt in (`protocol_meta.toolgate.trace.content: true`),
 * `all` every tool version that does not opt out (`content: false`).
 */
export const TraceContentModeSchema = z.enum(['off', 'per_tool', 'all']);
/** Which calls put their content on their spans. */
export type TraceContentMode = z.infer<typeof TraceContentModeSchema>;

/** A deployment's setting for span content. */
export interface TraceContentOptions {
  mode: TraceContentMode;
  /** The largest attribute value written (UTF-8 bytes of its JSON); longer ones are cut. */
  maxBytes: number;
}

/** The default cap of one content attribute. */
export const DEFAULT_TRACE_CONTENT_MAX_BYTES = 4096;

/** What replaces a value the tool marks sensitive (`writeOnly: true` in its schema). */
export const REDACTED = '[redacted]';

const ToolTraceSettingsSchema = z.looseObject({
  trace: z.looseObject({ content: z.boolean().optional() }).optional(),
});

/** The tool version's own choice (`protocol_meta.toolgate.trace.content`); undefined when it makes none. */
function toolContentChoice(tool: Pick<ToolIR, 'protocol_meta'>): boolean | undefined {
  const parsed = ToolTraceSettingsSchema.safeParse(tool.protocol_meta?.['toolgate']);
  return parsed.success ? parsed.data.trace?.content : undefined;
}

/** Whether a call of `tool` puts its content on its spans under the deployment's setting. */
export function tracesContent(
  tool: Pick<ToolIR, 'protocol_meta'>,
  options: TraceContentOptions | undefined,
): boolean {
  const choice = toolContentChoice(tool);
  switch (options?.mode ?? 'off') {
    case 'off':
      return false;
    case 'per_tool':
      return choice === true;
    case 'all':
      return choice !== false;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * `value` with every part its JSON Schema marks `writeOnly` (a password, a card number) replaced by
 * {@link REDACTED}; follows `properties`, `additionalProperties`, `items` and `prefixItems`.
 */
export function redactSensitive(value: unknown, schema: unknown): unknown {
  if (!isRecord(schema)) return value;
  if (schema['writeOnly'] === true) return REDACTED;
  if (Array.isArray(value)) {
    const prefix = Array.isArray(schema['prefixItems']) ? schema['prefixItems'] : [];
    return value.map((item, index) => redactSensitive(item, prefix[index] ?? schema['items']));
  }
  if (!isRecord(value)) return value;
  const properties = isRecord(schema['properties']) ? schema['properties'] : {};
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      redactSensitive(item, key in properties ? properties[key] : schema['additionalProperties']),
    ]),
  );
}

/** The JSON of `value`, cut to `maxBytes` UTF-8 bytes (a cut value ends with `…[truncated]`). */
export function cappedJson(value: unknown, maxBytes: number): string {
  const json = JSON.stringify(value) ?? 'null';
  const bytes = Buffer.from(json, 'utf8');
  if (bytes.length <= maxBytes) return json;
  const marker = '…[truncated]';
  const keep = Math.max(0, maxBytes - Buffer.byteLength(marker, 'utf8'));
  // Decoding a cut multi-byte character yields U+FFFD; drop it rather than show a broken character.
  return `${bytes
    .subarray(0, keep)
    .toString('utf8')
    .replace(/\uFFFD$/, '')}${marker}`;
}

/** `gen_ai.tool.call.arguments` of a call, sensitive fields redacted and capped. */
export function argumentsAttribute(
  tool: Pick<ToolIR, 'parameters'>,
  args: unknown,
  maxBytes: number,
): Attributes {
  return {
    [GEN_AI_ATTRIBUTES.toolCallArguments]: cappedJson(
      redactSensitive(args, tool.parameters),
      maxBytes,
    ),
  };
}

/** `gen_ai.tool.call.result` of a call, fields its output schema marks sensitive redacted, capped. */
export function resultAttribute(
  tool: Pick<ToolIR, 'outputSchema'> | undefined,
  result: unknown,
  maxBytes: number,
): Attributes {
  const data =
    isRecord(result) && tool?.outputSchema !== undefined && 'data' in result
      ? { ...result, data: redactSensitive(result['data'], tool.outputSchema) }
      : result;
  return { [GEN_AI_ATTRIBUTES.toolCallResult]: cappedJson(data, maxBytes) };
}

/** How many trace/tool pairs a process remembers to write each definition once per trace. */
const REMEMBERED_DEFINITIONS = 4096;

/**
 * Remembers which tool versions' definitions a trace already holds, so a trace of many calls of
 * one tool carries its definition once. Bounded: the oldest pairs are forgotten first.
 */
export class DefinitionsWritten {
  private readonly seen = new Set<string>();

  /** True the first time this tool version is seen in this trace (and records it). */
  firstIn(traceId: string, tool: Pick<ToolIR, 'id' | 'version'>): boolean {
    const key = `${traceId}/${tool.id}@${tool.version}`;
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    if (this.seen.size > REMEMBERED_DEFINITIONS) {
      const oldest = this.seen.values().next();
      if (oldest.done !== true) this.seen.delete(oldest.value);
    }
    return true;
  }
}

/**
 * `gen_ai.tool.definitions` of one tool as the GenAI conventions shape it (`type`, `name`,
 * `description`, `parameters`), the way the model was shown it; capped.
 */
export function definitionAttribute(
  tool: Pick<ToolIR, 'name' | 'description' | 'parameters'>,
  maxBytes: number,
): Attributes {
  return {
    [GEN_AI_ATTRIBUTES.toolDefinitions]: cappedJson(
      [
        {
          type: 'function',
          name: tool.name,
          description: tool.description,
          parameters: tool.parameters,
        },
      ],
      maxBytes,
    ),
  };
}
