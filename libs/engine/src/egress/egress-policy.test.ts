import { describe, expect, it } from 'vitest';
import {
  assertEgressAllowed,
  classifyAddress,
  describeEgressPolicy,
  EgressConfigError,
  EgressDeniedError,
  egressPolicyFrom,
  parseEgressAllow,
} from './egress-policy';

const deployment = egressPolicyFrom({ embedded: false });
const embedded = egressPolicyFrom({ embedded: true });

function refusal(policy: typeof deployment, host: string, address: string, port = 80) {
  try {
    assertEgressAllowed(policy, { host, address, port });
    return undefined;
  } catch (error) {
    if (error instanceof EgressDeniedError) return error;
    throw error;
  }
}

describe('classifyAddress', () => {
  it.each([
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['169.254.1.1', 'link_local'],
    ['fe80::1', 'link_local'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe('assertEgressAllowed', () => {
  it('refuses loopback, private and link-local addresses on a deployment', () => {
    for (const address of [
      '127.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      '10.0.0.5',
      '192.168.0.2',
      '169.254.169.254',
      '0.0.0.0',
    ]) {
      expect(refusal(deployment, address, address), address).toBeInstanceOf(EgressDeniedError);
    }
    expect(refusal(deployment, 'example.com', '93.184.215.14')).toBeUndefined();
  });

  it('judges the resolved address, not the name', () => {
    const denied = refusal(deployment, 'innocent.example', '127.0.0.1', 5432);
    expect(denied?.signal).toMatchObject({
      code: 'egress_denied',
      details: { host: 'innocent.example', port: 5432, address_class: 'loopback' },
    });
    expect(denied?.message).toBe(
      'the gateway does not connect to innocent.example (127.0.0.1):5432: a loopback address. ' +
        'An operator can allow it with TOOLGATE_EGRESS_ALLOW.',
    );
  });

  it('lets the embedded default reach local services, but never metadata or link-local', () => {
    expect(refusal(embedded, 'localhost', '127.0.0.1', 3000)).toBeUndefined();
    expect(refusal(embedded, '192.168.1.20', '192.168.1.20')).toBeUndefined();
    expect(refusal(embedded, '169.254.169.254', '169.254.169.254')?.addressClass).toBe('metadata');
    expect(refusal(embedded, 'fe80::1', 'fe80::1')?.addressClass).toBe('link_local');
  });

  it('allows what the operator lists, by host, suffix, range and port', () => {
    const policy = egressPolicyFrom({
      embedded: false,
      allow:
        'orders.internal, *.corp.example:443, 10.20.0.0/16, 127.0.0.1:8080, [::1]:9000, 169.254.169.254',
    });
    expect(refusal(policy, 'orders.internal', '10.9.9.9', 80)).toBeUndefined();
    expect(refusal(policy, 'api.corp.example', '10.9.9.9', 443)).toBeUndefined();
    expect(refusal(policy, 'api.corp.example', '10.9.9.9', 80)).toBeInstanceOf(EgressDeniedError);
    expect(refusal(policy, 'db', '10.20.3.4', 5432)).toBeUndefined();
    expect(refusal(policy, '127.0.0.1', '127.0.0.1', 8080)).toBeUndefined();
    expect(refusal(policy, '127.0.0.1', '127.0.0.1', 8081)).toBeInstanceOf(EgressDeniedError);
    expect(refusal(policy, '::1', '::1', 9000)).toBeUndefined();
    expect(refusal(policy, 'metadata', '169.254.169.254', 80)).toBeUndefined();
  });
});

describe('parseEgressAllow', () => {
  it('reads every entry form', () => {
    expect(
      parseEgressAllow(' a.example ,*.b.example:8443, 10.0.0.0/8:5432, fd00::/8 ,[::1]:80'),
    ).toEqual([
      { kind: 'host', host: 'a.example' },
      { kind: 'suffix', suffix: '.b.example', port: 8443 },
      expect.objectContaining({ kind: 'range', port: 5432 }),
      expect.objectContaining({ kind: 'range' }),
      expect.objectContaining({ kind: 'range', port: 80 }),
    ]);
    expect(parseEgressAllow(undefined)).toEqual([]);
  });

  it.each(['http://x', 'a b', '10.0.0.0/99', 'host:0', 'host:70000', '*.'])(
    'refuses %j with the entry named',
    (entry) => {
      expect(() => parseEgressAllow(entry)).toThrow(EgressConfigError);
      expect(() => parseEgressAllow(entry)).toThrow(entry);
    },
  );

  it('describes the policy in one line for the start log', () => {
    expect(
      describeEgressPolicy(egressPolicyFrom({ embedded: false, allow: '10.0.0.0/8:443' })),
    ).toBe(
      'egress: tools may reach public addresses only, never loopback, private, link-local or cloud metadata; allow-listed: 10.0.0.0/8:443 (TOOLGATE_EGRESS_ALLOW)',
    );
  });
});
