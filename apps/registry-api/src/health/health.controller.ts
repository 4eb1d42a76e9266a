import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { PublicRoute } from '../auth/require-scopes.decorator';
import { API_PATHS } from '../common/api-paths';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { PROBLEM_CONTENT_TYPE } from '../problem/problem-document';

@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  /** `GET /v1`: where to go from here (what `npm start` prints as the API). */
  @Get()
  @PublicRoute()
  index() {
    return {
      name: 'Toolgate registry API',
      links: {
        docs: API_PATHS.docs,
        openapi: API_PATHS.openapi,
        health: API_PATHS.health,
        ready: API_PATHS.ready,
        mcp: API_PATHS.mcp,
        tools: '/v1/tools',
        exports: '/v1/exports',
        calls: '/v1/calls',
      },
    };
  }

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
