import type { ToolReporter } from '../downgrade-report';
import type { Provider } from '../provider';
import { PROVIDER_LIMITS } from './provider-limits';

/** A tool's description as `provider` takes it: cut to the wire's limit, with the cut reported. */
export function descriptionForWire(
  description: string,
  provider: Provider,
  reporter: ToolReporter,
): string {
  const max = PROVIDER_LIMITS[provider].maxDescriptionLength;
  if (max === undefined || description.length <= max) return description;
  reporter.note('/description', 'description', {
    action: 'rewritten',
    detail: `cut from ${description.length} to ${max} characters, the wire's limit`,
  });
  return `${description.slice(0, max - 1)}…`;
}
