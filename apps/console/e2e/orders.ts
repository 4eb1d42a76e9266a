/**
 * A small shop the console e2e's local upstream serves, for compensation: `e2e.create_order` makes
 * an order (refused for one customer) and declares `e2e.cancel_order` as its way back;
 * `e2e.note_customer` writes a note and has none, so it cannot be undone.
 */
import type { ServerResponse } from 'node:http';

export const CREATE_ORDER = 'e2e.create_order';
export const CANCEL_ORDER = 'e2e.cancel_order';
export const NOTE_CUSTOMER = 'e2e.note_customer';
/** The customer whose orders the shop refuses (HTTP 422), so a step's call fails. */
export const REFUSED_CUSTOMER = 'blocked-co';

const WRITE = {
  readonly: false,
  destructive: false,
  idempotent: false,
  requires_approval: 'never',
} as const;

type Body = Record<string, unknown>;

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The shop's side: the orders it holds, and every effect in the order it took place. */
export class OrdersUpstream {
  readonly effects: string[] = [];
  private readonly orders = new Map<string, string>();
  private next = 0;

  /** Answers a request under /orders or /notes; false when the path is none of the shop's. */
  async handle(url: string, body: Body, response: ServerResponse): Promise<boolean> {
    const answer = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    const customer = textOf(body['customer']);
    switch (url) {
      case '/orders': {
        // Staggered by the caller, so the orders of one step are made in a known order.
        await new Promise((resolve) => setTimeout(resolve, Number(body['delay_ms'] ?? 0)));
        if (customer === REFUSED_CUSTOMER) {
          answer(422, { error: `the shop does not take orders from ${customer}` });
          return true;
        }
        const id = `order-${++this.next}`;
        this.orders.set(id, customer);
        this.effects.push(`create:${customer}:${id}`);
        answer(201, { order_id: id });
        return true;
      }
      case '/orders/cancel': {
        const id = textOf(body['order_id']);
        const owner = this.orders.get(id);
        if (owner === undefined) {
          answer(404, { error: `no order ${id}` });
          return true;
        }
        this.orders.delete(id);
        this.effects.push(`cancel:${owner}:${id}`);
        answer(200, { cancelled: id });
        return true;
      }
      case '/notes':
        this.effects.push(`note:${customer}`);
        answer(200, { noted: true });
        return true;
      default:
        return false;
    }
  }
}

interface ShopTool {
  name: string;
  description: string;
  path: string;
  properties: Record<string, unknown>;
  required: string[];
  /** More of the ToolIR: provider hints, the compensation. */
  extra?: Record<string, unknown>;
}

const SHOP_TOOLS: readonly ShopTool[] = [
  {
    name: CANCEL_ORDER,
    description: 'Cancels an order.',
    path: '/orders/cancel',
    properties: { order_id: { type: 'string', minLength: 1 } },
    required: ['order_id'],
  },
  {
    name: CREATE_ORDER,
    description: 'Places an order for a customer.',
    path: '/orders',
    properties: {
      customer: { type: 'string', minLength: 1 },
      delay_ms: { type: 'integer', minimum: 0, maximum: 2000 },
    },
    required: ['customer'],
    extra: {
      // Orders of different customers are different resources: one step's run side by side.
      provider_hints: { toolgate: { resource_key: '/customer' } },
      compensation: { tool: CANCEL_ORDER, arguments: { order_id: { from: '/result/order_id' } } },
    },
  },
  {
    name: NOTE_CUSTOMER,
    description: "Adds a note to a customer's file.",
    path: '/notes',
    properties: { customer: { type: 'string', minLength: 1 }, text: { type: 'string' } },
    required: ['customer'],
  },
];

/** The shop's tools, in the order they are published (the compensating tool first). */
export function shopTools(): ReadonlyArray<Pick<ShopTool, 'name' | 'description'>> {
  return SHOP_TOOLS;
}

/** Version 1.0.0 of the shop tool `name`, run by the upstream at `upstreamUrl`. */
export function shopToolIr(name: string, toolId: string, upstreamUrl: string) {
  const tool = SHOP_TOOLS.find((entry) => entry.name === name);
  if (tool === undefined) throw new Error(`no shop tool ${name}`);
  return {
    schema_version: '1.0',
    id: toolId,
    name: tool.name,
    version: '1.0.0',
    description: tool.description,
    parameters: {
      type: 'object',
      properties: tool.properties,
      required: tool.required,
      additionalProperties: false,
    },
    behavior: WRITE,
    constraints: { timeout_ms: 5000 },
    protocol_meta: {
      toolgate: {
        executor: {
          kind: 'http',
          method: 'POST',
          url: `${upstreamUrl}${tool.path}`,
          body: 'arguments',
        },
      },
    },
    ...tool.extra,
  };
}
