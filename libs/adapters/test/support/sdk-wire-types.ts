/**
 * The official SDKs' request types for one tool definition (a function, or on OpenAI's wires a
 * custom tool), by wire: the source that
 * `conformance/sdk/wire-schemas.json` is generated from (`npm run conformance:sdk`), by `sdk-wire-schemas.ts`.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type * as Genai from '@google/genai';
import type OpenAI from 'openai';

export type OpenAIChatTool = OpenAI.Chat.ChatCompletionFunctionTool;
export type OpenAIChatCustomTool = OpenAI.Chat.ChatCompletionCustomTool;
export type OpenAIResponsesTool = OpenAI.Responses.FunctionTool;
export type OpenAIResponsesCustomTool = OpenAI.Responses.CustomTool;
export type AnthropicTool = Anthropic.Messages.Tool;
export type GeminiFunctionDeclaration = Genai.FunctionDeclaration;
