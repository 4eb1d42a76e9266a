import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ToolExecutionError } from '../executors/executor';

/**
 * Where the gateway may connect on a team's behalf. Tools are configured by teams, so every address
 * a tool names is untrusted: without this, a tool pointed at `http://169.254.169.254/` or a private
 * address turns the gateway into a proxy into the platform's own network (OWASP API7:2023, SSRF).
 */
export interface EgressPolicy {
  /**
   * `deployment` refuses loopback and private ranges unless allow-listed; `embedded` (a newcomer's
   * machine, no DATABASE_URL) allows them so a tool can point at a local service. Link-local and
   * cloud metadata addresses are refused in both unless allow-listed.
   */
  readonly mode: 'deployment' | 'embedded';
  readonly allow: readonly EgressAllowRule[];
}

/** One operator allow-list entry: a host name (or `*.suffix`) or an address range, and a port. */
export type EgressAllowRule =
  | { kind: 'host'; host: string; port?: number }
  | { kind: 'suffix'; suffix: string; port?: number }
  | { kind: 'range'; range: [ipaddr.IPv4 | ipaddr.IPv6, number]; port?: number };

/** Why an address is not public; `metadata` and `link_local` are refused even on the embedded default. */
export type AddressClass =
  'public' | 'metadata' | 'link_local' | 'loopback' | 'private' | 'unspecified' | 'reserved';

/** Refused because of where it would connect; never raised after a connection was attempted. */
export class EgressDeniedError extends ToolExecutionError {
  readonly host: string;
  readonly address: string;
  readonly addressClass: AddressClass;

  constructor(input: { host: string; address: string; port: number; addressClass: AddressClass }) {
    const where = input.host === input.address ? input.address : `${input.host} (${input.address})`;
    super({
      code: 'egress_denied',
      message:
        `the gateway does not connect to ${where}:${input.port}: ${describeClass(input.addressClass)}. ` +
        'An operator can allow it with TOOLGATE_EGRESS_ALLOW.',
      details: { host: input.host, port: input.port, address_class: input.addressClass },
    });
    this.name = 'EgressDeniedError';
    this.host = input.host;
    this.address = input.address;
    this.addressClass = input.addressClass;
  }
}

/** Raised for an unusable TOOLGATE_EGRESS_ALLOW entry, so a typo fails the start, not a call. */
export class EgressConfigError extends Error {
  constructor(entry: string, reason: string) {
    super(`TOOLGATE_EGRESS_ALLOW entry "${entry}" ${reason}`);
    this.name = 'EgressConfigError';
  }
}

function describeClass(addressClass: AddressClass): string {
  switch (addressClass) {
    case 'metadata':
      return 'a cloud metadata address';
    case 'link_local':
      return 'a link-local address';
    case 'loopback':
      return 'a loopback address';
    case 'private':
      return 'a private network address';
    case 'unspecified':
      return 'the unspecified address';
    case 'reserved':
      return 'a reserved address';
    case 'public':
      return 'a public address';
  }
}

// Instance metadata services: AWS/GCP/Azure/OpenStack/DigitalOcean/Oracle (169.254.169.254), ECS
// task metadata (169.254.170.2), AWS over IPv6, Alibaba Cloud, and Azure's WireServer (a public
// address that still answers only from inside Azure).
const METADATA_ADDRESSES = new Set([
  '169.254.169.254',
  '169.254.170.2',
  'fd00:ec2::254',
  '100.100.100.200',
  '168.63.129.16',
]);

/**
 * The IPv4 address an IPv6 address stands for, where it embeds one: IPv4-mapped (`::ffff:a.b.c.d`),
 * the deprecated IPv4-compatible form (`::a.b.c.d`), NAT64 (64:ff9b::/96) and 6to4 (2002::/16).
 * Each reaches the IPv4 host on a dual-stack or translating network, so it is judged as that host.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  const parts = address.parts;
  const fromWords = (high: number, low: number): ipaddr.IPv4 =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const range = address.range();
  if (range === 'rfc6052') return fromWords(parts[6]!, parts[7]!);
  if (range === '6to4') return fromWords(parts[1]!, parts[2]!);
  if (parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || parts[7]! > 1))
    return fromWords(parts[6]!, parts[7]!);
  return undefined;
}

/** Parses an address the way the connection would use it (IPv4-mapped and friends as IPv4). */
export function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const parsed = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  if (parsed.kind() === 'ipv6') return embeddedIPv4(parsed as ipaddr.IPv6) ?? parsed;
  return parsed;
}

/** What kind of address this is, for the policy's decision. */
export function classifyAddress(address: string): AddressClass {
  const parsed = parseAddress(address);
  if (
    METADATA_ADDRESSES.has(parsed.toNormalizedString()) ||
    METADATA_ADDRESSES.has(parsed.toString())
  )
    return 'metadata';
  // broadcast, multicast, benchmarking, documentation, teredo, orchid, ...: nothing a tool needs.
  return RANGE_CLASSES[parsed.range()] ?? 'reserved';
}

/** ipaddr.js' range names, as the policy judges them. */
const RANGE_CLASSES: Readonly<Partial<Record<string, AddressClass>>> = {
  unicast: 'public',
  linkLocal: 'link_local',
  loopback: 'loopback',
  // 0.0.0.0 and :: connect to the local host.
  unspecified: 'unspecified',
  private: 'private',
  uniqueLocal: 'private',
  carrierGradeNat: 'private',
};

function parsePort(entry: string, text: string): number {
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port < 1 || port > 65_535)
    throw new EgressConfigError(entry, `has an invalid port "${text}"`);
  return port;
}

function parseRange(entry: string, text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  try {
    if (text.includes('/')) return ipaddr.parseCIDR(text);
    const address = ipaddr.parse(text);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    throw new EgressConfigError(entry, 'is not a host name, an IP address or a CIDR range');
  }
}

const HOST_NAME =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * Parses `TOOLGATE_EGRESS_ALLOW`: comma-separated entries, each a host name (`orders.internal`), a
 * suffix (`*.corp.example`), an IP address or CIDR range (`10.0.0.0/8`, `fd00::/8`), optionally
 * with `:port` (IPv6 in brackets then: `[::1]:8080`). An entry with a port allows only that port.
 */
export function parseEgressAllow(value: string | undefined): EgressAllowRule[] {
  const rules: EgressAllowRule[] = [];
  for (const raw of (value ?? '').split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    let target = entry;
    let port: number | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) {
      target = bracketed[1]!;
      if (bracketed[2] !== undefined) port = parsePort(entry, bracketed[2]);
    } else if ((entry.match(/:/g) ?? []).length === 1) {
      const at = entry.lastIndexOf(':');
      target = entry.slice(0, at);
      port = parsePort(entry, entry.slice(at + 1));
    }
    const withPort = port === undefined ? {} : { port };
    const lower = target.toLowerCase();
    if (isIP(target.replace(/\/\d+$/, '')) !== 0) {
      rules.push({ kind: 'range', range: parseRange(entry, target), ...withPort });
    } else if (lower.startsWith('*.') && HOST_NAME.test(lower.slice(2))) {
      rules.push({ kind: 'suffix', suffix: lower.slice(1), ...withPort });
    } else if (HOST_NAME.test(lower)) {
      rules.push({ kind: 'host', host: lower.replace(/\.$/, ''), ...withPort });
    } else {
      throw new EgressConfigError(entry, 'is not a host name, an IP address or a CIDR range');
    }
  }
  return rules;
}

/** The policy for a deployment: strict unless it is the embedded default. */
export function egressPolicyFrom(input: {
  embedded: boolean;
  allow?: string | undefined;
}): EgressPolicy {
  return { mode: input.embedded ? 'embedded' : 'deployment', allow: parseEgressAllow(input.allow) };
}

function matchesRule(
  rule: EgressAllowRule,
  { host, address, port }: { host: string; address: ipaddr.IPv4 | ipaddr.IPv6; port: number },
): boolean {
  if (rule.port !== undefined && rule.port !== port) return false;
  switch (rule.kind) {
    case 'host':
      return host === rule.host;
    case 'suffix':
      return host.endsWith(rule.suffix);
    case 'range': {
      const [network] = rule.range;
      if (network.kind() !== address.kind()) return false;
      return address.match(rule.range);
    }
  }
}

/**
 * Decides one connection: `host` as the tool named it, `address` as resolved (the one connected to),
 * `port`. Throws EgressDeniedError when refused.
 */
export function assertEgressAllowed(
  policy: EgressPolicy,
  target: { host: string; address: string; port: number },
): void {
  const host = target.host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  const address = parseAddress(target.address);
  if (policy.allow.some((rule) => matchesRule(rule, { host, address, port: target.port }))) return;
  const addressClass = classifyAddress(target.address);
  if (addressClass === 'public') return;
  const embeddedMayReach = addressClass !== 'metadata' && addressClass !== 'link_local';
  if (policy.mode === 'embedded' && embeddedMayReach) return;
  throw new EgressDeniedError({
    host,
    address: address.toString(),
    port: target.port,
    addressClass,
  });
}

/** One line for the start log: what the policy lets tools reach. */
export function describeEgressPolicy(policy: EgressPolicy): string {
  const allowed =
    policy.allow.length === 0
      ? 'nothing allow-listed'
      : `allow-listed: ${policy.allow
          .map((rule) => {
            const port = rule.port === undefined ? '' : `:${rule.port}`;
            if (rule.kind === 'host') return `${rule.host}${port}`;
            if (rule.kind === 'suffix') return `*${rule.suffix}${port}`;
            return `${rule.range[0].toString()}/${rule.range[1]}${port}`;
          })
          .join(', ')}`;
  return policy.mode === 'embedded'
    ? `egress: tools may reach public, loopback and private addresses (embedded default), never link-local or cloud metadata; ${allowed}`
    : `egress: tools may reach public addresses only, never loopback, private, link-local or cloud metadata; ${allowed} (TOOLGATE_EGRESS_ALLOW)`;
}
