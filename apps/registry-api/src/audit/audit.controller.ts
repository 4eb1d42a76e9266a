import { Controller, Get, Query, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/require-scopes.decorator';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import { AuditQuerySchema, type AuditQueryDto } from './audit.dto';
import { AuditService } from './audit.service';

@ApiTags('audit')
@Controller('audit')
export class AuditController {
  constructor(@Inject(AuditService) private readonly audit: AuditService) {}

  @Get()
  @RequireScopes('admin')
  @ApiOperation({ summary: 'List audit events, newest first (cursor-paginated).' })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(AuditQuerySchema, 'query')) query: AuditQueryDto,
  ) {
    return this.audit.list(principal, query);
  }

  @Get('verify')
  @RequireScopes('admin')
  @ApiOperation({ summary: 'Verify the audit hash chain; names the first broken link.' })
  verify() {
    return this.audit.verify();
  }
}
