import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/require-scopes.decorator';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import {
  ApprovalDecisionSchema,
  ApprovalIdParamSchema,
  ListApprovalsQuerySchema,
  type ApprovalDecisionDto,
  type ListApprovalsQueryDto,
} from './approvals.dto';
import { ApprovalsService } from './approvals.service';

@ApiTags('approvals')
@Controller('approvals')
export class ApprovalsController {
  constructor(@Inject(ApprovalsService) private readonly approvals: ApprovalsService) {}

  @Get()
  @RequireScopes('approvals:decide')
  @ApiOperation({ summary: 'Approval requests of the team, newest first (`?status=pending`).' })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(ListApprovalsQuerySchema, 'query')) query: ListApprovalsQueryDto,
  ) {
    return this.approvals.list(principal, query);
  }

  @Post(':approvalId/decision')
  @HttpCode(200)
  @RequireScopes('approvals:decide')
  @ApiOperation({ summary: 'Approve or deny a pending call; the decider is recorded and audited.' })
  @ApiBody({ schema: z.toJSONSchema(ApprovalDecisionSchema, { io: 'input' }) as object })
  decide(
    @CurrentPrincipal() principal: Principal,
    @Param('approvalId', new ZodValidationPipe(ApprovalIdParamSchema, 'params/approvalId'))
    approvalId: string,
    @Body(new ZodValidationPipe(ApprovalDecisionSchema)) body: ApprovalDecisionDto,
  ) {
    return this.approvals.decide(principal, approvalId, body);
  }
}
