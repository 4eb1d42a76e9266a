import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

// The JSON reporter's totals; every project's test run writes one file (see vitest.shared.ts).
const ReportSchema = z.object({
  numPassedTests: z.number(),
  numFailedTests: z.number(),
  numPendingTests: z.number().default(0),
  numTodoTests: z.number().default(0),
});

const directory = path.resolve(import.meta.dirname, '../tmp/test-results');
let passed = 0;
let failed = 0;
let skipped = 0;
const files = readdirSync(directory).filter((file) => file.endsWith('.json'));
for (const file of files) {
  const report = ReportSchema.parse(JSON.parse(readFileSync(path.join(directory, file), 'utf8')));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  console.log(
    `${path.basename(file, '.json')}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`,
  );
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
