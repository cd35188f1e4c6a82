import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the closing `N passed, N failed, N skipped` line CI reads, plus the titles of
 * skipped tests, so a suite skipped for a missing server is never silent.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const skipped: string[] = [];
    for (const mod of testModules) {
      // A failing hook or import fails its suite without failing a test: count those too.
      if (mod.errors().length > 0) counts.failed += 1;
      for (const suite of mod.children.allSuites()) if (suite.errors().length > 0) counts.failed += 1;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') counts.failed += 1;
        else {
          counts.skipped += 1;
          skipped.push(`${mod.moduleId.replace(process.cwd() + '/', '')} > ${test.fullName}`);
        }
      }
    }
    if (skipped.length > 0) process.stdout.write(`\nskipped tests:\n${skipped.map((s) => `  - ${s}`).join('\n')}\n`);
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
