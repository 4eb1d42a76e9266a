import { request as sendRequest, type FormData } from 'undici';
import type { Dispatcher } from 'undici';
import { parseRetryAfter } from '../retry/backoff';
import type { FailureSignal } from '../classification/failure-signal';
import type { ExecutorOutcome, ExecutorRequest, ToolExecutor } from './executor';
import { failureFromError, ToolExecutionError } from './executor';
import type { HttpExecutorConfig } from '@toolgate/contract';
import {
  parseJsonPointer,
  readCallPointer,
  resolveJsonPointer,
  type ToolCostReport,
} from '@toolgate/toolir';
import {
  argumentText,
  formBody,
  multipartBody,
  placeParameters,
  type FetchedFile,
} from './http-parameters';
import type { SecretResolver } from './secret-resolver';
import { redactSecrets, resolveHeaders } from './secret-resolver';
import { traceHeadersOf, withTraceHeaders } from '../telemetry/trace-headers';

/** Options of the `http` executor. */
export interface HttpExecutorOptions {
  /** Resolves `{secret: 'NAME'}` header values. */
  secrets?: SecretResolver;
  /** An undici dispatcher (agent, pool or proxy); the global one by default. */
  dispatcher?: Dispatcher;
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const MAX_ERROR_BODY_CHARS = 2048;

/** Fills `{arg}` placeholders (URL-encoded) and returns the URL with the arguments it did not use. */
function fillUrl(
  template: string,
  args: Record<string, unknown>,
): { url: URL; remaining: Record<string, unknown> } {
  const used = new Set<string>();
  const filled = template.replace(PLACEHOLDER, (_match, name: string) => {
    const value = args[name];
    if (value === undefined || value === null) {
      throw new ToolExecutionError({
        code: 'invalid_arguments',
        message: `argument "${name}" is required to build the request URL`,
      });
    }
    used.add(name);
    return encodeURIComponent(argumentText(value));
  });
  const remaining = Object.fromEntries(Object.entries(args).filter(([key]) => !used.has(key)));
  return { url: new URL(filled), remaining };
}

function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Destroys a response body, closing its connection; the resulting abort error is expected and ignored. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

async function readCapped(
  body: Dispatcher.ResponseData['body'],
  maxBytes: number,
): Promise<Buffer<ArrayBuffer> | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > maxBytes) {
      // Stop reading at once: the rest of an oversized response is never buffered.
      discard(body);
      return undefined;
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function decode(
  buffer: Buffer,
  contentType: string | undefined,
): { ok: true; value: unknown } | { ok: false } {
  const text = buffer.toString('utf8');
  if (contentType !== undefined && /\bjson\b/i.test(contentType)) {
    if (text.length === 0) return { ok: true, value: null };
    try {
      return { ok: true, value: JSON.parse(text) as unknown };
    } catch {
      return { ok: false };
    }
  }
  return { ok: true, value: text };
}

async function executeHttp(
  request: ExecutorRequest<HttpExecutorConfig>,
  options: HttpExecutorOptions,
): Promise<ExecutorOutcome> {
  const { config, signal } = request;
  let secretValues: string[] = [];
  try {
    const placed = placeParameters(config, request.arguments);
    const { url, remaining } = fillUrl(placed.urlTemplate, placed.unmapped);
    const bodyMode =
      config.body ??
      (['POST', 'PUT', 'PATCH'].includes(config.method) ? 'remaining_arguments' : 'none');
    const queryMode =
      config.query ??
      (['GET', 'HEAD', 'DELETE'].includes(config.method) ? 'remaining_arguments' : 'none');
    if (queryMode === 'remaining_arguments') {
      for (const [key, value] of Object.entries(remaining)) {
        if (value !== undefined && value !== null)
          url.searchParams.append(key, argumentText(value));
      }
    }
    // Appended as text: URLSearchParams would re-encode the styles' `%20`/`%7C` delimiters.
    if (placed.query.length > 0) {
      const existing = url.search.replace(/^\?/, '');
      url.search = [existing, ...placed.query].filter((part) => part !== '').join('&');
    }
    const secrets = request.secrets ?? options.secrets;
    const resolved = await resolveHeaders(config.headers, secrets);
    const fixedQuery = await resolveHeaders(config.query_params ?? {}, secrets, 'query parameter');
    secretValues = [...resolved.secretValues, ...fixedQuery.secretValues];
    const fixedPairs = Object.entries(fixedQuery.headers).map(
      ([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`,
    );
    if (fixedPairs.length > 0) {
      // As text, like the parameters above; failures name the origin and path, never the query.
      const existing = url.search.replace(/^\?/, '');
      url.search = [existing, ...fixedPairs].filter((part) => part !== '').join('&');
    }
    // The attempt's span (active here) becomes the upstream's parent; configured headers win.
    const headers: Record<string, string> = withTraceHeaders(
      { accept: 'application/json', ...resolved.headers, ...placed.headers, ...request.headers },
      traceHeadersOf(),
    );
    if (placed.cookies.length > 0) {
      const fixedCookie = Object.keys(headers).find((name) => name.toLowerCase() === 'cookie');
      const cookies = [
        ...(fixedCookie === undefined ? [] : [headers[fixedCookie]]),
        ...placed.cookies,
      ];
      if (fixedCookie !== undefined) delete headers[fixedCookie];
      headers['cookie'] = cookies.join('; ');
    }
    let content: { value: unknown } | undefined;
    if (typeof bodyMode === 'object') {
      const { argument } = bodyMode;
      if (Object.hasOwn(request.arguments, argument) && request.arguments[argument] !== undefined)
        content = { value: request.arguments[argument] };
    } else if (bodyMode !== 'none') {
      content = { value: bodyMode === 'arguments' ? request.arguments : remaining };
    }
    const body =
      content === undefined
        ? undefined
        : await encodeBody(config, content.value, (fileUrl, field) =>
            fetchFile(fileUrl, { field, config, signal, options }),
          );
    // A multipart body's type carries its boundary, which undici writes from the FormData.
    if (typeof body === 'string')
      headers['content-type'] =
        config.body_encoding === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
    const response = await sendRequest(url, {
      method: config.method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal,
      ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
    });
    const contentType = headerValue(response.headers, 'content-type');
    const declaredLength = Number(headerValue(response.headers, 'content-length') ?? Number.NaN);
    const tooLarge: FailureSignal = {
      code: 'response_too_large',
      message: `the response is larger than the ${config.max_response_bytes}-byte limit`,
    };
    if (Number.isFinite(declaredLength) && declaredLength > config.max_response_bytes) {
      discard(response.body);
      return { ok: false, failure: tooLarge };
    }
    const buffer = await readCapped(response.body, config.max_response_bytes);
    if (buffer === undefined) return { ok: false, failure: tooLarge };
    const decoded = decode(buffer, contentType);
    const { statusCode } = response;
    if (statusCode < 200 || statusCode >= 300) {
      const retryAfter = parseRetryAfter(
        headerValue(response.headers, 'retry-after'),
        request.now(),
      );
      const detailBody = decoded.ok ? decoded.value : buffer.toString('utf8');
      const currentVersion =
        statusCode === 409 || statusCode === 412
          ? currentVersionOf(request, response.headers, detailBody)
          : undefined;
      const failure: FailureSignal = {
        http_status: statusCode,
        message: `${config.method} ${url.origin}${url.pathname} answered HTTP ${statusCode}`,
        details: {
          status: statusCode,
          body:
            typeof detailBody === 'string' ? detailBody.slice(0, MAX_ERROR_BODY_CHARS) : detailBody,
          ...(currentVersion === undefined ? {} : { current_version: currentVersion }),
        },
        ...(retryAfter === undefined ? {} : { retry_after_ms: retryAfter }),
      };
      return { ok: false, failure: redactSecrets(failure, secretValues) };
    }
    if (!decoded.ok)
      return {
        ok: false,
        failure: { code: 'tool_error', message: 'the response is not valid JSON' },
      };
    const reported = reportedHeadersOf(request, response.headers);
    const cost = reportedCost(request.tool.constraints.cost_report, {
      headers: response.headers,
      data: decoded.value,
    });
    return {
      ok: true,
      data: redactSecrets(decoded.value, secretValues),
      ...(reported === undefined ? {} : { headers: reported }),
      ...(cost === undefined ? {} : { cost_usd: cost }),
    };
  } catch (error) {
    return { ok: false, failure: redactSecrets(failureFromError(error, signal), secretValues) };
  }
}

/** The response header a tool declares as where it reports its resource version (`concurrency.version`). */
function versionHeaderOf(request: ExecutorRequest<HttpExecutorConfig>): string | undefined {
  const source = request.tool.concurrency?.version;
  return source === undefined || typeof source === 'string'
    ? undefined
    : source.header.toLowerCase();
}

function reportedHeadersOf(
  request: ExecutorRequest<HttpExecutorConfig>,
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> | undefined {
  const name = versionHeaderOf(request);
  const value = name === undefined ? undefined : headerValue(headers, name);
  return name === undefined || value === undefined ? undefined : { [name]: value };
}

/**
 * The resource's version as a refused write's answer tells it: the declared version header, else
 * the `ETag` (what a 412 to `If-Match` carries), else the declared result pointer into the body.
 */
function currentVersionOf(
  request: ExecutorRequest<HttpExecutorConfig>,
  headers: Record<string, string | string[] | undefined>,
  body: unknown,
): string | undefined {
  const declared = request.tool.concurrency?.version;
  if (declared === undefined) return undefined;
  const fromHeader = headerValue(headers, versionHeaderOf(request) ?? 'etag');
  if (fromHeader !== undefined && fromHeader !== '') return fromHeader;
  if (typeof declared !== 'string') return undefined;
  const value = readCallPointer({ arguments: request.arguments, result: body }, declared);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/**
 * The amount the upstream reports in the place the tool version declares, when it is a finite,
 * non-negative number (a header's text or a JSON number); anything else is no report, and the
 * version's estimate stands.
 */
function reportedCost(
  report: ToolCostReport | undefined,
  response: { headers: Record<string, string | string[] | undefined>; data: unknown },
): number | undefined {
  if (report === undefined) return undefined;
  let value: unknown;
  if (report.in === 'header') {
    const text = headerValue(response.headers, report.name.toLowerCase())?.trim();
    value = text === undefined || text === '' ? undefined : Number(text);
  } else {
    const tokens = parseJsonPointer(report.pointer);
    value = tokens === undefined ? undefined : resolveJsonPointer(response.data, tokens);
  }
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The request body in the config's encoding. */
async function encodeBody(
  config: HttpExecutorConfig,
  value: unknown,
  fetch: (url: URL, field: string) => Promise<FetchedFile>,
): Promise<string | FormData> {
  if (config.body_encoding === 'form') return formBody(value);
  if (config.body_encoding === 'multipart')
    return multipartBody(value, new Set(config.files), fetch);
  return JSON.stringify(value);
}

/**
 * Fetches a file argument given by URL, through the executor's dispatcher (so the deployment's
 * egress rules apply to it as to the call), within the call's deadline and the response cap. A
 * URL that answers no file is the model's to fix: `invalid_arguments`, naming origin and path
 * only (a query may carry a token).
 */
async function fetchFile(
  url: URL,
  context: {
    field: string;
    config: HttpExecutorConfig;
    signal: AbortSignal;
    options: HttpExecutorOptions;
  },
): Promise<FetchedFile> {
  const { field, config, signal, options } = context;
  const where = `${url.origin}${url.pathname}`;
  const response = await sendRequest(url, {
    method: 'GET',
    signal,
    ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
  });
  if (response.statusCode < 200 || response.statusCode >= 300) {
    discard(response.body);
    throw new ToolExecutionError({
      code: 'invalid_arguments',
      message: `the file for "${field}" could not be fetched: ${where} answered HTTP ${response.statusCode}`,
    });
  }
  const bytes = await readCapped(response.body, config.max_response_bytes);
  if (bytes === undefined)
    throw new ToolExecutionError({
      code: 'invalid_arguments',
      message: `the file for "${field}" at ${where} is larger than the ${config.max_response_bytes}-byte limit`,
    });
  const contentType = headerValue(response.headers, 'content-type');
  return { bytes, ...(contentType === undefined ? {} : { contentType }) };
}

/** The `http` executor: undici requests with secret headers, a response size cap and abort on timeout. */
export function createHttpExecutor(options: HttpExecutorOptions = {}): ToolExecutor<'http'> {
  return { kind: 'http', execute: (request) => executeHttp(request, options) };
}
