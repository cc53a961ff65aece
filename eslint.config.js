import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import webImports from './web/eslint-import-rules.mjs';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'server/src/db/migrations/**', 'web/public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // The web app's layers: app -> features -> shared (components, lib). See docs/architecture.md.
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'web-imports': webImports },
    rules: {
      'web-imports/import-direction': 'error',
      'web-imports/no-import-cycle': 'error',
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    // The share page's own script, served as it is to the browser (server/src/api/share-page/page.ts).
    files: ['server/src/api/share-page/*.js'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['scripts/**', 'e2e/**', 'web/scripts/**'],
    rules: { 'no-console': 'off' },
  },
);
