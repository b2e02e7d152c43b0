#!/usr/bin/env bash
# Fails when the committed contracts/artifacts/*.json are not exactly what contracts/src compiles to.
# Reinstalls the pinned compiler from package-lock.json (npm ci), builds into a temporary directory
# and compares file by file. Fix a failure with:  (cd contracts && npm ci && node build.mjs)  and
# commit the artifacts.
set -euo pipefail
cd "$(dirname "$0")"

npm ci --no-audit --no-fund --loglevel=error
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
node build.mjs --out "$tmp/artifacts" >/dev/null

# -q: the bytecode lines are long; naming the files (and missing/extra ones) is what helps.
if ! diff -rq artifacts "$tmp/artifacts" >"$tmp/diff"; then
  echo "contracts/check.sh: contracts/artifacts differ from what contracts/src compiles to." >&2
  echo "Rebuild with: (cd contracts && npm ci && node build.mjs), then commit contracts/artifacts." >&2
  sed "s|$tmp/artifacts|fresh-build|g" "$tmp/diff" >&2
  exit 1
fi
echo "contracts: artifacts match sources ($(ls artifacts | wc -l) files, solc $(node -e 'process.stdout.write(require("solc").version())'))"
