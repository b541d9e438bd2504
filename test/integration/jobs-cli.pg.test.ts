import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ownDatabase } from "../after-build/servers";
import { runCli } from "../cli";

/**
 * `npm run jobs` is a process of its own. With the simulated card processor, whose payments live in
 * the server's memory, it would find none of them and take every payment in flight for lost: it
 * refuses reconcile-payments (and all) and points at the server's job route; jobs that do not touch
 * the processor still run. Postgres only (the CLI refuses the embedded PGlite anyway).
 */
let database: Awaited<ReturnType<typeof ownDatabase>>;
beforeAll(async () => {
  database = await ownDatabase("jobs_cli", inject("postgresRun"));
});
afterAll(async () => {
  await database.drop();
});

describe("npm run jobs with the simulated card processor", () => {
  it("refuses to reconcile payments it cannot see, pointing at the server's job route", async () => {
    for (const job of ["reconcile-payments", "all"]) {
      const { code, output } = await runCli("server/jobs/cli.ts", [job], { NODE_ENV: "development", DATABASE_URL: database.url, LOG_LEVEL: "warn" });
      expect(code, output).toBe(2);
      expect(output).toMatch(new RegExp(`simulated card processor .*/api/jobs/${job}$`, "m"));
    }
  });

  it("runs a job that does not touch the card processor", async () => {
    const { code, output } = await runCli("server/jobs/cli.ts", ["expire-carts"], { NODE_ENV: "development", DATABASE_URL: database.url, LOG_LEVEL: "warn" });
    expect(code, output).toBe(0);
    expect(output).toMatch(/"job":"expire-carts"/);
  });
});

