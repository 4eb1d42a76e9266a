import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { PublicRoute } from '../auth/require-scopes.decorator';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { PROBLEM_CONTENT_TYPE } from '../problem/problem-document';

@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  /** Liveness: the process answers. */
  @Get('healthz')
  @PublicRoute()
  health() {
    return { status: 'ok' };
  }

  /** Readiness: the database answers too. */
  @Get('readyz')
  @PublicRoute()
  async ready(@Res() reply: FastifyReply): Promise<void> {
    try {
      await this.database.ping();
      await reply.send({ status: 'ready', database: this.database.kind });
    } catch {
      await reply.status(503).type(PROBLEM_CONTENT_TYPE).send({
        type: 'https://toolgate.dev/problems/unavailable',
        title: 'Service unavailable',
        status: 503,
        detail: 'The database does not answer.',
        code: 'unavailable',
        errors: [],
      });
    }
  }
}
