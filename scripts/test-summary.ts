/**
 * Adds up the JSON reports of the run's test runners (Vitest, the after-build Vitest run and
 * Playwright) and prints one closing line, "N passed, N failed", that reads the same whatever the
 * runner. Exits non-zero if a report is missing or counts a failure.
 */
import { existsSync, readFileSync } from "node:fs";

type VitestReport = { numPassedTests: number; numFailedTests: number; numPendingTests?: number; numTodoTests?: number };
type PlaywrightReport = { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };

const [vitestFile, afterBuildFile, playwrightFile] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
const missing: string[] = [];

for (const file of [vitestFile, afterBuildFile]) {
  if (!file || !existsSync(file)) {
    missing.push(file ?? "(vitest report)");
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8")) as VitestReport;
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
if (playwrightFile) {
  if (existsSync(playwrightFile)) {
    const { stats } = JSON.parse(readFileSync(playwrightFile, "utf8")) as PlaywrightReport;
    passed += stats.expected + stats.flaky;
    failed += stats.unexpected;
    skipped += stats.skipped;
  } else {
    missing.push(playwrightFile);
  }
}

if (missing.length > 0) console.error(`missing test reports: ${missing.join(", ")}`);
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || missing.length > 0 ? 1 : 0);
