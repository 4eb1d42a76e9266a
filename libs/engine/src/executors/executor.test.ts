import { ERROR_CODES, ToolgateError } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { EgressDeniedError } from '../egress/egress-policy';
import { failureFromError, ToolExecutionError, toolExecutionErrorOf } from './executor';

describe('ToolExecutionError', () => {
  it('is a ToolgateError with the thrown code execution_failed, its failure as details', () => {
    const signal = { http_status: 503, message: 'down', details: { status: 503 } };
    const error = new ToolExecutionError(signal);
    expect(error).toBeInstanceOf(ToolgateError);
    expect(ToolgateError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'ToolExecutionError',
      code: 'execution_failed',
      message: 'down',
      retryable: false,
    });
    expect(error.signal).toBe(signal);
    expect(error.details).toBe(signal);
    expect(ERROR_CODES[error.code].surfaces).toContain('thrown');
    expect(ERROR_CODES[error.code].emitters).toContain('engine');
    expect(ERROR_CODES[error.code].details.safeParse(error.details).success).toBe(true);
  });

  it('is still found in causes and read as its signal', () => {
    const error = new ToolExecutionError({ code: 'secret_unavailable', message: 'no secret' });
    const wrapped = new Error('fetch failed', { cause: error });
    expect(toolExecutionErrorOf(wrapped)).toBe(error);
    expect(failureFromError(wrapped, new AbortController().signal)).toEqual({
      code: 'secret_unavailable',
      message: 'no secret',
    });
  });

  it('keeps the subclasses their own names and fields', () => {
    const error = new EgressDeniedError({
      host: 'metadata',
      address: '169.254.169.254',
      port: 80,
      addressClass: 'metadata',
    });
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error).toMatchObject({ name: 'EgressDeniedError', code: 'execution_failed' });
    expect(error.signal).toMatchObject({
      code: 'egress_denied',
      details: { host: 'metadata', port: 80, address_class: 'metadata' },
    });
    expect(ERROR_CODES.egress_denied.details.safeParse(error.signal.details).success).toBe(true);
  });
});
