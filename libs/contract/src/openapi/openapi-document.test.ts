import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { ROUTE_LIST, routes } from '../routes';
import { createOpenApiDocument } from './openapi-document';

const document = createOpenApiDocument({ routes: ROUTE_LIST, version: '1.0.0' });
type Operation = {
  operationId?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  security?: unknown[];
};
const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  (['get', 'put', 'post', 'delete', 'patch'] as const).flatMap((method) => {
    const operation = (item as Record<string, Operation | undefined>)[method];
    return operation === undefined ? [] : [{ path, method, operation }];
  }),
);

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors.map((error) => error.message)).toEqual([]);
  });

  it('describes every route of the contract, once', () => {
    expect(operations.map(({ operation }) => operation.operationId).sort()).toEqual(
      Object.keys(routes).sort(),
    );
  });

  it('declares every path parameter of every operation', () => {
    for (const { path, operation } of operations) {
      const placeholders = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const declared = (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'path')
        .map((parameter) => parameter.name);
      expect(declared.sort(), operation.operationId).toEqual(placeholders.sort());
    }
  });

  it('gives every success answer with a body its schema, and problems their document', () => {
    for (const { operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [mediaType, content] of Object.entries(response.content ?? {})) {
          // An event stream has a media type and no one schema for the whole body.
          if (mediaType !== 'text/event-stream')
            expect(content.schema, `${operation.operationId} ${status} ${mediaType}`).toBeDefined();
          if (Number(status) >= 400) expect(mediaType).toBe('application/problem+json');
        }
      }
    }
  });

  it('states the real credentials: a tg_ key or the console session cookie with its CSRF header', () => {
    const schemes = document.components?.securitySchemes ?? {};
    expect(schemes).toMatchObject({
      apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'tg_ API key' },
      consoleSession: { type: 'apiKey', in: 'cookie', name: 'toolgate_session' },
      csrfToken: { type: 'apiKey', in: 'header', name: 'x-csrf-token' },
    });
    const getTool = operations.find(({ operation }) => operation.operationId === 'getTool');
    expect(getTool?.operation.security).toEqual([
      { apiKey: ['tools:read'] },
      { consoleSession: [] },
    ]);
    const createTool = operations.find(({ operation }) => operation.operationId === 'createTool');
    expect(createTool?.operation.security).toEqual([
      { apiKey: ['tools:write'] },
      { consoleSession: [], csrfToken: [] },
    ]);
  });

  it('keeps JSON Schema dialect markers out of the bodies', () => {
    expect(JSON.stringify(document)).not.toContain('"$schema"');
  });
});
