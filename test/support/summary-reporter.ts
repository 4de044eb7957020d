import type { Reporter, TestModule } from 'vitest/node';

/** Ends the run with the plain `N passed, N failed` line that CI logs are read for. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      const before = failed;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that failed to load or whose hooks threw has no failed test to show for it: count it once.
      if (module.state() === 'failed' && failed === before) failed++;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}
