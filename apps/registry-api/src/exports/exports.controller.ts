import { Controller, Get, Query, Res, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/require-scopes.decorator';
import { RequestHeader } from '../common/request-header.decorator';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import { ExportQuerySchema, SubjectHeaderSchema, type ExportQueryDto } from './exports.dto';
import { ExportsService } from './exports.service';

/** RFC 9110 §13.1.2: If-None-Match uses weak comparison; `*` matches any current representation. */
function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch
    .split(',')
    .some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}

@ApiTags('exports')
@Controller('exports')
export class ExportsController {
  constructor(@Inject(ExportsService) private readonly exportsService: ExportsService) {}

  // eslint-disable-next-line max-params -- Nest binds each request part through its own decorated parameter
  @Get()
  @RequireScopes('tools:read')
  @ApiOperation({
    summary:
      'Tools in a provider wire format, each resolved for the caller (pin > canary bucket > stable), with an ETag.',
  })
  async export(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(ExportQuerySchema, 'query')) query: ExportQueryDto,
    @RequestHeader(
      'x-toolgate-subject',
      new ZodValidationPipe(SubjectHeaderSchema, 'headers/x-toolgate-subject'),
    )
    subject: string | undefined,
    @RequestHeader('if-none-match') ifNoneMatch: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const rendered = await this.exportsService.export(principal, query, subject ?? principal.actor);
    // The body depends on the subject (canary bucket) and the key (visibility).
    void reply.headers({
      ...rendered.headers,
      etag: rendered.etag,
      vary: 'Authorization, X-Toolgate-Subject',
      'cache-control': 'private, no-cache',
    });
    if (matchesEtag(ifNoneMatch, rendered.etag)) {
      await reply.status(304).send();
      return;
    }
    await reply.status(200).type('application/json; charset=utf-8').send(rendered.body);
  }
}
