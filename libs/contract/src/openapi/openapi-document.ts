import { ERROR_CODES, type ProblemCode } from '@toolgate/toolir';
import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import {
  COMMON_PROBLEMS,
  PROBLEM_MEDIA_TYPE,
  ProblemSchema,
  problemSchemaOf,
  problemsByStatus,
} from '../problem/problem';
import type { RouteDefinition, RouteSecurity } from '../route/route';

export interface OpenApiDocumentOptions {
  /** The routes to describe (the contract's ROUTES). */
  routes: readonly RouteDefinition[];
  /** The document's `info.version`. */
  version: string;
  /** Base URLs the document names in `servers`; default: relative to where it is served. */
  servers?: readonly string[];
}

/** The names of the security schemes in `components.securitySchemes`. */
export const SECURITY_SCHEMES = {
  apiKey: 'apiKey',
  consoleSession: 'consoleSession',
  csrfToken: 'csrfToken',
} as const;

const SAFE_METHODS = new Set(['get', 'head', 'options']);

function securityOf(route: RouteDefinition): Array<Record<string, string[]>> {
  const security: RouteSecurity = route.security;
  if (security === 'public') return [];
  const session: Record<string, string[]> = SAFE_METHODS.has(route.method)
    ? { [SECURITY_SCHEMES.consoleSession]: [] }
    : { [SECURITY_SCHEMES.consoleSession]: [], [SECURITY_SCHEMES.csrfToken]: [] };
  if (security === 'console_session') return [session];
  if (security === 'bearer') return [{ [SECURITY_SCHEMES.apiKey]: [...(route.scopes ?? [])] }];
  return [{ [SECURITY_SCHEMES.apiKey]: [...(route.scopes ?? [])] }, session];
}

function describeCodes(codes: readonly ProblemCode[]): string {
  return codes.map((code) => `- \`${code}\`: ${ERROR_CODES[code].summary}`).join('\n');
}

function responsesOf(route: RouteDefinition): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status as `2${string}`] = {
      description: response.description,
      ...(response.schema === undefined
        ? // A stream (text/event-stream) has a media type but no one schema for its body.
          response.mediaType === undefined
          ? {}
          : { content: { [response.mediaType]: {} } }
        : { content: { [response.mediaType ?? 'application/json']: { schema: response.schema } } }),
      ...(response.headers === undefined
        ? {}
        : {
            headers: z.object(
              Object.fromEntries(
                Object.entries(response.headers).map(([name, header]) => [
                  name,
                  header.schema.meta({ description: header.description }),
                ]),
              ),
            ),
          }),
    };
  }
  const codes =
    route.security === 'public'
      ? [...route.problems, 'internal' as const]
      : [...COMMON_PROBLEMS, ...route.problems];
  for (const [status, byStatus] of problemsByStatus(codes)) {
    responses[String(status) as `4${string}`] = {
      description: `A problem document with one of these codes:\n${describeCodes(byStatus)}`,
      content: {
        [PROBLEM_MEDIA_TYPE]: {
          // One schema per code, each with its code fixed and its extension members typed.
          schema:
            byStatus.length === 1
              ? problemSchemaOf(byStatus[0] as ProblemCode)
              : z.union(byStatus.map((code) => problemSchemaOf(code))),
        },
      },
    };
  }
  return responses;
}

function operationOf(route: RouteDefinition): ZodOpenApiOperationObject {
  const requestParams: NonNullable<ZodOpenApiOperationObject['requestParams']> = {};
  if (route.params !== undefined) requestParams.path = route.params;
  if (route.query !== undefined) requestParams.query = route.query;
  if (route.headers !== undefined) requestParams.header = route.headers;
  const scopes =
    route.scopes === undefined || route.scopes.length === 0
      ? ''
      : `\n\nAPI key scopes: ${route.scopes.map((scope) => `\`${scope}\``).join(', ')}.`;
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description === undefined && scopes === ''
      ? {}
      : { description: `${route.description ?? ''}${scopes}`.trim() }),
    tags: [...route.tags],
    security: securityOf(route),
    ...(Object.keys(requestParams).length === 0 ? {} : { requestParams }),
    ...(route.body === undefined
      ? {}
      : {
          requestBody: {
            // A body the schema accepts absent (promote, rollback: "none or {}") is optional.
            required: !route.body.safeParse(undefined).success,
            content: {
              'application/json': {
                schema: route.body,
                ...(route.bodyExamples === undefined
                  ? {}
                  : {
                      examples: Object.fromEntries(
                        Object.entries(route.bodyExamples).map(([name, value]) => [
                          name,
                          { value },
                        ]),
                      ),
                    }),
              },
            },
          },
        }),
    responses: responsesOf(route),
  };
}

/**
 * The OpenAPI 3.1 document of the API, generated from the routes: every parameter, every status a
 * route answers with (problem documents grouped by status with their codes), the security schemes
 * the API really accepts, and bodies as JSON Schema 2020-12.
 */
export function createOpenApiDocument(
  options: OpenApiDocumentOptions,
): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of options.routes) {
    const item = (paths[route.path] ??= {});
    if (item[route.method] !== undefined) {
      throw new Error(`two routes for ${route.method.toUpperCase()} ${route.path}`);
    }
    item[route.method] = operationOf(route);
  }
  const tags = [...new Set(options.routes.flatMap((route) => route.tags))].sort();
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Toolgate registry API',
        version: options.version,
        description:
          'Tools, versions, releases, exports in every provider format, calls, approvals, policies, secrets, API keys and the audit trail. Every error is a problem document (RFC 9457) with a stable `code`.',
      },
      ...(options.servers === undefined
        ? {}
        : { servers: options.servers.map((url) => ({ url })) }),
      tags: tags.map((name) => ({ name })),
      paths,
      components: {
        schemas: { Problem: ProblemSchema },
        securitySchemes: {
          [SECURITY_SCHEMES.apiKey]: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'tg_ API key',
            description:
              'An API key created with POST /v1/api-keys: `Authorization: Bearer tg_...`.',
          },
          [SECURITY_SCHEMES.consoleSession]: {
            type: 'apiKey',
            in: 'cookie',
            name: 'toolgate_session',
            description: 'The console session cookie set by POST /v1/console/session.',
          },
          [SECURITY_SCHEMES.csrfToken]: {
            type: 'apiKey',
            in: 'header',
            name: 'x-csrf-token',
            description:
              "The session's `csrf_token`; required with the session cookie on every change.",
          },
        },
      },
    },
    {
      // Problem documents share one component; everything else is inlined where it is used unless it has an id.
      outputIdSuffix: 'Output',
    },
  );
}
