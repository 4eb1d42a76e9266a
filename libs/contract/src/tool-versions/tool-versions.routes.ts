import { z } from 'zod';
import { defineRoute } from '../route/route';
import { ToolIdSchema } from '../tools/tools.schemas';
import {
  DeprecateToolVersionSchema,
  PublishedVersionSchema,
  PublishToolVersionSchema,
  ToolVersionDiffQuerySchema,
  ToolVersionDiffSchema,
  ToolVersionListSchema,
  ToolVersionParamSchema,
  ToolVersionSchema,
  ToolVersionWithIrSchema,
} from './tool-versions.schemas';

const tags = ['versions'] as const;
const toolParams = z.strictObject({ toolId: ToolIdSchema });
const versionParams = z.strictObject({ toolId: ToolIdSchema, version: ToolVersionParamSchema });

const exampleIr = {
  schema_version: '1.0',
  id: '0b7f6c52-2f4e-4a8e-9d0b-6f1c2f3a4b5c',
  name: 'get_weather',
  version: '1.1.0',
  description: 'Current weather for a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', minLength: 1 } },
    required: ['city'],
  },
  behavior: { readonly: true, destructive: false, idempotent: true },
  constraints: { timeout_ms: 5_000, max_retries: 2 },
  protocol_meta: {
    toolgate: {
      executor: {
        kind: 'http',
        method: 'GET',
        url: 'https://api.example.com/weather?city={city}',
      },
    },
  },
};

export const toolVersionsRoutes = {
  publishToolVersion: defineRoute({
    operationId: 'publishToolVersion',
    method: 'post',
    path: '/v1/tools/{toolId}/versions',
    summary:
      'Publish a version: a ToolIR, or a provider definition with `format`. Breaking changes need a major bump.',
    description:
      "The answer says whether callers get the version now (`served`) and, if not, which request puts it into rotation (`next`). A tool's first published version becomes stable unless `release` is `none`; a provider definition is completed with behavior, constraints and executor from the version it succeeds, and `fields` reports where each came from. Every problem of the definition is one 422 listing them all.",
    tags,
    security: 'api_key',
    scopes: ['tools:write'],
    params: toolParams,
    body: PublishToolVersionSchema,
    bodyExamples: {
      toolIr: { ir: exampleIr },
      draft: { ir: { ...exampleIr, version: '2.0.0' }, status: 'draft' },
      openAiChat: {
        format: 'openai-chat',
        version: '1.2.0',
        definition: {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Current weather for a city.',
            parameters: {
              type: 'object',
              properties: { city: { type: 'string' } },
              required: ['city'],
            },
          },
        },
        release: 'stable',
      },
    },
    responses: {
      201: {
        description: 'The version, and whether it is served.',
        schema: PublishedVersionSchema,
      },
    },
    problems: [
      'not_found',
      'conflict',
      'invalid_tool_definition',
      'breaking_change',
      'missing_secrets',
    ],
  }),
  listToolVersions: defineRoute({
    operationId: 'listToolVersions',
    method: 'get',
    path: '/v1/tools/{toolId}/versions',
    summary: 'Every version of a tool, newest first.',
    tags,
    security: 'api_key',
    scopes: ['tools:read'],
    params: toolParams,
    responses: {
      200: { description: 'The versions, without their ToolIR.', schema: ToolVersionListSchema },
    },
    problems: ['not_found'],
  }),
  getToolVersion: defineRoute({
    operationId: 'getToolVersion',
    method: 'get',
    path: '/v1/tools/{toolId}/versions/{version}',
    summary:
      'One version with its ToolIR; deprecated versions carry Deprecation, Sunset and Link headers.',
    description:
      'A version past its sunset, or in one of its brownouts, answers 410 `version_sunset` with a `Link` to its successor.',
    tags,
    security: 'api_key',
    scopes: ['tools:read'],
    params: versionParams,
    responses: {
      200: {
        description: 'The version with its ToolIR.',
        schema: ToolVersionWithIrSchema,
        headers: {
          deprecation: {
            description:
              'When the version was deprecated, `@<unix seconds>` (RFC 9745); only on a deprecated version.',
            schema: z.string().optional(),
          },
          sunset: {
            description:
              'When the version stops being served, an HTTP-date (RFC 8594); only on a deprecated version.',
            schema: z.string().optional(),
          },
          link: {
            description:
              'The successor, `</v1/tools/{toolId}/versions/{successor}>; rel="successor-version"`; only when the deprecation names one.',
            schema: z.string().optional(),
          },
        },
      },
    },
    problems: ['not_found', 'version_not_found', 'version_sunset'],
  }),
  publishDraftToolVersion: defineRoute({
    operationId: 'publishDraftToolVersion',
    method: 'post',
    path: '/v1/tools/{toolId}/versions/{version}/publish',
    summary: 'Publish a draft version (breaking changes still need a major bump).',
    description:
      'The draft is published as is; putting it into rotation stays a separate step (`next` names it).',
    tags,
    security: 'api_key',
    scopes: ['tools:write'],
    params: versionParams,
    responses: {
      200: { description: 'The published version.', schema: PublishedVersionSchema },
    },
    problems: [
      'not_found',
      'version_not_found',
      'conflict',
      'invalid_tool_definition',
      'breaking_change',
      'missing_secrets',
    ],
  }),
  deprecateToolVersion: defineRoute({
    operationId: 'deprecateToolVersion',
    method: 'post',
    path: '/v1/tools/{toolId}/versions/{version}/deprecate',
    summary: 'Deprecate a version with a future sunset, a successor and optional brownouts.',
    description:
      'From then on the version is served with Deprecation, Sunset and Link headers (and notices on calls) until its sunset, after which it answers 410. Deprecating a deprecated version again replaces its deprecation: the date, sunset, successor and brownouts.',
    tags,
    security: 'api_key',
    scopes: ['tools:write'],
    params: versionParams,
    body: DeprecateToolVersionSchema,
    bodyExamples: {
      withSuccessor: {
        sunset_at: '2031-06-30T00:00:00Z',
        successor: '2.0.0',
        brownouts: [{ start: '2031-06-01T09:00:00Z', end: '2031-06-01T10:00:00Z' }],
      },
    },
    responses: {
      200: {
        description: 'The deprecated version, without its ToolIR.',
        schema: ToolVersionSchema,
      },
    },
    problems: ['not_found', 'version_not_found', 'version_sunset'],
  }),
  diffToolVersions: defineRoute({
    operationId: 'diffToolVersions',
    method: 'get',
    path: '/v1/tools/{toolId}/diff',
    summary: 'JSON Schema diff of two versions, each change classified breaking or not.',
    description: 'Compares the `parameters` schemas, from the point of view of a caller of `from`.',
    tags,
    security: 'api_key',
    scopes: ['tools:read'],
    params: toolParams,
    query: ToolVersionDiffQuerySchema,
    responses: { 200: { description: 'The changes.', schema: ToolVersionDiffSchema } },
    problems: ['not_found', 'version_not_found'],
  }),
};
