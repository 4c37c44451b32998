import type { Config } from 'jest';

// Tests run from the TypeScript sources (no build needed): workspace imports are
// mapped to each package's src/index.ts and ts-jest transpiles to CommonJS.
// Type checking is done once for the whole tree by `pnpm typecheck`.
const config: Config = {
  testEnvironment: 'node',
  reporters: ['default', '<rootDir>/scripts/jest-summary-reporter.cjs'],
  roots: ['<rootDir>/packages', '<rootDir>/apps', '<rootDir>/bench', '<rootDir>/consumer'],
  testMatch: ['**/src/**/*.spec.ts'],
  // The long form of the Rx laws re-registers the law suites, which `pnpm test` already runs
  // in short form: it is only collected for `pnpm test:faults`.
  testPathIgnorePatterns: [
    '/node_modules/',
    '/dist/',
    ...(process.env.RXAGENT_FAULTS === 'full' ? [] : ['/laws\\.faults\\.spec\\.ts$']),
  ],
  moduleNameMapper: {
    '^@rxagent/core/(provider|models|streams|events|guardrails|context|elicitation)$':
      '<rootDir>/packages/core/src/$1.ts',
    '^@rxagent/proxy/client$': '<rootDir>/packages/proxy/src/client.ts',
    '^@rxagent/(core|testing|openai|anthropic|google|tools|context|mcp|subagents|otel|durable|sessions|proxy|ag-ui|replay)$':
      '<rootDir>/packages/$1/src/index.ts',
    '^@rxagent/dashboard$': '<rootDir>/apps/dashboard/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      {
        tsconfig: {
          module: 'commonjs',
          moduleResolution: 'node',
          target: 'ES2022',
          esModuleInterop: true,
          isolatedModules: true,
          sourceMap: true,
        },
        diagnostics: false,
      },
    ],
    // The official OTLP exporter loads `http` with `import()`, which jest's CommonJS sandbox
    // cannot run: its files alone are compiled to `require` (the @rxagent/otel OTLP test).
    '^.+/@opentelemetry/otlp-exporter-base/build/src/.+\\.js$': [
      'ts-jest',
      { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022' }, diagnostics: false },
    ],
    // unbash (the shell parser of @rxagent/tools' permission rules) ships ES modules only.
    '^.+/node_modules/unbash/dist/.+\\.js$': [
      'ts-jest',
      { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022' }, diagnostics: false },
    ],
  },
  transformIgnorePatterns: [
    '^(?!.*/(@opentelemetry/otlp-exporter-base/build/src|unbash/dist)/).*/node_modules/',
  ],
};

export default config;
