import { Controller, Inject } from '@nestjs/common';
import { routes, type ApiIndex, type Liveness, type Readiness } from '@toolgate/contract';
import { API_PATHS } from '../common/api-paths';
import { Endpoint } from '../contract/endpoint.decorator';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { ToolException } from '../problem/tool.exception';

@Controller()
export class HealthController {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  /** `GET /v1`: where to go from here (what `npm start` prints as the API). */
  @Endpoint(routes.getApiIndex)
  index(): ApiIndex {
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

  @Endpoint(routes.getLiveness)
  health(): Liveness {
    return { status: 'ok' };
  }

  @Endpoint(routes.getReadiness)
  async ready(): Promise<Readiness> {
    try {
      await this.database.ping();
    } catch (error) {
      throw new ToolException('unavailable', 'The database does not answer.', {
        cause: error,
      });
    }
    return { status: 'ready', database: this.database.kind };
  }
}
