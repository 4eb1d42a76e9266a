import type { ToolIR } from '../ir/tool-ir';
import { parseJsonPointer } from '../json-schema/json-pointer';
import { cloneJson } from '../json/clone-json';
import { setOwnProperty } from '../json/set-own-property';
import { readCallPointer, type FinishedCall } from './compensation-call';

/**
 * The resource a call touches, as `type:id`, when its tool declares concurrency and the call names
 * the resource (the id must be a string or a number: anything else names no one resource).
 */
export function resourceKeyOf(
  tool: ToolIR,
  call: { arguments: Record<string, unknown>; result?: unknown },
): string | undefined {
  const declared = tool.concurrency;
  if (declared === undefined) return undefined;
  const id = readCallPointer(
    { arguments: call.arguments, result: call.result },
    declared.resource.id,
  );
  if (typeof id === 'string' && id !== '') return `${declared.resource.type}:${id}`;
  if (typeof id === 'number' && Number.isFinite(id)) return `${declared.resource.type}:${id}`;
  return undefined;
}

/**
 * The resource version a successful call reports, from its result (a pointer) or from a response
 * header the executor handed over (`headers`, lower-case names). Versions are compared as text.
 */
export function resourceVersionOf(
  tool: ToolIR,
  call: FinishedCall,
  headers: Readonly<Record<string, string>> = {},
): string | undefined {
  const declared = tool.concurrency;
  if (declared === undefined) return undefined;
  const source = declared.version;
  const value =
    typeof source === 'string'
      ? readCallPointer(call, source)
      : headers[source.header.toLowerCase()];
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** What a write carries so that it only applies to the version it expects. */
export interface ExpectedVersionRequest {
  /** The arguments, with the version written in when the tool takes it as an argument. */
  arguments: Record<string, unknown>;
  /** Request headers for the `http` executor, e.g. `{'If-Match': '"v7"'}`. */
  headers: Record<string, string>;
}

/**
 * Writes the expected version where the tool declares it. A header value is sent as an entity tag
 * (quoted, as `If-Match` requires, unless it already is one); an argument gets the version as is.
 * The caller's arguments are not changed.
 */
export function withExpectedVersion(
  tool: ToolIR,
  args: Record<string, unknown>,
  version: string,
): ExpectedVersionRequest {
  const expected = tool.concurrency?.expected;
  if (expected === undefined) return { arguments: args, headers: {} };
  if ('header' in expected)
    return { arguments: args, headers: { [expected.header]: asEntityTag(version) } };
  const tokens = parseJsonPointer(expected.argument) ?? [];
  const copy = cloneJson(args);
  let target: Record<string, unknown> = copy;
  for (const [index, token] of tokens.entries()) {
    if (index === tokens.length - 1) {
      setOwnProperty(target, token, version);
      break;
    }
    const next = target[token];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) {
      const created: Record<string, unknown> = {};
      setOwnProperty(target, token, created);
      target = created;
    } else {
      target = next as Record<string, unknown>;
    }
  }
  return { arguments: copy, headers: {} };
}

/** An entity tag for `If-Match`: `"v7"` stays, `W/"v7"` stays, `v7` becomes `"v7"`. */
export function asEntityTag(version: string): string {
  return /^(W\/)?".*"$/.test(version) ? version : `"${version.replace(/"/g, '')}"`;
}
