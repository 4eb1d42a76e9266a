import { getAdapter, PROVIDERS, type Provider } from '@toolgate/adapters';
import type { ImportExportValidity } from '@toolgate/contract';
import { ToolgateError, type ToolIR } from '@toolgate/toolir';

/** Runs the tool through every provider adapter, as GET /v1/exports would. */
export function exportValidity(ir: ToolIR): Record<Provider, ImportExportValidity> {
  const result = {} as Record<Provider, ImportExportValidity>;
  for (const provider of PROVIDERS) {
    try {
      const { report } = getAdapter(provider).toolsToWire([ir]);
      // Where the offender is, not only the figures.
      const problems = report.limits.map((limit) => {
        const where = limit.path === undefined ? '' : ` at ${limit.path}`;
        return `${limit.limit}${where}: ${limit.actual} > ${limit.max}`;
      });
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
