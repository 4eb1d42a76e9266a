import { cloneJson } from '@toolgate/toolir';
import type { JsonSchema } from '@toolgate/toolir';
import type { ToolReporter } from '../shared/downgrade-report';
import { mergeRootComposition } from '../shared/json-schema/merge-root-composition';
import { renamePropertiesForWire } from '../shared/names/property-names';
import { isRecursive } from '../shared/json-schema/is-recursive';
import { toStrictSchema } from '../shared/json-schema/strict-schema';
import { ANTHROPIC_STRICT } from '../shared/provider-limits/provider-limits';
import type { AnthropicInputSchema } from './anthropic-api';

/**
 * The `input_schema` of an Anthropic tool: top-level `oneOf/anyOf/allOf` merged into the root
 * ("input_schema does not support oneOf, allOf, or anyOf at the top level"); everything else is
 * accepted as is, unless `strict`, which applies the SDK's strict rewrite and flags recursion.
 * Property keys outside Anthropic's pattern are renamed (reported; calls map them back).
 */
export function downgradeSchemaForAnthropic(
  parameters: JsonSchema,
  reporter: ToolReporter,
  options: { strict: boolean },
): AnthropicInputSchema {
  let schema = mergeRootComposition(cloneJson(parameters), reporter);
  if (options.strict) {
    if (ANTHROPIC_STRICT.noRecursion && isRecursive(schema))
      reporter.exceeds({ limit: 'recursiveSchema', actual: 1, max: 0, path: '/' });
    schema = toStrictSchema(schema, reporter, ANTHROPIC_STRICT);
  }
  // Keys outside ^[a-zA-Z0-9_.-]{1,64}$ are renamed; calls map them back.
  schema = renamePropertiesForWire(schema, 'anthropic', reporter);
  return { ...schema, type: 'object' };
}
