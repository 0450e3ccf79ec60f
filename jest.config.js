/** Unit tests sit beside the code; e2e suites live in test/ and talk to real PostgreSQL and Redis. */
const moduleNameMapper = {
  '^@app/([^/]+)$': '<rootDir>/libs/$1/src',
};
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] };

module.exports = {
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      rootDir: __dirname,
      testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'],
      moduleNameMapper,
      transform,
      testEnvironment: 'node',
    },
    {
      displayName: 'e2e',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      moduleNameMapper,
      transform,
      testEnvironment: 'node',
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      setupFiles: ['<rootDir>/test/support/test-env.ts'],
    },
    {
      // Swagger UI in Chromium (playwright-core); skipped, with a printed reason, where there is no Chromium.
      displayName: 'browser',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'],
      moduleNameMapper,
      transform,
      testEnvironment: 'node',
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      setupFiles: ['<rootDir>/test/support/test-env.ts'],
    },
    {
      displayName: 'faults',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/faults/**/*.fault-spec.ts'],
      moduleNameMapper,
      transform,
      testEnvironment: 'node',
      globalSetup: '<rootDir>/test/support/faults-setup.ts',
      setupFiles: ['<rootDir>/test/support/test-env.ts'],
    },
  ],
};
