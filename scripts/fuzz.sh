#!/usr/bin/env bash
# The long fuzz run: every fuzz-style property test of the workspace, with many cases per property.
#
# A fuzz-style test is a proptest property in a module named `fuzz` (so its path contains `fuzz`, which is
# the filter below), e.g. crates/webhook-verify/tests/webhook_verify/fuzz/. Each property runs a few
# thousand cases in the normal test run (CI) and PROPTEST_CASES cases here. See docs/fuzzing.md.
#
#   bash scripts/fuzz.sh                                   # 100 000 cases per property, whole workspace
#   PROPTEST_CASES=1000000 bash scripts/fuzz.sh            # longer
#   bash scripts/fuzz.sh -p webhook-verify --release       # one package, optimised (much faster per case)
#
# Arguments replace the default `--workspace` and go to `cargo test` before the filter.
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/payments-target}"
export PROPTEST_CASES="${PROPTEST_CASES:-100000}"
if [ "$#" -eq 0 ]; then set -- --workspace; fi

echo "== fuzz: PROPTEST_CASES=$PROPTEST_CASES, cargo test $* --all-features -- fuzz"
started=$(date +%s)
status=0
# --no-fail-fast: a failing property (shrunk and reported by proptest) does not hide the others' results.
cargo test "$@" --all-features --locked --no-fail-fast -- fuzz || status=$?
echo "== fuzz: done in $(( $(date +%s) - started )) s (exit $status)"
exit "$status"
