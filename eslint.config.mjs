import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', '.dist-*/', 'node_modules/', 'coverage/', 'bench/results/', '*.js', '*.mjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Libraries are used through their public surface only (`@app/pets`, never `@app/pets/src/...`).
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@app/*/*', '**/libs/*/src/*'], message: 'Import a library through its index (@app/<lib>).' },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
