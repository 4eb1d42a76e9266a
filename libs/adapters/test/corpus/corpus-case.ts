import type { JsonSchema, ToolInputFormat, ToolIR } from '@toolgate/toolir';
import { parseToolIR } from '@toolgate/toolir';
import { toolIdFromName } from '../../src/shared/import-tool';

/** One corpus case: a tool and sample arguments that its schema accepts (`valid`) or rejects (`invalid`). */
export interface CorpusCase {
  /** Unique, used as the test name. */
  id: string;
  name: string;
  description: string;
  parameters: JsonSchema;
  /** A free-text tool's input format (its `parameters` are then the one-string schema). */
  input_format?: ToolInputFormat;
  outputSchema?: JsonSchema;
  valid: Array<Record<string, unknown>>;
  invalid: unknown[];
}

/** The ToolIR of a case (readonly tool, so MCP annotations are exercised too). */
export function toolOfCase(corpusCase: CorpusCase): ToolIR {
  return parseToolIR({
    schema_version: '1.0',
    id: toolIdFromName(corpusCase.name),
    name: corpusCase.name,
    version: '1.0.0',
    description: corpusCase.description,
    parameters: corpusCase.parameters,
    ...(corpusCase.input_format === undefined ? {} : { input_format: corpusCase.input_format }),
    ...(corpusCase.outputSchema === undefined ? {} : { outputSchema: corpusCase.outputSchema }),
    behavior: { readonly: false, destructive: false, idempotent: true, open_world: false },
    constraints: { timeout_ms: 5000 },
  });
}
