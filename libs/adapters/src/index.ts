export { PROVIDERS, isProvider, type Provider } from './shared/provider';
export { safeParseJson, type SafeParseJsonResult } from './shared/safe-parse-json';
export { synthesizeCallId, type CallIdentity } from './shared/synthesize-call-id';
