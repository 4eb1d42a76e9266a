export {
  CallPointerSchema,
  CompensationArgumentSchema,
  ToolCompensationSchema,
  ToolConcurrencySchema,
  ExpectedVersionTargetSchema,
  type CompensationArgument,
  type ToolCompensation,
  type ToolConcurrency,
  type ExpectedVersionTarget,
} from './write-declarations';
export {
  compensationFor,
  readCallPointer,
  type CompensationPlan,
  type FinishedCall,
} from './compensation-call';
export {
  resourceKeyOf,
  resourceVersionOf,
  withExpectedVersion,
  asEntityTag,
  type ExpectedVersionRequest,
} from './resource-version';
