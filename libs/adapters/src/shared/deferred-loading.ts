import type { ToolIR } from '@toolgate/toolir';
import type { ToolsToWireOptions } from './tool-adapter';

/** The `deferLoading` option as a test per tool. */
export function deferralOf(options: ToolsToWireOptions): (tool: ToolIR) => boolean {
  const option = options.deferLoading;
  if (typeof option === 'function') return option;
  return option === true ? () => true : () => false;
}

/** Whether the option defers at least one of these tools (the only case a search tool is needed). */
export function defersAny(tools: readonly ToolIR[], options: ToolsToWireOptions): boolean {
  if (options.deferLoading === undefined || options.deferLoading === false) return false;
  return tools.some(deferralOf(options));
}
