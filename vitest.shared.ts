import { fileURLToPath } from 'node:url';
import path from 'node:path';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';
import type { ViteUserConfig } from 'vitest/config';

const workspaceRoot = path.dirname(fileURLToPath(import.meta.url));

/** The `@toolgate/*` aliases, the same ones tsconfig.base.json declares for tsc and tsx. */
export const toolgateAliases: Record<string, string> = {
  '@toolgate/toolir': path.join(workspaceRoot, 'libs/toolir/src/index.ts'),
  '@toolgate/adapters/internal': path.join(workspaceRoot, 'libs/adapters/src/internal.ts'),
  '@toolgate/adapters/testing': path.join(
    workspaceRoot,
    'libs/adapters/test/support/sdk-wire-schemas.ts',
  ),
  '@toolgate/adapters': path.join(workspaceRoot, 'libs/adapters/src/index.ts'),
  '@toolgate/engine': path.join(workspaceRoot, 'libs/engine/src/index.ts'),
  '@toolgate/persistence/testing': path.join(workspaceRoot, 'libs/persistence/src/testing.ts'),
  '@toolgate/persistence': path.join(workspaceRoot, 'libs/persistence/src/index.ts'),
  '@toolgate/gateway': path.join(workspaceRoot, 'libs/gateway/src/index.ts'),
  '@toolgate/sdk/testing': path.join(workspaceRoot, 'libs/sdk/test/support/fake-provider.ts'),
  '@toolgate/sdk/cli': path.join(workspaceRoot, 'libs/sdk/cli/toolgate-cli.ts'),
  '@toolgate/sdk': path.join(workspaceRoot, 'libs/sdk/src/index.ts'),
  '@toolgate/contract': path.join(workspaceRoot, 'libs/contract/src/index.ts'),
};

export interface ProjectTestOptions {
  /** Compile with SWC so NestJS decorators emit the metadata its injector reads. */
  decorators?: boolean;
  /** Extra include globs (defaults to `src/**\/*.test.ts` and `test/**\/*.test.ts`). */
  include?: string[];
  /** Integration tests share Postgres and Redis: run their files one at a time. */
  serial?: boolean;
  testTimeout?: number;
  globalSetup?: string[];
  /**
   * Runs the project's tests more than once in one run, each a named vitest project with its own
   * files and environment (the registry's integration files run on Postgres and again on PGlite).
   */
  variants?: ReadonlyArray<{
    name: string;
    include?: string[];
    exclude?: string[];
    env?: Record<string, string>;
  }>;
}

/** One vitest configuration for every project, so each runs the same way under `nx run-many -t test`. */
export function defineProjectTestConfig(
  projectDir: string,
  options: ProjectTestOptions = {},
): ViteUserConfig {
  const include = options.include ?? ['src/**/*.test.ts', 'test/**/*.test.ts'];
  return defineConfig({
    root: projectDir,
    resolve: { alias: toolgateAliases },
    plugins: options.decorators
      ? [
          swc.vite({
            module: { type: 'es6' },
            jsc: {
              target: 'es2022',
              parser: { syntax: 'typescript', decorators: true },
              transform: { legacyDecorator: true, decoratorMetadata: true },
            },
          }),
        ]
      : [],
    test: {
      // A variant names its own files: vitest concatenates an extended project's include with the root's.
      ...(options.variants ? {} : { include }),
      environment: 'node',
      testTimeout: options.testTimeout ?? 20_000,
      hookTimeout: 60_000,
      ...(options.serial ? { fileParallelism: false } : {}),
      ...(options.globalSetup ? { globalSetup: options.globalSetup } : {}),
      // Each project leaves a JSON report so CI can print one total for the whole workspace.
      reporters: ['default', 'json'],
      outputFile: {
        json: path.join(workspaceRoot, 'tmp/test-results', `${path.basename(projectDir)}.json`),
      },
      typecheck: { enabled: false },
      ...(options.variants
        ? {
            projects: options.variants.map((variant) => ({
              extends: true as const,
              test: {
                name: variant.name,
                include: variant.include ?? include,
                ...(variant.exclude ? { exclude: variant.exclude } : {}),
                ...(variant.env ? { env: variant.env } : {}),
              },
            })),
          }
        : {}),
    },
  });
}
