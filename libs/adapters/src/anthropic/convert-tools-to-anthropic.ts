import { isRecord } from '@toolgate/toolir';
import type { ToolIR } from '@toolgate/toolir';
import { convertToolList } from '../shared/convert-tool-list';
import { deferralOf, defersAny } from '../shared/deferred-loading';
import { strictHintOf } from '../shared/strict-hint';
import { checkRequestLimits } from '../shared/provider-limits/request-limits';
import { descriptionForWire } from '../shared/provider-limits/description-for-wire';
import type { ToolsToWireOptions, ToolsToWireResult } from '../shared/tool-adapter';

import type {
  AnthropicCacheControl,
  AnthropicRequestOptions,
  AnthropicRequestTool,
  AnthropicTool,
} from './anthropic-api';
import { downgradeSchemaForAnthropic } from './downgrade-schema-for-anthropic';

// BM25 over names, descriptions and parameters suits descriptions written in prose.
const ANTHROPIC_TOOL_SEARCH: AnthropicRequestTool = {
  type: 'tool_search_tool_bm25_20251119',
  name: 'tool_search_tool_bm25',
};
function cacheControlOf(tool: ToolIR): AnthropicCacheControl | undefined {
  const value =
    tool.provider_hints?.['anthropic']?.['cache_control'] ?? tool.protocol_meta?.['cache_control'];
  if (!isRecord(value) || value['type'] !== 'ephemeral') return undefined;
  const ttl = value['ttl'];
  return ttl === '5m' || ttl === '1h' ? { type: 'ephemeral', ttl } : { type: 'ephemeral' };
}

/**
 * ToolIR -> Messages API `tools`: `cache_control` and `strict` come from
 * `provider_hints.anthropic` (or `protocol_meta`); `parallelCalls: false` becomes
 * `tool_choice: {type:'auto', disable_parallel_tool_use: true}`. Deferred tools carry
 * `defer_loading: true`, behind the BM25 tool search tool unless `toolSearch` is `none`.
 */
export function convertToolsToAnthropic(
  tools: readonly ToolIR[],
  options: ToolsToWireOptions = {},
): ToolsToWireResult<AnthropicRequestTool, AnthropicTool, AnthropicRequestOptions> {
  const deferred = deferralOf(options);
  const { definitions, report } = convertToolList(
    tools,
    'anthropic',
    (tool, { wireName, reporter }) => {
      const strict = options.strict ?? strictHintOf(tool, 'anthropic');
      const cacheControl = cacheControlOf(tool);
      return {
        name: wireName,
        description: descriptionForWire(tool.description, 'anthropic', reporter),
        input_schema: downgradeSchemaForAnthropic(tool.parameters, reporter, {
          strict: strict === true,
        }),
        ...(cacheControl === undefined ? {} : { cache_control: cacheControl }),
        ...(strict === undefined ? {} : { strict }),
        ...(deferred(tool) ? { defer_loading: true } : {}),
      };
    },
  );
  report.limits.push(...checkRequestLimits('anthropic', definitions));
  const search = defersAny(tools, options) && options.toolSearch !== 'none';
  return {
    tools: search ? [ANTHROPIC_TOOL_SEARCH, ...definitions] : definitions,
    definitions,
    requestOptions:
      options.parallelCalls === false
        ? { tool_choice: { type: 'auto', disable_parallel_tool_use: true } }
        : {},
    report,
  };
}
