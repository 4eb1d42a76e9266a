import type { Provider } from '../shared/provider';
import type {
  OpenAIResponsesTool,
  OpenAIResponsesToolSearchOutput,
  OpenAIResponsesToolSearchTool,
} from '../openai-responses/openai-responses-api';

/** The formats with deferred loading and a tool search of the provider's own. */
const TOOL_SEARCH_PROVIDERS: ReadonlySet<Provider> = new Set(['openai-responses', 'anthropic']);

/** Whether `deferLoading` has an effect in this format (elsewhere it is reported and ignored). */
export function supportsToolSearch(provider: Provider): boolean {
  return TOOL_SEARCH_PROVIDERS.has(provider);
}

/**
 * A Responses `tool_search` the app runs itself: the model calls it with `parameters`, and the
 * app answers each `tool_search_call` with `toolSearchOutputToWire`.
 */
export function clientToolSearchTool(definition: {
  description: string;
  parameters: Record<string, unknown>;
}): OpenAIResponsesToolSearchTool {
  return {
    type: 'tool_search',
    execution: 'client',
    description: definition.description,
    parameters: definition.parameters,
  };
}

/** The `tool_search_output` item that loads `tools` (Responses definitions) for the call it answers. */
export function toolSearchOutputToWire(
  callId: string,
  tools: readonly OpenAIResponsesTool[],
): OpenAIResponsesToolSearchOutput {
  return {
    type: 'tool_search_output',
    call_id: callId,
    execution: 'client',
    status: 'completed',
    tools: [...tools],
  };
}
