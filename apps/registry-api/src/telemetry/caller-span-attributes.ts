import { trace } from '@opentelemetry/api';
import { TOOLGATE_ATTRIBUTES } from '@toolgate/engine';
import type { Principal } from '../auth/principal';

/**
 * Says on the request's SERVER span which key and team made it, by id and by name: the call spans
 * below carry the ids (the worker knows no names), and a trace is read by people.
 */
export function describeCallerOnRequestSpan(principal: Principal): Principal {
  const span = trace.getActiveSpan();
  if (span === undefined || !span.isRecording()) return principal;
  const { teamId, teamName, keyId, keyName } = principal;
  span.setAttributes({
    ...(teamId === null ? {} : { [TOOLGATE_ATTRIBUTES.teamId]: teamId }),
    ...(teamName === undefined ? {} : { [TOOLGATE_ATTRIBUTES.teamName]: teamName }),
    ...(keyId === null ? {} : { [TOOLGATE_ATTRIBUTES.keyId]: keyId }),
    ...(keyName === undefined ? {} : { [TOOLGATE_ATTRIBUTES.keyName]: keyName }),
  });
  return principal;
}
