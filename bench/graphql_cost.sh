#!/usr/bin/env bash
# GraphQL documents that would expand exponentially, against a receipt read (docs/benchmarks.md has the
# figures): the fragment-doubling query of issue 23 at 30 and 60 levels is refused, and how long that takes;
# a receipt read's latency alone and while attackers post those queries without pause.
#
# Builds payments-server in release (or runs BENCH_SERVER), creates a key on a fresh temp SQLite database,
# starts the server in production mode on loopback, creates one receipt, runs bench/graphql_cost.py, and
# stops the server it started. Everything stays on 127.0.0.1.
#
# Needs: cargo, curl, python3 (standard library only).
# Knobs: BENCH_PORT (18082), BENCH_READS (2000 receipt reads per phase), BENCH_ATTACKERS (2 threads).
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
port=${BENCH_PORT:-18082}
base="http://127.0.0.1:${port}"
wallet=0x00000000000000000000000000000000000be7c4

script=graphql_cost.sh
# shellcheck source=bench/common.sh
source "$repo_root/bench/common.sh"
bench_require curl python3
bench_refuse_taken_port
bench_build_server

db="$work/bench.db"
key=$(bench_create_key "$wallet" receipts:read,receipts:write,graphql:read,users:read "$db")

bench_start_server "$db"

curl -sf -o /dev/null -X POST "${base}/api/receipts" -H "X-Gateway-Subscription-Key: ${key}" \
    -H 'Content-Type: application/json' \
    -d '{"id":"bench-read","lineItems":[{"label":"Coffee","priceUsd":3.5}],"totalUsd":3.5}'

echo "== machine: $(nproc) cores, $(uname -srm); the clients share the cores with the server"
BENCH_BASE="$base" BENCH_KEY="$key" python3 "$repo_root/bench/graphql_cost.py"
