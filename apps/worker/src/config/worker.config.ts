import { hostname } from 'node:os';
import {
  EgressAllowSetting,
  TraceContentMaxBytesSetting,
  TraceContentSetting,
} from '@toolgate/gateway';
import { SecretKeySetting, SecretOldKeysSetting } from '@toolgate/persistence';
import { z } from 'zod';

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const int = (input: { min: number; max: number; default: number }) =>
  z.coerce.number().int().min(input.min).max(input.max).default(input.default);

/** Every setting of the worker, read from the environment once at start (unknown variables are ignored). */
export const WorkerConfigSchema = z.object({
  /** Redis for the queue, call records and rate limits; without it the worker runs the in-process queue. */
  REDIS_URL: optionalString.pipe(
    z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  ),
  /** Postgres of the registry: call records live in its `calls` table, shared with the API. */
  DATABASE_URL: optionalString.pipe(
    z
      .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })
      .optional(),
  ),
  /** How long an approval request this worker opens stays open (the API's approval TTL). */
  APPROVAL_TTL_MS: int({ min: 1_000, max: 30 * 24 * 3_600_000, default: 24 * 3_600_000 }),
  /** Calls executed at once by this process. */
  WORKER_CONCURRENCY: int({ min: 1, max: 512, default: 8 }),
  /** Where tools may connect beyond public addresses (the API's setting; see its README). */
  TOOLGATE_EGRESS_ALLOW: EgressAllowSetting,
  /** Which calls put arguments, result and definition on their spans: `off` (default), `per_tool`, `all`. */
  TOOLGATE_TRACE_CONTENT: TraceContentSetting,
  /** The cap (UTF-8 bytes) of one content attribute on a span. */
  TOOLGATE_TRACE_CONTENT_MAX_BYTES: TraceContentMaxBytesSetting,
  /** The API's secret key (`<base64 of 32 bytes>` or `<id>:<base64>`): opens the secrets tools reference. */
  TOOLGATE_SECRETS_KEY: SecretKeySetting,
  /** Earlier keys, comma-separated, for secrets not yet re-encrypted (`npm run secrets:reencrypt`). */
  TOOLGATE_SECRETS_OLD_KEYS: SecretOldKeysSetting,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** OTLP/HTTP collector base URL (`/v1/traces` is appended); traces are only exported when set. */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  OTEL_SERVICE_NAME: z.string().min(1).default('toolgate-worker'),
  /** On SIGTERM/SIGINT, wait this long for calls in flight before leaving them to stalled-job recovery. */
  DRAIN_TIMEOUT_MS: int({ min: 0, max: 3_600_000, default: 30_000 }),
  /** Namespace of every Redis key the worker writes (queue, calls, rate limits). */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 letters, digits, . _ or -')
    .default('toolgate'),
  /** How long a job's lock lasts; a killed worker's calls are noticed after about this long. */
  WORKER_LOCK_DURATION_MS: int({ min: 500, max: 600_000, default: 30_000 }),
  /** How often this worker looks for stalled jobs. */
  WORKER_STALLED_INTERVAL_MS: int({ min: 100, max: 600_000, default: 15_000 }),
  /** Stalls a job survives before it fails for good. */
  WORKER_MAX_STALLED_COUNT: int({ min: 0, max: 100, default: 2 }),
  /** This process's id on the calls it runs; defaults to `<hostname>-<pid>`. */
  WORKER_ID: optionalString,
  /** How long a call may wait for its tool's rate limit before failing with `rate_limited`. */
  RATE_LIMIT_MAX_WAIT_MS: int({ min: 0, max: 600_000, default: 0 }),
  /** Finished call records are kept in Redis this long. */
  CALL_RETENTION_SECONDS: int({ min: 0, max: 365 * 24 * 3600, default: 7 * 24 * 3600 }),
});

/** The worker's validated settings. */
export type WorkerConfig = Omit<z.output<typeof WorkerConfigSchema>, 'WORKER_ID'> & {
  WORKER_ID: string;
};

/** The variable names the config reads. */
export const WORKER_CONFIG_KEYS = Object.keys(WorkerConfigSchema.shape) as ReadonlyArray<
  keyof z.output<typeof WorkerConfigSchema>
>;

/** Thrown at start when the environment is invalid; lists every bad variable (never a value). */
export class WorkerConfigError extends Error {
  override readonly name = 'WorkerConfigError';
}

/** Reads and validates the worker's settings from an environment. */
export function loadWorkerConfig(env: Readonly<Record<string, string | undefined>>): WorkerConfig {
  const input = Object.fromEntries(WORKER_CONFIG_KEYS.map((key) => [key, env[key]]));
  const parsed = WorkerConfigSchema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new WorkerConfigError(`Invalid worker configuration:\n${lines.join('\n')}`);
  }
  return { ...parsed.data, WORKER_ID: parsed.data.WORKER_ID ?? `${hostname()}-${process.pid}` };
}
