import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/require-scopes.decorator';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import {
  ConsoleUserIdParamSchema,
  CreateConsoleUserSchema,
  UpdateConsoleUserSchema,
  type CreateConsoleUserDto,
  type UpdateConsoleUserDto,
} from './console-auth.dto';
import { ConsoleUsersService } from './console-users.service';

@ApiTags('console')
@Controller('console/users')
@RequireScopes('admin')
export class ConsoleUsersController {
  constructor(@Inject(ConsoleUsersService) private readonly users: ConsoleUsersService) {}

  @Get()
  @ApiOperation({ summary: 'Every console user (admin only).' })
  list() {
    return this.users.list();
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a console user with a role (admin only); audited.' })
  @ApiBody({ schema: z.toJSONSchema(CreateConsoleUserSchema, { io: 'input' }) as object })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(CreateConsoleUserSchema)) body: CreateConsoleUserDto,
  ) {
    return this.users.create(principal, body);
  }

  @Patch(':id')
  @ApiOperation({ summary: "Change a console user's role or disable it (admin only); audited." })
  @ApiBody({ schema: z.toJSONSchema(UpdateConsoleUserSchema, { io: 'input' }) as object })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', new ZodValidationPipe(ConsoleUserIdParamSchema, 'params/id')) id: string,
    @Body(new ZodValidationPipe(UpdateConsoleUserSchema)) body: UpdateConsoleUserDto,
  ) {
    return this.users.update(principal, id, body);
  }
}
