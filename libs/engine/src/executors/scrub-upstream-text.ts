import { redactSecrets } from './secret-resolver';

/** The most characters of an upstream's own error text a failure carries to the model. */
export const UPSTREAM_TEXT_MAX_CHARS = 500;

const REDACTED = '[redacted]';

// Each credential shape an upstream's error text may echo back, with what replaces it.
const CREDENTIAL_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  // RFC 9110 §11.4 credentials after an auth scheme: `Bearer abc.def`, `Basic dXNlcjpw`.
  [/\b(Bearer|Basic|Digest|Token|ApiKey)(\s+)[A-Za-z0-9\-._~+/]+=*/gi, `$1$2${REDACTED}`],
  // RFC 3986 §3.2.1 userinfo: `https://user:password@host`.
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi, `$1${REDACTED}@`],
  // Query parameters named like a credential: `?access_token=…`, `&X-Amz-Signature=…`.
  [
    /([?&][^=&\s#]*(?:token|key|secret|sig|password|credential|auth)[^=&\s#]*=)[^&\s#"'<>(),;]+/gi,
    `$1${REDACTED}`,
  ],
  // `name: value`, `name=value` and JSON members named like a credential.
  [
    /(\b(?:access[_-]?token|refresh[_-]?token|id[_-]?token|token|api[_-]?key|x-api-key|client[_-]?secret|secret|password|passwd|private[_-]?key|authorization)["']?\s*[:=]\s*["']?)(?!\[redacted\]|(?:Bearer|Basic|Digest|Token|ApiKey)\s)[^\s"'&,;}]+/gi,
    `$1${REDACTED}`,
  ],
  // Well-known key formats: OpenAI/Stripe-style `sk-…`, GitHub `ghp_…`, Slack `xox…-`, AWS access keys, JWTs.
  [/\b(?:sk|pk|rk)[-_](?:live_|test_)?[A-Za-z0-9_-]{16,}/g, REDACTED],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}/g, REDACTED],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/g, REDACTED],
  [/\bAKIA[0-9A-Z]{16}\b/g, REDACTED],
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, REDACTED],
];

/**
 * Text from an upstream with the secret values the executor sent, and anything shaped like a
 * credential (bearer tokens, API keys, URL userinfo and query tokens), replaced by `[redacted]`.
 */
export function scrubCredentials(text: string, secretValues: readonly string[]): string {
  let scrubbed = redactSecrets(text, secretValues);
  for (const [pattern, replacement] of CREDENTIAL_PATTERNS)
    scrubbed = scrubbed.replace(pattern, replacement);
  return scrubbed;
}

/**
 * An upstream's own words about a failure, fit for the model: `scrubCredentials`, then cut to
 * `UPSTREAM_TEXT_MAX_CHARS` (after scrubbing, so a cut can never leave half a secret).
 */
export function scrubUpstreamText(text: string, secretValues: readonly string[]): string {
  const scrubbed = scrubCredentials(text, secretValues).trim();
  return scrubbed.length <= UPSTREAM_TEXT_MAX_CHARS
    ? scrubbed
    : `${scrubbed.slice(0, UPSTREAM_TEXT_MAX_CHARS - 1)}…`;
}
