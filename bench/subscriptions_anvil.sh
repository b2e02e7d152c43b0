#!/usr/bin/env bash
# Subscription charges on anvil, chain included (docs/benchmarks.md, "Subscription charges on anvil"):
#   1. COUNT (default 1000) due subscriptions charged by one run of one server: wall time, charges/s;
#      then checked on chain: every customer's balance and the manager's period state show one charge.
#   2. COUNT more, a run killed with `kill -9` part-way, a restart after its (short) lease: every one of them
#      charged exactly once, checked on chain the same way, and the first COUNT still once.
# Needs anvil/cast (bash contracts/install-chain-tools.sh), PostgreSQL at PAYMENTS_TEST_POSTGRES_URL (default
# postgres://postgres@127.0.0.1:5432/postgres; a throwaway database is created and dropped) and psql.
# Bounded: COUNT <= 5000, every phase under `timeout`; loopback only; stops only the processes it started.
# BENCH_PROFILE=release builds optimised (slower to build); the default reuses the debug test build.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

count=${1:-1000}
if (( count > 5000 )); then echo "subscriptions_anvil.sh: COUNT is at most 5000" >&2; exit 1; fi
profile=${BENCH_PROFILE:-debug}
admin_url=${PAYMENTS_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}
lease_secs=3
# The in-process servers log every request at info; the JSON lines are the results.
export RUST_LOG=${RUST_LOG:-warn}

bash contracts/install-chain-tools.sh >/dev/null
anvil_bin=contracts/node_modules/.bin/anvil
command -v psql >/dev/null || { echo "subscriptions_anvil.sh: psql is required" >&2; exit 1; }

echo "== building payments-server and the bench ($profile)"
flags=(); [[ "$profile" == release ]] && flags=(--release)
cargo build "${flags[@]}" --quiet -p payments-server --features testing --bin payments-server --example subscription_batch_anvil
target="${CARGO_TARGET_DIR:-$root/target}/$profile"
server="$target/payments-server"
bench="$target/examples/subscription_batch_anvil"

work=$(mktemp -d)
anvil_pid=""
charge_pid=""
database="bench_charges_$$"
cleanup() {
    for pid in "$charge_pid" "$anvil_pid"; do
        if [[ -n "$pid" ]]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    done
    psql -q "$admin_url" -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

"$anvil_bin" --host 127.0.0.1 --port 0 --hardfork cancun --chain-id 31337 >"$work/anvil.log" 2>&1 &
anvil_pid=$!
port=""
for _ in $(seq 1 200); do
    port=$(sed -n 's/^Listening on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$work/anvil.log" | head -n 1)
    [[ -n "$port" ]] && break
    sleep 0.1
done
[[ -n "$port" ]] || { echo "subscriptions_anvil.sh: anvil did not listen within 20 s" >&2; exit 1; }
export BENCH_RPC_URL="http://127.0.0.1:$port"

printf '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80\n' >"$work/relayer.key"
BENCH_CONTRACTS=$("$server" chain bootstrap --rpc-url "$BENCH_RPC_URL" --with-test-token --deployer-key-file "$work/relayer.key")
export BENCH_CONTRACTS
psql -q "$admin_url" -c "CREATE DATABASE $database" >/dev/null
export BENCH_DATABASE_URL="${admin_url%/*}/$database"
now=$(contracts/node_modules/.bin/cast block latest --field timestamp --rpc-url "$BENCH_RPC_URL")
export BENCH_START=$((now - 60))
export BENCH_LEASE_SECS=$lease_secs
echo "anvil on $BENCH_RPC_URL, database $database, $count subscriptions per part, lease ${lease_secs}s"

echo "== 1. $count due subscriptions, one run"
timeout 600 "$bench" setup 0 "$count"
timeout 600 "$bench" charge | tee "$work/charge1.json"
timeout 120 "$bench" verify 0 "$count"

echo "== 2. $count more, kill -9 part-way through the run, restart after the lease"
timeout 600 "$bench" setup "$count" "$count"
wall_ms=$(sed -n 's/.*"wallMs":\([0-9]*\).*/\1/p' "$work/charge1.json")
kill_after_ms=$(( wall_ms / 2 > 50 ? wall_ms / 2 : 50 ))
# Started directly (not under timeout) so that the pid killed is the server itself; the kill bounds it.
"$bench" charge >"$work/killed.json" 2>&1 &
charge_pid=$!
sleep "$(printf '%d.%03d' $((kill_after_ms / 1000)) $((kill_after_ms % 1000)))"
kill -9 "$charge_pid" 2>/dev/null || true
wait "$charge_pid" 2>/dev/null || true
charge_pid=""
echo "{\"phase\":\"kill -9\",\"afterMs\":$kill_after_ms,\"finishedBeforeTheKill\":$([[ -s $work/killed.json ]] && echo true || echo false)}"
sleep $((lease_secs + 1))
timeout 600 "$bench" charge
timeout 120 "$bench" verify "$count" "$count"
timeout 120 "$bench" verify 0 "$count"
