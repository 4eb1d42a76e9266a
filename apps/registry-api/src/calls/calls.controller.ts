import { Controller, Inject, Res } from '@nestjs/common';
import { requestsFreshResult, routes, type RouteInput } from '@toolgate/contract';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { CallEventsService } from './call-events.service';
import { CallsService } from './calls.service';

/** `Cache-Control: no-cache` on the request: cached tools execute and refresh their entries. */
function freshness(cacheControl: string | undefined): { cache?: 'refresh' } {
  return requestsFreshResult(cacheControl) ? { cache: 'refresh' } : {};
}

@Controller()
export class CallsController {
  constructor(
    @Inject(CallsService) private readonly calls: CallsService,
    @Inject(CallEventsService) private readonly events: CallEventsService,
  ) {}

  @Endpoint(routes.createCalls)
  async create(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.createCalls>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const parsed = await this.calls.parseProviderPayload(principal, input.body);
    const outcome = await this.calls.submit(principal, {
      provider: parsed.provider,
      calls: parsed.calls,
      conversationId: input.body.conversation_id,
      waitMs: input.body.wait_ms,
      idempotencyKey: input.headers['idempotency-key'],
      synthesizedIds: parsed.synthesizedIds,
      partialStates: input.body.partial_states,
      usage: parsed.usage,
      ...freshness(input.headers['cache-control']),
      versions: {
        subject: input.headers['x-toolgate-subject'],
        snapshot: input.body.snapshot,
        pins: input.body.pins,
      },
    });
    // Deprecation / Sunset / Link when a deprecated version served a call, as exports send them.
    void reply.status(outcome.status).headers(outcome.headers);
    return outcome.body;
  }

  @Endpoint(routes.createIRCalls)
  async createFromIR(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.createIRCalls>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const outcome = await this.calls.submitIR(principal, {
      calls: input.body,
      conversationId: input.query.conversation_id,
      waitMs: input.query.wait_ms,
      idempotencyKey: input.headers['idempotency-key'],
      ...freshness(input.headers['cache-control']),
      versions: { subject: input.headers['x-toolgate-subject'], snapshot: input.query.snapshot },
    });
    // Deprecation / Sunset / Link when a deprecated version served a call, as exports send them.
    void reply.status(outcome.status).headers(outcome.headers);
    return outcome.body;
  }

  @Endpoint(routes.listCalls)
  list(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.listCalls>,
  ) {
    return this.calls.list(principal, input.query);
  }

  @Endpoint(routes.getCall)
  get(@CurrentPrincipal() principal: Principal, @Input() input: RouteInput<typeof routes.getCall>) {
    return this.calls.get(principal, input.params.callId);
  }

  @Endpoint(routes.getCallDecision)
  decision(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.getCallDecision>,
  ) {
    return this.calls.decision(principal, input.params.callId);
  }

  @Endpoint(routes.cancelCall)
  cancel(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.cancelCall>,
  ) {
    return this.calls.cancel(principal, input.params.callId);
  }

  @Endpoint(routes.streamCallEvents)
  async streamEvents(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.streamCallEvents>,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    let started = false;
    await this.events.stream(principal, input.params.callId, {
      send: (event, data) => {
        if (!started) {
          started = true;
          // The stream outlives the handler: Fastify must not answer for us.
          reply.hijack();
          reply.raw.writeHead(200, {
            'content-type': 'text/event-stream; charset=utf-8',
            'cache-control': 'no-cache',
            'x-request-id': String(reply.request.id),
          });
        }
        reply.raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      },
      end: () => reply.raw.end(),
      onClose: (listener) => reply.raw.on('close', listener),
    });
  }
}
