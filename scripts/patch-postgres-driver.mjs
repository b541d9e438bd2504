// Runs on `npm install` (postinstall). Repairs four connection-teardown bugs of the `postgres`
// driver 3.4.9 (the latest release) that the database fault tests (test/integration/db-faults.pg.test.ts)
// hit when a backend is killed or a socket closes under a pooled connection:
//
// 1. closed() keeps the dead session's in-flight query and error: the next query on the
//    reconnected slot fails with the old backend's error (e.g. 57P01 "terminating connection").
// 2. closed() and terminate() cancel the deferred write without forgetting it: every later write
//    on the slot waits for a flush that never comes, so each reconnect ends in CONNECT_TIMEOUT.
// 3. A deferred write that fires after the socket closed (a transaction's rollback after its
//    backend died) throws from a timer, an uncaught TypeError that ends the process, instead of
//    failing the queries it carried. A query waiting for the slot's reconnect is left alone.
// 4. Between a socket's 'error' (e.g. ECONNRESET, the server went away) and its 'close', a ms or
//    two later, the pool still hands out the connection; a query it takes then is queued behind the
//    failed one, its write is cancelled by closed(), and closed() fails pending queries only after a
//    clean close: that query waits forever (in the service, until its own answer bound). closed() now
//    fails whatever is still pending either way (rejecting an already failed query again is a no-op).
//
// Upstream reports: porsager/postgres#1193, #1208/#1209, #1215. The edits are idempotent and
// anchored on the exact 3.4.9 source: any other version fails the install loudly, so an upgrade
// is a decision (drop this script when upstream ships the fixes).
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const MARKER = "/* storefront: teardown patch v2 */";
/** What an install by an earlier version of this script left: its edits are not all of the current ones. */
const EARLIER_MARKERS = ["/* storefront: teardown patch */"];
const EXPECTED_VERSION = "3.4.9";

const root = process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "node_modules", "postgres");

const edits = [
  {
    what: "nextWrite fails its queries when the socket is gone",
    from: "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)",
    to:
      "  function nextWrite(fn) {\n" +
      `    ${MARKER}\n` +
      "    if (!socket) {\n" +
      "      chunk = nextWriteTimer = null\n" +
      "      const lost = Errors.connection('CONNECTION_CLOSED', options)\n" +
      "      query && queryError(query, lost)\n" +
      "      while (sent.length) queryError(sent.shift(), lost)\n" +
      "      query = null\n" +
      "      return false\n" +
      "    }\n" +
      "    const x = socket.write(chunk, fn)",
    count: 1,
  },
  {
    what: "teardown forgets the cancelled deferred write",
    from: "\n    clearImmediate(nextWriteTimer)\n",
    to: "\n    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n",
    count: 2,
  },
  {
    what: "closed() fails every query still pending, also after an error, and leaves nothing of the dead session behind",
    from: "    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n",
    to:
      "    ;(query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n" +
      "    query = results = errorResponse = null\n" +
      "    result = new Result()\n",
    count: 1,
  },
];

function countOf(text, part) {
  return text.split(part).length - 1;
}

function patchFile(file) {
  const source = readFileSync(file, "utf8");
  if (source.includes(MARKER)) return "already patched";
  if (EARLIER_MARKERS.some((marker) => source.includes(marker))) {
    throw new Error(`${file} carries an earlier version of this patch: reinstall the driver (rm -rf node_modules/postgres && npm install)`);
  }
  let patched = source;
  for (const edit of edits) {
    const found = countOf(patched, edit.from);
    if (found !== edit.count) throw new Error(`${file}: expected ${edit.count} occurrence(s) of the code for "${edit.what}", found ${found}`);
    patched = patched.split(edit.from).join(edit.to);
  }
  writeFileSync(file, patched);
  return "patched";
}

function main() {
  const packageFile = path.join(root, "package.json");
  if (!existsSync(packageFile)) {
    console.log("[patch-postgres-driver] postgres is not installed here; nothing to patch");
    return;
  }
  const { version } = JSON.parse(readFileSync(packageFile, "utf8"));
  if (version !== EXPECTED_VERSION) {
    throw new Error(
      `postgres ${version} is installed, this patch is for ${EXPECTED_VERSION}: check whether the new version fixes the teardown bugs listed in scripts/patch-postgres-driver.mjs, then update or remove the script`,
    );
  }
  for (const dir of ["src", "cjs/src", "cf/src"]) {
    const file = path.join(root, dir, "connection.js");
    if (!existsSync(file)) continue;
    console.log(`[patch-postgres-driver] ${path.join(dir, "connection.js")}: ${patchFile(file)}`);
  }
}

try {
  main();
} catch (error) {
  console.error(`[patch-postgres-driver] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
