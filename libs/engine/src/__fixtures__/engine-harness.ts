import { randomUUID } from 'node:crypto';
import { ToolIRSchema } from '@toolgate/toolir';
import type {
  ToolBehavior,
  ToolCallIR,
  ToolConstraints,
  ToolIR,
  ToolIRInput,
} from '@toolgate/toolir';
import { BuiltinExecutor } from '../executors/builtin-executor';
import type { ExecutorConfig } from '@toolgate/contract';
import { ExecutorRegistry } from '../executors/executor-registry';
import type { ExecutorSet } from '../executors/executor-registry';
import { MemoryEventSink } from '../telemetry/events';
import type { ExecutionContext } from '../pipeline/execution-context';

/** Builds valid ToolIR for tests, one fluent step per concern. */
export class ToolBuilder {
  private input: ToolIRInput;

  private constructor(input: ToolIRInput) {
    this.input = input;
  }

  static from(overrides: Partial<ToolIRInput> & { name: string }): ToolBuilder {
    return new ToolBuilder({
      schema_version: '1.0',
      id: randomUUID(),
      version: '1.0.0',
      description: `The ${overrides.name} tool.`,
      parameters: { type: 'object', properties: {}, additionalProperties: true },
      behavior: {
        readonly: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        requires_approval: 'never',
      },
      constraints: { timeout_ms: 1000, max_retries: 0 },
      ...overrides,
    });
  }

  behavior(behavior: Partial<ToolBehavior>): this {
    this.input = { ...this.input, behavior: { ...this.input.behavior, ...behavior } };
    return this;
  }

  constraints(constraints: Partial<ToolConstraints>): this {
    this.input = { ...this.input, constraints: { ...this.input.constraints, ...constraints } };
    return this;
  }

  parameters(parameters: Record<string, unknown>): this {
    this.input = { ...this.input, parameters };
    return this;
  }

  executor(config: ExecutorConfig | Record<string, unknown>): this {
    this.input = {
      ...this.input,
      protocol_meta: { ...this.input.protocol_meta, toolgate: { executor: config } },
    };
    return this;
  }

  builtin(handler: string): this {
    return this.executor({ kind: 'builtin', handler });
  }

  with(overrides: Partial<ToolIRInput>): this {
    this.input = { ...this.input, ...overrides };
    return this;
  }

  build(): ToolIR {
    return ToolIRSchema.parse(this.input);
  }
}

/** A clock whose time only moves when the test (or the recorded sleep) moves it. */
export class FakeClock {
  time = Date.UTC(2026, 0, 1);
  /** Every delay the engine asked to sleep, in order. */
  readonly sleeps: number[] = [];

  now = (): number => this.time;

  sleep = (ms: number): Promise<void> => {
    this.sleeps.push(ms);
    this.time += ms;
    return Promise.resolve();
  };
}

/** Makes a tool call with a fresh id. */
export function callOf(
  name: string,
  args: Record<string, unknown> = {},
  id: string = randomUUID(),
): ToolCallIR {
  return { id, name, arguments: args };
}

/** A context over the given tools with a fake clock, recorded sleeps, in-memory events and a builtin executor. */
export function createHarness(input: {
  tools: ToolIR[];
  executors?: ExecutorSet;
  random?: () => number;
}) {
  const clock = new FakeClock();
  const events = new MemoryEventSink();
  const builtins = new BuiltinExecutor();
  const byName = new Map(input.tools.map((tool) => [tool.name, tool]));
  const context: ExecutionContext = {
    resolveTool: (name) => Promise.resolve(byName.get(name)),
    executors: new ExecutorRegistry({ builtin: builtins, ...input.executors }),
    clock,
    sleep: clock.sleep,
    random: input.random ?? (() => 0.5),
    events,
  };
  return { context, clock, events, builtins };
}
