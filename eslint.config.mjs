import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'bench/results/**',
      'coverage/**',
      // The consumer test's throwaway projects: checked by their own tsc, jest and esbuild.
      'consumer/fixtures/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    // One run, one state: a run's state lives on its Turn or in its events, never beside them
    // (shared/DESIGN.md, "One run: one state, one stream, every mode"). A memo cache keyed by an
    // immutable value (a message, a schema object) is fine.
    files: ['packages/*/src/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "Program > VariableDeclaration[kind!='const'], Program > ExportNamedDeclaration > VariableDeclaration[kind!='const']",
          message:
            'No module-level let/var: keep run state on the turn (turn.withOperatorState), in a closure made when the pipeline is built for the run, or in an object the caller owns.',
        },
        {
          selector:
            'Program > VariableDeclaration > VariableDeclarator > NewExpression[callee.name=/^(Map|Set|WeakMap|WeakSet)$/][arguments.length=0] TSTypeReference[typeName.name=/^(RunFacts|RunScope|Turn|TurnValue|RunAgentConfig|RunSettings|RunLineage)$/]',
          message: 'No table keyed by a run: keep what a run knows on its turn (turn.withOperatorState).',
        },
        {
          selector:
            'Program > VariableDeclaration > VariableDeclarator > NewExpression[callee.name=/^(Map|Set)$/][arguments.length=0], Program > ExportNamedDeclaration > VariableDeclaration > VariableDeclarator > NewExpression[callee.name=/^(Map|Set)$/][arguments.length=0]',
          message:
            'No module-level table filled at run time: keep run state on the turn, or in an object the caller owns (a constant lookup table is written with its entries).',
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
);
