export {
  ToolgateError,
  toToolgateError,
  TOOLGATE_ERROR_CODES,
  type ToolgateErrorCode,
  type ToolgateErrorOptions,
  type Issue,
} from './errors/toolgate-error';
export {
  TOOL_IR_SCHEMA_VERSION,
  ToolIRSchema,
  ToolNameSchema,
  SemverSchema,
  TagSchema,
  JsonSchemaObjectSchema,
  ToolBehaviorSchema,
  ToolConstraintsSchema,
  ToolDependenciesSchema,
  RateLimitSchema,
  type ToolIR,
  type ToolIRInput,
  type JsonSchema,
  type ToolBehavior,
  type ToolConstraints,
  type ToolDependencies,
} from './ir/tool-ir';
export { ToolCallIRSchema, type ToolCallIR } from './ir/tool-call-ir';
export {
  ToolResultIRSchema,
  ToolResultErrorSchema,
  ContentBlockSchema,
  WELL_KNOWN_RESULT_ERROR_CODES,
  type ToolResultIR,
  type ToolResultError,
  type ContentBlock,
} from './ir/tool-result-ir';
export { parseToolIR, safeParseToolIR, ToolIRError, issuesFromZod, toJsonPointer } from './ir/parse-tool-ir';
export { checkJsonSchema } from './json-schema/check-json-schema';
export { canonicalJson } from './json/canonical-json';
