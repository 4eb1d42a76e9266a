import { isRecord } from '@toolgate/toolir';
import type { ToolIR } from '@toolgate/toolir';
import { convertToolList } from '../shared/convert-tool-list';
import { deferralOf, defersAny } from '../shared/deferred-loading';
import { strictHintOf } from '../shared/strict-hint';
import type { DowngradeReport } from '../shared/downgrade-report';
import type { ToolsToWireOptions, ToolsToWireResult } from '../shared/tool-adapter';

import type {
  AnthropicCacheControl,
  AnthropicRequestOptions,
  AnthropicRequestTool,
  AnthropicTool,
} from './anthropic-api';
import { downgradeSchemaForAnthropic } from './downgrade-schema-for-anthropic';

const MAX_CACHE_BREAKPOINTS = 4;
// BM25 over names, descriptions and parameters suits descriptions written in prose.
const ANTHROPIC_TOOL_SEARCH: AnthropicRequestTool = {
  type: 'tool_search_tool_bm25_20251119',
  name: 'tool_search_tool_bm25',
};
// Documented strict-tool limits (provider-rules §2.3, secondary source): per request.
const MAX_STRICT_TOOLS = 20;
const MAX_STRICT_OPTIONAL_PARAMETERS = 24;
const MAX_STRICT_UNION_PARAMETERS = 16;

function checkStrictLimits(strictTools: readonly AnthropicTool[], report: DowngradeReport): void {
  let optional = 0;
  let unions = 0;
  for (const tool of strictTools) {
    const properties = tool.input_schema.properties ?? {};
    const required = tool.input_schema.required ?? [];
    for (const [key, schema] of Object.entries(properties)) {
      if (!required.includes(key)) optional++;
      if (isRecord(schema) && (schema['anyOf'] !== undefined || Array.isArray(schema['type'])))
        unions++;
    }
  }
  const check = (limit: string, actual: number, max: number): void => {
    if (actual > max) report.limits.push({ tool: '*', limit, actual, max });
  };
  check('maxStrictTools', strictTools.length, MAX_STRICT_TOOLS);
  check('maxStrictOptionalParameters', optional, MAX_STRICT_OPTIONAL_PARAMETERS);
  check('maxStrictUnionParameters', unions, MAX_STRICT_UNION_PARAMETERS);
}

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
        description: tool.description,
        input_schema: downgradeSchemaForAnthropic(tool.parameters, reporter, {
          strict: strict === true,
        }),
        ...(cacheControl === undefined ? {} : { cache_control: cacheControl }),
        ...(strict === undefined ? {} : { strict }),
        ...(deferred(tool) ? { defer_loading: true } : {}),
      };
    },
  );
  const breakpoints = definitions.filter((tool) => tool.cache_control !== undefined).length;
  if (breakpoints > MAX_CACHE_BREAKPOINTS)
    report.limits.push({
      tool: '*',
      limit: 'maxCacheBreakpoints',
      actual: breakpoints,
      max: MAX_CACHE_BREAKPOINTS,
    });
  checkStrictLimits(
    definitions.filter((tool) => tool.strict === true),
    report,
  );
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
