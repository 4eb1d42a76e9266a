import {
  Inject,
  Injectable,
  Logger,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { RouteDefinition } from '@toolgate/contract';
import type { FastifyReply } from 'fastify';
import { map, type Observable } from 'rxjs';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../database/database.tokens';
import { ToolException } from '../problem/tool.exception';
import { ROUTE_METADATA } from './endpoint.decorator';
import { checkResponse, recordViolation, type ResponseCheckMode } from './response-check';

/**
 * Holds every answer to its route's contract (see ResponseCheckMode): a response shape that drifts
 * from what the OpenAPI document, the SDK and the console expect is caught where it is made.
 */
@Injectable()
export class ContractResponseInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Contract');
  private readonly mode: ResponseCheckMode;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.mode = config.TOOLGATE_RESPONSE_CHECK;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const route = Reflect.getMetadata(ROUTE_METADATA, context.getHandler()) as
      RouteDefinition | undefined;
    if (this.mode === 'off' || route === undefined || route.streaming === true)
      return next.handle();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(
      map((body: unknown) => {
        if (reply.sent) return body;
        const status = reply.statusCode;
        const problems = checkResponse(route, status, body);
        if (problems.length === 0) return body;
        const violation = { operationId: route.operationId, status, problems };
        this.logger.error(
          `${route.operationId} answered ${status} off its contract: ${problems.join('; ')}`,
        );
        if (this.mode !== 'strict') return body;
        recordViolation(violation);
        throw new ToolException(
          'internal',
          `The ${route.operationId} answer ${status} does not match the contract: ${problems.join('; ')}`,
        );
      }),
    );
  }
}
