// Run by scripts/test.sh after every test step: fails if any credential the tests sent or received
// (recorded by test/secrets.ts) appears in any log line the service wrote during the run (captured
// by test/log-capture.ts and by the after-build tests' servers). See test/log-scan.ts.
import { existsSync } from "node:fs";
import { scanDirectory } from "../test/log-scan";

const dir = process.argv[2] ?? process.env.TEST_LOG_DIR;
if (!dir || !existsSync(dir)) {
  console.error(`[log scan] no captured logs at ${dir ?? "(TEST_LOG_DIR unset)"}: run the tests through scripts/test.sh`);
  process.exit(1);
}
const result = scanDirectory(dir);
console.log(`[log scan] ${result.logLines} log lines (${result.requestLines} request lines) checked against ${result.secrets} recorded credentials`);
// An empty capture would make the scan pass vacuously.
if (result.requestLines === 0 || result.secrets === 0) {
  console.error("[log scan] nothing to compare: the capture or the recording did not run");
  process.exit(1);
}
if (result.leaks.length > 0) {
  for (const leak of result.leaks.slice(0, 20)) console.error(`[log scan] LEAK of a ${leak.kind} in ${leak.file}:${leak.line}: ${leak.preview}`);
  console.error(`[log scan] ${result.leaks.length} leaked credential occurrence(s)`);
  process.exit(1);
}
console.log("[log scan] no credential appears in the logs");
