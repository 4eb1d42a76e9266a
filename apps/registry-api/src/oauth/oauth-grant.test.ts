import { describe, expect, it } from 'vitest';
import { grantOf, oauthScopesGranting, oauthScopesOf, type AccessTokenClaims } from './oauth-grant';
import type { OAuthScopeMap } from './oauth-settings';

const TEAM = '7f3c0f5e-4a4b-4c57-9b1e-2f1f0c6d8a11';
const OTHER_TEAM = '0b8e6b6e-2d8f-4d7e-8a43-6b3f2b1c9d22';
const MAP: OAuthScopeMap = {
  team: TEAM,
  team_claim: 'tg_team',
  scopes: {
    'mcp:tools': ['tools:read'],
    'mcp:call': ['calls:execute'],
    'mcp:all': ['tools:read', 'calls:execute'],
  },
};
const ISS = 'https://auth.example.com';

describe('oauthScopesOf', () => {
  it.each<[Partial<AccessTokenClaims>, string[]]>([
    [{ scope: 'a  b a' }, ['a', 'b']],
    [{ scp: ['a', 'b'] }, ['a', 'b']],
    [{ scp: 'a b' }, ['a', 'b']],
    [{}, []],
  ])('reads %j', (claims, scopes) => {
    expect(oauthScopesOf({ iss: ISS, ...claims })).toEqual(scopes);
  });
});

describe('grantOf', () => {
  it('maps OAuth scopes to Toolgate scopes, and keeps subject and client id', () => {
    const granted = grantOf(
      { iss: ISS, sub: 'alice', azp: 'agent', scope: 'mcp:tools other', tg_team: OTHER_TEAM },
      MAP,
    );
    expect(granted).toEqual({
      ok: true,
      grant: {
        issuer: ISS,
        subject: 'alice',
        clientId: 'agent',
        oauthScopes: ['mcp:tools', 'other'],
        scopes: new Set(['tools:read']),
        teamId: OTHER_TEAM,
      },
    });
  });

  it('prefers client_id over azp, and takes the client as subject without sub', () => {
    const granted = grantOf({ iss: ISS, client_id: 'svc', azp: 'ignored', scope: 'mcp:all' }, MAP);
    expect(granted.ok && granted.grant).toMatchObject({
      subject: 'svc',
      clientId: 'svc',
      scopes: new Set(['tools:read', 'calls:execute']),
      teamId: TEAM,
    });
  });

  it('refuses a token naming neither subject nor client', () => {
    expect(grantOf({ iss: ISS, scope: 'mcp:all' }, MAP)).toEqual({
      ok: false,
      refusal: 'no_subject',
    });
  });

  it('never falls back to the fixed team when the team claim is unreadable', () => {
    expect(grantOf({ iss: ISS, sub: 'a', tg_team: 'ops' }, MAP)).toEqual({
      ok: false,
      refusal: 'no_team',
    });
    expect(grantOf({ iss: ISS, sub: 'a' }, { team_claim: 'tg_team', scopes: {} })).toEqual({
      ok: false,
      refusal: 'no_team',
    });
  });
});

describe('oauthScopesGranting', () => {
  it('names, per missing scope, the first OAuth scope that grants it', () => {
    expect(oauthScopesGranting(MAP, ['calls:execute'])).toEqual(['mcp:call']);
    expect(oauthScopesGranting(MAP, ['tools:read', 'calls:execute'])).toEqual([
      'mcp:tools',
      'mcp:call',
    ]);
    expect(oauthScopesGranting({ team: TEAM, scopes: {} }, ['calls:execute'])).toEqual([]);
  });
});
