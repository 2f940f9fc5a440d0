import js from '@eslint/js';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'artifacts/**', 'dist-vsix/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // One import order, autofixable (`npm run sort-imports`, or `eslint --fix`).
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: { 'simple-import-sort/imports': 'error', 'simple-import-sort/exports': 'error' },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'smart'],
      // A named `z` is zod's whole namespace object, so esbuild keeps all of zod, locales included
      // (the extension bundle was 350 KB larger with it).
      'no-restricted-syntax': ['error', {
        selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
        message: "Use import * as z from 'zod', which esbuild can tree-shake.",
      }],
    },
  },
  {
    // Type-aware rules: a promise nobody awaits loses its error (an unhandled rejection in the
    // extension host) and a promise passed where a callback returns void runs unobserved.
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    ignores: ['test/page/fixtures/**'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['src/sandbox/main.ts', 'test/**/*.ts', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // CommonJS helpers: the bench's cold-activation fixtures and the fixture extension of the e2e run.
    files: ['**/*.cjs', 'test/fixtures/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { process: 'readonly', require: 'readonly', module: 'writable', exports: 'writable', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly', __dirname: 'readonly', require: 'readonly', module: 'writable', fetch: 'readonly', AbortController: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', AbortSignal: 'readonly' },
    },
  },
);
