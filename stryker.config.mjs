/**
 * Mutation check of the modules whose rules the unit tests pin: one planted change at a time, and
 * the unit tests must fail on each. `npm run test:mutation`; the HTML report goes to reports/mutation.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'jest',
  jest: { projectType: 'custom', configFile: 'jest.unit.config.js', enableFindRelatedTests: true },
  coverageAnalysis: 'perTest',
  mutate: [
    'libs/rate-limiting/src/rate-windows.ts',
    'libs/accounts/src/plans.ts',
    'libs/messaging/src/message-status.ts',
    'libs/http/src/pagination.ts',
    'libs/database/src/batcher.ts',
    'libs/database/src/insert-batcher.ts',
    'libs/accounts/src/api-keys/api-key-secret.ts',
    'libs/idempotency/src/request-fingerprint.ts',
  ],
  concurrency: 2,
  // A static mutant (in a module-level constant) runs every unit suite again, start-up included,
  // which outlasts the default timeout.
  timeoutMS: 30_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: 80 },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
