import { ERROR_CODES, isErrorCode } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { ClassificationTable } from './classification-table';
import { DEFAULT_CLASSIFICATION_ROWS } from './default-classification-rows';

describe('DEFAULT_CLASSIFICATION_ROWS', () => {
  it('classify into result codes the table of error codes has the engine emit', () => {
    for (const row of DEFAULT_CLASSIFICATION_ROWS) {
      expect(isErrorCode(row.result_code, 'result'), `${row.result_code} is a result code`).toBe(
        true,
      );
      expect(ERROR_CODES[row.result_code].emitters).toContain('engine');
    }
  });
});

describe('ClassificationTable', () => {
  const table = new ClassificationTable(DEFAULT_CLASSIFICATION_ROWS);

  it.each([
    [{ timeout: true, message: '' }, 'timeout', 'retry', true],
    [{ http_status: 429, message: '' }, 'rate_limited', 'retry', true],
    [{ http_status: 503, message: '' }, 'upstream_error', 'retry', true],
    [{ http_status: 501, message: '' }, 'upstream_error', 'fallback', false],
    [{ network_code: 'ECONNRESET', message: '' }, 'upstream_error', 'retry', true],
    [{ http_status: 404, message: '' }, 'tool_error', 'return_to_model', false],
    [{ code: 'invalid_arguments', message: '' }, 'invalid_arguments', 'schema', false],
    [{ aborted: true, message: '' }, 'cancelled', 'return_to_model', false],
    [{ code: 'something_else', message: '' }, 'internal', 'fallback', false],
  ] as const)('classifies %o as %s', (signal, code, layer, retryable) => {
    expect(table.classify(signal)).toMatchObject({ code, layer, retryable });
  });

  it('keeps the current rows when a reload is invalid', () => {
    const local = new ClassificationTable(DEFAULT_CLASSIFICATION_ROWS);
    const result = local.reload([
      {
        match: { http_status: 503 },
        result_code: 'upstream_error',
        layer: 'retry',
        retryable: true,
        user_visible: true,
      },
    ]);
    expect(result.ok).toBe(false);
    expect(local.version).toBe(1);
    const typo = local.reload([
      { match: {}, result_code: 'internal', layer: 'nowhere', retryable: true, user_visible: true },
    ]);
    expect(typo).toMatchObject({ ok: false, errors: [{ path: '/0/layer' }] });
    expect(local.classify({ http_status: 503, message: '' }).code).toBe('upstream_error');
  });

  it('reads the new rows right after a reload', () => {
    const local = new ClassificationTable(DEFAULT_CLASSIFICATION_ROWS);
    expect(
      local.reload([
        {
          match: {},
          result_code: 'tool_error',
          layer: 'return_to_model',
          retryable: false,
          user_visible: true,
        },
      ]),
    ).toEqual({ ok: true, version: 2 });
    expect(local.classify({ http_status: 503, message: '' })).toMatchObject({
      code: 'tool_error',
      table_version: 2,
    });
  });

  it('refuses rows whose result code is not a result code of the table', () => {
    const local = new ClassificationTable(DEFAULT_CLASSIFICATION_ROWS);
    const result = local.reload([
      {
        match: {},
        result_code: 'my_code',
        layer: 'fallback',
        retryable: false,
        user_visible: true,
      },
    ]);
    expect(result).toMatchObject({ ok: false, errors: [{ path: '/0/result_code' }] });
    // A thrown-only code is no result code either.
    expect(
      local.reload([
        {
          match: {},
          result_code: 'invalid_tool_ir',
          layer: 'fallback',
          retryable: false,
          user_visible: true,
        },
      ]).ok,
    ).toBe(false);
    expect(local.version).toBe(1);
  });
});
