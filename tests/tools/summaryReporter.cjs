/**
 * Jest reporter: one plain line, `N passed, M failed, K skipped`, printed after the run and
 * written to test-output/jest-summary.txt (which .ci/run prints last).
 */
const fs = require('node:fs');
const path = require('node:path');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped`;
    process.stdout.write(`\n${line}\n`);
    const dir = path.join(__dirname, '..', '..', 'test-output');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'jest-summary.txt'), `${line}\n`);
  }
}
module.exports = SummaryReporter;
