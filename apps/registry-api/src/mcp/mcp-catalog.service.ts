import { canarySubjectOf } from '../auth/canary-subject';
import { Inject, Injectable } from '@nestjs/common';
import {
  ErrorCode,
  McpError,
  ToolSchema,
  type ListToolsResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { ExportQuery } from '@toolgate/contract';
import { z } from 'zod';
import type { Principal } from '../auth/principal';
import { decodeCursor, ToolPositionCursorSchema } from '../common/pagination';
import { ExportsService } from '../exports/exports.service';
import { deprecationNotice } from '../tools/deprecation-headers';
import { lifecycleOf } from '../tools/tool-versions.service';
import { ToolsRepository } from '../tools/tools.repository';
import { MCP_META, MCP_PAGE_SIZE } from './mcp-options';

// The export document is built by this process; parsing it checks the MCP Tool shape too.
const McpExportSchema = z.object({
  tools: z.array(ToolSchema),
  resolution: z.array(
    z.object({
      tool_id: z.string(),
      name: z.string(),
      version: z.string(),
      deprecated: z.boolean(),
    }),
  ),
  next_cursor: z.string().nullable(),
  total: z.number(),
});

export type McpTool = ListToolsResult['tools'][number];

/**
 * `tools/list`: the caller's catalog as the MCP export renders it (own tools and public ones, each
 * resolved to the version this key gets), so MCP clients see exactly what `GET /v1/exports?format=mcp`
 * shows, page by page. Pages are cut by tool name, so a tool published between two pages shifts no
 * other tool, and every tool of the catalog is listed whatever its size.
 */
@Injectable()
export class McpCatalogService {
  constructor(
    @Inject(ExportsService) private readonly exportsService: ExportsService,
    @Inject(ToolsRepository) private readonly tools: ToolsRepository,
  ) {}

  async listTools(
    principal: Principal,
    cursor: string | undefined,
    pageSize = MCP_PAGE_SIZE,
  ): Promise<ListToolsResult> {
    if (cursor !== undefined && decodeCursor(cursor, ToolPositionCursorSchema) === null) {
      throw new McpError(ErrorCode.InvalidParams, 'The cursor is not one this server returned.');
    }
    // One export page per tools/list page: a page reads and renders only its own tools.
    const page = await this.page(principal, {
      limit: pageSize,
      ...(cursor === undefined ? {} : { cursor }),
    });
    return {
      tools: page.tools,
      ...(page.nextCursor === null ? {} : { nextCursor: page.nextCursor }),
    };
  }

  /** The best `limit` matches of `query`, as tools/list would show them, and how many match. */
  async search(
    principal: Principal,
    query: { q: string; limit: number },
  ): Promise<{ tools: McpTool[]; total: number }> {
    const page = await this.page(principal, query);
    return { tools: page.tools, total: page.total };
  }

  /** These tools, as tools/list shows them (a name no longer in the catalog is left out). */
  async listNamed(principal: Principal, names: readonly string[]): Promise<McpTool[]> {
    if (names.length === 0) return [];
    const page = await this.page(principal, { names: [...names], limit: names.length });
    return page.tools;
  }

  /**
   * One MCP export page. The subject is the one calls resolve with, so a canary tool listed here
   * is the version a call runs.
   */
  private async page(
    principal: Principal,
    selection: Pick<ExportQuery, 'limit' | 'cursor' | 'q' | 'names'>,
  ): Promise<{ tools: McpTool[]; nextCursor: string | null; total: number }> {
    const rendered = await this.exportsService.export(
      principal,
      { ...selection, format: 'mcp', defer_loading: false, strict: undefined },
      canarySubjectOf(principal, undefined),
    );
    const page = McpExportSchema.parse(rendered.document);
    return {
      tools: await this.withDeprecations(page.tools, page.resolution),
      nextCursor: page.next_cursor,
      total: page.total,
    };
  }

  /**
   * Marks the tools listed at a deprecated version with `_meta["toolgate/deprecation"]`, as their
   * calls' results are. The export says which versions are deprecated; only those rows are read.
   */
  private async withDeprecations(
    page: McpTool[],
    resolution: z.infer<typeof McpExportSchema>['resolution'],
  ): Promise<McpTool[]> {
    return Promise.all(
      page.map(async (tool) => {
        const resolved = resolution.find((entry) => entry.name === tool.name);
        if (resolved?.deprecated !== true) return tool;
        const row = await this.tools.findVersion(resolved.tool_id, resolved.version);
        const notice = row === null ? null : deprecationNotice(lifecycleOf(row));
        return notice === null
          ? tool
          : { ...tool, _meta: { ...tool._meta, [MCP_META.deprecation]: notice } };
      }),
    );
  }
}
