// Two projects: unit tests beside the code (no servers), integration tests in test/ against the real
// local servers, which the global setup finds or starts (docs/adr/0002-test-harness.md).
const transform = {
  '^.+\\.(t|j)sx?$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        transform: { react: { runtime: 'automatic' } },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
};

// ESM-only packages in node_modules: Node 20.19 can require() them at run time, jest cannot, so swc
// compiles them to CommonJS for tests.
const esmOnlyPackages = [
  'content-disposition',
  'cookie',
  'openid-client',
  'oauth4webapi',
  'jose',
  // TanStack Table 9 and its store ship ES modules only (the web tables).
  '@tanstack/react-table',
  '@tanstack/table-core',
  '@tanstack/store',
  '@tanstack/react-store',
];

const common = {
  transform,
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnlyPackages.join('|')})/)`],
  testEnvironment: 'node',
  // Temporal's SDK touches jest globals after a file ends; the soft-delete warning is noise.
  testEnvironmentOptions: { globalsCleanup: 'off' },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'cjs', 'mjs', 'json'],
  modulePathIgnorePatterns: ['<rootDir>/.data/', '<rootDir>/web/dist/'],
};

module.exports = {
  maxWorkers: 2,
  reporters: [['default', { summaryThreshold: 0 }]],
  projects: [
    {
      ...common,
      displayName: 'unit',
      setupFilesAfterEnv: ['<rootDir>/test/harness/unit-timeout.ts'],
      roots: [
        '<rootDir>/contracts',
        '<rootDir>/domain',
        '<rootDir>/commands',
        '<rootDir>/projections',
        '<rootDir>/workflows',
        '<rootDir>/gateway',
        '<rootDir>/deploy',
        '<rootDir>/cli',
        '<rootDir>/bench',
      ],
      testMatch: ['**/*.test.ts'],
    },
    {
      ...common,
      displayName: 'web',
      roots: ['<rootDir>/web'],
      testMatch: ['**/*.test.ts', '**/*.test.tsx'],
      testEnvironment: 'jsdom',
      setupFilesAfterEnv: ['<rootDir>/web/src/test-support/jest-dom-setup.ts'],
    },
    {
      ...common,
      displayName: 'integration',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.test.ts'],
      globalSetup: '<rootDir>/test/harness/global-setup.ts',
      globalTeardown: '<rootDir>/test/harness/global-teardown.ts',
      setupFiles: ['<rootDir>/test/harness/quiet-temporal.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/harness/integration-timeout.ts'],
    },
  ],
};
