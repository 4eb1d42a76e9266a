import { Body, Controller, Get, HttpCode, Param, Post, Query, Inject } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/require-scopes.decorator';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import {
  CreateToolSchema,
  ListToolsQuerySchema,
  SearchToolsQuerySchema,
  ToolIdParamSchema,
  type CreateToolDto,
  type ListToolsQueryDto,
  type SearchToolsQueryDto,
} from './tools.dto';
import { ToolsService } from './tools.service';

@ApiTags('tools')
@Controller('tools')
export class ToolsController {
  constructor(@Inject(ToolsService) private readonly tools: ToolsService) {}

  @Post()
  @HttpCode(201)
  @RequireScopes('tools:write')
  @ApiOperation({ summary: 'Register a tool (its versions are published separately).' })
  @ApiBody({ schema: z.toJSONSchema(CreateToolSchema, { io: 'input' }) as object })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(CreateToolSchema)) body: CreateToolDto,
  ) {
    return this.tools.create(principal, body);
  }

  @Get()
  @RequireScopes('tools:read')
  @ApiOperation({ summary: 'List tools by tag, team, status or text; cursor-paginated.' })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(ListToolsQuerySchema, 'query')) query: ListToolsQueryDto,
  ) {
    return this.tools.list(principal, query);
  }

  @Get('search')
  @RequireScopes('tools:read')
  @ApiOperation({ summary: 'Full-text search over name, tags and description, best match first.' })
  search(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(SearchToolsQuerySchema, 'query')) query: SearchToolsQueryDto,
  ) {
    return this.tools.search(principal, query);
  }

  @Get(':toolId')
  @RequireScopes('tools:read')
  @ApiOperation({ summary: 'One tool and its release state.' })
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('toolId', new ZodValidationPipe(ToolIdParamSchema, 'params/toolId')) toolId: string,
  ) {
    return this.tools.get(principal, toolId);
  }
}
