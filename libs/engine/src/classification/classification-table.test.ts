import { describe, expect, it } from 'vitest';
import { ClassificationTable } from './classification-table';
import { DEFAULT_CLASSIFICATION_ROWS } from './default-classification-rows';

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
        result_code: 'x',
        layer: 'retry',
        retryable: true,
        user_visible: true,
      },
    ]);
    expect(result.ok).toBe(false);
    expect(local.version).toBe(1);
    const typo = local.reload([
      { match: {}, result_code: 'x', layer: 'nowhere', retryable: true, user_visible: true },
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
          result_code: 'everything',
          layer: 'return_to_model',
          retryable: false,
          user_visible: true,
        },
      ]),
    ).toEqual({ ok: true, version: 2 });
    expect(local.classify({ http_status: 503, message: '' })).toMatchObject({
      code: 'everything',
      table_version: 2,
    });
  });
});
