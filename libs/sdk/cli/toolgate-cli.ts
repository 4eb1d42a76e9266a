import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  ToolgateApiError,
  ToolgateNetworkError,
  ToolgateSdkError,
  ToolgateTimeoutError,
  type FetchFunction,
} from '../src/index';
import { resolveToolTypes, ToolTypesError, type ToolTypesRequest } from './types-command';
import { formatLockfile, TypesLockfileSchema, type TypesLockfile } from './types-lockfile';

/** What the CLI touches of its process, so tests run it in process. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  fetch?: FetchFunction;
}

const USAGE = `Usage: toolgate types --pin <name@version|range|stable|canary> [--pin ...] [options]

Pulls the pinned tool versions from a Toolgate registry and writes TypeScript types for their
arguments (and results), with a lockfile of the exact versions: run again, it gives the same
versions and the same bytes until a pin changes or --update is given. Without --pin, the
lockfile's tools are generated again.

Options:
  --url <url>        the registry (default: $TOOLGATE_URL)
  --key <key>        an API key with tools:read (default: $TOOLGATE_API_KEY)
  --out <file>       the types module to write (default: toolgate-tools.ts)
  --lockfile <file>  the lockfile (default: toolgate-types.lock.json)
  --update           resolve every pin again, ignoring the lockfile's versions
`;

/** Exit codes: 0 done, 1 the registry or the lockfile refused, 2 a usage mistake. */
const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

class UsageError extends Error {}

function parsePins(values: readonly string[]): Record<string, string> {
  const pins: Record<string, string> = {};
  for (const value of values) {
    const at = value.lastIndexOf('@');
    if (at <= 0 || at === value.length - 1)
      throw new UsageError(
        `--pin ${value}: expected name@version, name@range, name@stable or name@canary`,
      );
    const name = value.slice(0, at);
    if (pins[name] !== undefined) throw new UsageError(`--pin ${value}: ${name} is pinned twice`);
    pins[name] = value.slice(at + 1);
  }
  return pins;
}

async function readLockfile(file: string): Promise<TypesLockfile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ToolTypesError(`${file} is not JSON; delete it or fix it`);
  }
  const parsed = TypesLockfileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ToolTypesError(
      `${file} is not a toolgate types lockfile (${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''})`,
    );
  }
  return parsed.data;
}

/** One line for what went wrong, naming the registry's own reason where it gave one. */
function describeFailure(error: unknown, baseUrl: string): string | undefined {
  if (error instanceof ToolTypesError) return error.message;
  if (error instanceof ToolgateApiError) {
    if (error.status === 401 || error.status === 403)
      return `the registry at ${baseUrl} refused the API key (${error.status} ${error.problemCode ?? ''}): ${error.detail ?? error.message}`;
    if (error.problemCode === 'version_not_found')
      return `no version matches a pin: ${error.detail ?? error.message}`;
    return `the registry answered ${error.status} ${error.problemCode ?? ''}: ${error.detail ?? error.message}`;
  }
  if (error instanceof ToolgateNetworkError || error instanceof ToolgateTimeoutError)
    return `cannot reach the registry at ${baseUrl}: ${error.message}`;
  if (ToolgateSdkError.isInstance(error)) return error.message;
  return undefined;
}

/** Runs `toolgate <argv>` and returns its exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let request: ToolTypesRequest;
  let outFile: string;
  let lockFile: string;
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        pin: { type: 'string', multiple: true },
        url: { type: 'string' },
        key: { type: 'string' },
        out: { type: 'string' },
        lockfile: { type: 'string' },
        update: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help === true) {
      io.stdout(USAGE);
      return EXIT.ok;
    }
    if (positionals.length !== 1 || positionals[0] !== 'types')
      throw new UsageError(
        positionals.length === 0 ? 'no command given' : `unknown command ${positionals.join(' ')}`,
      );
    const baseUrl = values.url ?? io.env['TOOLGATE_URL'];
    const apiKey = values.key ?? io.env['TOOLGATE_API_KEY'];
    if (baseUrl === undefined || baseUrl === '')
      throw new UsageError('no registry: give --url or set TOOLGATE_URL');
    if (apiKey === undefined || apiKey === '')
      throw new UsageError('no API key: give --key or set TOOLGATE_API_KEY');
    outFile = path.resolve(io.cwd, values.out ?? 'toolgate-tools.ts');
    lockFile = path.resolve(io.cwd, values.lockfile ?? 'toolgate-types.lock.json');
    request = {
      baseUrl,
      apiKey,
      pins: parsePins(values.pin ?? []),
      update: values.update === true,
      ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
    };
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof TypeError)) throw error;
    io.stderr(`toolgate: ${error.message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  try {
    const lockfile = await readLockfile(lockFile);
    const { types, lockfile: written } = await resolveToolTypes({
      ...request,
      ...(lockfile === undefined ? {} : { lockfile }),
    });
    await writeFile(outFile, types);
    await writeFile(lockFile, formatLockfile(written));
    const summary = Object.entries(written.tools)
      .map(([name, entry]) => `${name}@${entry.version}`)
      .join(', ');
    io.stdout(`toolgate: wrote ${path.relative(io.cwd, outFile)} (${summary})\n`);
    return EXIT.ok;
  } catch (error) {
    const message = describeFailure(error, request.baseUrl);
    if (message === undefined) throw error;
    io.stderr(`toolgate: ${message}\n`);
    return EXIT.failed;
  }
}
