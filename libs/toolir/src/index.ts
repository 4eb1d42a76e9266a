export {
  ToolgateError,
  toToolgateError,
  TOOLGATE_ERROR_CODES,
  type ToolgateErrorCode,
  type ToolgateErrorOptions,
  type Issue,
} from './errors/toolgate-error';
export {
  ERROR_CODES,
  ALL_ERROR_CODES,
  PROBLEM_CODES,
  RESULT_ERROR_CODES,
  THROWN_ERROR_CODES,
  isErrorCode,
  problemStatusOf,
  problemTitleOf,
  problemExtensionsSchemaOf,
  errorDetailsSchemaOf,
  type ErrorCode,
  type ErrorCodeSpec,
  type ErrorCodesOf,
  type ErrorCodesOn,
  type ErrorDetails,
  type ErrorEmitter,
  type ErrorSurface,
  type ProblemCode,
  type ProblemExtensions,
  type ProblemExtensionsSchema,
  type ResultErrorCode,
  type ThrownErrorCode,
} from './errors/error-codes';
export {
  TOOL_IR_SCHEMA_VERSION,
  ToolIRSchema,
  ToolNameSchema,
  SemverSchema,
  TagSchema,
  JsonSchemaObjectSchema,
  ToolBehaviorSchema,
  ToolConstraintsSchema,
  ToolCostReportSchema,
  type ToolCostReport,
  ToolDependenciesSchema,
  RateLimitSchema,
  ToolGrammarSchema,
  ToolInputFormatSchema,
  ToolCacheSchema,
  MAX_GRAMMAR_LENGTH,
  MAX_CACHE_TTL_MS,
  type ToolGrammar,
  type ToolInputFormat,
  type ToolCache,
  type ToolIR,
  type ToolIRInput,
  type JsonSchema,
  type ToolBehavior,
  type ToolConstraints,
  type ToolDependencies,
} from './ir/tool-ir';
export { runsInline } from './execution/runs-inline';
export { cacheKeyArguments } from './execution/cache-key-arguments';
export {
  TEXT_INPUT_PROPERTY,
  textInputParameters,
  isTextInput,
  grammarOf,
  grammarCheckOf,
  compileRegexGrammar,
  type GrammarCheck,
  type WithInputFormat,
} from './input-format/text-input';
export { ToolCallIRSchema, type ToolCallIR } from './ir/tool-call-ir';
export {
  ToolResultIRSchema,
  ToolResultErrorSchema,
  ContentBlockSchema,
  type ToolResultIR,
  type ToolResultError,
  type ContentBlock,
} from './ir/tool-result-ir';
export {
  parseToolIR,
  safeParseToolIR,
  ToolIRError,
  issuesFromZod,
  toJsonPointer,
} from './ir/parse-tool-ir';
export { checkJsonSchema } from './json-schema/check-json-schema';
export { canonicalJson } from './json/canonical-json';
export { cloneJson } from './json/clone-json';
export { setOwnProperty } from './json/set-own-property';
export {
  walkSchema,
  mapSchema,
  childSubschemas,
  escapePointerToken,
  SINGLE_SUBSCHEMA_KEYWORDS,
  ARRAY_SUBSCHEMA_KEYWORDS,
  MAP_SUBSCHEMA_KEYWORDS,
  type SchemaNode,
  type SubschemaLocation,
  type ChildSubschema,
} from './json-schema/walk-schema';
export { schemaKeywords } from './json-schema/schema-keywords';
export { IN_PLACE_KEYWORDS, findUnguardedCycles } from './json-schema/find-unguarded-cycles';
export { validateArguments } from './validation/validate-arguments';
export {
  compileValidator,
  clearValidatorCache,
  setValidatorCacheCapacity,
  VALIDATOR_CACHE_CAPACITY,
  type ArgumentValidator,
  type ValidatableTool,
} from './validation/compile-validator';
export {
  describeArgumentErrors,
  toInvalidArgumentsError,
  type ArgumentError,
  type ArgumentValidationResult,
} from './validation/argument-error';
export { compareVersions, assertSemver } from './versions/compare-versions';
export { canaryBucket, isInCanary, CANARY_BUCKETS } from './versions/canary-bucket';
export {
  resolveVersion,
  type ResolveVersionInput,
  type ResolvedVersion,
  type ResolutionReason,
  type VersionCandidate,
  type CanaryRollout,
} from './versions/resolve-version';
export { uuidV5, TOOL_ID_NAMESPACE, NAMESPACE_URL } from './hash/uuid-v5';
export {
  normalizeSchema,
  type NormalizedSchema,
  type NormalizeSchemaOptions,
} from './json-schema/normalize-schema';
export {
  parseJsonPointer,
  formatJsonPointer,
  formatPointerFragment,
  resolveJsonPointer,
} from './json-schema/json-pointer';
export {
  upgradeSchemaDraft,
  upgradeSchemaKeywords,
  declaresOlderDraft,
  type SchemaDraftRewrite,
  type UpgradedSchema,
} from './json-schema/upgrade-schema-draft';
export {
  defineTool,
  PRESET_TIMEOUT_MS,
  type DefinedTool,
  type DefineToolOptions,
  type DefineToolPresetOptions,
  type DefineToolFields,
  type ToolHandler,
  type ToolHandlerContext,
  type ToolHandlerResult,
  type ToolParametersSchema,
} from './define-tool/define-tool';
export type {
  DefinedTextTool,
  DefineTextToolOptions,
  TextToolArguments,
} from './define-tool/define-text-tool';
export { isRecord } from './json/is-record';
export { zodFromToolIR, type ToolArgumentsSchema } from './zod-from-ir/zod-from-tool-ir';
export type { ValidatorCheckedKeyword } from './zod-from-ir/relax-schema-for-zod';
export * from './writes';
