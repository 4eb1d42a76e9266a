import { NotFoundException } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { INTERNAL_ERROR_MESSAGE, statusOf, toProblem } from './problem-document';
import { ToolException, ToolExceptionCode } from './tool.exception';

describe('toProblem', () => {
  it('maps every code to a 4xx or 5xx status', () => {
    for (const code of Object.values(ToolExceptionCode)) {
      expect(statusOf(code)).toBeGreaterThanOrEqual(400);
    }
  });

  it('renders a ToolException as RFC 9457 with issues and extensions', () => {
    const problem = toProblem(
      new ToolException(ToolExceptionCode.BreakingChange, 'breaks', {
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
    expect(toProblem(new ToolException(ToolExceptionCode.Unauthenticated, 'no')).headers).toEqual({
      'www-authenticate': 'Bearer realm="toolgate"',
    });
  });

  it('never lets an extension overwrite the standard members', () => {
    const problem = toProblem(
      new ToolException(ToolExceptionCode.NotFound, 'gone', {
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
