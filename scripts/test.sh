#!/usr/bin/env bash
# The whole test command (README: `npm test`): static checks, the OpenAPI lint, unit and
# integration tests (PGlite, plus the real Postgres when it answers), the production build, and
# the browser tests against it.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
step() { printf '\n==> [%ss] %s\n' "$((SECONDS - started))" "$*"; }

step "lint (eslint, type-checked rules)"
npx eslint --max-warnings=0 .
step "typecheck (tsc --noEmit)"
npx tsc --noEmit
step "OpenAPI document lint"
npx tsx scripts/openapi-lint.ts
step "unit and integration tests (vitest)"
npx vitest run
step "production build (next build)"
npx next build
if [ -d e2e ] && compgen -G "e2e/*.spec.ts" > /dev/null; then
  step "end-to-end tests (playwright, chromium)"
  npx playwright test
fi
step "all checks passed in $((SECONDS - started))s"
