import { z } from 'zod';
import { defineRoute } from '../route/route';
import {
  CreateToolSchema,
  ListToolsQuerySchema,
  SearchToolsQuerySchema,
  ToolIdSchema,
  ToolPageSchema,
  ToolSchema,
  ToolSearchResultSchema,
} from './tools.schemas';

const tags = ['tools'] as const;

export const toolsRoutes = {
  createTool: defineRoute({
    operationId: 'createTool',
    method: 'post',
    path: '/v1/tools',
    summary: 'Register a tool (its versions are published separately).',
    tags,
    security: 'api_key',
    scopes: ['tools:write'],
    body: CreateToolSchema,
    bodyExamples: {
      weather: {
        name: 'get_weather',
        description: 'Current weather for a city.',
        tags: ['weather'],
      },
    },
    responses: { 201: { description: 'The tool, without versions yet.', schema: ToolSchema } },
    problems: ['conflict', 'not_found'],
  }),
  listTools: defineRoute({
    operationId: 'listTools',
    method: 'get',
    path: '/v1/tools',
    summary: 'List tools by tag, team, status or text; cursor-paginated.',
    tags,
    security: 'api_key',
    scopes: ['tools:read'],
    query: ListToolsQuerySchema,
    responses: { 200: { description: 'One page of tools, by name.', schema: ToolPageSchema } },
    problems: [],
  }),
  searchTools: defineRoute({
    operationId: 'searchTools',
    method: 'get',
    path: '/v1/tools/search',
    summary: 'Full-text search over name, tags and description, best match first.',
    tags,
    security: 'api_key',
    scopes: ['tools:read'],
    query: SearchToolsQuerySchema,
    responses: { 200: { description: 'The best matches.', schema: ToolSearchResultSchema } },
    problems: [],
  }),
  getTool: defineRoute({
    operationId: 'getTool',
    method: 'get',
    path: '/v1/tools/{toolId}',
    summary: 'One tool and its release state.',
    tags,
    security: 'api_key',
    scopes: ['tools:read'],
    params: z.strictObject({ toolId: ToolIdSchema }),
    responses: { 200: { description: 'The tool.', schema: ToolSchema } },
    problems: ['not_found'],
  }),
};
