import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/require-scopes.decorator';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import {
  CallIdParamSchema,
  CreateCallsSchema,
  CreateIRCallsSchema,
  IdempotencyKeySchema,
  IRCallsQuerySchema,
  ListCallsQuerySchema,
  type CreateCallsDto,
  type CreateIRCallsDto,
  type IRCallsQueryDto,
  type ListCallsQueryDto,
} from './calls.dto';
import { CallEventsService } from './call-events.service';
import { CallsService } from './calls.service';

const idempotencyPipe = new ZodValidationPipe(IdempotencyKeySchema, 'headers/idempotency-key');
const irQueryPipe = new ZodValidationPipe(IRCallsQuerySchema, 'query');

/** The `Idempotency-Key` header, validated like any input (a repeated header is refused). */
function idempotencyKeyOf(reply: FastifyReply): string | undefined {
  return idempotencyPipe.transform(reply.request.headers['idempotency-key']);
}
const callIdPipe = () => new ZodValidationPipe(CallIdParamSchema, 'params/callId');

@ApiTags('calls')
@Controller('calls')
export class CallsController {
  constructor(
    @Inject(CallsService) private readonly calls: CallsService,
    @Inject(CallEventsService) private readonly events: CallEventsService,
  ) {}

  @Post()
  @RequireScopes('calls:execute')
  @ApiOperation({
    summary:
      "Execute a model's tool calls, posted in the provider's format; 200 with results in that format, or 202 with call ids.",
  })
  @ApiBody({ schema: z.toJSONSchema(CreateCallsSchema, { io: 'input' }) as object })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(CreateCallsSchema)) body: CreateCallsDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const idempotencyKey = idempotencyKeyOf(reply);
    const parsed = await this.calls.parseProviderPayload(principal, body);
    const outcome = await this.calls.submit(principal, {
      provider: parsed.provider,
      calls: parsed.calls,
      conversationId: body.conversation_id,
      waitMs: body.wait_ms,
      idempotencyKey,
    });
    // Deprecation / Sunset / Link when a deprecated version served a call, as exports send them.
    void reply.status(outcome.status).headers(outcome.headers);
    return outcome.body;
  }

  @Post('ir')
  @RequireScopes('calls:execute')
  @ApiOperation({ summary: 'Execute ToolCallIR calls; results come back as ToolResultIR.' })
  async createFromIR(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(CreateIRCallsSchema)) body: CreateIRCallsDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const idempotencyKey = idempotencyKeyOf(reply);
    const query: IRCallsQueryDto = irQueryPipe.transform(reply.request.query);
    const outcome = await this.calls.submit(principal, {
      provider: 'ir',
      calls: body,
      conversationId: query.conversation_id,
      waitMs: query.wait_ms,
      idempotencyKey,
    });
    // Deprecation / Sunset / Link when a deprecated version served a call, as exports send them.
    void reply.status(outcome.status).headers(outcome.headers);
    return outcome.body;
  }

  @Get()
  @RequireScopes('calls:execute')
  @ApiOperation({
    summary: "List the team's calls by status and tool, newest first; cursor-paginated.",
  })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(ListCallsQuerySchema, 'query')) query: ListCallsQueryDto,
  ) {
    return this.calls.list(principal, query);
  }

  @Get(':callId')
  @RequireScopes('calls:execute')
  @ApiOperation({
    summary: 'One call: status, tool version, result (ToolResultIR) and execution data.',
  })
  get(@CurrentPrincipal() principal: Principal, @Param('callId', callIdPipe()) callId: string) {
    return this.calls.get(principal, callId);
  }

  @Get(':callId/decision')
  @RequireScopes('calls:execute')
  @ApiOperation({
    summary: 'The policy decision of a call: effect, matched rule and policy revision.',
  })
  decision(
    @CurrentPrincipal() principal: Principal,
    @Param('callId', callIdPipe()) callId: string,
  ) {
    return this.calls.decision(principal, callId);
  }

  @Post(':callId/cancel')
  @HttpCode(200)
  @RequireScopes('calls:execute')
  @ApiOperation({
    summary: 'Cancel a call: a running one is aborted, a queued or waiting one never runs.',
  })
  cancel(@CurrentPrincipal() principal: Principal, @Param('callId', callIdPipe()) callId: string) {
    return this.calls.cancel(principal, callId);
  }

  @Get(':callId/events')
  @RequireScopes('calls:execute')
  @ApiOperation({
    summary:
      'Server-sent events of a call: its current state, then queued, started, progress, retry, awaiting_approval, finished.',
  })
  async streamEvents(
    @CurrentPrincipal() principal: Principal,
    @Param('callId', callIdPipe()) callId: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    let started = false;
    await this.events.stream(principal, callId, {
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
