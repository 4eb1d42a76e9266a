import { z } from 'zod';

/** The queues the worker consumes. */
export const QueueName = {
  ToolCalls: 'tool-calls',
  /** Jobs that advance durable runs; consumed by the API, whose call path records and dispatches each step. */
  Runs: 'runs',
} as const;
/** A queue's name (no `:`, which BullMQ reserves for its keys). */
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

/** The jobs the worker knows. */
export const JobName = {
  ExecuteToolCall: 'execute-tool-call',
  AdvanceRun: 'advance-run',
} as const;
/** A job's name. */
export type JobName = (typeof JobName)[keyof typeof JobName];

/** The payload of `JobName.ExecuteToolCall`: only the call id, since the call record is the source of truth. */
export const ExecuteToolCallJobSchema = z.strictObject({
  /** The call to execute, as recorded by the registry. */
  call_id: z.string().min(1).max(512),
  /** Calls of the same batch this one runs after: it waits until each of them is final. */
  after: z.array(z.string().min(1).max(512)).max(256).optional(),
  /** W3C trace context of the request that enqueued the call, so the worker's spans join its trace. */
  traceparent: z.string().max(256).optional(),
  /** W3C trace state accompanying `traceparent`. */
  tracestate: z.string().max(512).optional(),
  /** When the job was enqueued (epoch ms), so the worker can trace how long the call waited in the queue. */
  enqueued_at: z.number().int().nonnegative().optional(),
  /** `refresh`: the caller sent `Cache-Control: no-cache`, so a cached tool executes and refreshes its entry. */
  cache: z.enum(['refresh']).optional(),
});
/** The payload of `JobName.ExecuteToolCall`. */
export type ExecuteToolCallJob = z.infer<typeof ExecuteToolCallJobSchema>;

/** The payload of `JobName.AdvanceRun`: only the run id, since the run's rows are the checkpoint. */
export const AdvanceRunJobSchema = z.strictObject({
  run_id: z.uuid(),
});
/** The payload of `JobName.AdvanceRun`. */
export type AdvanceRunJob = z.infer<typeof AdvanceRunJobSchema>;

/** Redis pub/sub channels between the API and the workers, under the queue prefix. */
export const GatewayChannel = {
  /** Call events from workers (and the dispatcher's `queued`), one JSON `CallEventMessage` each. */
  events: (prefix: string) => `${prefix}:gateway:call-events`,
  /** Cancelled call ids: a worker running one aborts it. */
  cancel: (prefix: string) => `${prefix}:gateway:call-cancel`,
  /** Call ids someone started streaming: workers publish those calls' progress events. */
  watch: (prefix: string) => `${prefix}:gateway:call-watch`,
  /** What an upstream MCP server asks during a call, to the API process following relay `relayId`. */
  relayToClient: (prefix: string, relayId: string) => `${prefix}:gateway:mcp-relay:${relayId}`,
  /** The MCP clients' answers, to the process `runnerId` whose call asked. */
  relayToRunner: (prefix: string, runnerId: string) =>
    `${prefix}:gateway:mcp-relay-answers:${runnerId}`,
};

/**
 * One call event on the wire: the engine's event, or `finished` once the outcome is stored, with
 * that outcome (status, error code and the result addressed to the model's call id).
 */
export const CallEventMessageSchema = z.looseObject({
  type: z.enum(['queued', 'started', 'progress', 'retry', 'awaiting_approval', 'finished']),
  call_id: z.string().min(1).max(512),
  tool: z.string(),
  at: z.number(),
});
/** One call event on the wire. */
export type CallEventMessage = z.infer<typeof CallEventMessageSchema>;
