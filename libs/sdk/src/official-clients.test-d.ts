/**
 * Type-level checks (run by tsc, not executed): what the SDK returns fits the official provider SDKs' request
 * types, and the official clients fit runToolLoop's structural client types, as the README examples assume.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { GoogleGenAI, Tool } from '@google/genai';
import type OpenAI from 'openai';
import { runToolLoop } from './agent-loop';
import type { ToolExport } from './toolgate-client';

declare const openai: OpenAI;
declare const anthropic: Anthropic;
declare const ai: GoogleGenAI;
declare const chatTools: ToolExport<'openai-chat'>;
declare const responsesTools: ToolExport<'openai-responses'>;
declare const anthropicTools: ToolExport<'anthropic'>;
declare const geminiTools: ToolExport<'gemini'>;
declare const execute: Parameters<typeof runToolLoop>[0]['execute'] & object;

export async function exportedToolsFitOfficialRequests(): Promise<void> {
  await openai.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'hi' }],
    tools: chatTools.tools,
  });
  await openai.responses.create({ model: 'gpt-4.1', input: 'hi', tools: responsesTools.tools });
  await anthropic.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1,
    messages: [{ role: 'user', content: 'hi' }],
    tools: anthropicTools.tools,
  });
  // GeminiType is a string-literal union while @google/genai declares `Type` as a TypeScript enum, so the exported
  // Gemini tools need a cast (the values are the same strings at runtime); this line fails once the types agree.
  await ai.models.generateContent({
    model: 'gemini-2.5-flash',
    contents: 'hi',
    // @ts-expect-error 'STRING' is not assignable to the enum `Type`
    config: { tools: geminiTools.tools },
  });
  await ai.models.generateContent({
    model: 'gemini-2.5-flash',
    contents: 'hi',
    config: { tools: geminiTools.tools as Tool[] },
  });
}

export async function officialClientsFitRunToolLoop(): Promise<void> {
  await runToolLoop({
    provider: 'openai-chat',
    client: openai,
    request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
    execute,
  });
  await runToolLoop({
    provider: 'openai-responses',
    client: openai,
    request: { model: 'gpt-4.1', input: 'hi' },
    execute,
  });
  await runToolLoop({
    provider: 'anthropic',
    client: anthropic,
    request: {
      model: 'claude-sonnet-4-6',
      max_tokens: 1,
      messages: [{ role: 'user', content: 'hi' }],
    },
    execute,
  });
  const result = await runToolLoop({
    provider: 'gemini',
    client: ai,
    request: { model: 'gemini-2.5-flash', contents: 'hi' },
    execute,
  });
  // The returned request keeps the client's request type.
  const model: string = result.request.model;
  void model;
}

export async function aClientOfAnotherProviderIsRefused(): Promise<void> {
  // @ts-expect-error an Anthropic client has no chat.completions.create
  await runToolLoop({
    provider: 'openai-chat',
    client: anthropic,
    request: { messages: [] },
    execute,
  });
}
