import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { BuiltinExecutor, SecretResolver } from '@toolgate/engine';
import { createExampleBuiltins } from '@toolgate/gateway';
import { AppModule } from './app.module';
import { DEFAULT_APPROVAL_TTL_MS, type GatewayOptions } from './calls/gateway-options';
import { MAX_WAIT_MS } from './calls/calls.dto';
import type { AppConfig } from './config/app-config';
import type { Database } from './database/database';
import { createLogger, PinoNestLogger } from './logging/logger';
import { MCP_ROUTE } from './mcp/mcp-options';
import { addProblemResponses } from './problem/problem-openapi';
import { ToolException, ToolExceptionCode } from './problem/tool.exception';

/** Longest accepted request target; longer ones get a 414 before any parsing. */
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

function gatewayOptionsOf(options: CreateAppOptions): GatewayOptions {
  return {
    // The same example tools a worker runs, so a builtin tool behaves alike wherever it runs.
    builtins: options.builtins ?? createExampleBuiltins(),
    secrets: options.secrets,
    approvalTtlMs: options.approvalTtlMs ?? DEFAULT_APPROVAL_TTL_MS,
    defaultWaitMs: Math.min(options.defaultWaitMs ?? DEFAULT_WAIT_MS, MAX_WAIT_MS),
    maxWaitMs: MAX_WAIT_MS,
  };
}

/** Paths (without host) the API serves besides its routes. */
export const API_PATHS = {
  openapi: '/v1/openapi.json',
  docs: '/v1/docs',
  health: '/healthz',
  ready: '/readyz',
} as const;

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
    },
  );
  app.setGlobalPrefix('v1', { exclude: ['healthz', 'readyz', MCP_ROUTE] });
  app.enableShutdownHooks();
  installFastifyHooks(app.getHttpAdapter().getInstance());

  const document = addProblemResponses(
    SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('Toolgate registry API')
        .setDescription(
          'Tools, versions, releases, exports in every provider format, API keys and the audit trail.',
        )
        .setVersion('1')
        .addBearerAuth()
        .build(),
    ),
  );
  document.security = [{ bearer: [] }];
  SwaggerModule.setup(API_PATHS.docs.slice(1), app, document, {
    jsonDocumentUrl: API_PATHS.openapi.slice(1),
    yamlDocumentUrl: 'v1/openapi.yaml',
  });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

/**
 * Fastify-level checks. Nest installs Fastify's error and not-found handlers itself and routes
 * both through the exception filters, so parse errors and unknown routes reach ProblemDetailsFilter.
 */
function installFastifyHooks(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
    if (request.url.length > MAX_URL_LENGTH) {
      throw new ToolException(
        ToolExceptionCode.UriTooLong,
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
        ToolExceptionCode.UnsupportedMediaType,
        'Send request bodies as application/json.',
        {
          extensions: { accepted: ['application/json'] },
        },
      );
    }
  });
}
