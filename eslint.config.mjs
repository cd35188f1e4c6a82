// ESLint (typescript-eslint's recommended rules) over the TypeScript sources and tests:
// `npm run lint`, run by `npm test`. Generated code and build output are not ours to lint.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'protos/gen/**', '**/*.d.ts', '**/*.mjs', '**/*.cjs', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      // A leading underscore marks a parameter or binding kept for its position or shape.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          caughtErrors: 'none',
        },
      ],
    },
  },
  {
    // Tests read JSON answers off the wire, which are untyped by nature.
    files: ['**/*.test.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
