import type { ToolIR } from '@toolgate/toolir';
import { AdapterError } from '../adapter-error';
import type { NameMapping } from '../downgrade-report';
import type { Provider } from '../provider';
import { mangleName } from './mangle-name';
import { PROVIDER_LIMITS } from '../provider-limits/provider-limits';

/** Both directions of a tool list's names on one wire. */
export interface ToolNameMap {
  mappings: NameMapping[];
  /** Wire name -> ToolIR name. */
  fromWire: Map<string, string>;
}

/** The wire name of one tool name on `provider`: deterministic, independent of the other tools. */
export function toWireName(name: string, provider: Provider): string {
  return mangleName(name, PROVIDER_LIMITS[provider].toolName);
}

/**
 * Maps every tool name to its wire name; two tools that would share a wire name (or a name)
 * are a `name_collision` error, never a coin toss at call time.
 */
export function buildToolNameMap(
  tools: ReadonlyArray<Pick<ToolIR, 'name'>>,
  provider: Provider,
): ToolNameMap {
  const fromWire = new Map<string, string>();
  const mappings: NameMapping[] = [];
  tools.forEach((tool, index) => {
    const wireName = toWireName(tool.name, provider);
    const taken = fromWire.get(wireName);
    if (taken !== undefined) {
      throw new AdapterError(
        `tools "${taken}" and "${tool.name}" would both be sent as "${wireName}"`,
        { provider, path: `/${index}/name`, names: [taken, tool.name], wireName },
        { code: 'name_collision' },
      );
    }
    fromWire.set(wireName, tool.name);
    mappings.push({ name: tool.name, wireName });
  });
  return { mappings, fromWire };
}

/** Resolves a wire name back to its ToolIR name; unknown names come back unchanged. */
export function fromWireName(wireName: string, map: ToolNameMap | undefined): string {
  return map?.fromWire.get(wireName) ?? wireName;
}
