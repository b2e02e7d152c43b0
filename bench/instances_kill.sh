#!/usr/bin/env bash
# Three payments-server instances on one PostgreSQL database, one killed with SIGKILL midway and started
# again (docs/benchmarks.md has the figures; docs/production.md the deployment this checks).
#
# Runs the API test `instances_kill_pg` with 3,000 creates instead of CI's 300: it starts the real binary
# three times (`--dev`, each in a directory of its own, on a fresh database at PAYMENTS_TEST_POSTGRES_URL),
# spreads creates and status changes over them from 8 concurrent clients (each receipt created on one
# instance and moved on the next), kills one instance when half the creates are sent and starts it again,
# then checks that every acknowledged create is listed exactly once and every acknowledged status change
# reached the webhook receiver (counted by delivery id; duplicates are reported, at-least-once delivery).
# It prints one `instances_kill:` line with the counts and times. Loopback only; bounded by the count and
# the test's waits (45 s for the deliveries after the load).
#
# Then the API tests `instances_kill_chain` (the same size as in CI): three instances on one database and one
# anvil chain; one is killed and a buyer pays on chain (another instance marks it paid), and one is killed
# with a charge batch's transactions in flight (another finishes the batch, charging each of 55
# subscriptions once, counted from the manager's SpendPermissionUsed events). They print
# `instances_kill_chain:` lines with the measured takeover times.
#
# Needs: cargo, a PostgreSQL server (PAYMENTS_TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres),
# anvil and cast (installed here by contracts/install-chain-tools.sh, from npm).
# Knobs (environment): INSTANCES_KILL_CREATES (3000).
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"
export PAYMENTS_INSTANCES_KILL_CREATES="${INSTANCES_KILL_CREATES:-3000}"
export CI=true # a missing PostgreSQL or anvil is a failure here, not a skip
bash contracts/install-chain-tools.sh >/dev/null
# One filter runs both files' tests: instances_kill_pg and instances_kill_chain.
cargo test -p payments-server --all-features --test api instances_kill -- --nocapture 2>&1 \
    | grep -E '^instances_kill(_chain)?:|^test |test result|panicked' 
