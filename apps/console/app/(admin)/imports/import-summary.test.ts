import { describe, expect, it } from 'vitest';
import { MCP_SYNC, OPENAPI_PREVIEW } from './__fixtures__/imports';
import {
  approvalSentence,
  behaviorDefaults,
  summarizeMcpSync,
  summarizeOpenApiImport,
} from './import-summary';

describe('summarizeOpenApiImport', () => {
  it('lists each tool with its operation, then each skipped operation with its reason', () => {
    const summary = summarizeOpenApiImport(OPENAPI_PREVIEW);
    expect(summary.rows).toEqual([
      {
        name: 'getWeather',
        outcome: 'import',
        detail: 'GET /weather: new tool at 1.0.0 (draft); calls fail until WEATHER_KEY is stored',
        warnings: [],
        needsApproval: false,
      },
      {
        name: 'deleteCity',
        outcome: 'import',
        detail: 'DELETE /cities/{id}: 1.4.0 → 2.0.0 (major), draft',
        warnings: [],
        needsApproval: true,
      },
      {
        name: 'POST /upload',
        outcome: 'skipped',
        detail: 'multipart bodies are not supported',
        warnings: [],
        needsApproval: false,
      },
    ]);
    expect(summary.total).toBe(2);
    expect(summary.needingApproval).toBe(1);
  });
});

describe('summarizeMcpSync', () => {
  it("takes the approval count from the API's answer and keeps each warning", () => {
    const summary = summarizeMcpSync({
      ...MCP_SYNC,
      unchanged: [
        { name: 'wiki_old', tool_id: '6f1c1e2a-7d1e-4a55-9d8c-000000000004', version: '1.2.0' },
      ],
      tools_needing_approval: 2,
    });
    expect(summary.total).toBe(3);
    expect(summary.needingApproval).toBe(2);
    expect(summary.rows.map((row) => [row.name, row.outcome])).toEqual([
      ['wiki_search', 'import'],
      ['wiki_delete', 'import'],
      ['wiki_old', 'unchanged'],
      ['long_job', 'skipped'],
    ]);
    expect(summary.rows[0]?.warnings).toEqual([
      'outputSchema: rewritten from JSON Schema draft-07 to 2020-12',
    ]);
    expect(summary.rows[3]?.detail).toBe('requires task-augmented execution');
  });
});

describe('approvalSentence', () => {
  it('says how many of the imported tools wait for a person', () => {
    expect(approvalSentence({ rows: [], total: 5, needingApproval: 3 })).toBe(
      "3 of 5 tools will wait for a person's approval on every call.",
    );
    expect(approvalSentence({ rows: [], total: 2, needingApproval: 1 })).toBe(
      "1 of 2 tools will wait for a person's approval on every call.",
    );
    expect(approvalSentence({ rows: [], total: 1, needingApproval: 1 })).toBe(
      "1 of 1 tool will wait for a person's approval on every call.",
    );
    expect(approvalSentence({ rows: [], total: 0, needingApproval: 0 })).toBe(
      'No tool will be imported.',
    );
  });
});

describe('behaviorDefaults', () => {
  it('sends only the hints the operator chose, and nothing when every hint keeps MCP’s default', () => {
    expect(
      behaviorDefaults({ read_only: '', destructive: 'no', idempotent: 'yes', open_world: '' }),
    ).toEqual({ destructive: false, idempotent: true });
    expect(
      behaviorDefaults({ read_only: '', destructive: '', idempotent: '', open_world: '' }),
    ).toBeUndefined();
  });
});
