import type { OpenAPIObject } from '@nestjs/swagger';

/** RFC 9457 problem document, as every error of this API is shaped. */
const PROBLEM_SCHEMA = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'code', 'errors'],
  properties: {
    type: { type: 'string', format: 'uri' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string' },
    instance: { type: 'string' },
    request_id: {
      type: 'string',
      description: 'The x-request-id of the request; the server log has the details under it',
    },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: {
          path: { type: 'string', description: 'JSON Pointer into the request' },
          message: { type: 'string' },
        },
      },
    },
  },
  additionalProperties: true,
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Declares the problem+json error responses on every operation of the document. */
export function addProblemResponses(document: OpenAPIObject): OpenAPIObject {
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, Problem: PROBLEM_SCHEMA },
  };
  const problem = {
    description: 'A problem document (RFC 9457)',
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  };
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation)
        operation.responses = { ...operation.responses, '4XX': problem, '5XX': problem };
    }
  }
  return document;
}
