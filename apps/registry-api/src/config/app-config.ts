import path from 'node:path';
import {
  EgressAllowSetting,
  TraceContentMaxBytesSetting,
  TraceContentSetting,
} from '@toolgate/gateway';
import { SecretKeySetting, SecretOldKeysSetting } from '@toolgate/persistence';
import { z } from 'zod';
import {
  AllowedHostsSetting,
  AllowedOriginsSetting,
  OAuthIssuersSetting,
  OAuthScopeMapSetting,
  PublicUrlSetting,
} from '../oauth/oauth-settings';

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));

/**
 * Every setting of the registry API, read from the environment once at start.
 * docker-compose.yml documents the same variables; a test keeps the two in step.
 */
export const AppConfigSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65_535).default(4000),
    HOST: z.string().min(1).default('127.0.0.1'),
    /** Postgres connection string; without it the API runs on embedded PGlite. */
    DATABASE_URL: optionalString.pipe(
      z
        .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })
        .optional(),
    ),
    /** Where embedded PGlite keeps its files when DATABASE_URL is not set. */
    PGLITE_DATA_DIR: z.string().min(1).default(path.join('.toolgate', 'pglite')),
    /** Redis for the call queue: when set, calls go to the worker fleet over BullMQ (else they run in-process). */
    REDIS_URL: optionalString.pipe(
      z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
    ),
    /** Namespace of the queue's Redis keys and channels; the workers must use the same. */
    QUEUE_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 letters, digits, . _ or -')
      .default('toolgate'),
    /** A bootstrap credential with every scope on every team; at least 32 characters. */
    TOOLGATE_ADMIN_KEY: optionalString.pipe(
      z.string().min(32, 'must be at least 32 characters').optional(),
    ),
    /**
     * Where tools may connect beyond public addresses: hosts, `*.suffix`, IPs or CIDRs, each with an
     * optional `:port`, comma-separated. On Postgres (a real deployment) loopback and private
     * addresses are refused unless listed; link-local and cloud metadata always, unless listed.
     */
    TOOLGATE_EGRESS_ALLOW: EgressAllowSetting,
    /** Which calls put arguments, result and definition on their spans: `off` (default), `per_tool`, `all`. */
    TOOLGATE_TRACE_CONTENT: TraceContentSetting,
    /** The cap (UTF-8 bytes) of one content attribute on a span. */
    TOOLGATE_TRACE_CONTENT_MAX_BYTES: TraceContentMaxBytesSetting,
    /**
     * The key sealing the secret store (AES-256-GCM): base64 of 32 bytes, or `<id>:<base64>` to name
     * it for rotation. Without it (on Postgres) the secrets routes answer 503; `npm start` keeps one
     * in .toolgate/secrets-key.
     */
    TOOLGATE_SECRETS_KEY: SecretKeySetting,
    /** Earlier keys, comma-separated `<id>:<base64>`, that still open values not yet re-encrypted. */
    TOOLGATE_SECRETS_OLD_KEYS: SecretOldKeysSetting,
    /**
     * Whether answers are held to the HTTP contract: `strict` (the test suite) answers a drift with a
     * 500 and records it, `warn` (staging) logs it, `off` (the default) trusts the compiler, which
     * already checks every handler's result type against its route, and spends nothing per request.
     */
    TOOLGATE_RESPONSE_CHECK: z.enum(['off', 'warn', 'strict']).default('off'),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    /** Where spans go over OTLP/HTTP (`/v1/traces` is appended); unset, none are exported. */
    OTEL_EXPORTER_OTLP_ENDPOINT: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    /** The `service.name` of exported spans. */
    OTEL_SERVICE_NAME: z.string().min(1).default('toolgate-registry-api'),
    /** Largest accepted request body in bytes. */
    BODY_LIMIT: z.coerce
      .number()
      .int()
      .min(1024)
      .max(50 * 1024 * 1024)
      .default(1024 * 1024),
    /** How long a verified API key is trusted without asking the database again, in ms. */
    AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
    /** How often another replica's changes are noticed by the export cache, in ms. */
    EXPORT_CACHE_REVALIDATE_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
    /** The migrations folder; defaults to prisma/migrations of this checkout. */
    TOOLGATE_MIGRATIONS_DIR: optionalString,
    /** The first console admin, created at start when no user has this email (never overwritten). */
    TOOLGATE_CONSOLE_ADMIN_EMAIL: optionalString.pipe(z.email().max(254).optional()),
    /** That admin's initial password; set together with TOOLGATE_CONSOLE_ADMIN_EMAIL. */
    TOOLGATE_CONSOLE_ADMIN_PASSWORD: optionalString.pipe(
      z.string().min(12, 'must be at least 12 characters').max(1024).optional(),
    ),
    /** Adds `Secure` to the console session cookie; set it whenever the console is served over HTTPS. */
    TOOLGATE_COOKIE_SECURE: z
      .enum(['true', 'false'])
      .default('false')
      .transform((value) => value === 'true'),
    /** How long a console sign-in lasts, in minutes. */
    TOOLGATE_CONSOLE_SESSION_TTL_MINUTES: z.coerce
      .number()
      .int()
      .min(5)
      .max(30 * 24 * 60)
      .default(12 * 60),
    /**
     * The origin clients reach this server at (`https://toolgate.example.com`), when it is not the
     * one it listens on (a proxy, TLS in front): the OAuth resource URL is `<it>/mcp`, and /mcp
     * accepts it as Host and Origin.
     */
    TOOLGATE_PUBLIC_URL: PublicUrlSetting,
    /** Browser origins, beside loopback and this server's own, that may call /mcp; comma-separated. */
    TOOLGATE_MCP_ALLOWED_ORIGINS: AllowedOriginsSetting,
    /** Host names (`host` any port, `host:port`) beside loopback and this server's own that /mcp answers. */
    TOOLGATE_MCP_ALLOWED_HOSTS: AllowedHostsSetting,
    /** Authorization servers whose access tokens /mcp accepts, comma-separated; unset: API keys only. */
    TOOLGATE_OAUTH_ISSUER: OAuthIssuersSetting,
    /** The `aud` access tokens must carry (RFC 8707); default the /mcp resource URL. */
    TOOLGATE_OAUTH_AUDIENCE: optionalString,
    /** JSON: the team an access token acts for and the Toolgate scopes each OAuth scope grants. */
    TOOLGATE_OAUTH_SCOPE_MAP: OAuthScopeMapSetting,
    /** Where the issuer's signing keys are, instead of its metadata's `jwks_uri` (one issuer only). */
    TOOLGATE_OAUTH_JWKS_URL: optionalString.pipe(
      z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    ),
    /** How far `exp` and `nbf` may be off this server's clock, in seconds. */
    TOOLGATE_OAUTH_CLOCK_SKEW_SECONDS: z.coerce.number().int().min(0).max(600).default(60),
  })
  .superRefine((config, context) => {
    const oauthOn = config.TOOLGATE_OAUTH_ISSUER.length > 0;
    if (oauthOn && config.TOOLGATE_OAUTH_SCOPE_MAP === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['TOOLGATE_OAUTH_SCOPE_MAP'],
        message: 'is required with TOOLGATE_OAUTH_ISSUER: it says which team a token acts for',
      });
    }
    if (config.TOOLGATE_OAUTH_JWKS_URL !== undefined && config.TOOLGATE_OAUTH_ISSUER.length !== 1) {
      context.addIssue({
        code: 'custom',
        path: ['TOOLGATE_OAUTH_JWKS_URL'],
        message: 'needs exactly one TOOLGATE_OAUTH_ISSUER, whose keys it names',
      });
    }
  });

export type AppConfig = z.output<typeof AppConfigSchema>;

/** The variable names the config reads (docker-compose.yml may only set these). */
export const APP_CONFIG_KEYS = Object.keys(AppConfigSchema.shape) as ReadonlyArray<keyof AppConfig>;

/** Thrown at start when the environment is invalid; lists every bad variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function loadConfig(env: Readonly<Record<string, string | undefined>>): AppConfig {
  const input = Object.fromEntries(APP_CONFIG_KEYS.map((key) => [key, env[key]]));
  const parsed = AppConfigSchema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
