import type { JsonSchema } from '@toolgate/toolir';
import type { ToolReporter } from '../shared/downgrade-report';
import { downgradeOpenAISchema } from '../shared/json-schema/downgrade-openai-schema';
import type { SchemaLimits } from '../shared/json-schema/schema-limits';
import type { SchemaNode } from '../shared/json-schema/schema-node';

/** The `function.parameters` of a Chat Completions tool (the OpenAI rules, strict or not). */
export function downgradeSchemaForOpenAIChat(
  parameters: JsonSchema,
  reporter: ToolReporter,
  options: { strict: boolean; limits?: Partial<SchemaLimits> | undefined },
): SchemaNode {
  return downgradeOpenAISchema(parameters, reporter, options);
}
