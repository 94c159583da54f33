#!/usr/bin/env bash
# The README's run command: installs, provisions and starts the local servers, builds the web app and
# starts every process in one (gateway, projector, worker, analytics). Ctrl-C stops the processes; the
# local servers keep running for the next start (`npm run infra -- down` stops them).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
echo "Building the web app..."
npm run --silent web:build >/dev/null
exec npx tsx cli/ledgerwise.ts all --no-infra
