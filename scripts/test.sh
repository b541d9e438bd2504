#!/usr/bin/env bash
# The whole test command (README: `npm test`): static checks, the OpenAPI lint, unit and
# integration tests (PGlite, plus the real Postgres when it answers), the production build, the
# tests of the build (several `npm start` processes on one Postgres and Redis; start-up checks),
# the scan of every captured log line for credentials, and the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
step() { printf '\n==> [%ss] %s\n' "$((SECONDS - started))" "$*"; }

# Every log line the service writes under test, and every credential the tests handle, land here
# (test/log-capture.ts, test/secrets.ts); scripts/scan-test-logs.ts compares them at the end.
export TEST_LOG_DIR="$PWD/.test-logs/run-$(date +%Y%m%d-%H%M%S)-$$"
rm -rf .test-logs
mkdir -p "$TEST_LOG_DIR"

step "lint (eslint, type-checked rules)"
npx eslint --max-warnings=0 .
step "no import cycles in server/ and db/ (madge, type-only imports included)"
npx madge --circular --extensions ts --ts-config tsconfig.json server db
step "typecheck (tsc --noEmit)"
npx tsc --noEmit
step "OpenAPI document lint"
npx tsx scripts/openapi-lint.ts
step "unit and integration tests (vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$TEST_LOG_DIR/vitest.json"
step "production build (next build)"
npx next build
step "tests of the production build (vitest.after-build.config.ts)"
npx vitest run --config vitest.after-build.config.ts --reporter=default --reporter=json --outputFile.json="$TEST_LOG_DIR/vitest-after-build.json"
step "no credential in the logs of this run (scripts/scan-test-logs.ts)"
npx tsx scripts/scan-test-logs.ts "$TEST_LOG_DIR"
if [ -d e2e ] && compgen -G "e2e/*.spec.ts" > /dev/null; then
  step "end-to-end tests (playwright, chromium)"
  PLAYWRIGHT_JSON_OUTPUT_NAME="$TEST_LOG_DIR/playwright.json" npx playwright test --reporter=list,json
fi
step "summary"
npx tsx scripts/test-summary.ts "$TEST_LOG_DIR/vitest.json" "$TEST_LOG_DIR/vitest-after-build.json" "$TEST_LOG_DIR/playwright.json"
echo "all checks passed in $((SECONDS - started))s"
