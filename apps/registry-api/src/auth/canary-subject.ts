import type { Principal } from './principal';

/**
 * Who a request is for, in canary bucketing: the `X-Toolgate-Subject` header, else the API key.
 * Exports, MCP listings and calls all ask this one function, so the version a subject is shown
 * is the version its calls run.
 */
export function canarySubjectOf(principal: Principal, header: string | undefined): string {
  return header ?? principal.keyId ?? principal.actor;
}
