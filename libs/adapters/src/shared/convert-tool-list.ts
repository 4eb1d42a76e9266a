import { isTextInput, type ToolIR } from '@toolgate/toolir';
import { emptyReport, ToolReporter, type DowngradeReport } from './downgrade-report';
import { asFunctionTool } from './free-text/free-text-tools';
import { PROVIDER_LIMITS } from './provider-limits/provider-limits';
import { buildToolNameMap } from './names/tool-name-map';
import type { Provider } from './provider';

/** What a single-tool converter gets besides the tool. */
export interface ToolConversionContext {
  /** The name to send (already checked against the other tools' wire names). */
  wireName: string;
  /** Collects what this tool's conversion changed. */
  reporter: ToolReporter;
}

/**
 * Converts every tool with `convert`, mapping names first (a wire-name collision throws before
 * anything is converted) and gathering each tool's report entries in tool order. On a wire without
 * free-text tools, a free-text tool reaches `convert` as a function with one string parameter.
 */
export function convertToolList<TDefinition>(
  tools: readonly ToolIR[],
  provider: Provider,
  convert: (tool: ToolIR, context: ToolConversionContext) => TDefinition,
): { definitions: TDefinition[]; report: DowngradeReport } {
  const names = buildToolNameMap(tools, provider);
  const functionsOnly = !PROVIDER_LIMITS[provider].freeTextTools;
  const report = emptyReport();
  report.names = names.mappings;
  const definitions = tools.map((tool, index) => {
    const reporter = new ToolReporter(tool.name);
    const wireName = names.mappings[index]?.wireName ?? tool.name;
    if (wireName !== tool.name) {
      reporter.note('/name', 'name', {
        action: 'rewritten',
        detail: `sent as "${wireName}"; calls are mapped back`,
      });
    }
    const sent = functionsOnly && isTextInput(tool) ? asFunctionTool(tool, reporter) : tool;
    const definition = convert(sent, { wireName, reporter });
    report.entries.push(...reporter.entries);
    report.limits.push(...reporter.limits);
    return definition;
  });
  return { definitions, report };
}
