import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Put,
  Query,
} from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/require-scopes.decorator';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import {
  CreateSecretSchema,
  DeleteSecretQuerySchema,
  RotateSecretSchema,
  SecretNameSchema,
  SecretTeamQuerySchema,
  type CreateSecretDto,
  type DeleteSecretQueryDto,
  type RotateSecretDto,
  type SecretTeamQueryDto,
} from './secrets.dto';
import { SecretsService } from './secrets.service';

@ApiTags('secrets')
@Controller('secrets')
export class SecretsController {
  constructor(@Inject(SecretsService) private readonly secrets: SecretsService) {}

  @Post()
  @HttpCode(201)
  @RequireScopes('tools:write')
  @ApiOperation({ summary: "Store a secret for the team's tools; its value is never returned." })
  @ApiBody({ schema: z.toJSONSchema(CreateSecretSchema) as object })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(CreateSecretSchema)) body: CreateSecretDto,
  ) {
    return this.secrets.create(principal, body);
  }

  @Get()
  @RequireScopes('tools:read')
  @ApiOperation({ summary: 'List secrets: names, times and the tool versions referencing each.' })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(SecretTeamQuerySchema, 'query')) query: SecretTeamQueryDto,
  ) {
    return this.secrets.list(principal, query);
  }

  // eslint-disable-next-line max-params -- Nest binds each request part through its own decorated parameter
  @Put(':name')
  @RequireScopes('tools:write')
  @ApiOperation({ summary: "Rotate a secret's value; calls use the new value at once." })
  @ApiBody({ schema: z.toJSONSchema(RotateSecretSchema) as object })
  rotate(
    @CurrentPrincipal() principal: Principal,
    @Param('name', new ZodValidationPipe(SecretNameSchema, 'params/name')) name: string,
    @Query(new ZodValidationPipe(SecretTeamQuerySchema, 'query')) query: SecretTeamQueryDto,
    @Body(new ZodValidationPipe(RotateSecretSchema)) body: RotateSecretDto,
  ) {
    return this.secrets.rotate(principal, { name, query }, body);
  }

  @Delete(':name')
  @HttpCode(204)
  @RequireScopes('tools:write')
  @ApiOperation({
    summary:
      'Delete a secret; refused (409) while a stable or canary version references it, unless ?force=true.',
  })
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('name', new ZodValidationPipe(SecretNameSchema, 'params/name')) name: string,
    @Query(new ZodValidationPipe(DeleteSecretQuerySchema, 'query')) query: DeleteSecretQueryDto,
  ): Promise<void> {
    await this.secrets.delete(principal, name, query);
  }
}
