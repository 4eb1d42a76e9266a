import type { ClassificationRow } from './classification-table';

const transientNetworkCodes = [
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
];

/** The classification rows the engine uses unless the host loads its own. */
export const DEFAULT_CLASSIFICATION_ROWS: readonly ClassificationRow[] = [
  {
    match: { code: 'invalid_arguments' },
    result_code: 'invalid_arguments',
    layer: 'schema',
    retryable: false,
    user_visible: true,
  },
  {
    match: { code: 'policy_denied' },
    result_code: 'policy_denied',
    layer: 'policy',
    retryable: false,
    user_visible: true,
  },
  {
    match: { code: 'approval_denied' },
    result_code: 'approval_denied',
    layer: 'policy',
    retryable: false,
    user_visible: true,
  },
  {
    match: { code: 'approval_expired' },
    result_code: 'approval_expired',
    layer: 'policy',
    retryable: true,
    user_visible: true,
  },
  {
    match: { code: 'rate_limited' },
    result_code: 'rate_limited',
    layer: 'return_to_model',
    retryable: true,
    user_visible: true,
    user_message: 'The tool is being called too often; try again later.',
  },
  {
    match: { timeout: true },
    result_code: 'timeout',
    layer: 'retry',
    retryable: true,
    user_visible: true,
    user_message: 'The tool did not answer in time.',
  },
  {
    match: { aborted: true },
    result_code: 'cancelled',
    layer: 'return_to_model',
    retryable: false,
    user_visible: true,
  },
  {
    match: { http_status: 429 },
    result_code: 'rate_limited',
    layer: 'retry',
    retryable: true,
    user_visible: true,
    user_message: 'The tool is being called too often; try again later.',
  },
  {
    match: { http_status: 408 },
    result_code: 'timeout',
    layer: 'retry',
    retryable: true,
    user_visible: true,
  },
  {
    match: { http_status: 501 },
    result_code: 'upstream_error',
    layer: 'fallback',
    retryable: false,
    user_visible: false,
    user_message: 'The tool is not available.',
  },
  {
    match: { http_status: { min: 500, max: 599 } },
    result_code: 'upstream_error',
    layer: 'retry',
    retryable: true,
    user_visible: false,
    user_message: 'The tool failed temporarily.',
  },
  ...transientNetworkCodes.map((code): ClassificationRow => ({
    match: { network_code: code },
    result_code: 'upstream_error',
    layer: 'retry',
    retryable: true,
    user_visible: false,
    user_message: 'The tool could not be reached.',
  })),
  {
    match: { http_status: 401 },
    result_code: 'upstream_error',
    layer: 'fallback',
    retryable: false,
    user_visible: false,
    user_message: 'The tool refused its credentials.',
  },
  {
    match: { http_status: 403 },
    result_code: 'upstream_error',
    layer: 'fallback',
    retryable: false,
    user_visible: false,
    user_message: 'The tool refused its credentials.',
  },
  {
    // Redirects are not followed (a redirect could lead past the egress policy or leak the request's
    // credentials to another host); the tool's URL should name where it really answers.
    match: { http_status: { min: 300, max: 399 } },
    result_code: 'upstream_error',
    layer: 'return_to_model',
    retryable: false,
    user_visible: true,
    user_message: 'The tool answered with a redirect, which the gateway does not follow.',
  },
  // A write refused because the resource changed since the version it expected (If-Match failed,
  // or the upstream's own conflict): the model must read the resource again, so it is never retried.
  ...([412, 409] as const).map((status): ClassificationRow => ({
    match: { http_status: status },
    result_code: 'conflict',
    layer: 'return_to_model',
    retryable: false,
    user_visible: true,
    user_message:
      'The resource changed since the version this write expected: read it again and write against its current version.',
  })),
  {
    match: { code: 'conflict' },
    result_code: 'conflict',
    layer: 'return_to_model',
    retryable: false,
    user_visible: true,
    user_message:
      'The resource changed since the version this write expected: read it again and write against its current version.',
  },
  {
    match: { http_status: { min: 400, max: 499 } },
    result_code: 'tool_error',
    layer: 'return_to_model',
    retryable: false,
    user_visible: true,
  },
  {
    match: { code: 'tool_error' },
    result_code: 'tool_error',
    layer: 'return_to_model',
    retryable: false,
    user_visible: true,
  },
  {
    match: { code: 'response_too_large' },
    result_code: 'tool_error',
    layer: 'return_to_model',
    retryable: false,
    user_visible: true,
  },
  {
    // Where the tool points is the team's configuration, not something the model can fix or a
    // retry can change; the message names the host and the setting that allows it.
    match: { code: 'egress_denied' },
    result_code: 'egress_denied',
    layer: 'policy',
    retryable: false,
    user_visible: true,
  },
  {
    // The team has not stored a secret the tool's version references: a team admin's job, named
    // in the message (the name, never a value), so neither the model nor a retry can fix it.
    match: { code: 'secret_unavailable' },
    result_code: 'secret_unavailable',
    layer: 'policy',
    retryable: false,
    user_visible: true,
  },
  {
    match: { code: 'unknown_tool' },
    result_code: 'unknown_tool',
    layer: 'return_to_model',
    retryable: false,
    user_visible: true,
  },
  {
    match: {},
    result_code: 'internal',
    layer: 'fallback',
    retryable: false,
    user_visible: false,
    user_message: 'The tool failed unexpectedly.',
  },
];
