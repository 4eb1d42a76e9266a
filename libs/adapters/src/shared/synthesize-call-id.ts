import { canonicalJson } from '@toolgate/toolir';
import { stableHash } from './stable-hash';

/** What identifies a call that arrived without an id (Gemini's older models send none). */
export interface CallIdentity {
  /** The tool name as the provider sent it. */
  name: string;
  /** The call's position among the function calls of its model turn, counting from 0. */
  ordinal: number;
  arguments: unknown;
}

/**
 * A stable id for a call the provider sent without one: the same turn parsed twice (whole or
 * streamed) gives the same ids, so results find their call and replays never mint new ids.
 */
export function synthesizeCallId(call: CallIdentity): string {
  return `call_${stableHash(`${call.name}\u0000${call.ordinal}\u0000${canonicalJson(call.arguments)}`)}`;
}
