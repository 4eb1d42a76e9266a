import { parseToolIR, type ToolIR, type ToolIRInput } from '@toolgate/toolir';
import { toolIdFromName } from '../../src/shared/import-tool';

/** Builds a valid ToolIR for a test; every field can be overridden. */
export function buildTool(overrides: Partial<ToolIRInput> & { name: string }): ToolIR {
  return parseToolIR({
    schema_version: '1.0',
    id: toolIdFromName(overrides.name),
    version: '1.0.0',
    description: `The ${overrides.name} tool.`,
    parameters: { type: 'object', properties: {} },
    behavior: { readonly: false, destructive: false, idempotent: false },
    constraints: { timeout_ms: 5000 },
    ...overrides,
  });
}

/** The weather tool of the providers' documentation examples. */
export const weatherTool = (name = 'get_current_weather'): ToolIR =>
  buildTool({
    name,
    description: 'Get the current weather in a given location.',
    parameters: {
      type: 'object',
      properties: {
        location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      },
      required: ['location'],
    },
    behavior: { readonly: true, destructive: false, idempotent: true },
  });
