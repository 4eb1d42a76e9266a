import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The installable `@toolgate/sdk` as an app team gets it: built with the package build, packed with
 * `npm pack`, installed from the tarball into a project that lives outside the monorepo, so nothing
 * resolves from the workspace's node_modules or tsconfig paths.
 */

const execFileAsync = promisify(execFile);

const workspaceRoot = path.resolve(import.meta.dirname, '../../../..');
const BUILD_SCRIPT = path.join(workspaceRoot, 'libs/sdk/package/build.mjs');

interface WorkspaceManifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const workspaceManifest = JSON.parse(
  readFileSync(path.join(workspaceRoot, 'package.json'), 'utf8'),
) as WorkspaceManifest;

export interface CommandOutput {
  stdout: string;
  stderr: string;
}

/** What `npm pack` wrote. */
export interface PackedSdk {
  /** The `.tgz` file. */
  tarball: string;
  /** The paths inside the package, sorted. */
  files: string[];
  /** Bytes of the tarball. */
  size: number;
  /** Bytes of the files it holds. */
  unpackedSize: number;
  /** Removes the build and the tarball; the next `packSdk()` builds again. */
  dispose(): Promise<void>;
}

/** The fields of one `npm pack --json` entry this module reads. */
interface NpmPackReport {
  filename: string;
  size: number;
  unpackedSize: number;
  files: Array<{ path: string }>;
}

let packing: Promise<PackedSdk> | undefined;

/**
 * Builds the package and packs it, once per process. The build goes to a directory of its own
 * rather than dist/packages/sdk, so processes packing at the same time (the suite's vitest projects,
 * a developer's `npm run package:sdk`) never write over each other's output.
 */
export function packSdk(): Promise<PackedSdk> {
  packing ??= buildAndPack().catch((error: unknown) => {
    packing = undefined;
    throw error;
  });
  return packing;
}

async function buildAndPack(): Promise<PackedSdk> {
  const workDir = await mkdtemp(path.join(tmpdir(), 'toolgate-sdk-pack-'));
  const outDir = path.join(workDir, 'package');
  await runCommand(process.execPath, [BUILD_SCRIPT, '--out-dir', outDir], { cwd: workspaceRoot });
  const { stdout } = await runCommand('npm', ['pack', '--json', '--pack-destination', workDir], {
    cwd: outDir,
  });
  const [report] = JSON.parse(stdout) as NpmPackReport[];
  if (report === undefined) throw new Error(`npm pack reported no package:\n${stdout}`);
  return {
    tarball: path.join(workDir, report.filename),
    files: report.files.map((file) => file.path).sort(),
    size: report.size,
    unpackedSize: report.unpackedSize,
    async dispose() {
      packing = undefined;
      await rm(workDir, { recursive: true, force: true });
    },
  };
}

/** `name@version` as the workspace's package.json pins it, so installs hit the npm cache `npm ci` filled. */
export function workspacePin(name: string): string {
  const version =
    workspaceManifest.dependencies?.[name] ?? workspaceManifest.devDependencies?.[name];
  if (version === undefined) throw new Error(`the workspace's package.json does not pin "${name}"`);
  return `${name}@${version}`;
}

export interface ConsumerProjectOptions {
  /** The packed SDK to install. */
  tarball: string;
  /** More packages to install, by name, at the versions the workspace pins (TypeScript and @types/node always are). */
  dependencies?: readonly string[];
  /** Files to write, by path inside the project. */
  files: Readonly<Record<string, string>>;
}

export interface ConsumerProject {
  dir: string;
  /** Runs a command in the project; a failure shows its stdout and stderr. */
  run(
    command: string,
    args: readonly string[],
    env?: Record<string, string>,
  ): Promise<CommandOutput>;
  /** `tsc -p <project>` with the TypeScript the project installed. */
  tsc(project: string): Promise<CommandOutput>;
  dispose(): Promise<void>;
}

/**
 * A fresh app project under the OS temp directory with the tarball installed, as `npm install` from
 * a registry would lay it out. `--prefer-offline` takes the workspace's pinned versions from the npm
 * cache, so this needs no network in CI.
 */
export async function createConsumerProject(
  options: ConsumerProjectOptions,
): Promise<ConsumerProject> {
  const dir = await mkdtemp(path.join(tmpdir(), 'toolgate-sdk-app-'));
  const dispose = () => rm(dir, { recursive: true, force: true });
  try {
    await writeProjectFiles(dir, {
      'package.json': `${JSON.stringify({ name: 'toolgate-sdk-app', private: true, type: 'module' }, null, 2)}\n`,
      ...options.files,
    });
    const packages = ['typescript', '@types/node', ...(options.dependencies ?? [])].map(
      workspacePin,
    );
    await runCommand(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--save-exact',
        options.tarball,
        ...packages,
      ],
      { cwd: dir },
    );
  } catch (error) {
    await dispose();
    throw error;
  }
  const run = (command: string, args: readonly string[], env: Record<string, string> = {}) =>
    runCommand(command, args, { cwd: dir, env });
  return {
    dir,
    run,
    tsc: (project) =>
      run(process.execPath, [path.join(dir, 'node_modules/typescript/bin/tsc'), '-p', project]),
    dispose,
  };
}

async function writeProjectFiles(
  dir: string,
  files: Readonly<Record<string, string>>,
): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    const target = path.join(dir, file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
  }
}

/**
 * npm hands scripts it runs the workspace's prefix and package fields as `npm_*` variables; an npm
 * started from there would take the monorepo for its project. Only those are dropped: cache and
 * registry settings still apply.
 */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^npm_(config_(local_|global_)?prefix|package_|lifecycle_)/i.test(name)) continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

async function runCommand(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<CommandOutput> {
  try {
    const { stdout, stderr } = await execFileAsync(command, args, {
      cwd: options.cwd,
      env: childEnv(options.env ?? {}),
      maxBuffer: 64 * 1024 * 1024,
      encoding: 'utf8',
    });
    return { stdout, stderr };
  } catch (error) {
    // execFile's error carries the child's output (strings, as `encoding` asks) and exit code.
    const failed = error as { code?: number | string; stdout?: string; stderr?: string };
    throw new Error(
      [
        `${command} ${args.join(' ')} failed in ${options.cwd} (exit code ${String(failed.code)})`,
        `--- stdout\n${failed.stdout ?? ''}`,
        `--- stderr\n${failed.stderr ?? ''}`,
      ].join('\n'),
      { cause: error },
    );
  }
}
