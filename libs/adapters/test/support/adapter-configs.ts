import type { Provider, ToolsToWireOptions } from '../../src/index';

/** One way of sending tools: a provider and the options it is exercised with. */
export interface AdapterConfig {
  label: string;
  provider: Provider;
  options: ToolsToWireOptions;
}

/** Every adapter, in each of its schema modes. */
export const ADAPTER_CONFIGS: AdapterConfig[] = [
  { label: 'openai-chat', provider: 'openai-chat', options: {} },
  { label: 'openai-chat strict', provider: 'openai-chat', options: { strict: true } },
  { label: 'openai-responses', provider: 'openai-responses', options: {} },
  { label: 'openai-responses strict', provider: 'openai-responses', options: { strict: true } },
  { label: 'anthropic', provider: 'anthropic', options: {} },
  { label: 'anthropic strict', provider: 'anthropic', options: { strict: true } },
  { label: 'gemini openapi', provider: 'gemini', options: {} },
  { label: 'gemini jsonschema', provider: 'gemini', options: { schemaMode: 'jsonschema' } },
  { label: 'mcp', provider: 'mcp', options: {} },
];
