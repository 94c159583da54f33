#!/usr/bin/env bash
# The README's test command: installs what a new machine lacks, then lint, type check and every test
# against the real local servers. Ends with a line "N passed, N failed[, N skipped]".
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

echo "== Lint"
npm run --silent lint
echo "== Format"
npm run --silent format:check
echo "== Type check"
npm run --silent typecheck
echo "== Web build"
npm run --silent web:build >/dev/null

echo "== Tests (unit, web, integration)"
mkdir -p test-results
status=0
npx jest --ci --json --outputFile=test-results/jest.json "$@" || status=$?

node -e '
  const r = require("./test-results/jest.json");
  const skipped = r.numPendingTests + r.numTodoTests;
  const failedSuites = r.numRuntimeErrorTestSuites;
  let line = `${r.numPassedTests} passed, ${r.numFailedTests + failedSuites} failed`;
  if (skipped > 0) line += `, ${skipped} skipped`;
  for (const suite of r.testResults)
    for (const t of suite.assertionResults)
      if (t.status === "pending") console.log(`skipped: ${t.fullName}`);
  console.log(line);
'
exit $status
