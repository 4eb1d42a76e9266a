import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** Packages a `runtime:any` lib must never reach for: they tie it to a server runtime. */
const serverOnlyPackages = [
  '@nestjs/*',
  '@prisma/*',
  'bullmq',
  'ioredis',
  'pg',
  'undici',
  'next',
  'next/*',
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.next/**',
      '**/.nx/**',
      '**/.toolgate/**',
      '**/coverage/**',
      '**/generated/**',
      '**/next-env.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'layer:ir', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'layer:wire', onlyDependOnLibsWithTags: ['layer:ir'] },
            { sourceTag: 'layer:contract', onlyDependOnLibsWithTags: ['layer:wire', 'layer:ir'] },
            {
              sourceTag: 'layer:engine',
              onlyDependOnLibsWithTags: ['layer:contract', 'layer:wire', 'layer:ir'],
            },
            {
              sourceTag: 'layer:sdk',
              onlyDependOnLibsWithTags: ['layer:contract', 'layer:wire', 'layer:ir'],
            },
            {
              sourceTag: 'layer:app',
              onlyDependOnLibsWithTags: [
                'layer:gateway',
                'layer:data',
                'layer:engine',
                'layer:sdk',
                'layer:contract',
                'layer:wire',
                'layer:ir',
              ],
            },
            {
              sourceTag: 'layer:gateway',
              onlyDependOnLibsWithTags: [
                'layer:data',
                'layer:engine',
                'layer:contract',
                'layer:wire',
                'layer:ir',
              ],
            },
            {
              sourceTag: 'layer:data',
              onlyDependOnLibsWithTags: ['layer:engine', 'layer:contract', 'layer:wire', 'layer:ir'],
            },
            { sourceTag: 'runtime:any', bannedExternalImports: serverOnlyPackages },
            {
              sourceTag: 'runtime:web',
              onlyDependOnLibsWithTags: ['runtime:any'],
              bannedExternalImports: ['@nestjs/*', '@prisma/*', 'bullmq', 'ioredis'],
            },
          ],
        },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/require-await': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      'max-params': ['error', 3],
    },
  },
  {
    // The IR and the wire adapters run anywhere (browser, edge, Node): no Node built-ins, no I/O.
    files: ['libs/toolir/src/**/*.ts', 'libs/adapters/src/**/*.ts', 'libs/sdk/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test-d.ts', '**/*.bench.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'runtime:any libs must not import Node built-ins.' },
            {
              group: ['fs', 'path', 'http', 'https', 'net', 'child_process', 'crypto', 'os'],
              message: 'runtime:any libs must not import Node built-ins.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['libs/adapters/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.bench.ts', '**/safe-parse-json.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='JSON'][callee.property.name='parse']",
          message:
            'Use safeParseJson: a provider payload must never throw a SyntaxError at the caller.',
        },
      ],
    },
  },
  {
    files: ['apps/**/*.ts'],
    ignores: ['**/*.repository.ts', '**/prisma/**', '**/test/**', '**/*.test.ts', '**/database/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@prisma/client', '**/generated/prisma/**'],
              message: 'Only *.repository.ts files talk to Prisma.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', '**/*.test-d.ts', '**/*.bench.ts', '**/test/**/*.ts', '**/e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'max-params': 'off',
    },
  },
  {
    // Project configs extend the workspace's shared config by path; that is not a cross-project import.
    files: ['**/vitest.config.ts', '**/next.config.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    // The SDK's examples are apps: they import the package by its published name, as users do.
    files: ['libs/sdk/examples/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
);
