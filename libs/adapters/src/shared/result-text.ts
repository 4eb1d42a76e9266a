import { isRecord } from '@toolgate/toolir';
import type { ContentBlock, ToolResultError, ToolResultIR } from '@toolgate/toolir';
import { ToolResultErrorSchema } from '@toolgate/toolir';
import { safeParseJson } from './safe-parse-json';

/**
 * The text a model reads for a failed call: a JSON object `{"error": {code, message, retryable, details?}}`
 * — a model can act on the code and message, and the text reads back into the same error.
 */
export function errorToText(error: ToolResultError): string {
  return JSON.stringify({ error });
}

/** The text of a successful result's data: JSON, so it reads back into the same value. */
export function dataToText(data: unknown): string {
  return JSON.stringify(data === undefined ? null : data);
}

/** Reads an error written by `errorToText`; `undefined` for any other text. */
export function parseErrorText(text: string): ToolResultError | undefined {
  const parsed = safeParseJson(text);
  if (!parsed.ok || !isRecord(parsed.value) || Object.keys(parsed.value).length !== 1)
    return undefined;
  const error = ToolResultErrorSchema.safeParse(parsed.value['error']);
  return error.success ? error.data : undefined;
}

/** Reads the text of a result the wire marks as failed; text not written by `errorToText` becomes a `tool_error`. */
export function textToError(text: string): ToolResultError {
  return parseErrorText(text) ?? { code: 'tool_error', message: text, retryable: false };
}

/** Reads a successful result's text: JSON becomes `data`, other text a text block. */
export function textToSuccess(text: string): Pick<ToolResultIR, 'data' | 'content'> {
  const parsed = safeParseJson(text);
  return parsed.ok ? { data: parsed.value } : { content: [{ type: 'text', text }] };
}

/** A one-line text stand-in for a block the wire cannot carry (audio, resources on text-only wires). */
export function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes, not shown]`;
    case 'resource_link':
      return `[resource ${block.name}: ${block.uri}]`;
    case 'resource':
      return 'text' in block.resource
        ? block.resource.text
        : `[resource ${block.resource.uri}, binary, not shown]`;
  }
}
