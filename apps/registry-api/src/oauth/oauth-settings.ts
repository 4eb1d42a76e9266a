import { z } from 'zod';

/** The Toolgate scopes an OAuth token can be granted: a token only reaches /mcp, which checks these. */
export const OAUTH_GRANTABLE_SCOPES = ['tools:read', 'calls:execute'] as const;
export type OAuthGrantableScope = (typeof OAUTH_GRANTABLE_SCOPES)[number];

// RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function blankless(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function commaList(value: string | undefined): string[] {
  return (blankless(value) ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * An issuer identifier (RFC 8414 §2): https, no query or fragment; plain http only on loopback,
 * so a development authorization server can run beside the API.
 */
const IssuerSchema = z.string().superRefine((value, context) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    context.addIssue({ code: 'custom', message: `${value} is not a URL` });
    return;
  }
  const local = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !local) {
    context.addIssue({ code: 'custom', message: `${value} must be https (http only on loopback)` });
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    context.addIssue({ code: 'custom', message: `${value} must have no query, fragment or user` });
  }
});

/** `TOOLGATE_OAUTH_ISSUER`: issuer URLs, comma-separated; none turns OAuth off. */
export const OAuthIssuersSetting = z
  .string()
  .optional()
  .transform(commaList)
  .pipe(z.array(IssuerSchema).max(16));

/**
 * `TOOLGATE_OAUTH_SCOPE_MAP` as JSON: which team an access token acts for and which Toolgate scopes
 * each OAuth scope grants. `team_claim` names a claim holding a team id; `team` is the team of
 * tokens without that claim (or of every token, without `team_claim`).
 */
export const OAuthScopeMapSchema = z
  .strictObject({
    team: z.uuid({ error: 'must be a team id (uuid)' }).optional(),
    team_claim: z.string().min(1).max(128).optional(),
    scopes: z.record(
      z.string().regex(SCOPE_TOKEN, 'must be an OAuth scope token'),
      z
        .array(
          z.enum(OAUTH_GRANTABLE_SCOPES, {
            error: `must be one of ${OAUTH_GRANTABLE_SCOPES.join(', ')}`,
          }),
        )
        .min(1),
    ),
  })
  .refine((map) => map.team !== undefined || map.team_claim !== undefined, {
    message: 'needs team or team_claim: every token must act for a team',
  });
export type OAuthScopeMap = z.output<typeof OAuthScopeMapSchema>;

/** The JSON text of `TOOLGATE_OAUTH_SCOPE_MAP`, parsed; unset stays undefined. */
export const OAuthScopeMapSetting = z
  .string()
  .optional()
  .transform((value, context): unknown => {
    const text = blankless(value);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'must be JSON (see the README)' });
      return z.NEVER;
    }
  })
  .pipe(OAuthScopeMapSchema.optional());

/** An http(s) origin without path, e.g. `https://toolgate.example.com`. */
export const PublicUrlSetting = z
  .string()
  .optional()
  .transform((value) => blankless(value))
  .pipe(
    z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .refine((value) => new URL(value).origin === value.replace(/\/$/, ''), {
        message: 'must be an origin only (scheme, host and port; no path or query)',
      })
      .transform((value) => new URL(value).origin)
      .optional(),
  );

// A comma-separated setting whose every entry must parse; a bad one names itself.
function commaListSetting(parse: (value: string) => string | undefined, what: string) {
  return z
    .string()
    .optional()
    .transform(commaList)
    .pipe(
      z.array(
        z.string().transform((value, context) => {
          const parsed = parse(value);
          if (parsed === undefined) {
            context.addIssue({ code: 'custom', message: `${value} is not ${what}` });
            return z.NEVER;
          }
          return parsed;
        }),
      ),
    );
}

/** `TOOLGATE_MCP_ALLOWED_ORIGINS`: origins, comma-separated, kept in URL's normal form. */
export const AllowedOriginsSetting = commaListSetting(originOf, 'an origin like https://host');

/** `TOOLGATE_MCP_ALLOWED_HOSTS`: `host` (any port) or `host:port`, comma-separated, lower-cased. */
export const AllowedHostsSetting = commaListSetting(hostEntryOf, 'a host or host:port');

function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    const origin = url.origin;
    return origin !== 'null' && origin === value.replace(/\/$/, '').toLowerCase()
      ? origin
      : undefined;
  } catch {
    return undefined;
  }
}

function hostEntryOf(value: string): string | undefined {
  try {
    const url = new URL(`http://${value}`);
    const expected = url.port === '' ? url.hostname : `${url.hostname}:${url.port}`;
    // Only a bare host or host:port: anything URL would read as a path or user is refused. Port 80
    // is the one a Host header leaves out.
    return expected === value.toLowerCase().replace(/:80$/, '') ? expected : undefined;
  } catch {
    return undefined;
  }
}
