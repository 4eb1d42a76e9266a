import { describe, expect, it } from 'vitest';
import { scopesForMessages } from './mcp-scopes';

describe('scopesForMessages', () => {
  it('asks tools:read for tools/list and calls:execute for tools/call', () => {
    expect(scopesForMessages({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toEqual([
      'tools:read',
    ]);
    expect(
      scopesForMessages([
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'y' } },
      ]),
    ).toEqual(['calls:execute', 'tools:read']);
  });

  it('asks nothing for the handshake, pings, notifications and malformed messages', () => {
    expect(scopesForMessages({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} })).toEqual(
      [],
    );
    expect(scopesForMessages({ jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual([]);
    expect(scopesForMessages({ jsonrpc: '2.0', id: 1, method: 'ping' })).toEqual([]);
    expect(scopesForMessages({ jsonrpc: '2.0', id: 1, method: 'constructor' })).toEqual([]);
    expect(scopesForMessages('not json-rpc')).toEqual([]);
    expect(scopesForMessages(undefined)).toEqual([]);
  });
});
