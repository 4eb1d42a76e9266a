import { Controller, Inject, Res } from '@nestjs/common';
import { routes, type RouteInput } from '@toolgate/contract';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { RunsService } from './runs.service';

@Controller()
export class RunsController {
  constructor(@Inject(RunsService) private readonly runs: RunsService) {}

  @Endpoint(routes.createRun)
  create(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.createRun>,
  ) {
    return this.runs.create(principal, input.body);
  }

  @Endpoint(routes.listRuns)
  list(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.listRuns>,
  ) {
    return this.runs.list(principal, input.query);
  }

  @Endpoint(routes.getRun)
  get(@CurrentPrincipal() principal: Principal, @Input() input: RouteInput<typeof routes.getRun>) {
    return this.runs.get(principal, input.params.runId);
  }

  @Endpoint(routes.cancelRun)
  cancel(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.cancelRun>,
  ) {
    return this.runs.cancel(principal, input.params.runId);
  }

  @Endpoint(routes.completeRun)
  complete(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.completeRun>,
  ) {
    return this.runs.complete(principal, input.params.runId);
  }

  @Endpoint(routes.createRunTurn)
  async turn(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.createRunTurn>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const outcome = await this.runs.turn(principal, input.params.runId, {
      body: input.body,
      idempotencyKey: input.headers['idempotency-key'],
      subject: input.headers['x-toolgate-subject'],
    });
    void reply.status(outcome.status).headers(outcome.headers);
    return outcome.body;
  }

  @Endpoint(routes.getRunTranscript)
  transcript(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.getRunTranscript>,
  ) {
    return this.runs.transcript(principal, input.params.runId, input.query);
  }

  @Endpoint(routes.createRunPlan)
  plan(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.createRunPlan>,
  ) {
    return this.runs.plan(principal, input.params.runId, input.body);
  }

  @Endpoint(routes.decideRun)
  decide(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.decideRun>,
  ) {
    return this.runs.decide(principal, input.params.runId, input.body);
  }

  @Endpoint(routes.compensateRun)
  compensate(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.compensateRun>,
  ) {
    return this.runs.compensate(principal, input.params.runId, input.body);
  }
}
