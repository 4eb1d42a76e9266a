import { getAdapter, PROVIDERS, type Provider } from '@toolgate/adapters';
import { ToolgateError, type ToolIR } from '@toolgate/toolir';

/** Whether one tool exports to one provider format, and what the format could not carry as is. */
export interface ExportValidity {
  valid: boolean;
  /** Schema keywords the format dropped or rewrote (the adapter's downgrade report). */
  downgrades: number;
  /** Provider limits the tool exceeds, or the adapter's refusal. */
  problems: string[];
}

/** Runs the tool through every provider adapter, as GET /v1/exports would. */
export function exportValidity(ir: ToolIR): Record<Provider, ExportValidity> {
  const result = {} as Record<Provider, ExportValidity>;
  for (const provider of PROVIDERS) {
    try {
      const { report } = getAdapter(provider).toolsToWire([ir]);
      const problems = report.limits.map(
        (limit) => `${limit.limit}: ${limit.actual} > ${limit.max}`,
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
