import type { ToolCallIR, ToolgateError } from '@toolgate/toolir';

/** Why a streamed call must not be executed, worded for the model (the `ToolResultError` shape). */
export interface ToolCallStreamError {
  /** `incomplete_arguments` (cut off), `invalid_arguments` (not JSON, not an object, or against the schema) or `unknown_tool`. */
  code: 'incomplete_arguments' | 'invalid_arguments' | 'unknown_tool';
  message: string;
  /** Always `false`: the model must change its call, repeating it cannot help. */
  retryable: false;
  /** Structured data: the JSON error position, the schema errors, or the known tool names. */
  details?: unknown;
}

/** The model started a tool call; its name and id are known, its arguments are not. */
export interface ToolCallStartEvent {
  type: 'tool_call_start';
  id: string;
  /** The ToolIR name (wire names mapped back when the tools are known). */
  name: string;
  /** The call's position among the tool calls of this stream, from 0, whatever the provider's own indexes. */
  index: number;
}

/** More of a call's arguments arrived: the partial value to render, never to execute. */
export interface ToolCallDeltaEvent {
  type: 'tool_call_delta';
  id: string;
  /** The arguments so far (see `PartialJson.value`); a live object unless the stream was created with `snapshots`. */
  partial: unknown;
  /** JSON Pointers of the argument values completed by this delta. */
  completePaths: readonly string[];
}

/** The provider signalled the end of a call: the final call, and why it must not run if it must not. */
export interface ToolCallEndEvent {
  type: 'tool_call_end';
  call: ToolCallIR;
  /** Present when the call is cut off, is not valid JSON, fails the tool's schema, or names no known tool. */
  error?: ToolCallStreamError;
}

/** Assistant text streamed between or before tool calls. */
export interface TextDeltaEvent {
  type: 'text_delta';
  text: string;
}

/** A stream event that could not be read (wrong shape, undecodable SSE data) or a provider error event. */
export interface StreamErrorEvent {
  type: 'error';
  error: ToolgateError;
}

/** What a tool-call stream parser learned from one provider event. */
export type ToolCallStreamEvent =
  ToolCallStartEvent | ToolCallDeltaEvent | ToolCallEndEvent | TextDeltaEvent | StreamErrorEvent;

/** A provider stream parser: feed it the provider's stream events as the official SDKs yield them. */
export interface ToolCallStream {
  /** Takes one provider event (a parsed object) and returns what it learned; never throws. */
  push(event: unknown): ToolCallStreamEvent[];
  /** Closes the stream: ends or rejects every open call and returns the final events; never throws. */
  end(): ToolCallStreamEvent[];
}
