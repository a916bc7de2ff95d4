/**
 * ESLint for the whole tree (run by `npm test`): ESLint's recommended rules, typescript-eslint's recommended rules
 * with type information (the project service: each file is checked in the program of its nearest tsconfig.json), and
 * the rules that catch a promise nobody waits for. A rule turned off here says why; an `eslint-disable` in the code
 * says why on its line.
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The globals of the Node.js that runs ESLint: our plain JavaScript files are Node scripts. */
const nodeGlobals = Object.fromEntries(Object.getOwnPropertyNames(globalThis).map((name) => [name, 'readonly']));

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      'dist/',
      'packages/*/dist/',
      'packages/sdk/.test-build-*/',
      // Generated from openapi.json by packages/sdk/scripts/generate-types.mjs.
      'packages/sdk/src/generated/',
      'data/',
      'test-results/',
      'screenshots/',
      '.scratch/',
      '.openpis/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          // The JavaScript files no tsconfig.json includes: build and test scripts, the bin, the configs.
          allowDefaultProject: [
            '*.js',
            '*.cjs',
            'bin/*.mjs',
            'scripts/*.mjs',
            'packages/sdk/scripts/*.mjs',
            'packages/sandbox-bank/scripts/*.mjs',
            'test/cli/fixtures/*.mjs',
          ],
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 16,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // node:test's describe/it/test return promises the runner itself awaits: not awaiting them is how it is used.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      // A name starting with `_` is unused on purpose (a parameter an interface requires, a property left out of a rest).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // verbatimModuleSyntax already makes TypeScript require `type` on type-only imports; this keeps the one style.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // A variable a closure reads before its one assignment (a server's handler, a worker's callback) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Off: JSON from responses and files (`any` by their typings) is read field by field in tests and checked by
      // schemas in the service; these rules would ask for a cast at every read without catching defects.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      // Off: an async function without `await` is how an implementation meets an async interface (connectors, stores).
      '@typescript-eslint/require-await': 'off',
      // Off: interfaces declare callbacks with method syntax that never use `this` (the console's request helpers,
      // services.ready, Playwright's fixtures); the rule cannot tell them from methods that do.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: nodeGlobals },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { ...nodeGlobals, module: 'writable', require: 'readonly', __dirname: 'readonly', __filename: 'readonly' },
    },
  },
);
