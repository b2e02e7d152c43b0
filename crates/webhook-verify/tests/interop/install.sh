#!/usr/bin/env bash
# Installs the official Standard Webhooks and Svix libraries (npm, versions pinned in package-lock.json)
# into crates/webhook-verify/tests/interop/node_modules, for webhook-verify's interoperability tests
# (tests/webhook_verify/interop.rs). Needs node and npm. Idempotent: does nothing when the pinned versions
# are installed already.
set -euo pipefail
cd "$(dirname "$0")"

installed() {
  node -e '
    const lock = require("./package-lock.json").packages;
    for (const name of ["standardwebhooks", "svix"]) {
      const want = lock["node_modules/" + name].version;
      let got;
      try { got = require("./node_modules/" + name + "/package.json").version; } catch { process.exit(1); }
      if (got !== want) process.exit(1);
    }'
}

if ! installed; then
  npm ci --no-audit --no-fund --loglevel=error
fi
installed || { echo "interop/install.sh: the pinned libraries are not in node_modules after npm ci" >&2; exit 1; }
echo "webhook interop libraries: $(node -p 'require("./node_modules/standardwebhooks/package.json").version') (standardwebhooks), $(node -p 'require("./node_modules/svix/package.json").version') (svix)"
