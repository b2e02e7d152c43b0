#!/usr/bin/env bash
# Installs anvil and cast from the npm registry, versions pinned in package.json and
# package-lock.json, and prints where they are:
#   contracts/node_modules/.bin/anvil   contracts/node_modules/.bin/cast
# Those are links to the native executables (not node wrappers), so a process started from them is
# anvil itself and can be stopped by its own pid.
#
# Why the platform packages (@foundry-rs/anvil-linux-amd64) rather than the @foundry-rs/anvil
# wrapper: the wrapper lists one optional dependency per platform, the registry we use serves only
# the linux-amd64 ones, and `npm ci` then refuses the lock file as incomplete. Listing the
# linux-amd64 packages as optionalDependencies keeps `npm ci` working everywhere (other platforms
# simply skip them) while this script says clearly when no build exists for the machine.
#
# Idempotent: does nothing but check and print when the pinned versions are already installed.
set -euo pipefail
cd "$(dirname "$0")"

pinned() { node -e 'process.stdout.write(require("./package.json").optionalDependencies[process.argv[1]])' "$1"; }
installed_version() {
  local bin="node_modules/.bin/$1"
  if [ -x "$bin" ]; then "$bin" --version 2>/dev/null | sed -n 's/^[a-z]* Version: \([^ -]*\).*/\1/p'; fi
}

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "install-chain-tools.sh: anvil/cast are installed from npm for Linux x86_64 only (found $(uname -s)-$(uname -m))" >&2
  exit 1
fi

for tool in anvil cast; do
  if [ "$(installed_version "$tool")" != "$(pinned "@foundry-rs/$tool-linux-amd64")" ]; then
    npm ci --no-audit --no-fund --loglevel=error
    break
  fi
done

for tool in anvil cast; do
  want="$(pinned "@foundry-rs/$tool-linux-amd64")"
  got="$(installed_version "$tool")"
  if [ "$got" != "$want" ]; then
    echo "install-chain-tools.sh: $tool $want expected at contracts/node_modules/.bin/$tool, found '${got:-nothing}'" >&2
    exit 1
  fi
  echo "$tool $got: $(pwd)/node_modules/.bin/$tool"
done
