import { Controller, Get, Inject, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/require-scopes.decorator';
import { CallIdParamSchema } from '../calls/calls.dto';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import { CallTimelineService } from './call-timeline.service';

@ApiTags('calls')
@Controller('calls')
export class CallTimelineController {
  constructor(@Inject(CallTimelineService) private readonly timelines: CallTimelineService) {}

  @Get(':callId/timeline')
  @RequireScopes('calls:execute')
  @ApiOperation({
    summary: "A call's timeline: received, approval, start, attempts, retries, fallback, result.",
  })
  timeline(
    @CurrentPrincipal() principal: Principal,
    @Param('callId', new ZodValidationPipe(CallIdParamSchema, 'params/callId')) callId: string,
  ) {
    return this.timelines.timeline(principal, callId);
  }
}
