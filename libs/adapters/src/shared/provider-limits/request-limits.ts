import { isRecord } from '@toolgate/toolir';
import type { LimitViolation } from '../downgrade-report';
import type { Provider } from '../provider';
import { PROVIDER_LIMITS, type RequestLimits } from './provider-limits';
import { wireToolViews, type WireToolView } from './wire-tool-view';

// Strict tools' top-level parameters: how many are optional, how many are unions.
function strictParameterCounts(tools: readonly WireToolView[]): {
  optional: number;
  unions: number;
} {
  let optional = 0;
  let unions = 0;
  for (const tool of tools) {
    const schema = tool.schemas[0]?.schema;
    if (!isRecord(schema)) continue;
    const properties = isRecord(schema['properties']) ? schema['properties'] : {};
    const required = Array.isArray(schema['required']) ? (schema['required'] as unknown[]) : [];
    for (const [key, property] of Object.entries(properties)) {
      if (!required.includes(key)) optional++;
      if (
        isRecord(property) &&
        (property['anyOf'] !== undefined || Array.isArray(property['type']))
      )
        unions++;
    }
  }
  return { optional, unions };
}

/** The limits over a whole request's tool list that these wire tool definitions exceed. */
export function checkRequestLimits(
  provider: Provider,
  definitions: readonly unknown[],
): LimitViolation[] {
  const tools = wireToolViews(provider, definitions);
  const limits = PROVIDER_LIMITS[provider].request;
  const strict = tools.filter((tool) => tool.strict);
  const counts = strict.length === 0 ? { optional: 0, unions: 0 } : strictParameterCounts(strict);
  const actual: Required<Record<keyof RequestLimits, number>> = {
    maxTools: tools.length,
    maxCacheBreakpoints: tools.filter((tool) => tool.cached).length,
    maxStrictTools: strict.length,
    maxStrictOptionalParameters: counts.optional,
    maxStrictUnionParameters: counts.unions,
  };
  const violations: LimitViolation[] = [];
  for (const limit of Object.keys(actual) as Array<keyof RequestLimits>) {
    const max = limits[limit];
    if (max !== undefined && actual[limit] > max)
      violations.push({ tool: '*', limit, actual: actual[limit], max });
  }
  return violations;
}
