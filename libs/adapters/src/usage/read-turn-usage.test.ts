import type Anthropic from '@anthropic-ai/sdk';
import type * as Genai from '@google/genai';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import anthropicMessage from './__fixtures__/anthropic-message-usage.json';
import geminiResponse from './__fixtures__/gemini-generate-content-usage.json';
import chatCompletion from './__fixtures__/openai-chat-completion-usage.json';
import response from './__fixtures__/openai-responses-usage.json';
import { readTurnUsage } from './read-turn-usage';

// A JSON fixture conforms to an SDK type when every field it has is one the SDK declares, with a
// value of the declared kind (JSON imports widen string literals, so literals compare as strings).
type Widen<T> = T extends string ? string : T extends number ? number : T;
type Conforms<TFixture, TSdk> = unknown extends TSdk
  ? true
  : true extends Match<TFixture, NonNullable<TSdk>>
    ? true
    : false;
// The keys a fixture object sets: TypeScript gives the objects of one JSON array each other's keys as
// `?: undefined`, which are not the fixture's.
type SetKeys<T> = { [K in keyof T]-?: [T[K]] extends [undefined] ? never : K }[keyof T];
// Distributes over the SDK's unions: a fixture value conforms when it matches one member.
type Match<TFixture, TSdk> = TSdk extends unknown
  ? [TFixture] extends [null]
    ? true
    : TFixture extends ReadonlyArray<infer TItem>
      ? TSdk extends ReadonlyArray<infer TSdkItem>
        ? EveryConforms<TItem, TSdkItem>
        : false
      : TFixture extends object
        ? TSdk extends object
          ? Exclude<SetKeys<TFixture>, keyof TSdk> extends never
            ? false extends {
                [K in SetKeys<TFixture>]: K extends keyof TSdk
                  ? Conforms<TFixture[K], TSdk[K]>
                  : false;
              }[SetKeys<TFixture>]
              ? false
              : true
            : false
          : false
        : TFixture extends Widen<TSdk>
          ? true
          : false
  : never;
// Every member of a fixture union (an array's items) must conform.
type EveryConforms<TFixture, TSdk> = false extends (
  TFixture extends unknown ? Conforms<TFixture, TSdk> : never
)
  ? false
  : true;
function conforms<TFixture, TSdk>(check: Conforms<TFixture, TSdk>): Conforms<TFixture, TSdk> {
  return check;
}

describe('token usage of a whole response, per provider', () => {
  it('fixtures carry only fields the official SDK types declare', () => {
    expect(conforms<typeof chatCompletion, OpenAI.Chat.ChatCompletion>(true)).toBe(true);
    expect(conforms<typeof response, OpenAI.Responses.Response>(true)).toBe(true);
    expect(conforms<typeof anthropicMessage, Anthropic.Messages.Message>(true)).toBe(true);
    expect(conforms<typeof geminiResponse, Genai.GenerateContentResponse>(true)).toBe(true);
  });

  it('OpenAI Chat: cached prompt tokens leave input, reasoning is part of output', () => {
    expect(readTurnUsage('openai-chat', chatCompletion)).toEqual({
      model: 'o4-mini-2025-04-16',
      tokens: { input: 86, output: 300, cache_read: 1920, cache_write: 0, reasoning: 192 },
    });
  });

  it('OpenAI Responses: input_tokens_details.cached_tokens and output_tokens_details.reasoning_tokens', () => {
    expect(readTurnUsage('openai-responses', response)).toEqual({
      model: 'gpt-5-2025-08-07',
      tokens: { input: 267, output: 223, cache_read: 1024, cache_write: 0, reasoning: 192 },
    });
  });

  it('Anthropic: cache creation and cache read tokens beside input_tokens', () => {
    expect(readTurnUsage('anthropic', anthropicMessage)).toEqual({
      model: 'claude-sonnet-4-5-20250929',
      tokens: { input: 21, output: 393, cache_read: 2048, cache_write: 1554, reasoning: 0 },
    });
  });

  it('Gemini: cachedContentTokenCount within the prompt, thoughts billed as output, modelVersion', () => {
    expect(readTurnUsage('gemini', geminiResponse)).toEqual({
      model: 'gemini-2.5-flash',
      tokens: { input: 84, output: 126, cache_read: 1024, cache_write: 0, reasoning: 95 },
    });
  });

  it('a bare message, content array or item list carries no usage', () => {
    expect(readTurnUsage('openai-chat', chatCompletion.choices[0]?.message)).toBeUndefined();
    expect(readTurnUsage('openai-responses', response.output)).toBeUndefined();
    expect(readTurnUsage('anthropic', anthropicMessage.content)).toBeUndefined();
    expect(readTurnUsage('gemini', geminiResponse.candidates[0]?.content)).toBeUndefined();
    expect(readTurnUsage('mcp', { usage: { input_tokens: 1 } })).toBeUndefined();
  });

  it('usage without the optional details, or with nulls, counts them as 0', () => {
    expect(
      readTurnUsage('anthropic', {
        model: 'claude-haiku-4-5',
        usage: {
          input_tokens: 10,
          output_tokens: 2,
          cache_creation_input_tokens: null,
          cache_read_input_tokens: null,
        },
      }),
    ).toEqual({
      model: 'claude-haiku-4-5',
      tokens: { input: 10, output: 2, cache_read: 0, cache_write: 0, reasoning: 0 },
    });
    expect(
      readTurnUsage('openai-chat', { usage: { prompt_tokens: 5, completion_tokens: 1 } }),
    ).toEqual({
      model: null,
      tokens: { input: 5, output: 1, cache_read: 0, cache_write: 0, reasoning: 0 },
    });
  });

  it('malformed usage is no usage, never a throw', () => {
    expect(
      readTurnUsage('openai-chat', { usage: { prompt_tokens: -1, completion_tokens: 'x' } }),
    ).toBeUndefined();
    expect(readTurnUsage('gemini', { usageMetadata: 'none' })).toBeUndefined();
    expect(readTurnUsage('anthropic', null)).toBeUndefined();
  });
});
