import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'node_modules/**', 'coverage/**', '.memory-transfer/**', '.scratch/**'] },
  js.configs.recommended,
  { languageOptions: { globals: globals.node } },
  ...tseslint.configs.recommended,
  {
    rules: {
      'no-console': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // edges that print to a terminal by design
    files: ['src/cli/**', 'scripts/**', 'bin/**'],
    rules: { 'no-console': 'off' },
  },
  { files: ['__tests__/**'], rules: { 'no-console': 'off', '@typescript-eslint/no-explicit-any': 'off' } },
);
