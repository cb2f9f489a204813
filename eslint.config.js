import { existsSync, readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import regexp from 'eslint-plugin-regexp';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const folders = (dir) =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
    : [];

// One zone per feature (web) and per module (server), generated from the folders, so a new
// feature or module needs no lint edit: none of them may import a sibling.
const siblingZones = (dir) =>
  folders(dir).map((name) => ({
    target: `./${dir}/${name}`,
    from: `./${dir}`,
    except: [`./${name}`],
    message: 'Features (web) and modules (server) do not import each other: move what they share down.',
  }));

const boundaryZones = [
  {
    target: './apps/web',
    from: './apps/server',
    message: 'web and server share code only through contracts.',
  },
  {
    target: './apps/server',
    from: './apps/web',
    message: 'web and server share code only through contracts.',
  },
  { target: './packages/contracts', from: './apps', message: 'contracts depend on zod only.' },
  // Imports flow one way in the web app: shared → features → app.
  ...['components', 'lib', 'config'].map((shared) => ({
    target: `./apps/web/src/${shared}`,
    from: ['./apps/web/src/features', './apps/web/src/app'],
    message: 'Shared web code must not import features or the app.',
  })),
  {
    target: './apps/web/src/features',
    from: './apps/web/src/app',
    message: 'Features must not import the app.',
  },
  {
    target: './apps/web/src/components',
    from: ['./apps/web/src/lib/ai'],
    message: 'components/ui is presentational and knows no feature: AI-aware parts live in lib/ai.',
  },
  // Server: modules and integrations sit above config, db and lib; app.ts composes them.
  ...['config', 'db', 'lib', 'integrations', 'plugins'].map((lower) => ({
    target: `./apps/server/src/${lower}`,
    from: './apps/server/src/modules',
    message: 'Lower server layers must not import modules.',
  })),
  ...siblingZones('apps/web/src/features'),
  ...siblingZones('apps/server/src/modules'),
];

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'e2e/artifacts/**', 'bench/results/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  importX.flatConfigs.typescript,
  // No regular expression may take more than linear time on untrusted text (model output,
  // request fields, fetched documents): the recommended rules, plus the one for patterns that
  // are tried at every position of a failing input.
  regexp.configs.recommended,
  {
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json', 'e2e/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-restricted-paths': ['error', { zones: boundaryZones }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read settings through config/ (server) or config/env.ts (web), the only readers.',
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // One way to write a number on the pages: lib/format-number (one locale, and no ICU set-up
    // on the main thread during a page's first load).
    files: ['apps/web/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/format-number.ts', 'apps/web/src/lib/format-number.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='Intl'][property.name='NumberFormat']",
          message:
            'Format numbers with lib/format-number (formatInteger, formatOneDecimal, …), not Intl.NumberFormat.',
        },
        {
          selector: "MemberExpression[property.name='toLocaleString']",
          message:
            'Format numbers with lib/format-number (formatInteger, formatOneDecimal, …), not toLocaleString.',
        },
      ],
    },
  },
  {
    // The same in the server's and the contracts' messages: a count is written with the
    // contracts' formatCount (the one the web's lib/format-number builds on).
    files: ['apps/server/src/**/*.ts', 'packages/contracts/src/**/*.ts'],
    ignores: ['packages/contracts/src/format-number.ts', 'packages/contracts/src/format-number.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='Intl'][property.name='NumberFormat']",
          message: 'Write counts with formatCount from @gem/contracts/format-number, not Intl.NumberFormat.',
        },
        {
          selector: "MemberExpression[property.name='toLocaleString']",
          message: 'Write counts with formatCount from @gem/contracts/format-number, not toLocaleString.',
        },
      ],
    },
  },
  {
    // The readers of the environment: the server's config, test set-up, build scripts and tool configs.
    files: [
      'apps/server/src/config/index.ts',
      '**/*.test.ts',
      '**/test/**',
      'e2e/**',
      'bench/**',
      'scripts/**',
      'apps/*/build.mjs',
      '**/*.config.{ts,js,mjs}',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
);
