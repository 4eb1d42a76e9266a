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
    description:
      'Without `q`, tools come by name (then id). With `q`, the list is every tool that matches ' +
      'any word of `q`, best match first, the ranking of `GET /v1/tools/search`: tools that match ' +
      "more of the query's words come first, then those matching in the name before tags and " +
      'parameter names, description and parameter descriptions; equal ranks by name, then id. ' +
      'Pages go through all matches, however many, in that order: a page starts right after the ' +
      "previous page's last tool, since a tool's rank depends only on the tool and `q`. A cursor " +
      'is valid for the kind of listing that returned it (with `q` or without); the other kind is ' +
      'a 400, and so is a cursor after `q` changed, which should start again without one.',
    tags,
    security: 'api_key',
    scopes: ['tools:read'],
    query: ListToolsQuerySchema,
    responses: {
      200: {
        description: 'One page of tools: by name, or with `q` best match first.',
        schema: ToolPageSchema,
      },
    },
    problems: [],
  }),
  searchTools: defineRoute({
    operationId: 'searchTools',
    method: 'get',
    path: '/v1/tools/search',
    summary: 'Full-text search over names, tags, descriptions and parameters, best match first.',
    description:
      'One text configuration (English stemming, stop words ignored) indexes and queries every ' +
      'field. A tool matches when it holds any word of `q`, a word that begins with it (`forec` ' +
      'finds forecast), or, in its name, a word spelled alike (`wether` finds weather). `rank` ' +
      "is the share of the query's words the tool matches (a word it only begins counts 0.8, a " +
      'name word spelled alike its similarity), plus less than 0.5 for where they occur (name, ' +
      'then tags and parameter names, description, parameter descriptions).',
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
