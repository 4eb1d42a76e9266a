import { checkWireTools, getAdapter, PROVIDERS, type Provider } from '@toolgate/adapters';
import type { ImportExportValidity } from '@toolgate/contract';
import { ToolgateError, type ToolIR } from '@toolgate/toolir';

/**
 * Runs the tool through every provider adapter, as GET /v1/exports would, and measures what it
 * sends against the provider-limits table the adapters follow: a limit the conversion could not
 * meet, or anything in the wire definition the provider would refuse, makes the format invalid.
 */
export function exportValidity(ir: ToolIR): Record<Provider, ImportExportValidity> {
  const result = {} as Record<Provider, ImportExportValidity>;
  for (const provider of PROVIDERS) {
    try {
      const { definitions, report } = getAdapter(provider).toolsToWire([ir]);
      // Where the offender is, not only the figures.
      const limits = report.limits.map((limit) => {
        const where = limit.path === undefined ? '' : ` at ${limit.path}`;
        return `${limit.limit}${where}: ${limit.actual} > ${limit.max}`;
      });
      const refused = checkWireTools(provider, definitions).map(
        (problem) => `${problem.rule} at ${problem.path}: ${problem.message}`,
      );
      const problems = [...new Set([...limits, ...refused])];
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
