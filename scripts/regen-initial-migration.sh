#!/usr/bin/env bash
# Pre-release only: regenerates the single initial migration from the whole schema in db/schema/.
# Once a release has shipped, schema changes get new numbered migrations (npm run db:generate)
# and this script must not be used.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf db/migrations
npx drizzle-kit generate --name init
