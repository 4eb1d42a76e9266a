import { parseToolIR } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { secretsOf } from './tool-import-planner';

const withExecutor = (executor: Record<string, unknown>) =>
  parseToolIR({
    schema_version: '1.0',
    id: '6f1d0b5c-3f2e-4c8a-9a57-3e2d7c1b9f40',
    name: 'get_pet',
    version: '1.0.0',
    description: 'A pet.',
    parameters: { type: 'object', properties: {} },
    behavior: { readonly: true, destructive: false, idempotent: true },
    constraints: { timeout_ms: 5000 },
    protocol_meta: { toolgate: { executor } },
  });

describe('secretsOf', () => {
  it('names each secret a version sends once, and whether the team has it', () => {
    const ir = withExecutor({
      kind: 'http',
      method: 'GET',
      url: 'https://api.example.com/pets',
      headers: {
        Authorization: { secret: 'petstore_auth', prefix: 'Bearer ' },
        'X-Backup-Auth': { secret: 'petstore_auth' },
      },
      query_params: { api_key: { secret: 'api_key' } },
    });
    expect(secretsOf(ir, new Set(['api_key']))).toEqual([
      { name: 'petstore_auth', set: false },
      { name: 'api_key', set: true },
    ]);
  });

  it('is empty for a version without secrets or without an executor', () => {
    const plain = withExecutor({
      kind: 'http',
      method: 'GET',
      url: 'https://api.example.com/pets',
    });
    expect(secretsOf(plain, new Set())).toEqual([]);
    const { protocol_meta: _omitted, ...bare } = plain;
    expect(secretsOf(parseToolIR(bare), new Set())).toEqual([]);
  });
});
