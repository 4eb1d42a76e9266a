import type { ActorKind } from '@toolgate/contract';

/** An actor string taken apart: what kind of caller it names and that caller's own id. */
export interface ParsedActor {
  kind: ActorKind;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reads the actor strings the API writes (`key:<id>`, `user:<email>`, `admin`,
 * `oauth:<issuer>#<subject>`). A bare uuid is a key id: approvals of calls recorded without an
 * actor carry the call's key id instead.
 */
export function parseActor(actor: string): ParsedActor {
  if (actor === 'admin') return { kind: 'admin', id: 'admin' };
  const colon = actor.indexOf(':');
  const prefix = colon === -1 ? '' : actor.slice(0, colon);
  const rest = actor.slice(colon + 1);
  if (prefix === 'key' && UUID.test(rest)) return { kind: 'key', id: rest.toLowerCase() };
  if (prefix === 'user' && rest !== '') return { kind: 'user', id: rest };
  if (prefix === 'oauth' && rest !== '') return { kind: 'oauth', id: rest };
  if (UUID.test(actor)) return { kind: 'key', id: actor.toLowerCase() };
  return { kind: 'other', id: actor };
}
