import { throwFirstArgumentsError } from '../shared/call-context';
import type { ToolAdapter } from '../shared/tool-adapter';
import type {
  GeminiFunctionDeclaration,
  GeminiFunctionResponseContent,
  GeminiModelContent,
  GeminiRequestOptions,
  GeminiTool,
} from './gemini-api';
import { convertCallsToGemini } from './convert-calls-to-gemini';
import { convertResultsToGemini } from './convert-results-to-gemini';
import { convertToolFromGemini } from './convert-tool-from-gemini';
import { convertToolsToGemini } from './convert-tools-to-gemini';
import { parseGeminiToolCalls } from './parse-gemini-tool-calls';
import { parseGeminiToolResults } from './parse-gemini-tool-results';

/** The Google Gemini adapter. */
export type GeminiAdapter = ToolAdapter<
  GeminiTool,
  GeminiFunctionDeclaration,
  GeminiRequestOptions,
  GeminiModelContent,
  GeminiFunctionResponseContent
>;

/** Tool calling over the Gemini API (`functionDeclarations`, `functionCall` / `functionResponse` parts). */
export const geminiAdapter: GeminiAdapter = {
  provider: 'gemini',
  toolsToWire: convertToolsToGemini,
  toolFromWire: convertToolFromGemini,
  parseCalls: parseGeminiToolCalls,
  callsFromWire: (payload, options) =>
    throwFirstArgumentsError(parseGeminiToolCalls(payload, options)),
  callsToWire: convertCallsToGemini,
  resultsToWire: convertResultsToGemini,
  resultsFromWire: parseGeminiToolResults,
};
