/**
 * `npm run package:sdk` (nx run sdk:package): builds the installable `@toolgate/sdk` into
 * dist/packages/sdk, or into `--out-dir <dir>`.
 *
 * Inside the monorepo the SDK is TypeScript source that reaches its sibling libs through tsconfig
 * paths; an app team installs it from a registry, where neither exists. So the package carries ESM
 * and CommonJS bundles with the workspace libs inlined, declarations bundled the same way, and a
 * package.json whose dependencies are exactly the third-party packages the bundles import, from
 * the versions the monorepo is tested with. The build then reads its own output and refuses to
 * finish when an installed copy would break: a workspace import left behind, a Node built-in in a
 * package that must run in browsers and edge runtimes, a provider SDK needed at run time.
 */
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { build } from 'tsup';

const workspaceRoot = path.resolve(import.meta.dirname, '../../..');
const sdkRoot = path.join(workspaceRoot, 'libs/sdk');
const libsRoot = path.join(workspaceRoot, 'libs') + path.sep;
const defaultOutDir = path.join(workspaceRoot, 'dist/packages/sdk');

const WORKSPACE_SCOPE = '@toolgate/';

/**
 * The official provider clients. The loop takes them structurally (any object with the one method
 * it calls), so none is needed at run time; they are optional peers to state which majors fit.
 */
const PROVIDER_PEERS = ['openai', '@anthropic-ai/sdk', '@google/genai'];

/**
 * Runtime packages whose types are part of the SDK's API: an app passes its own zod schemas to
 * `defineTool`, so the SDK must use the app's copy (a second copy would make its schema types
 * foreign to the app's). A required peer, not a dependency.
 */
const SHARED_PEERS = ['zod'];

/** `type: module` makes `.js` ESM, so CommonJS gets `.cjs`, and each bundle its own declarations. */
const OUTPUTS = {
  esm: { js: '.js', dts: '.d.ts' },
  cjs: { js: '.cjs', dts: '.d.cts' },
};

const DESCRIPTION =
  'Toolgate client: pull versioned tool definitions in any provider wire format, execute tool calls through the Toolgate gateway, stream tool calls and run model <-> tools loops.';

async function main() {
  const { values } = parseArgs({ options: { 'out-dir': { type: 'string' } } });
  const outDir = path.resolve(values['out-dir'] ?? defaultOutDir);
  const rootManifest = await readJson(path.join(workspaceRoot, 'package.json'));
  const sdkManifest = await readJson(path.join(sdkRoot, 'package.json'));

  assertDisposable(outDir);
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  await bundle(outDir);

  const providerPeers = providerPeerRanges(rootManifest);
  const runtime = await checkOutput(outDir, { rootManifest, peerDependencies: providerPeers });
  await copyFile(path.join(sdkRoot, 'README.md'), path.join(outDir, 'README.md'));
  await copyFile(path.join(sdkRoot, 'CHANGELOG.md'), path.join(outDir, 'CHANGELOG.md'));
  const manifest = packageManifest({ sdkManifest, rootManifest, runtime, providerPeers });
  await writeFile(path.join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await checkFilesExist(outDir, manifest.files);
  process.stdout.write(
    `@toolgate/sdk@${manifest.version} written to ${path.relative(workspaceRoot, outDir)}\n`,
  );
}

/** The output directory is emptied first: inside the workspace, only a build output may be. */
function assertDisposable(outDir) {
  const relative = path.relative(workspaceRoot, outDir);
  const outside = relative.startsWith('..') || path.isAbsolute(relative);
  const buildOutput = /^(dist|tmp)[\\/]./.test(relative);
  if (!outside && !buildOutput) {
    throw new Error(
      `refusing to empty ${outDir}: pick a directory under dist/ or tmp/, or outside the workspace`,
    );
  }
  if (outside && path.relative(outDir, workspaceRoot).split(path.sep)[0] !== '..') {
    throw new Error(`refusing to empty ${outDir}: it holds the workspace`);
  }
}

async function bundle(outDir) {
  // tsup reads the workspace package.json of the working directory; the monorepo root is that one.
  process.chdir(workspaceRoot);
  await build({
    config: false,
    entry: { index: path.join(sdkRoot, 'src/index.ts') },
    outDir,
    format: ['esm', 'cjs'],
    outExtension: ({ format }) => ({ js: OUTPUTS[format].js }),
    target: 'es2022',
    // Browsers, edge runtimes and Node alike: no Node-only resolution or shims.
    platform: 'neutral',
    tsconfig: path.join(sdkRoot, 'package/tsconfig.json'),
    dts: true,
    sourcemap: true,
    splitting: false,
    treeshake: false,
    // Every bare import but the workspace's own stays an import of an installed package.
    external: [/^(?!@toolgate\/)[^./]/],
    noExternal: [/^@toolgate\//],
    esbuildPlugins: [workspaceLibsArePure()],
  });
  await placeDeclarations(outDir);
  await build({
    config: false,
    entry: { [CLI.name]: path.join(sdkRoot, 'cli/toolgate.ts') },
    outDir,
    format: ['esm'],
    outExtension: () => ({ js: '.js' }),
    // The bin runs on Node only, which the package's engines field already asks for.
    target: 'node20',
    platform: 'node',
    tsconfig: path.join(sdkRoot, 'package/tsconfig.json'),
    dts: false,
    sourcemap: false,
    splitting: false,
    treeshake: false,
    banner: { js: '#!/usr/bin/env node' },
    external: [/^(?!@toolgate\/)[^./]/],
    noExternal: [/^@toolgate\//],
    esbuildPlugins: [cliUsesThePackageEntry(), workspaceLibsArePure()],
  });
}

/** The `toolgate` bin: an ES module for Node beside the entries, which it imports rather than copies. */
const CLI = { name: 'cli', file: 'cli.js', entryImport: './index.js' };

/** The CLI's imports of the SDK's own entry become imports of the package's ES module entry. */
function cliUsesThePackageEntry() {
  const entry = path.join(sdkRoot, 'src/index.ts');
  return {
    name: 'cli-uses-the-package-entry',
    setup(esbuild) {
      esbuild.onResolve({ filter: /\/src\/index$/ }, (args) =>
        path.resolve(args.resolveDir, `${args.path}.ts`) === entry
          ? { path: CLI.entryImport, external: true }
          : undefined,
      );
    },
  };
}

/**
 * tsup's declaration step names its files after the workspace root's package type and ignores the
 * extensions above. It emits one declaration bundle for both formats, so each entry gets a copy
 * under the name its `exports` condition points at.
 */
async function placeDeclarations(outDir) {
  const written = (await readdir(outDir)).filter((file) => /^index\.d\.[cm]?ts$/.test(file));
  const texts = new Set(
    await Promise.all(written.map((file) => readFile(path.join(outDir, file), 'utf8'))),
  );
  if (texts.size !== 1) {
    throw new Error(`expected one declaration bundle, found ${texts.size} (${written.join(', ')})`);
  }
  const [declarations] = texts;
  await Promise.all(written.map((file) => rm(path.join(outDir, file))));
  for (const { dts } of Object.values(OUTPUTS)) {
    await writeFile(path.join(outDir, `index${dts}`), declarations);
  }
}

/**
 * The workspace libs' modules hold declarations only (no top-level statements), so a module the SDK
 * does not use can be dropped whole. Without this, `export *` in the libs' index files would drag in
 * code the SDK never runs (the OpenAPI document builder, release-range resolution) and with it
 * runtime dependencies an app would install for nothing. The published `sideEffects: false` makes
 * the same promise to an app's bundler.
 */
function workspaceLibsArePure() {
  const inner = Symbol('workspace-libs-are-pure');
  return {
    name: 'workspace-libs-are-pure',
    setup(esbuild) {
      esbuild.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === inner || !args.importer.startsWith(libsRoot)) return undefined;
        const resolved = await esbuild.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: inner,
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        if (resolved.external || !resolved.path.startsWith(libsRoot)) return resolved;
        return { ...resolved, sideEffects: false };
      });
    },
  };
}

/** `^<pinned>`: the versions the SDK's structural client types are checked against, up to the next major. */
function providerPeerRanges(rootManifest) {
  return Object.fromEntries(
    PROVIDER_PEERS.map((name) => [name, `^${exactPin(rootManifest, name, { dev: true })}`]),
  );
}

/**
 * Reads the bundles and declarations back and returns the runtime packages with the exact
 * versions the workspace pins (the versions tested). Every
 * problem is collected first, so one failed build names all of them.
 */
async function checkOutput(outDir, { rootManifest, peerDependencies }) {
  const problems = [];
  const runtime = new Set();
  for (const { js } of Object.values(OUTPUTS)) {
    for (const specifier of importedSpecifiers(
      await readFile(path.join(outDir, `index${js}`), 'utf8'),
    )) {
      const problem = specifierProblem(specifier);
      if (problem) problems.push(`index${js}: ${problem}`);
      else if (PROVIDER_PEERS.includes(packageNameOf(specifier)))
        problems.push(
          `index${js}: imports the provider SDK "${specifier}" at run time; use its types only`,
        );
      else runtime.add(packageNameOf(specifier));
    }
  }
  // The bin runs on Node: built-ins are fine there, and the entry it imports ships beside it.
  for (const specifier of importedSpecifiers(await readFile(path.join(outDir, CLI.file), 'utf8'))) {
    const name = packageNameOf(specifier);
    if (
      specifier === CLI.entryImport ||
      specifier.startsWith('node:') ||
      builtinModules.includes(name)
    )
      continue;
    const problem = specifierProblem(specifier);
    if (problem) problems.push(`${CLI.file}: ${problem}`);
    else runtime.add(name);
  }
  const dependencies = {};
  for (const name of [...runtime].sort()) {
    const pin = rootManifest.dependencies?.[name];
    if (pin === undefined)
      problems.push(`"${name}" is imported at run time but is not a dependency of the workspace`);
    else if (!isExactVersion(pin))
      problems.push(`"${name}" is pinned as "${pin}" in package.json; pin an exact version`);
    else dependencies[name] = pin;
  }
  for (const { dts } of Object.values(OUTPUTS)) {
    const text = await readFile(path.join(outDir, `index${dts}`), 'utf8');
    if (/\/\/\/\s*<reference\s+types="node"/.test(text))
      problems.push(`index${dts}: references @types/node; the SDK must not need Node's types`);
    for (const specifier of importedSpecifiers(text)) {
      const problem = specifierProblem(specifier);
      const name = packageNameOf(specifier);
      if (problem) problems.push(`index${dts}: ${problem}`);
      else if (!(name in dependencies) && !(name in peerDependencies))
        problems.push(
          `index${dts}: imports types of "${specifier}", which an app would not have installed`,
        );
    }
  }
  if (problems.length > 0) {
    throw new Error(
      `the @toolgate/sdk package is not fit to publish:\n  - ${problems.join('\n  - ')}`,
    );
  }
  return dependencies;
}

/** Why an import must not appear in the package at all, or undefined when it may. */
function specifierProblem(specifier) {
  if (specifier.startsWith(WORKSPACE_SCOPE))
    return `still imports the workspace lib "${specifier}"; it must be bundled in`;
  if (specifier.startsWith('node:') || builtinModules.includes(packageNameOf(specifier)))
    return `imports the Node built-in "${specifier}"; the SDK runs in browsers and edge runtimes too`;
  if (specifier.startsWith('.') || specifier.startsWith('/'))
    return `imports the file "${specifier}", which the package does not carry`;
  return undefined;
}

/**
 * Module specifiers of `import ... from`, `export ... from`, bare `import '...'`, `import('...')`
 * and `require('...')`, as esbuild and the declaration bundler write them.
 */
function importedSpecifiers(code) {
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*(['"])([^'"]+)\1/g,
    /\bimport\s*(['"])([^'"]+)\1/g,
    /\b(?:import|require)\s*\(\s*(['"])([^'"]+)\1\s*\)/g,
  ];
  const specifiers = new Set();
  for (const pattern of patterns)
    for (const match of code.matchAll(pattern)) specifiers.add(match[2]);
  return specifiers;
}

/** `ajv/dist/2020.js` → `ajv`, `@scope/name/sub` → `@scope/name`. */
function packageNameOf(specifier) {
  const parts = specifier.replace(/^node:/, '').split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function exactPin(rootManifest, name, { dev }) {
  const pin =
    rootManifest.dependencies?.[name] ?? (dev ? rootManifest.devDependencies?.[name] : undefined);
  if (pin === undefined || !isExactVersion(pin)) {
    throw new Error(
      `package.json must pin "${name}" to an exact version (found ${JSON.stringify(pin)})`,
    );
  }
  return pin;
}

function isExactVersion(version) {
  return /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.test(version);
}

/**
 * The tested version is each range's floor; a caret lets an app's installer share one copy with
 * the app's own dependencies instead of nesting an exact second one.
 */
function dependencyFields(runtime, providerPeers) {
  const dependencies = {};
  const sharedPeers = {};
  for (const [name, version] of Object.entries(runtime)) {
    if (SHARED_PEERS.includes(name)) sharedPeers[name] = `^${version}`;
    else dependencies[name] = `^${version}`;
  }
  return {
    dependencies,
    peerDependencies: { ...sharedPeers, ...providerPeers },
    peerDependenciesMeta: Object.fromEntries(
      Object.keys(providerPeers).map((name) => [name, { optional: true }]),
    ),
  };
}

function packageManifest({ sdkManifest, rootManifest, runtime, providerPeers }) {
  const files = [
    ...Object.values(OUTPUTS).flatMap(({ js, dts }) => [
      `index${js}`,
      `index${js}.map`,
      `index${dts}`,
    ]),
    CLI.file,
    'README.md',
    'CHANGELOG.md',
  ];
  return {
    name: sdkManifest.name,
    version: sdkManifest.version,
    description: DESCRIPTION,
    license: rootManifest.license,
    keywords: ['toolgate', 'llm', 'tool-calling', 'openai', 'anthropic', 'gemini', 'mcp'],
    type: 'module',
    sideEffects: false,
    // 20.3: `AbortSignal.any`, which following several calls' streams relies on.
    engines: { node: '>=20.3' },
    // For resolvers that predate `exports`: the CommonJS entry and the declarations that describe it.
    main: `./index${OUTPUTS.cjs.js}`,
    module: `./index${OUTPUTS.esm.js}`,
    types: `./index${OUTPUTS.cjs.dts}`,
    exports: {
      '.': {
        import: { types: `./index${OUTPUTS.esm.dts}`, default: `./index${OUTPUTS.esm.js}` },
        require: { types: `./index${OUTPUTS.cjs.dts}`, default: `./index${OUTPUTS.cjs.js}` },
      },
      './package.json': './package.json',
    },
    bin: { toolgate: `./${CLI.file}` },
    files,
    ...dependencyFields(runtime, providerPeers),
  };
}

async function checkFilesExist(outDir, files) {
  const missing = [];
  for (const file of files) {
    await readFile(path.join(outDir, file)).catch(() => missing.push(file));
  }
  if (missing.length > 0) throw new Error(`the build did not write ${missing.join(', ')}`);
}

async function readJson(file) {
  return JSON.parse(await readFile(file, 'utf8'));
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
