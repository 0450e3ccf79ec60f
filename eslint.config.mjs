import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const THROUGH_LIBRARY_INDEX = {
  group: ['@app/*/*', '**/libs/*/src/*'],
  message: 'Import a library through its index (@app/<lib>).',
};
const THROUGH_REPOSITORIES = {
  group: ['typeorm', 'typeorm/*', '@nestjs/typeorm'],
  message: 'Reach PostgreSQL through a repository, whose statements run on Sql (libs/database).',
};

export default tseslint.config(
  {
    ignores: [
      'dist/',
      '.dist-*/',
      'node_modules/',
      'coverage/',
      'bench/results/',
      'libs/client/src/generated/',
      'test/generated-clients/generated/',
      '.stryker-tmp/',
      'reports/',
      '*.js',
      '*.mjs',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Libraries are used through their public surface only (`@app/pets`, never `@app/pets/src/...`), and
      // PostgreSQL through the repositories, which run their statements on `Sql`.
      'no-restricted-imports': ['error', { patterns: [THROUGH_LIBRARY_INDEX, THROUGH_REPOSITORIES] }],
    },
  },
  {
    // Statements are written with the `sql` template, which numbers their parameters: no `$1` by hand.
    files: ['libs/**/*.ts', 'apps/**/*.ts'],
    // Migrations and the start-up lock run on pg directly.
    ignores: [
      'libs/database/src/migrations/**',
      'libs/database/src/prepare-database.ts',
      // The template's own tests assert the texts it compiles to.
      '**/*.spec.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TemplateElement[value.raw=/\\$[1-9]/], Literal[value=/\\$[1-9]/]',
          message: 'Write the statement with the `sql` template (`${value}`), not with hand-numbered parameters.',
        },
      ],
    },
  },
  {
    // Where the data source, the migrations and `Sql` live.
    files: ['libs/database/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [THROUGH_LIBRARY_INDEX] }] },
  },
  {
    files: ['test/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The bench's peer is the service as a team would write it with TypeORM's repositories.
    files: ['bench/peers/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [THROUGH_LIBRARY_INDEX] }] },
  },
  {
    // The website widget: plain JavaScript that runs in shelters' pages, in any browser, as a classic script.
    files: ['libs/widget/src/widget.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      sourceType: 'script',
      parserOptions: { projectService: false },
      globals: {
        document: 'readonly',
        location: 'readonly',
        fetch: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
      },
    },
    // A classic script shipped as written, with no build step: callbacks reach their widget through `var self = this`.
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-this-alias': 'off' },
  },
);
