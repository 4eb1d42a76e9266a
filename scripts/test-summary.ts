import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

// The JSON reporter's totals; every project's test run writes one file (see vitest.shared.ts).
const ReportSchema = z.object({
  numPassedTests: z.number(),
  numFailedTests: z.number(),
  numPendingTests: z.number().default(0),
  numTodoTests: z.number().default(0),
  // A file that fails before its tests run (an import, a top-level throw) has no failed test.
  numFailedTestSuites: z.number().default(0),
});

const directory = path.resolve(import.meta.dirname, '../tmp/test-results');
let passed = 0;
let failed = 0;
let skipped = 0;
let failedFiles = 0;
const files = readdirSync(directory).filter((file) => file.endsWith('.json'));
for (const file of files) {
  const report = ReportSchema.parse(JSON.parse(readFileSync(path.join(directory, file), 'utf8')));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  failedFiles += report.numFailedTestSuites;
  console.log(
    `${path.basename(file, '.json')}: ${report.numPassedTests} passed, ${report.numFailedTests} failed${filesFailed(report.numFailedTestSuites)}`,
  );
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped${filesFailed(failedFiles)}`);

function filesFailed(count: number): string {
  return count === 0 ? '' : ` (${count} test file${count === 1 ? '' : 's'} failed)`;
}
