import { NotFoundException } from '@nestjs/common';
import { ERROR_CODES, PROBLEM_CODES } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { INTERNAL_ERROR_MESSAGE, statusOf, toProblem } from './problem-document';
import { ToolException } from './tool.exception';

describe('toProblem', () => {
  it('answers every code with its status and title from the table, a 4xx or 5xx', () => {
    for (const code of PROBLEM_CODES) {
      const problem = toProblem(new ToolException(code, 'x'));
      expect(problem.status).toBe(ERROR_CODES[code].status);
      expect(problem.body).toMatchObject({ code, title: ERROR_CODES[code].title });
      expect(statusOf(code)).toBeGreaterThanOrEqual(400);
      expect(statusOf(code)).toBeLessThan(600);
    }
  });

  it('renders a ToolException as RFC 9457 with issues and extensions', () => {
    const problem = toProblem(
      new ToolException('breaking_change', 'breaks', {
        issues: [{ path: '/parameters/required', message: 'property "x" is now required' }],
        extensions: { previous_version: '1.0.0' },
      }),
    );
    expect(problem).toEqual({
      status: 409,
      headers: {},
      body: {
        type: 'https://toolgate.dev/problems/breaking_change',
        title: 'Breaking change needs a major version',
        status: 409,
        detail: 'breaks',
        code: 'breaking_change',
        errors: [{ path: '/parameters/required', message: 'property "x" is now required' }],
        previous_version: '1.0.0',
      },
    });
  });

  it('adds the Bearer challenge to 401s', () => {
    expect(toProblem(new ToolException('unauthenticated', 'no')).headers).toEqual({
      'www-authenticate': 'Bearer realm="toolgate"',
    });
  });

  it('never lets an extension overwrite the standard members', () => {
    const problem = toProblem(
      new ToolException('not_found', 'gone', {
        // The table declares no extension members for not_found; the renderer must hold anyway.
        // @ts-expect-error -- not_found has no `status` or `type` extension
        extensions: { status: 200, type: 'x' },
      }),
    );
    expect(problem.body).toMatchObject({
      status: 404,
      type: 'https://toolgate.dev/problems/not_found',
    });
  });

  it('maps Nest and Fastify errors, and hides unknown ones', () => {
    expect(toProblem(new NotFoundException()).status).toBe(404);
    expect(
      toProblem(
        Object.assign(new Error('Request body is too large'), {
          code: 'FST_ERR_CTP_BODY_TOO_LARGE',
          statusCode: 413,
        }),
      ).body.code,
    ).toBe('payload_too_large');
    const hidden = toProblem(new Error('connection string postgres://secret@db'));
    expect(hidden).toMatchObject({
      status: 500,
      body: { code: 'internal', detail: INTERNAL_ERROR_MESSAGE },
    });
    expect(JSON.stringify(hidden)).not.toContain('secret');
    expect(toProblem('a string').status).toBe(500);
  });
});
