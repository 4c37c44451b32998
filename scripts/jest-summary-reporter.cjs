// Prints the run's totals as one plain line ("692 passed, 0 failed"), the form CI reads. It is
// written when the process exits, so it comes after jest's own summary as the closing line.
const { writeSync } = require('node:fs');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `Tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed`;
    process.once('exit', () => writeSync(1, `${skipped > 0 ? `${line}, ${skipped} skipped` : line}\n`));
  }
}

module.exports = SummaryReporter;
