/**
 * The unit project alone, as a plain config: what the mutation check runs (see stryker.config.mjs).
 * A mutant that leaves a promise pending then fails its test within seconds, instead of running into
 * the mutation check's own timeout, which restarts the test runner.
 */
const { projects, ...shared } = require('./jest.config.js');

module.exports = { ...shared, ...projects.find((project) => project.displayName === 'unit'), testTimeout: 5000 };
