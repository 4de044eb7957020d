import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const REVIEW_TABLE_WRITE = String.raw`/(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+review_(items|audit)\b/i`;
const REVIEW_TABLE_WRITE_IN_TEMPLATE = `TemplateElement[value.raw=${REVIEW_TABLE_WRITE}]`;
const REVIEW_TABLE_WRITE_IN_STRING = `Literal[value=${REVIEW_TABLE_WRITE}]`;
const REVIEW_ENTITY_IMPORT = 'ImportSpecifier[imported.name=/^Review(Item|Audit)Entity$/]';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.dependency-cruiser.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A forgotten await on a money write is a bug class, not a style nit.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/unbound-method': 'off',
      'no-restricted-imports': ['error', { patterns: [{ group: ['../../../libs/*', '../../libs/*'], message: 'import another library through its @app/<lib> alias' }] }],
    },
  },
  {
    files: ['libs/**/*.ts'],
    // Pure rules are checked transitively by dependency-cruiser (.dependency-cruiser.cjs, run by `npm run lint`).
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['../../../libs/*', '../../libs/*'], message: 'import another library through its @app/<lib> alias' },
        { group: ['**/apps/*', '@app/simulator'], message: 'libraries never depend on apps' },
      ] }],
    },
  },
  {
    // review_items and review_audit are written by libs/review alone (its item store, @app/review/items), so every
    // state change of an item keeps its conditional update and its audit row; other libraries call that store.
    files: ['libs/**/*.ts', 'apps/**/*.ts'],
    ignores: ['libs/review/**', 'libs/database/**', '**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...[REVIEW_TABLE_WRITE_IN_TEMPLATE, REVIEW_TABLE_WRITE_IN_STRING, REVIEW_ENTITY_IMPORT].map((selector) => ({
        selector,
        message: 'only libs/review writes review_items / review_audit: call @app/review/items',
      }))],
    },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
