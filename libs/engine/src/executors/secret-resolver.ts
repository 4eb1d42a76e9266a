import { ToolExecutionError } from './executor';
import type { ExecutorConfig, HeaderValue } from '@toolgate/contract';

/** Resolves secret references at call time; values are never logged, stored in results or put in errors. */
export interface SecretResolver {
  /** The secret's value, or undefined when it does not exist. */
  resolve(name: string): Promise<string | undefined>;
}

/** A secret resolver over a fixed map, for tests and local runs. */
export function staticSecretResolver(secrets: Readonly<Record<string, string>>): SecretResolver {
  return {
    resolve: (name) => Promise.resolve(Object.hasOwn(secrets, name) ? secrets[name] : undefined),
  };
}

/** Headers with their secrets resolved, plus the secret values for redaction. */
export interface ResolvedHeaders {
  headers: Record<string, string>;
  secretValues: string[];
}

/**
 * Resolves header (or query parameter) values; throws naming the missing secret (never a value)
 * when one is unknown. `where` names the place in the message: `header`, `query parameter`.
 */
export async function resolveHeaders(
  headers: Readonly<Record<string, HeaderValue>>,
  resolver: SecretResolver | undefined,
  where = 'header',
): Promise<ResolvedHeaders> {
  const resolved: Record<string, string> = {};
  const secretValues: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') {
      resolved[name] = value;
      continue;
    }
    const secret = resolver === undefined ? undefined : await resolver.resolve(value.secret);
    if (secret === undefined) {
      throw new ToolExecutionError({
        code: 'secret_unavailable',
        message: `secret "${value.secret}" for ${where} ${name} is not available: a team admin can store it with POST /v1/secrets`,
      });
    }
    secretValues.push(secret);
    resolved[name] = `${value.prefix ?? ''}${secret}`;
  }
  return { headers: resolved, secretValues };
}

/** Replaces every occurrence of a secret value in a JSON-like value with `[redacted]`. */
export function redactSecrets<TValue>(value: TValue, secretValues: readonly string[]): TValue {
  const secrets = secretValues.filter((secret) => secret.length > 0);
  if (secrets.length === 0) return value;
  const redact = (item: unknown): unknown => {
    if (typeof item === 'string')
      return secrets.reduce((text, secret) => text.split(secret).join('[redacted]'), item);
    if (Array.isArray(item)) return item.map(redact);
    if (item !== null && typeof item === 'object') {
      return Object.fromEntries(
        Object.entries(item as Record<string, unknown>).map(([key, entry]) => [key, redact(entry)]),
      );
    }
    return item;
  };
  return redact(value) as TValue;
}

/** A secret an executor config references, and where: a JSON Pointer into the config. */
export interface SecretReference {
  name: string;
  pointer: string;
}

/** RFC 6901 §3: `~` and `/` in a reference token are written `~0` and `~1`. */
function pointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function referencesIn(
  values: Readonly<Record<string, HeaderValue>>,
  member: string,
): SecretReference[] {
  return Object.entries(values).flatMap(([key, value]) =>
    typeof value === 'string'
      ? []
      : [{ name: value.secret, pointer: `/${member}/${pointerToken(key)}/secret` }],
  );
}

/** Every `{secret}` reference of an executor config (header values, then query parameters), in order. */
export function secretReferencesOf(config: ExecutorConfig): SecretReference[] {
  if (config.kind === 'builtin') return [];
  return [
    ...referencesIn(config.headers, 'headers'),
    ...(config.kind === 'http' ? referencesIn(config.query_params ?? {}, 'query_params') : []),
  ];
}
