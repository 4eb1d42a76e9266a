import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { constants as zlibConstants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import {
  createOpenApiDocument,
  OPENAPI_IMPORT_BODY_LIMIT,
  ROUTE_LIST,
  routes,
} from '@toolgate/contract';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type onSendAsyncHookHandler,
} from 'fastify';
import type { Logger } from 'pino';
import type { BuiltinExecutor, SecretResolver } from '@toolgate/engine';
import {
  createExampleBuiltins,
  gatewayEgressFromSettings,
  traceContentOf,
} from '@toolgate/gateway';
import { AppModule } from './app.module';
import { DEFAULT_APPROVAL_TTL_MS, type GatewayOptions } from './calls/gateway-options';
import { MAX_WAIT_MS } from './calls/calls.dto';
import type { AppConfig } from './config/app-config';
import type { Database } from './database/database';
import { createLogger, PinoNestLogger } from './logging/logger';
import { installRequestLog } from './logging/request-log';
import { installRequestTracing } from './telemetry/request-tracing';
import { startApiTracing } from './telemetry/tracing';
import { API_PATHS } from './common/api-paths';
import { findJsonTextProblem } from './common/strict-json';
import { MCP_ROUTE } from './mcp/mcp-options';
import { PROTECTED_RESOURCE_METADATA_ROUTES } from './oauth/protected-resource';
import { recordRouteMethods } from './problem/allowed-methods';
import { writeProblemToSocket } from './problem/problem-details.filter';
import { installProblemCheck } from './contract/problem-check.hook';
import { ToolException } from './problem/tool.exception';

/**
 * Longest accepted request target; longer ones get a 414 before any parsing (by the onRequest hook
 * up to Node's maxHeaderSize, 16 KiB by default, by the clientError handler beyond it).
 */
const MAX_URL_LENGTH = 8 * 1024;
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export interface CreateAppOptions {
  config: AppConfig;
  database: Database;
  logger?: Logger;
  /** Handlers of `builtin` tools (`protocol_meta.toolgate.executor = {kind: 'builtin', handler}`); default: the example tools (`toolgate.echo`, `toolgate.sleep`). */
  builtins?: BuiltinExecutor;
  /** Resolves `{secret: NAME}` headers of http and mcp tools. */
  secrets?: SecretResolver;
  /** How long approval requests stay open; default 24 h. */
  approvalTtlMs?: number;
  /** How long POST /v1/calls waits for results when the request does not say; default 10 s. */
  defaultWaitMs?: number;
}

const DEFAULT_WAIT_MS = 10_000;
/** The API's version as the OpenAPI document states it. */
const API_VERSION = '1.0.0';

let document: ReturnType<typeof createOpenApiDocument> | undefined;

/**
 * The document is the contract's, not one Nest infers: the same schemas validate every request.
 * Built once per process (it depends only on the routes), however many apps a process creates.
 */
function apiDocument(): ReturnType<typeof createOpenApiDocument> {
  document ??= createOpenApiDocument({ routes: ROUTE_LIST, version: API_VERSION });
  return document;
}

function gatewayOptionsOf(options: CreateAppOptions): GatewayOptions {
  return {
    // The same example tools a worker runs, so a builtin tool behaves alike wherever it runs.
    builtins: options.builtins ?? createExampleBuiltins(),
    secrets: options.secrets,
    egress: gatewayEgressFromSettings({
      embedded: options.database.kind === 'pglite',
      allow: options.config.TOOLGATE_EGRESS_ALLOW,
    }),
    approvalTtlMs: options.approvalTtlMs ?? DEFAULT_APPROVAL_TTL_MS,
    traceContent: traceContentOf(options.config),
    defaultWaitMs: Math.min(options.defaultWaitMs ?? DEFAULT_WAIT_MS, MAX_WAIT_MS),
    maxWaitMs: MAX_WAIT_MS,
  };
}

export { API_PATHS } from './common/api-paths';

/** Builds the API (not listening): `main.ts` listens on it, tests call `inject()` on it. */
export async function createApp(options: CreateAppOptions): Promise<NestFastifyApplication> {
  const logger = options.logger ?? createLogger(options.config);
  const adapter = new FastifyAdapter({
    bodyLimit: options.config.BODY_LIMIT,
    loggerInstance: logger,
    // Reuse a caller's request id when it is sane, so one id follows a request across services.
    genReqId: (request: IncomingMessage) => {
      const header = request.headers['x-request-id'];
      return typeof header === 'string' && REQUEST_ID_PATTERN.test(header) ? header : randomUUID();
    },
    return503OnClosing: true,
    // installRequestLog writes the one line per request; Fastify's own two would double it.
    logController: new LogController({ disableRequestLogging: true }),
    clientErrorHandler: (error: Error & { code?: string; rawPacket?: unknown }, socket: Duplex) =>
      answerClientError(logger, error, socket),
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot({
      config: options.config,
      database: options.database,
      gateway: gatewayOptionsOf(options),
    }),
    adapter,
    {
      logger: new PinoNestLogger(logger),
      abortOnError: false,
      // Bodies are parsed by installJsonBodyParser alone; Nest would register a JSON parser of its own.
      bodyParser: false,
    },
  );
  app.setGlobalPrefix('v1', {
    exclude: ['healthz', 'readyz', MCP_ROUTE, ...PROTECTED_RESOURCE_METADATA_ROUTES],
  });
  app.enableShutdownHooks();
  // First of the request hooks, so everything after them runs in the request's trace context.
  const fastify = app.getHttpAdapter().getInstance();
  const tracing = startApiTracing(options.config);
  installRequestTracing(fastify, tracing);
  // Spans still batched are flushed when the app closes.
  fastify.addHook('onClose', () => tracing.shutdown());
  // Before any route exists: the plugin and the validator hook attach to each route as it is added.
  await installCompression(app);
  installFastifyHooks(fastify, options.config.BODY_LIMIT);
  installProblemCheck(app.getHttpAdapter().getInstance(), options.config.TOOLGATE_RESPONSE_CHECK);

  const document = apiDocument();
  SwaggerModule.setup(API_PATHS.docs.slice(1), app, document as unknown as OpenAPIObject, {
    jsonDocumentUrl: API_PATHS.openapi.slice(1),
    yamlDocumentUrl: 'v1/openapi.yaml',
    // A key pasted into "Authorize" survives a reload of the docs page.
    swaggerOptions: { persistAuthorization: true },
  });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

const REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/\d\.\d$/;

/**
 * Node's HTTP parser refuses some requests before Fastify has a request object, and Fastify's
 * default clientError handler answers them with plain JSON; here they get the same problem document
 * as everything else. Node reports a request line and headers past maxHeaderSize alike
 * (HPE_HEADER_OVERFLOW), so the bytes received tell them apart: a first line that is not a whole,
 * short request line means the target is too long (414), else the headers are (431).
 */
function answerClientError(
  logger: Logger,
  error: Error & { code?: string; rawPacket?: unknown },
  socket: Duplex,
): void {
  // A reset connection has nobody to answer (https://nodejs.org/api/http.html#event-clienterror).
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  let problem: ToolException;
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    const received = Buffer.isBuffer(error.rawPacket) ? error.rawPacket.toString('latin1') : '';
    const lineEnd = received.indexOf('\r\n');
    const firstLine = lineEnd === -1 ? received : received.slice(0, lineEnd);
    const targetTooLong =
      received.length > 0 &&
      (lineEnd === -1 || firstLine.length > MAX_URL_LENGTH || !REQUEST_LINE.test(firstLine));
    problem = targetTooLong
      ? new ToolException(
          'uri_too_long',
          `The request target exceeds ${MAX_URL_LENGTH} characters.`,
        )
      : new ToolException(
          'headers_too_large',
          'The request headers exceed the size this server accepts.',
        );
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    problem = new ToolException('request_timeout', 'The request was not received in time.');
  } else {
    problem = new ToolException('invalid_request', 'The request is not valid HTTP.');
  }
  const requestId = randomUUID();
  // One line, as for any request; the parser's error code says what was wrong.
  logger.info(
    { reqId: requestId, code: problem.code, parserError: error.code },
    'request refused by the HTTP parser',
  );
  if (socket.writable) writeProblemToSocket(socket, problem, requestId);
  else socket.destroy();
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The one guard every request body passes before anything reads it: UTF-8 only (a `charset` other
 * than utf-8 is a 415, invalid bytes a 400), then no key twice in an object, no NUL or lone
 * surrogate in any string, at most MAX_JSON_DEPTH levels (each a 400 naming the place as a JSON
 * Pointer), then Fastify's own JSON parser with its prototype-poisoning guard.
 */
function installJsonBodyParser(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(
    JSON_MEDIA_TYPE,
    { parseAs: 'buffer' },
    (request, body: Buffer, done: (error: Error | null, value?: unknown) => void) => {
      const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '');
      if (charset?.[1] !== undefined && !/^utf-?8$/i.test(charset[1])) {
        done(
          new ToolException(
            'unsupported_media_type',
            `Send request bodies as UTF-8 JSON, not ${charset[1]}.`,
            { extensions: { accepted: ['application/json; charset=utf-8'] } },
          ),
        );
        return;
      }
      let text: string;
      try {
        text = utf8.decode(body);
      } catch {
        done(
          new ToolException('invalid_request', 'The body is not valid UTF-8.', {
            issues: [{ path: '/body', message: 'is not valid UTF-8' }],
          }),
        );
        return;
      }
      const problem = text.length === 0 ? undefined : findJsonTextProblem(text);
      if (problem !== undefined) {
        done(
          new ToolException('invalid_request', 'The body holds text this API does not accept.', {
            issues: [{ path: `/body${problem.pointer}`, message: problem.message }],
          }),
        );
        return;
      }
      // Fastify's default JSON parser answers through `done`, synchronously.
      void parse(request, text, done);
    },
  );
}

/**
 * Fastify-level checks. Nest installs Fastify's error and not-found handlers itself and routes
 * both through the exception filters, so parse errors and unknown routes reach ProblemDetailsFilter.
 */
function installFastifyHooks(fastify: FastifyInstance, bodyLimit: number): void {
  // An OpenAPI import carries a whole API description: the route takes what its schema allows.
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.url === routes.importOpenApi.path && methods.includes('POST')) {
      route.bodyLimit = Math.max(bodyLimit, OPENAPI_IMPORT_BODY_LIMIT);
    }
  });
  installRequestLog(fastify);
  recordRouteMethods(fastify);
  installJsonBodyParser(fastify);
  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
    if (request.url.length > MAX_URL_LENGTH) {
      throw new ToolException(
        'uri_too_long',
        `The request target exceeds ${MAX_URL_LENGTH} characters.`,
      );
    }
    // Every body this API reads is JSON; anything else is refused before a parser sees it.
    const hasBody =
      request.headers['transfer-encoding'] !== undefined ||
      Number(request.headers['content-length'] ?? 0) > 0;
    const contentType = request.headers['content-type'];
    if (hasBody && (contentType === undefined || !JSON_MEDIA_TYPE.test(contentType))) {
      throw new ToolException(
        'unsupported_media_type',
        'Send request bodies as application/json.',
        {
          extensions: { accepted: ['application/json'] },
        },
      );
    }
  });
}

/** Smaller answers go out as they are: coding them saves less than it costs. */
const COMPRESS_THRESHOLD_BYTES = 1024;
/**
 * Brotli's quality (0-11). zlib's default, 11, suits files compressed once: on a 1.7 MB export it
 * takes 2.3 s of CPU per request, where 4 takes 12 ms for output no larger than gzip's default
 * level (README.md, "Compression").
 */
const BROTLI_QUALITY = 4;

/**
 * Codes answers of at least COMPRESS_THRESHOLD_BYTES whose type is text or JSON (problem+json
 * included) with br or gzip, as Accept-Encoding prefers (br when both are as welcome). Event
 * streams are never coded or buffered: the call event stream and /mcp hijack their replies and
 * write to the socket, so no onSend hook sees them, and @fastify/compress leaves
 * `text/event-stream` alone besides. Request bodies are not decompressed: the JSON body guard reads
 * what the client sent.
 */
async function installCompression(app: NestFastifyApplication): Promise<void> {
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    brotliOptions: {
      params: {
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
        [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      },
    },
    globalDecompression: false,
  });
  // Registered after the plugin's own onRoute hook, so this onSend runs after its coding step.
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      const own =
        route.onSend === undefined
          ? []
          : Array.isArray(route.onSend)
            ? route.onSend
            : [route.onSend];
      route.onSend = [...own, markCodedValidator];
    });
}

/**
 * RFC 9110 §8.8.3: a content coding makes another representation, so a coded answer must not carry
 * the strong ETag of the identity one (§8.8.3.3 gives each coding its own tag). Coded answers carry
 * it weak, `W/"…"`; If-None-Match compares weakly (§13.1.2), so either form revalidates, and a 304
 * repeats the form the client holds, as the 200 it revalidates had it (§15.4.5). Every answer with
 * a validator varies on Accept-Encoding, coded or not, so no cache hands one coding out for another.
 */
const markCodedValidator: onSendAsyncHookHandler = async (request, reply, payload) => {
  const etag = reply.getHeader('etag');
  if (typeof etag === 'string') {
    varyOnAcceptEncoding(reply);
    const weaken = reply.statusCode === 304 ? holdsOnlyWeakForm(request, etag) : isCoded(reply);
    if (weaken && !etag.startsWith('W/')) void reply.header('etag', `W/${etag}`);
  }
  return payload;
};

function isCoded(reply: FastifyReply): boolean {
  const coding = reply.getHeader('content-encoding');
  return coding !== undefined && coding !== 'identity';
}

function holdsOnlyWeakForm(request: FastifyRequest, etag: string): boolean {
  const held = (request.headers['if-none-match'] ?? '').split(',').map((tag) => tag.trim());
  return held.includes(`W/${etag}`) && !held.includes(etag);
}

function varyOnAcceptEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const names = (Array.isArray(vary) ? vary.join(',') : String(vary ?? ''))
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.includes('*')) return;
  // One spelling whether or not the plugin added its own (lower-case) entry.
  const others = names.filter((name) => name.toLowerCase() !== 'accept-encoding');
  void reply.header('vary', [...others, 'Accept-Encoding'].join(', '));
}
