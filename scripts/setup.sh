#!/usr/bin/env bash
# What a new machine needs before the project's own scripts can run: system packages, Node packages and
# the local servers (built or fetched into ~/.cache/ledgerwise on first use; see docs/adr/0001-local-servers.md).
set -euo pipefail
cd "$(dirname "$0")/.."

need_node_major=20
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt "$need_node_major" ]; then
  echo "Node.js $need_node_major or newer is needed (found: $(node --version 2>/dev/null || echo none))." >&2
  exit 1
fi
for tool in go java mvn; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "$tool is needed to build the local servers. Install Go 1.22+, a Java 17 runtime and Maven, then retry." >&2
    exit 1
  fi
done

# System packages: Chromium for browser tests, poppler-utils to read rendered PDFs, kcat to read Kafka topics.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
command -v kcat >/dev/null 2>&1 || missing+=(kcat)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing system packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "Warning: missing system packages (${missing[*]}); browser and PDF tests need them." >&2
  fi
fi

# Native modules (better-sqlite3) compile against the installed Node's headers when no prebuilt binary can be fetched.
if [ -d /usr/include/node ]; then export npm_config_nodedir=/usr; fi
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing Node packages..."
  # Exactly the lock file's versions; the lock lists every platform's optional binaries (@swc/core, @unrs/resolver).
  npm ci --no-audit --no-fund
fi

echo "Provisioning and starting the local servers (the first build takes several minutes)..."
npx tsx cli/ledgerwise.ts infra up
