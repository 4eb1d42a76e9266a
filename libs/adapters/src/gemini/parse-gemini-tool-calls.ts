import { isRecord } from '@toolgate/toolir';
import { callLookup, lookUpTool, makeCall } from '../shared/call-context';
import { argumentsFromWire } from '../shared/names/property-names';
import { synthesizeCallId } from '../shared/synthesize-call-id';
import type { CallsFromWireOptions, ParsedToolCalls } from '../shared/tool-adapter';
import { joinPointer, parseWire, unknownShape } from '../shared/wire-boundary';
import {
  GeminiContentSchema,
  GeminiFunctionCallSchema,
  GeminiPartSchema,
  GeminiResponseSchema,
} from './gemini-api';

/** The parts of a GenerateContentResponse (first candidate), a Content, or a part list. */
export function locateGeminiParts(payload: unknown): { parts: unknown[]; path: string } {
  const root = { provider: 'gemini' as const, path: '/' };
  if (Array.isArray(payload)) return { parts: payload, path: '' };
  if (isRecord(payload) && 'candidates' in payload) {
    const response = parseWire(GeminiResponseSchema, payload, root);
    return {
      parts: response.candidates[0]?.content?.parts ?? [],
      path: '/candidates/0/content/parts',
    };
  }
  if (isRecord(payload) && 'parts' in payload)
    return { parts: parseWire(GeminiContentSchema, payload, root).parts, path: '/parts' };
  return unknownShape(root, 'a GenerateContentResponse, a Content or a list of parts');
}

/**
 * Reads every `functionCall` part. A call without an id (older models) gets
 * `synthesizeCallId({name, ordinal, arguments})` — the same id the streaming parser gives — so
 * its result finds it; a missing `args` is `{}`.
 */
export function parseGeminiToolCalls(
  payload: unknown,
  options: CallsFromWireOptions = {},
): ParsedToolCalls {
  const { parts, path } = locateGeminiParts(payload);
  const lookup = callLookup('gemini', options);
  const calls = parts.flatMap((part, index) => {
    const location = { provider: 'gemini' as const, path: joinPointer(path, index) };
    const checked = parseWire(GeminiPartSchema, part, location);
    if (checked['functionCall'] === undefined) return [];
    return [
      parseWire(GeminiFunctionCallSchema, checked['functionCall'], {
        provider: 'gemini',
        path: joinPointer(location.path, 'functionCall'),
      }),
    ];
  });
  const synthesizedIds: string[] = [];
  return {
    calls: calls.map((call, ordinal) => {
      const args = call.args ?? {};
      let id = call.id ?? undefined;
      if (id === undefined) {
        id = synthesizeCallId({ name: call.name, ordinal, arguments: args });
        synthesizedIds.push(id);
      }
      const { name, tool } = lookUpTool(call.name, lookup);
      return makeCall({ id, name, arguments: argumentsFromWire(args, tool, 'gemini') });
    }),
    errors: [],
    ...(synthesizedIds.length === 0 ? {} : { synthesizedIds }),
  };
}
