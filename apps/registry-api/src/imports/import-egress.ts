import { EgressDeniedError, resolveEgressAddress } from '@toolgate/engine';
import type { GatewayEgress } from '@toolgate/gateway';
import { ToolException } from '../problem/tool.exception';

/** The 422 an import gets when the address it names is refused; nothing is written. */
export function egressDenied(pointer: string, message: string, cause?: unknown): ToolException {
  return new ToolException('egress_denied', `${message} Nothing was imported.`, {
    issues: [{ path: pointer, message: 'is refused by the egress policy' }],
    cause,
  });
}

/**
 * Refuses an import whose upstream URL the gateway would never connect to, so a team learns it at
 * import rather than from every call. A name that does not resolve here is left to the executor,
 * which checks again on every connection (the registry and the workers may see different DNS).
 */
export async function assertImportEgress(
  egress: GatewayEgress,
  url: string,
  pointer: string,
): Promise<void> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return; // not a URL the executor could call either; the import reports it where it checks URLs
  }
  const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
  try {
    await resolveEgressAddress(egress.policy, { host: target.hostname, port });
  } catch (error) {
    if (error instanceof EgressDeniedError) throw egressDenied(pointer, error.message, error);
  }
}
