import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/require-scopes.decorator';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import {
  CreateTeamSchema,
  TeamIdParamSchema,
  UpdateTeamSchema,
  type CreateTeamDto,
  type UpdateTeamDto,
} from './teams.dto';
import { TeamsService } from './teams.service';

@ApiTags('teams')
@Controller('teams')
export class TeamsController {
  constructor(@Inject(TeamsService) private readonly teams: TeamsService) {}

  @Post()
  @HttpCode(201)
  @RequireScopes('admin')
  @ApiOperation({ summary: 'Create a team (installation admin key only).' })
  @ApiBody({ schema: z.toJSONSchema(CreateTeamSchema) as object })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(CreateTeamSchema)) body: CreateTeamDto,
  ) {
    return this.teams.create(principal, body);
  }

  @Get()
  @RequireScopes('admin')
  @ApiOperation({ summary: 'List teams visible to the key.' })
  list(@CurrentPrincipal() principal: Principal) {
    return this.teams.list(principal);
  }

  @Patch(':teamId')
  @RequireScopes('admin')
  @ApiOperation({
    summary: "Change a team's settings (`allow_self_approval`); a team key its own team; audited.",
  })
  @ApiBody({ schema: z.toJSONSchema(UpdateTeamSchema, { io: 'input' }) as object })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('teamId', new ZodValidationPipe(TeamIdParamSchema, 'params/teamId')) teamId: string,
    @Body(new ZodValidationPipe(UpdateTeamSchema)) body: UpdateTeamDto,
  ) {
    return this.teams.update(principal, teamId, body);
  }
}
