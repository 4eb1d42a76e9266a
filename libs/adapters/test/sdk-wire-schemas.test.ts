/**
 * Run-time conformance with the official SDKs' types: every definition the adapters produce, for
 * every corpus case and schema mode, validates against the JSON Schema generated from the SDK's
 * tool type (closed objects: a key the SDK does not know is an error).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getAdapter } from '../src/index';
import { toolOfCase } from './corpus/corpus-case';
import { loadCorpus } from './corpus/load-corpus';
import { ADAPTER_CONFIGS } from './support/adapter-configs';
import {
  generateSdkWireSchemas,
  SDK_WIRE_SCHEMAS_FILE,
  sdkTypeErrors,
} from './support/sdk-wire-schemas';
import { buildTool } from './support/tool-factory';

describe('conformance/sdk/wire-schemas.json', () => {
  it('is what the installed SDKs generate (npm run conformance:sdk after an upgrade)', async () => {
    const kept = JSON.parse(readFileSync(SDK_WIRE_SCHEMAS_FILE, 'utf8')) as unknown;
    expect(kept).toEqual(await generateSdkWireSchemas());
  }, 60_000);

  it('refuses what the SDK types refuse', () => {
    expect(
      sdkTypeErrors('gemini', { name: 'f', parameters: { type: 'OBJECT', const: 1 } }),
    ).toEqual(['/parameters must NOT have additional properties: const']);
    expect(
      sdkTypeErrors('openai-chat', {
        type: 'function',
        function: { name: 'f', defer_loading: true },
      }),
    ).toEqual(['/function must NOT have additional properties: defer_loading']);
    expect(sdkTypeErrors('anthropic', { name: 'f' })).toEqual([
      "/ must have required property 'input_schema'",
    ]);
  });
});

describe.each(ADAPTER_CONFIGS.filter((config) => config.provider !== 'mcp'))(
  '$label: every corpus definition is of the SDK type',
  ({ provider, options }) => {
    it('converts every corpus case to a definition the SDK type accepts', () => {
      const adapter = getAdapter(provider);
      const failures: string[] = [];
      for (const corpusCase of loadCorpus()) {
        const { definitions } = adapter.toolsToWire([toolOfCase(corpusCase)], options);
        for (const error of sdkTypeErrors(provider, definitions[0]))
          failures.push(`${corpusCase.id}: ${error}`);
      }
      expect(failures).toEqual([]);
    });

    it('keeps deferred and cached tools within the SDK type', () => {
      const tool = buildTool({
        name: 'cached',
        provider_hints: { anthropic: { cache_control: { type: 'ephemeral', ttl: '1h' } } },
      });
      const { definitions } = getAdapter(provider).toolsToWire([tool], {
        ...options,
        deferLoading: true,
      });
      expect(sdkTypeErrors(provider, definitions[0])).toEqual([]);
    });
  },
);
