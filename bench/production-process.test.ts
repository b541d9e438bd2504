import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const ENTRIES = ["bench/run.ts", "bench/profile.ts", "bench/layers.ts"];

describe("the bench runs the service's code as production does", () => {
  it.each(ENTRIES)("%s imports ./production-process before anything else", (entry) => {
    const firstImport = /^import\s[^;]*;/m.exec(readFileSync(entry, "utf8"))?.[0];
    expect(firstImport).toBe('import "./production-process";');
  });

  it("after it, the router loads with response validation off, as under `npm start`", () => {
    // A fresh process with no NODE_ENV, as `tsx bench/run.ts` starts: the router reads it when it loads.
    const script = [
      'await import("./bench/production-process.ts");',
      'const validation = await import("./server/trpc/response-validation.ts");',
      'await import("./server/routers/index.ts");',
      // tsx loads the TypeScript as CommonJS: its exports arrive as the module's default.
      "console.log(JSON.stringify({ validating: (validation.default ?? validation).responseValidationEnabled() }));",
    ].join("\n");
    // Next's ProcessEnv declares NODE_ENV always present; this child is started without it on purpose.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !["NODE_ENV", "VALIDATE_RESPONSES", "LOG_LEVEL"].includes(name))) as NodeJS.ProcessEnv;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { env, encoding: "utf8", timeout: 60_000 });
    expect(child.stderr).toBe("");
    expect(JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "{}")).toEqual({ validating: false });
  }, 60_000);
});
