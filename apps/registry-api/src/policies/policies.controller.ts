import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/require-scopes.decorator';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import {
  CreatePolicySchema,
  RevisionParamSchema,
  TestPolicySchema,
  type CreatePolicyDto,
  type TestPolicyDto,
} from './policies.dto';
import { PoliciesService } from './policies.service';

@ApiTags('policies')
@Controller('policies')
export class PoliciesController {
  constructor(@Inject(PoliciesService) private readonly policies: PoliciesService) {}

  @Post()
  @HttpCode(201)
  @RequireScopes('admin')
  @ApiOperation({ summary: 'Add a Cedar policy revision (validated; 422 lists every error).' })
  @ApiBody({ schema: z.toJSONSchema(CreatePolicySchema, { io: 'input' }) as object })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(CreatePolicySchema)) body: CreatePolicyDto,
  ) {
    return this.policies.create(principal, body);
  }

  @Get()
  @RequireScopes('admin')
  @ApiOperation({ summary: 'Every policy revision of the caller’s scope, newest first.' })
  list(@CurrentPrincipal() principal: Principal) {
    return this.policies.list(principal);
  }

  @Post('test')
  @HttpCode(200)
  @RequireScopes('admin')
  @ApiOperation({
    summary: 'The decision a policy text would make for a sample call; nothing is saved.',
  })
  @ApiBody({ schema: z.toJSONSchema(TestPolicySchema, { io: 'input' }) as object })
  test(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(TestPolicySchema)) body: TestPolicyDto,
  ) {
    return this.policies.test(principal, body);
  }

  @Post(':revision/activate')
  @HttpCode(200)
  @RequireScopes('admin')
  @ApiOperation({ summary: 'Make a revision the active policy of the caller’s scope.' })
  activate(
    @CurrentPrincipal() principal: Principal,
    @Param('revision', new ZodValidationPipe(RevisionParamSchema, 'params/revision'))
    revision: number,
  ) {
    return this.policies.activate(principal, revision);
  }
}
