import { checkWireTools, getAdapter, PROVIDERS, type Provider } from '@toolgate/adapters';
import type { ImportExportValidity } from '@toolgate/contract';
import { ToolgateError, type ToolIR } from '@toolgate/toolir';

/**
 * Runs the tool through every provider adapter, as GET /v1/exports would, and measures what it
 * sends against the provider-limits table the adapters follow. The check covers every limit the
 * conversion reports too (schema sizes, recursion, request limits), so each refusal is listed
 * once, with its rule and where it is in the wire tool.
 */
export function exportValidity(ir: ToolIR): Record<Provider, ImportExportValidity> {
  const result = {} as Record<Provider, ImportExportValidity>;
  for (const provider of PROVIDERS) {
    try {
      const { definitions, report } = getAdapter(provider).toolsToWire([ir]);
      const problems = checkWireTools(provider, definitions).map(
        (problem) => `${problem.rule} at ${problem.path}: ${problem.message}`,
      );
      result[provider] = {
        valid: problems.length === 0,
        downgrades: report.entries.length,
        problems,
      };
    } catch (error) {
      if (!ToolgateError.isInstance(error)) throw error;
      result[provider] = { valid: false, downgrades: 0, problems: [error.message] };
    }
  }
  return result;
}
