import { textInputParameters } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { diffToolInputs } from './tool-input-diff';

const jsonTool = {
  parameters: { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] },
};

function textTool(grammar?: { syntax: 'lark' | 'regex'; definition: string }) {
  return {
    input_format: { type: 'text', ...(grammar === undefined ? {} : { grammar }) },
    parameters: textInputParameters(),
  };
}

function kinds(before: unknown, after: unknown): Array<[string, boolean]> {
  return diffToolInputs(before, after).map((change) => [change.kind, change.breaking]);
}

describe('diffToolInputs', () => {
  it('reads a version without input_format as JSON, like one that says json_schema', () => {
    expect(kinds(jsonTool, { ...jsonTool, input_format: { type: 'json_schema' } })).toEqual([]);
  });

  it('calls a change between JSON arguments and free text breaking', () => {
    const changes = diffToolInputs(jsonTool, textTool());
    expect(changes[0]).toEqual({
      kind: 'input_format_changed',
      path: '/input_format/type',
      breaking: true,
      message: 'the input changed from JSON arguments to free text',
    });
    // The parameters changed as well, and say how.
    expect(changes.slice(1).some((change) => change.path.startsWith('/parameters'))).toBe(true);
  });

  it('calls an added grammar breaking, a removed one not', () => {
    const grammar = { syntax: 'regex' as const, definition: '[a-z]+' };
    expect(kinds(textTool(), textTool(grammar))).toEqual([['grammar_added', true]]);
    expect(kinds(textTool(grammar), textTool())).toEqual([['grammar_removed', false]]);
    expect(kinds(textTool(grammar), textTool(grammar))).toEqual([]);
  });

  it('asks for a major for any changed grammar, even one that only widens', () => {
    const changes = diffToolInputs(
      textTool({ syntax: 'regex', definition: '[a-z]+' }),
      textTool({ syntax: 'regex', definition: '[a-z0-9]+' }),
    );
    expect(changes).toEqual([
      {
        kind: 'grammar_changed',
        path: '/input_format/grammar',
        breaking: true,
        message:
          'the regex grammar changed; whether it accepts every input the old one did cannot be proven, so it counts as breaking: publish a new major version',
      },
    ]);
    expect(
      kinds(
        textTool({ syntax: 'regex', definition: 'a' }),
        textTool({ syntax: 'lark', definition: 'start: "a"' }),
      ),
    ).toEqual([['grammar_changed', true]]);
  });

  it('lists turning cut-off argument repair on or off as a non-breaking change', () => {
    const repairing = { ...jsonTool, repair_cut_arguments: true };
    expect(kinds(jsonTool, repairing)).toEqual([['cut_argument_repair_enabled', false]]);
    expect(kinds(repairing, { ...jsonTool, repair_cut_arguments: false })).toEqual([
      ['cut_argument_repair_disabled', false],
    ]);
    expect(kinds(repairing, repairing)).toEqual([]);
    expect(kinds(jsonTool, { ...jsonTool, repair_cut_arguments: false })).toEqual([]);
  });
  it('reports compensation and concurrency declarations added, changed or removed, none breaking', () => {
    const compensation = {
      tool: 'cancel_order',
      arguments: { order_id: { from: '/result/order_id' } },
    };
    const concurrency = {
      resource: { type: 'order', id: '/arguments/order_id' },
      version: { header: 'ETag' },
      expected: { header: 'If-Match' },
    };
    expect(diffToolInputs(jsonTool, { ...jsonTool, compensation })).toEqual([
      {
        kind: 'compensation_changed',
        path: '/compensation',
        breaking: false,
        message: 'the tool now declares how a run undoes its calls (compensation)',
      },
    ]);
    // Key order is not a change.
    expect(
      kinds(
        { ...jsonTool, compensation },
        { ...jsonTool, compensation: { arguments: compensation.arguments, tool: 'cancel_order' } },
      ),
    ).toEqual([]);
    expect(
      diffToolInputs(
        { ...jsonTool, concurrency },
        { ...jsonTool, concurrency: { ...concurrency, expected: undefined } },
      )[0]?.message,
    ).toBe('the tool changed which resource version its writes expect (concurrency)');
    expect(diffToolInputs({ ...jsonTool, concurrency }, jsonTool)[0]?.message).toBe(
      'the tool no longer declares which resource version its writes expect (concurrency)',
    );
  });

  it('lists a result cache added, removed or retuned as a non-breaking change', () => {
    const cached = { ...jsonTool, cache: { ttl_ms: 1000 } };
    expect(kinds(jsonTool, cached)).toEqual([['cache_added', false]]);
    expect(kinds(cached, jsonTool)).toEqual([['cache_removed', false]]);
    expect(kinds(cached, { ...jsonTool, cache: { ttl_ms: 1000, scope: 'team' } })).toEqual([]);
    expect(kinds(cached, { ...jsonTool, cache: { ttl_ms: 1000, scope: 'shared' } })).toEqual([
      ['cache_changed', false],
    ]);
  });
});
