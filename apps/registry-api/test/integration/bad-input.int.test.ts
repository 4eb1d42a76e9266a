import { readFileSync } from 'node:fs';
import path from 'node:path';
import { OPENAPI_IMPORT_BODY_LIMIT } from '@toolgate/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTeam,
  createTool,
  publish,
  setStable,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { startTestApp, type InjectOptions, type TestApp } from '../support/test-app';

let api: TestApp;
let team: TestTeam;
let released: TestTool;
let unreleased: TestTool;

const BODY_LIMIT = 64 * 1024;

beforeAll(async () => {
  api = await startTestApp({ BODY_LIMIT: String(BODY_LIMIT) });
  team = await createTeam(api);
  released = await createTool(api, team);
  unreleased = await createTool(api, team);
  await publish(api, team, released, '1.0.0');
  await publish(api, team, released, '1.1.0');
  await setStable(api, team, released, '1.0.0');
  await publish(api, team, unreleased, '1.0.0', unreleased.ir, { release: 'none' });
});
afterAll(async () => {
  await api?.close();
});

/** Everything a request could have changed: row counts, row contents and the audit head. */
async function snapshot(): Promise<unknown> {
  const rows = await api.sql(`
      SELECT
        (SELECT count(*) FROM teams)::int AS teams,
        (SELECT count(*) FROM api_keys)::int AS api_keys,
        (SELECT count(*) FROM tools)::int AS tools,
        (SELECT count(*) FROM tool_versions)::int AS tool_versions,
        (SELECT count(*) FROM releases)::int AS releases,
        (SELECT count(*) FROM audit_events)::int AS audit_events,
        (SELECT count(*) FROM calls)::int AS calls,
        (SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t.id), '')) FROM tools t) AS tools_digest,
        (SELECT md5(coalesce(string_agg(v::text, '|' ORDER BY v.id), '')) FROM tool_versions v) AS versions_digest,
        (SELECT md5(coalesce(string_agg(r::text, '|' ORDER BY r.tool_id), '')) FROM releases r) AS releases_digest,
        (SELECT md5(coalesce(string_agg(k.id::text || coalesce(k.revoked_at::text, ''), '|' ORDER BY k.id), '')) FROM api_keys k) AS keys_digest,
        (SELECT hash FROM audit_chain_head) AS audit_head`);
  return rows[0];
}

const json = { 'content-type': 'application/json' };

interface BadInputCase {
  name: string;
  request: () => InjectOptions;
  status: number;
  code: string;
  /** A path that must appear among the problem's errors. */
  path?: string;
}

const tool = () => released;
const ir = (fields: Record<string, unknown> = {}) => ({
  ...released.ir.version('2.0.0').build(),
  ...fields,
});
const versions = () => `/v1/tools/${tool().id}/versions`;
function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < depth; level += 1)
    schema = { type: 'object', properties: { a: schema } };
  return schema;
}
const future = () => new Date(Date.now() + 86_400_000).toISOString();

/** A turn of one OpenAI call to the released tool whose `arguments` string is `argumentsText`. */
const openAICall = (argumentsText: string): InjectOptions => ({
  method: 'POST',
  url: '/v1/calls',
  key: team.key,
  body: {
    provider: 'openai-chat',
    payload: {
      role: 'assistant',
      tool_calls: [
        {
          id: 'call_text',
          type: 'function',
          function: { name: released.name, arguments: argumentsText },
        },
      ],
    },
  },
});

const cases: BadInputCase[] = [
  // text the database refuses, anywhere in a body or a decoded argument string
  {
    name: 'lone surrogate in a body string',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      payload: '{"name":"x\\ud800"}',
      headers: json,
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/name',
  },
  {
    name: 'NUL in a body string',
    request: () => ({
      method: 'POST',
      url: '/v1/teams',
      payload: '{"slug":"a","name":"b\\u0000"}',
      headers: json,
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/name',
  },
  {
    name: 'lone surrogate in a key',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      payload: '{"name":"x","\\udc00":1}',
      headers: json,
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/\udc00',
  },
  {
    name: 'duplicate key (the last would win silently)',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      payload: '{"name":"dup-key","visibility":"private","visibility":"public"}',
      headers: json,
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/visibility',
  },
  {
    name: 'nesting 10 000 levels deep in a body',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      payload: `{"name":"deep","description":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
      headers: json,
    }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'invalid UTF-8 bytes',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      payload: Buffer.concat([
        Buffer.from('{"name":"bad-'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('"}'),
      ]),
      headers: json,
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body',
  },
  {
    name: 'latin1 charset',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      payload: '{"name":"latin"}',
      headers: { 'content-type': 'application/json; charset=latin1' },
    }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'NUL inside a provider arguments string',
    request: () => openAICall(JSON.stringify({ query: 'a\u0000' })),
    status: 422,
    code: 'invalid_payload',
    path: '/calls/0/arguments/query',
  },
  {
    name: 'lone surrogate inside a provider arguments string',
    request: () => openAICall('{"query":"\\ud800"}'),
    status: 422,
    code: 'invalid_payload',
    path: '/calls/0/arguments/query',
  },
  {
    name: '10 000 levels of nesting inside a provider arguments string',
    request: () => openAICall(`{"query":${'['.repeat(10_000)}${']'.repeat(10_000)}}`),
    status: 422,
    code: 'invalid_payload',
  },
  {
    name: 'NUL in IR call arguments',
    request: () => ({
      method: 'POST',
      url: '/v1/calls/ir',
      key: team.key,
      payload: `[{"id":"c1","name":"${released.name}","arguments":{"query":"\\u0000"}}]`,
      headers: json,
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/0/arguments/query',
  },
  // transport
  {
    name: 'malformed JSON',
    request: () => ({ method: 'POST', url: '/v1/tools', payload: '{"name":', headers: json }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'empty JSON body',
    request: () => ({ method: 'POST', url: '/v1/tools', payload: '', headers: json }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'oversized body',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      payload: JSON.stringify({ name: 'x', description: 'y'.repeat(BODY_LIMIT) }),
      headers: json,
    }),
    status: 413,
    code: 'payload_too_large',
  },
  {
    name: 'text/plain body',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      payload: 'name=x',
      headers: { 'content-type': 'text/plain' },
    }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'form body',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      payload: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'JSON array body',
    request: () => ({ method: 'POST', url: '/v1/tools', body: [{ name: 'x' }] }),
    status: 400,
    code: 'invalid_request',
    path: '/body',
  },
  {
    name: 'JSON null body',
    request: () => ({ method: 'POST', url: '/v1/tools', payload: 'null', headers: json }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'unknown route',
    request: () => ({ url: '/v1/nothing-here' }),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'huge query string',
    request: () => ({ url: `/v1/tools?q=${'a'.repeat(10_000)}` }),
    status: 414,
    code: 'uri_too_long',
  },
  {
    name: 'oversized Authorization header',
    request: () => ({ url: '/v1/tools', key: `tg_${'a'.repeat(2000)}` }),
    status: 401,
    code: 'unauthenticated',
  },
  {
    name: 'NUL character in a string',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      key: team.key,
      body: { name: 'ok-name', description: 'a\u0000b' },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/description',
  },
  {
    name: 'NUL character in a query',
    request: () => ({ url: '/v1/tools/search?q=a%00b', key: team.key }),
    status: 400,
    code: 'invalid_request',
    path: '/query/q',
  },
  {
    name: 'JSON nested 200 levels deep',
    request: () => ({
      method: 'POST',
      url: versions(),
      key: team.key,
      body: { ir: ir({ parameters: nested(200) }) },
    }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'JSON nested 30,000 levels deep',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      key: team.key,
      payload: `${'['.repeat(30_000)}${']'.repeat(30_000)}`,
      headers: json,
    }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: '__proto__ key in the body',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      key: team.key,
      payload: '{"name":"ok-name","__proto__":{"admin":true}}',
      headers: json,
    }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'repeated query parameter where one is expected',
    request: () => ({ url: '/v1/exports?format=mcp&format=gemini', key: team.key }),
    status: 400,
    code: 'invalid_request',
    path: '/query/format',
  },
  {
    name: 'blank subject header',
    request: () => ({
      url: '/v1/exports?format=mcp',
      key: team.key,
      headers: { 'x-toolgate-subject': '   ' },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/headers/x-toolgate-subject',
  },
  // tools
  {
    name: 'tool without name',
    request: () => ({ method: 'POST', url: '/v1/tools', key: team.key, body: {} }),
    status: 400,
    code: 'invalid_request',
    path: '/body/name',
  },
  {
    name: 'tool name of the wrong type',
    request: () => ({ method: 'POST', url: '/v1/tools', key: team.key, body: { name: 42 } }),
    status: 400,
    code: 'invalid_request',
    path: '/body/name',
  },
  {
    name: 'tool name with a control character',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      key: team.key,
      body: { name: 'a\u0007b' },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/name',
  },
  {
    name: 'unknown field',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      key: team.key,
      body: { name: 'ok-name', owner: 'me' },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/owner',
  },
  {
    name: 'upper-case tag',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      key: team.key,
      body: { name: 'ok-name', tags: ['Bad'] },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/tags/0',
  },
  {
    name: 'duplicate tags',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      key: team.key,
      body: { name: 'ok-name', tags: ['a', 'a'] },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/tags',
  },
  {
    name: 'unknown visibility',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      key: team.key,
      body: { name: 'ok-name', visibility: 'secret' },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/visibility',
  },
  {
    name: 'team id that is not a UUID',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      body: { name: 'ok-name', team_id: 'team-1' },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/team_id',
  },
  {
    name: 'description over 16 KiB',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      key: team.key,
      body: { name: 'ok-name', description: 'd'.repeat(16_385) },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/description',
  },
  {
    name: 'duplicate tool name',
    request: () => ({
      method: 'POST',
      url: '/v1/tools',
      key: team.key,
      body: { name: released.name },
    }),
    status: 409,
    code: 'conflict',
  },
  {
    name: 'tool id that is not a UUID',
    request: () => ({ url: '/v1/tools/123', key: team.key }),
    status: 400,
    code: 'invalid_request',
    path: '/params/toolId',
  },
  {
    name: 'unknown tool',
    request: () => ({ url: '/v1/tools/00000000-0000-4000-8000-000000000000', key: team.key }),
    status: 404,
    code: 'not_found',
  },
  // publish
  {
    name: 'ir that is not an object',
    request: () => ({ method: 'POST', url: versions(), key: team.key, body: { ir: 'tool' } }),
    status: 400,
    code: 'invalid_request',
    path: '/body/ir',
  },
  {
    name: 'both ir and format',
    request: () => ({
      method: 'POST',
      url: versions(),
      key: team.key,
      body: { ir: ir(), format: 'mcp' },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/format',
  },
  {
    name: 'unknown format',
    request: () => ({
      method: 'POST',
      url: versions(),
      key: team.key,
      body: { format: 'cohere', version: '2.0.0', definition: {} },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/format',
  },
  {
    name: 'format without version',
    request: () => ({
      method: 'POST',
      url: versions(),
      key: team.key,
      body: { format: 'mcp', definition: {} },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/version',
  },
  {
    name: 'bad semver in the IR',
    request: () => ({
      method: 'POST',
      url: versions(),
      key: team.key,
      body: { ir: ir({ version: '2.0' }) },
    }),
    status: 422,
    code: 'invalid_tool_definition',
    path: '/body/ir/version',
  },
  {
    name: 'IR with another tool id',
    request: () => ({
      method: 'POST',
      url: versions(),
      key: team.key,
      body: { ir: ir({ id: '00000000-0000-4000-8000-000000000000' }) },
    }),
    status: 422,
    code: 'invalid_tool_definition',
    path: '/body/ir/id',
  },
  {
    name: 'IR with another name',
    request: () => ({
      method: 'POST',
      url: versions(),
      key: team.key,
      body: { ir: ir({ name: 'renamed' }) },
    }),
    status: 422,
    code: 'invalid_tool_definition',
    path: '/body/ir/name',
  },
  {
    name: 'invalid JSON Schema type',
    request: () => ({
      method: 'POST',
      url: versions(),
      key: team.key,
      body: { ir: ir({ parameters: { type: 'object', properties: { q: { type: 'strin' } } } }) },
    }),
    status: 422,
    code: 'invalid_tool_definition',
  },
  {
    name: 'invalid JSON Schema keyword value',
    request: () => ({
      method: 'POST',
      url: versions(),
      key: team.key,
      body: { ir: ir({ parameters: { type: 'object', required: 'q' } }) },
    }),
    status: 422,
    code: 'invalid_tool_definition',
  },
  {
    name: 'parameters whose root is not an object',
    request: () => ({
      method: 'POST',
      url: versions(),
      key: team.key,
      body: { ir: ir({ parameters: { type: 'array' } }) },
    }),
    status: 422,
    code: 'invalid_tool_definition',
    path: '/body/ir/parameters/type',
  },
  {
    name: 'unknown field in the IR',
    request: () => ({
      method: 'POST',
      url: versions(),
      key: team.key,
      body: { ir: ir({ color: 'red' }) },
    }),
    status: 422,
    code: 'invalid_tool_definition',
  },
  {
    name: 'readonly and destructive',
    request: () => ({
      method: 'POST',
      url: versions(),
      key: team.key,
      body: { ir: ir({ behavior: { readonly: true, destructive: true, idempotent: true } }) },
    }),
    status: 422,
    code: 'invalid_tool_definition',
    path: '/body/ir/behavior',
  },
  {
    name: 'unknown version status',
    request: () => ({
      method: 'POST',
      url: versions(),
      key: team.key,
      body: { ir: ir(), status: 'live' },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/status',
  },
  {
    name: 'existing version',
    request: () => ({
      method: 'POST',
      url: versions(),
      key: team.key,
      body: { ir: ir({ version: '1.0.0' }) },
    }),
    status: 409,
    code: 'conflict',
  },
  {
    name: 'breaking change without a major bump',
    request: () => ({
      method: 'POST',
      url: versions(),
      key: team.key,
      body: { ir: ir({ version: '1.2.0', parameters: { type: 'object', properties: {} } }) },
    }),
    status: 409,
    code: 'breaking_change',
    path: '/parameters/properties/query',
  },
  {
    name: 'invalid provider definition',
    request: () => ({
      method: 'POST',
      url: versions(),
      key: team.key,
      body: { format: 'openai-chat', version: '2.0.0', definition: { type: 'function' } },
    }),
    status: 422,
    code: 'invalid_tool_definition',
  },
  // releases
  {
    name: 'canary percent 101',
    request: () => ({
      method: 'PUT',
      url: `/v1/tools/${tool().id}/release/canary`,
      key: team.key,
      body: { version: '1.1.0', percent: 101 },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/percent',
  },
  {
    name: 'canary percent -1',
    request: () => ({
      method: 'PUT',
      url: `/v1/tools/${tool().id}/release/canary`,
      key: team.key,
      body: { version: '1.1.0', percent: -1 },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/percent',
  },
  {
    name: 'fractional canary percent',
    request: () => ({
      method: 'PUT',
      url: `/v1/tools/${tool().id}/release/canary`,
      key: team.key,
      body: { version: '1.1.0', percent: 12.5 },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/percent',
  },
  {
    name: 'canary percent as a string',
    request: () => ({
      method: 'PUT',
      url: `/v1/tools/${tool().id}/release/canary`,
      key: team.key,
      body: { version: '1.1.0', percent: '50' },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/percent',
  },
  {
    name: 'canary equal to stable',
    request: () => ({
      method: 'PUT',
      url: `/v1/tools/${tool().id}/release/canary`,
      key: team.key,
      body: { version: '1.0.0', percent: 10 },
    }),
    status: 409,
    code: 'conflict',
  },
  {
    name: 'canary without a stable version',
    request: () => ({
      method: 'PUT',
      url: `/v1/tools/${unreleased.id}/release/canary`,
      key: team.key,
      body: { version: '1.0.0', percent: 10 },
    }),
    status: 409,
    code: 'conflict',
  },
  {
    name: 'stable version that is not semver',
    request: () => ({
      method: 'PUT',
      url: `/v1/tools/${tool().id}/release/stable`,
      key: team.key,
      body: { version: 'latest' },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/version',
  },
  {
    name: 'stable version that does not exist',
    request: () => ({
      method: 'PUT',
      url: `/v1/tools/${tool().id}/release/stable`,
      key: team.key,
      body: { version: '9.9.9' },
    }),
    status: 404,
    code: 'version_not_found',
  },
  {
    name: 'promote without a canary',
    request: () => ({
      method: 'POST',
      url: `/v1/tools/${tool().id}/release/promote`,
      key: team.key,
    }),
    status: 409,
    code: 'conflict',
  },
  {
    name: 'rollback with nothing to roll back',
    request: () => ({
      method: 'POST',
      url: `/v1/tools/${unreleased.id}/release/rollback`,
      key: team.key,
    }),
    status: 409,
    code: 'conflict',
  },
  {
    name: 'promote with a body',
    request: () => ({
      method: 'POST',
      url: `/v1/tools/${tool().id}/release/promote`,
      key: team.key,
      body: { version: '1.1.0' },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/version',
  },
  // deprecation
  {
    name: 'sunset in the past',
    request: () => ({
      method: 'POST',
      url: `${versions()}/1.0.0/deprecate`,
      key: team.key,
      body: { sunset_at: '2020-01-01T00:00:00Z' },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/sunset_at',
  },
  {
    name: 'sunset that is not a date',
    request: () => ({
      method: 'POST',
      url: `${versions()}/1.0.0/deprecate`,
      key: team.key,
      body: { sunset_at: 'next week' },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/sunset_at',
  },
  {
    name: 'successor that does not exist',
    request: () => ({
      method: 'POST',
      url: `${versions()}/1.0.0/deprecate`,
      key: team.key,
      body: { sunset_at: future(), successor: '3.0.0' },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/successor',
  },
  {
    name: 'brownout ending before it starts',
    request: () => ({
      method: 'POST',
      url: `${versions()}/1.0.0/deprecate`,
      key: team.key,
      body: {
        sunset_at: future(),
        brownouts: [{ start: '2030-01-02T00:00:00Z', end: '2030-01-01T00:00:00Z' }],
      },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/brownouts/0',
  },
  {
    name: 'brownout after the sunset',
    request: () => ({
      method: 'POST',
      url: `${versions()}/1.0.0/deprecate`,
      key: team.key,
      body: { sunset_at: future(), brownouts: [{ start: future(), end: '2999-01-01T00:00:00Z' }] },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/brownouts/0/end',
  },
  {
    name: 'deprecating a version that does not exist',
    request: () => ({
      method: 'POST',
      url: `${versions()}/7.0.0/deprecate`,
      key: team.key,
      body: { sunset_at: future() },
    }),
    status: 404,
    code: 'version_not_found',
  },
  {
    name: 'version path that is not semver',
    request: () => ({ url: `${versions()}/v1`, key: team.key }),
    status: 400,
    code: 'invalid_request',
    path: '/params/version',
  },
  // exports
  {
    name: 'export without format',
    request: () => ({ url: '/v1/exports', key: team.key }),
    status: 400,
    code: 'invalid_request',
    path: '/query/format',
  },
  {
    name: 'export in an unknown format',
    request: () => ({ url: '/v1/exports?format=cohere', key: team.key }),
    status: 400,
    code: 'invalid_request',
    path: '/query/format',
  },
  {
    name: 'export with an unknown parameter',
    request: () => ({ url: '/v1/exports?format=mcp&verbose=1', key: team.key }),
    status: 400,
    code: 'invalid_request',
    path: '/query/verbose',
  },
  {
    name: 'malformed pin',
    request: () => ({ url: `/v1/exports?format=mcp&pin=${released.name}`, key: team.key }),
    status: 400,
    code: 'invalid_request',
    path: '/query/pin/0',
  },
  {
    name: 'pin to a version that does not exist',
    request: () => ({ url: `/v1/exports?format=mcp&pin=${released.name}@4.0.0`, key: team.key }),
    status: 404,
    code: 'version_not_found',
  },
  {
    name: 'pin with an invalid range',
    request: () => ({ url: `/v1/exports?format=mcp&pin=${released.name}@^^x`, key: team.key }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'subject header over 256 characters',
    request: () => ({
      url: '/v1/exports?format=mcp',
      key: team.key,
      headers: { 'x-toolgate-subject': 's'.repeat(300) },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/headers/x-toolgate-subject',
  },
  {
    name: 'export filtered by an invalid tag',
    request: () => ({ url: '/v1/exports?format=mcp&tags=Not%20A%20Tag', key: team.key }),
    status: 400,
    code: 'invalid_request',
    path: '/query/tags/0',
  },
  // lists
  {
    name: 'limit 0',
    request: () => ({ url: '/v1/tools?limit=0', key: team.key }),
    status: 400,
    code: 'invalid_request',
    path: '/query/limit',
  },
  {
    name: 'limit 1000',
    request: () => ({ url: '/v1/tools?limit=1000', key: team.key }),
    status: 400,
    code: 'invalid_request',
    path: '/query/limit',
  },
  {
    name: 'forged cursor',
    request: () => ({ url: '/v1/tools?cursor=eyJmb28iOjF9', key: team.key }),
    status: 400,
    code: 'invalid_request',
    path: '/query/cursor',
  },
  {
    name: 'text query over 200 characters',
    request: () => ({ url: `/v1/tools?q=${'q'.repeat(201)}`, key: team.key }),
    status: 400,
    code: 'invalid_request',
    path: '/query/q',
  },
  {
    name: 'search without q',
    request: () => ({ url: '/v1/tools/search', key: team.key }),
    status: 400,
    code: 'invalid_request',
    path: '/query/q',
  },
  {
    name: 'unknown status filter',
    request: () => ({ url: '/v1/tools?status=gone', key: team.key }),
    status: 400,
    code: 'invalid_request',
    path: '/query/status',
  },
  {
    name: 'audit window that is not a date',
    request: () => ({ url: '/v1/audit?from=yesterday' }),
    status: 400,
    code: 'invalid_request',
    path: '/query/from',
  },
  {
    name: 'diff without to',
    request: () => ({ url: `/v1/tools/${tool().id}/diff?from=1.0.0`, key: team.key }),
    status: 400,
    code: 'invalid_request',
    path: '/query/to',
  },
  // keys and teams
  {
    name: 'unknown scope',
    request: () => ({
      method: 'POST',
      url: '/v1/api-keys',
      key: team.key,
      body: { name: 'k', scopes: ['root'] },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/scopes/0',
  },
  {
    name: 'no scopes',
    request: () => ({
      method: 'POST',
      url: '/v1/api-keys',
      key: team.key,
      body: { name: 'k', scopes: [] },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/scopes',
  },
  {
    name: 'admin key creating a key without team',
    request: () => ({
      method: 'POST',
      url: '/v1/api-keys',
      body: { name: 'k', scopes: ['admin'] },
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/team_id',
  },
  {
    name: 'revoking a key id that is not a UUID',
    request: () => ({ method: 'POST', url: '/v1/api-keys/abc/revoke', key: team.key }),
    status: 400,
    code: 'invalid_request',
    path: '/params/id',
  },
  {
    name: 'invalid team slug',
    request: () => ({ method: 'POST', url: '/v1/teams', body: { slug: 'Bad Slug', name: 'x' } }),
    status: 400,
    code: 'invalid_request',
    path: '/body/slug',
  },
  {
    name: 'duplicate team slug',
    request: () => ({ method: 'POST', url: '/v1/teams', body: { slug: team.slug, name: 'x' } }),
    status: 409,
    code: 'conflict',
    path: '/body/slug',
  },
  {
    name: 'wrong method on a known path',
    request: () => ({ method: 'DELETE', url: '/v1/tools', key: team.key }),
    status: 405,
    code: 'method_not_allowed',
  },
  {
    name: 'lone surrogate in MCP tools/call arguments',
    request: () => ({
      method: 'POST',
      url: '/mcp',
      key: team.key,
      headers: { ...json, accept: 'application/json, text/event-stream' },
      payload: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${released.name}","arguments":{"q":"\\ud800"}}}`,
    }),
    status: 400,
    code: 'invalid_request',
    path: '/body/params/arguments/q',
  },
];

describe('bad input', () => {
  it('has at least 40 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)(
    '$name: $status $code, database unchanged',
    async ({ request, status, code, path }) => {
      const before = await snapshot();
      const response = await api.request(request());
      expect(response.status, response.text).toBe(status);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body).toMatchObject({
        type: `https://toolgate.dev/problems/${code}`,
        status,
        code,
        title: expect.any(String),
        detail: expect.any(String),
      });
      expect(Array.isArray(response.body.errors)).toBe(true);
      if (path !== undefined) {
        expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(path);
      }
      expect(await snapshot()).toEqual(before);
    },
  );
});

describe('body limits', () => {
  it('says the limit and the setting that raises it', async () => {
    const response = await api.request({
      method: 'POST',
      url: '/v1/tools',
      key: team.key,
      body: { name: 'big', description: 'y'.repeat(BODY_LIMIT) },
    });
    expect(response.status).toBe(413);
    expect(response.body.limit_bytes).toBe(BODY_LIMIT);
    expect(response.body.detail).toContain(BODY_LIMIT.toLocaleString('en'));
    expect(response.body.detail).toContain('BODY_LIMIT');
  });

  it('lets an OpenAPI import take the documents its schema allows, past BODY_LIMIT', async () => {
    const petstore = JSON.parse(
      readFileSync(
        path.resolve(
          import.meta.dirname,
          '../../src/imports/__fixtures__/petstore-openapi-3.0.json',
        ),
        'utf8',
      ),
    ) as { info: Record<string, unknown> };
    // A description like large real documents carry, making the body 4x the server's limit.
    const document = {
      ...petstore,
      info: { ...petstore.info, description: 'z'.repeat(4 * BODY_LIMIT) },
    };
    const before = await snapshot();
    const response = await api.request({
      method: 'POST',
      url: '/v1/imports/openapi',
      key: team.key,
      body: { document, dry_run: true },
    });
    expect(response.status, response.text.slice(0, 300)).toBe(200);
    expect(await snapshot()).toEqual(before);
    const tooLarge = await api.request({
      method: 'POST',
      url: '/v1/imports/openapi',
      key: team.key,
      body: { document: 'x'.repeat(OPENAPI_IMPORT_BODY_LIMIT), dry_run: true },
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.limit_bytes).toBe(OPENAPI_IMPORT_BODY_LIMIT);
  });
});
