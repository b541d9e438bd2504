/**
 * Lints the OpenAPI document the service serves, exactly as built at run time, with Redocly and
 * the repository's redocly.yaml. Exits non-zero when Redocly reports an error (warnings are shown
 * but do not fail). Usage: npx tsx scripts/openapi-lint.ts
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildOpenApiDocument } from "../server/openapi/document";

type Problem = { ruleId: string; severity: string; message: string; location?: { pointer?: string }[] };
type LintReport = { totals: { errors: number; warnings: number; ignored: number }; problems: Problem[] };

function isLintReport(value: unknown): value is LintReport {
  const totals = (value as { totals?: unknown } | null)?.totals;
  return typeof totals === "object" && totals !== null && Array.isArray((value as { problems?: unknown }).problems);
}

function main(): number {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const document = buildOpenApiDocument();
  const operations = Object.values(document.paths ?? {}).reduce(
    (count, item) => count + ["get", "put", "post", "delete", "patch"].filter((method) => method in item).length,
    0,
  );

  const directory = mkdtempSync(join(tmpdir(), "openapi-lint-"));
  try {
    const file = join(directory, "openapi.json");
    writeFileSync(file, JSON.stringify(document, null, 2));
    const result = spawnSync("npx", ["@redocly/cli", "lint", file, "--config", join(root, "redocly.yaml"), "--format=json"], {
      cwd: root,
      encoding: "utf8",
    });
    let report: unknown;
    try {
      report = JSON.parse(result.stdout);
    } catch {
      report = undefined;
    }
    if (!isLintReport(report)) {
      // Redocly did not get as far as linting (bad config, crash): its own output says why.
      process.stderr.write(result.stdout + result.stderr);
      console.log(`openapi-lint: FAILED, redocly exited with ${result.status ?? result.signal ?? "unknown"} without a report`);
      return 1;
    }
    for (const problem of report.problems) {
      const where = problem.location?.[0]?.pointer ?? "";
      console.log(`${problem.severity === "error" ? "error" : "warning"} ${problem.ruleId}: ${problem.message} ${where}`.trimEnd());
    }
    const { errors, warnings } = report.totals;
    const verdict = errors > 0 ? "FAILED" : "OK";
    console.log(
      `openapi-lint: ${verdict}, OpenAPI ${document.openapi}, ${operations} operations, ${errors} errors, ${warnings} warnings (redocly ${(report as { version?: string }).version ?? "?"}, redocly.yaml)`,
    );
    return errors > 0 || result.status !== 0 ? 1 : 0;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

process.exitCode = main();
