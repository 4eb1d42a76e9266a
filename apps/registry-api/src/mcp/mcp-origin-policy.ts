/** Loopback names, always answered on any port: a local client is not a rebinding attack. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
// Listening on every interface names no host a client would send.
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * Which `Host` and `Origin` values /mcp answers (DNS-rebinding protection, as the MCP transport
 * spec asks: a page on another site that rebinds its name to this server still sends its own name).
 */
export interface McpOriginPolicy {
  /** Host names answered on any port. */
  hostNames: ReadonlySet<string>;
  /** `host:port` pairs answered exactly. */
  hostPorts: ReadonlySet<string>;
  /** Origins answered beside those whose host is answered. */
  origins: ReadonlySet<string>;
}

/** The policy: loopback, the listen host, the public URL's host, plus the configured entries. */
export function mcpOriginPolicyOf(settings: {
  listenHost: string;
  publicUrl: string | undefined;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
}): McpOriginPolicy {
  const hostNames = new Set(LOOPBACK_HOSTS);
  const listen = settings.listenHost.toLowerCase();
  if (!WILDCARD_HOSTS.has(listen)) hostNames.add(listen.includes(':') ? `[${listen}]` : listen);
  if (settings.publicUrl !== undefined) hostNames.add(new URL(settings.publicUrl).hostname);
  const hostPorts = new Set<string>();
  for (const entry of settings.allowedHosts) {
    if (/:\d+$/.test(entry)) hostPorts.add(entry);
    else hostNames.add(entry);
  }
  return { hostNames, hostPorts, origins: new Set(settings.allowedOrigins) };
}

function hostAllowed(policy: McpOriginPolicy, hostname: string, port: string): boolean {
  const name = hostname.toLowerCase();
  return policy.hostNames.has(name) || (port !== '' && policy.hostPorts.has(`${name}:${port}`));
}

/** A `Host` header as URL reads it (lower-cased host, port unless default), or undefined. */
function parseHost(header: string): { hostname: string; port: string } | undefined {
  try {
    const url = new URL(`http://${header}`);
    return url.host === header.toLowerCase().replace(/:80$/, '')
      ? { hostname: url.hostname, port: url.port }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Which header a request to /mcp is refused for, if any. */
export function refusedMcpHeader(
  policy: McpOriginPolicy,
  headers: { host: string | undefined; origin: string | undefined },
): 'host' | 'origin' | undefined {
  const host = headers.host === undefined ? undefined : parseHost(headers.host);
  if (host === undefined || !hostAllowed(policy, host.hostname, host.port)) return 'host';
  if (headers.origin === undefined) return undefined;
  if (policy.origins.has(headers.origin.toLowerCase())) return undefined;
  let origin: URL;
  try {
    origin = new URL(headers.origin);
  } catch {
    return 'origin';
  }
  // `null` (a sandboxed page, a file) parses to no host and is refused like any unknown origin.
  const web = origin.protocol === 'http:' || origin.protocol === 'https:';
  return web && hostAllowed(policy, origin.hostname, origin.port) ? undefined : 'origin';
}
