import type { ToolIR } from '@toolgate/toolir';
import { Toolgate, type FetchFunction } from '../src/index';
import { generateToolTypes } from './generate-tool-types';
import { integrityOf, TYPES_LOCKFILE_VERSION, type TypesLockfile } from './types-lockfile';

/** What `toolgate types` needs once its flags, environment and files are read. */
export interface ToolTypesRequest {
  baseUrl: string;
  apiKey: string;
  /** Per tool name, the pin given on the command line (`--pin name@range`). */
  pins: Readonly<Record<string, string>>;
  /** The lockfile of an earlier run: its versions are kept for pins that did not change. */
  lockfile?: TypesLockfile;
  /** Resolve every pin again, ignoring the lockfile's versions. */
  update?: boolean;
  fetch?: FetchFunction;
}

/** The generated module and the lockfile that records what it was made from. */
export interface ToolTypes {
  types: string;
  lockfile: TypesLockfile;
}

/** A failure the command reports as one clear line (the registry's answer or the lock's mismatch). */
export class ToolTypesError extends Error {}

/**
 * Resolves the pins (each locked version where the lockfile has one for the same pin, unless
 * `update`), pulls those versions' ToolIRs and generates their types. Without pins it
 * regenerates what the lockfile holds. A locked version whose ToolIR changed is refused.
 */
export async function resolveToolTypes(request: ToolTypesRequest): Promise<ToolTypes> {
  const locked = request.update === true ? {} : (request.lockfile?.tools ?? {});
  const pins: Record<string, string> =
    Object.keys(request.pins).length > 0
      ? { ...request.pins }
      : Object.fromEntries(Object.entries(locked).map(([name, entry]) => [name, entry.pin]));
  if (Object.keys(pins).length === 0) {
    throw new ToolTypesError(
      'nothing to generate: give --pin name@range, or a lockfile with tools',
    );
  }
  const served: Record<string, string> = {};
  for (const [name, pin] of Object.entries(pins)) {
    const entry = locked[name];
    served[name] = entry !== undefined && entry.pin === pin ? entry.version : pin;
  }
  const toolgate = new Toolgate({
    baseUrl: request.baseUrl,
    apiKey: request.apiKey,
    retry: { maxAttempts: 2 },
    ...(request.fetch === undefined ? {} : { fetch: request.fetch }),
    // Deprecations are the registry's news, not this command's output.
    onDeprecation: () => undefined,
  });
  const definitions = await toolgate.toolDefinitions({ pins: served });
  const lockfile: TypesLockfile = { lockfileVersion: TYPES_LOCKFILE_VERSION, tools: {} };
  const tools: ToolIR[] = [];
  for (const definition of definitions) {
    const integrity = integrityOf(definition.tool);
    const entry = locked[definition.name];
    if (entry !== undefined && served[definition.name] === entry.version) {
      if (entry.version !== definition.version || entry.integrity !== integrity) {
        throw new ToolTypesError(
          `${definition.name}@${entry.version} is not what the lockfile recorded (its ToolIR changed); run with --update to lock it again`,
        );
      }
    }
    lockfile.tools[definition.name] = {
      pin: pins[definition.name] ?? definition.version,
      version: definition.version,
      tool_id: definition.toolId,
      integrity,
    };
    tools.push(definition.tool);
  }
  return { types: await generateToolTypes(tools), lockfile };
}
