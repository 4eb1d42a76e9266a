import { Body, Controller, Get, HttpCode, Param, Post, Inject } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/require-scopes.decorator';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import { ApiKeyIdParamSchema, CreateApiKeySchema, type CreateApiKeyDto } from './api-keys.dto';
import { ApiKeysService } from './api-keys.service';

@ApiTags('api-keys')
@Controller('api-keys')
export class ApiKeysController {
  constructor(@Inject(ApiKeysService) private readonly keys: ApiKeysService) {}

  @Post()
  @HttpCode(201)
  @RequireScopes('admin')
  @ApiOperation({ summary: 'Create an API key; the secret is in this response only.' })
  @ApiBody({ schema: z.toJSONSchema(CreateApiKeySchema) as object })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(CreateApiKeySchema)) body: CreateApiKeyDto,
  ) {
    return this.keys.create(principal, body);
  }

  @Get()
  @RequireScopes('admin')
  @ApiOperation({ summary: "List the team's API keys (never their secrets)." })
  list(@CurrentPrincipal() principal: Principal) {
    return this.keys.list(principal);
  }

  @Post(':id/revoke')
  @HttpCode(200)
  @RequireScopes('admin')
  @ApiOperation({ summary: 'Revoke an API key; it stops working at once.' })
  revoke(
    @CurrentPrincipal() principal: Principal,
    @Param('id', new ZodValidationPipe(ApiKeyIdParamSchema, 'params/id')) id: string,
  ) {
    return this.keys.revoke(principal, id);
  }
}
