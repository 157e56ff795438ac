/**
 * Jest for the benchmark machinery's own tests (`tests/bench/*.bench.test.ts`: small runs of the
 * bench scripts, figures checked for shape only), `npm run bench:check`; `npm test` leaves them out.
 */
const base = require('./jest.config.cjs');

module.exports = {
  ...base,
  testMatch: ['**/*.bench.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  // Not the summary reporter: its line is `npm test`'s (test-output/jest-summary.txt, printed by .ci/run).
  reporters: ['default'],
};
