import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch, type Dispatcher } from 'undici';
import { assertEgressAllowed, type EgressPolicy } from './egress-policy';

/** Resolves a host name to every address it has (as `dns.lookup` with `all: true`). */
export type EgressLookup = (host: string) => Promise<ReadonlyArray<{ address: string }>>;

const systemLookup: EgressLookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * Resolves `host` and returns the address to connect to, once the policy allows it. The caller
 * connects to exactly this address, so a name that resolves differently a moment later (DNS
 * rebinding) cannot slip past the check. Every address of the name must be allowed: a name with
 * one public and one private address is refused rather than connected by luck of the order.
 */
export async function resolveEgressAddress(
  policy: EgressPolicy,
  target: { host: string; port: number },
  lookup: EgressLookup = systemLookup,
): Promise<string> {
  const host = target.host.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) !== 0 ? [{ address: host }] : await lookup(host);
  if (addresses.length === 0)
    throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' });
  for (const { address } of addresses)
    assertEgressAllowed(policy, { host, address, port: target.port });
  return addresses[0]!.address;
}

/**
 * An undici dispatcher whose every new connection is checked against the policy after DNS
 * resolution and made to the checked address. Redirects followed by `fetch` open their
 * connections through it too, so a redirect to a refused address is refused before connecting.
 */
export function createEgressDispatcher(
  policy: EgressPolicy,
  options: { lookup?: EgressLookup; connect?: buildConnector.BuildOptions } = {},
): Dispatcher {
  const connectTo = buildConnector({ ...options.connect });
  const connect: buildConnector.connector = (connectOptions, callback) => {
    const port = Number(connectOptions.port) || (connectOptions.protocol === 'https:' ? 443 : 80);
    resolveEgressAddress(policy, { host: connectOptions.hostname, port }, options.lookup).then(
      // `host` stays the name, so TLS still verifies the certificate for it (SNI and checks).
      (address) => connectTo({ ...connectOptions, hostname: address }, callback),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  };
  return new Agent({ connect });
}

/** A `fetch` (for the MCP client transport) whose connections go through the egress dispatcher. */
export function createEgressFetch(dispatcher: Dispatcher): typeof fetch {
  // undici's own fetch: the one built into Node 20 is an older undici that may not accept this
  // dispatcher. Its Response is the same WHATWG shape the MCP transport reads; only the type
  // declarations of the two copies differ, hence the one cast.
  const egressFetch = (
    input: Parameters<typeof undiciFetch>[0],
    init?: Parameters<typeof undiciFetch>[1],
  ) => undiciFetch(input, { ...init, dispatcher });
  return egressFetch as unknown as typeof fetch;
}
