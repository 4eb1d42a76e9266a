import { isRecord } from '@toolgate/toolir';
import type { ToolIR } from '@toolgate/toolir';
import { convertToolList } from '../shared/convert-tool-list';
import { descriptionForWire } from '../shared/provider-limits/description-for-wire';
import { defersAny } from '../shared/deferred-loading';
import { noteUnsupportedOptions } from '../shared/downgrade-report';
import type { ToolsToWireOptions, ToolsToWireResult } from '../shared/tool-adapter';

import type { McpRequestOptions, McpTool } from './mcp-api';
import { downgradeSchemaForMcp, outputSchemaForMcp } from './downgrade-schema-for-mcp';

/**
 * ToolIR -> MCP `Tool`s for `tools/list`: behavior becomes the four annotation hints, `title`,
 * `_meta` and `icons` come from the IR (`protocol_meta`). `strict`, `parallelCalls: false` and
 * `deferLoading` have no MCP form and are reported.
 */
export function convertToolsToMcp(
  tools: readonly ToolIR[],
  options: ToolsToWireOptions = {},
): ToolsToWireResult<McpTool, McpTool, McpRequestOptions> {
  const { definitions, report } = convertToolList(
    tools,
    'mcp',
    (tool, { wireName, reporter }): McpTool => {
      const meta = tool.protocol_meta?.['_meta'];
      const icons = tool.protocol_meta?.['icons'];
      return {
        name: wireName,
        ...(tool.title === undefined ? {} : { title: tool.title }),
        description: descriptionForWire(tool.description, 'mcp', reporter),
        inputSchema: downgradeSchemaForMcp(tool.parameters, reporter),
        ...(tool.outputSchema === undefined
          ? {}
          : { outputSchema: outputSchemaForMcp(tool.outputSchema, reporter) }),
        annotations: {
          ...(tool.title === undefined ? {} : { title: tool.title }),
          readOnlyHint: tool.behavior.readonly,
          destructiveHint: tool.behavior.destructive,
          idempotentHint: tool.behavior.idempotent,
          openWorldHint: tool.behavior.open_world,
        },
        ...(isRecord(meta) ? { _meta: meta } : {}),
        ...(Array.isArray(icons) ? { icons } : {}),
      };
    },
  );
  noteUnsupportedOptions(report, {
    strict: options.strict,
    parallelCalls: options.parallelCalls,
    deferLoading: defersAny(tools, options),
    wire: 'MCP',
  });
  return { tools: definitions, definitions, requestOptions: {}, report };
}
