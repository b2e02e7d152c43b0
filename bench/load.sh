#!/usr/bin/env bash
# Load benchmark of the inventory and receipt routes (docs/benchmarks.md has the figures and how to read them).
#
# Builds payments-server in release, starts it on loopback with a fresh temp database and a rate limit
# high enough not to interfere, creates a key, seeds 100 products, then runs wrk against
#   GET  /api/inventory?pageSize=100   (a 100-item page)
#   POST /api/inventory                (upserts with varying SKUs, bench/upsert.lua)
#   POST /api/receipts                 (a new receipt per request, bench/create_receipt.lua)
#   GET  /api/receipts/{id}            (one receipt, created for the purpose, read back)
# and stops the server it started. Everything stays on 127.0.0.1.
#
# Needs: cargo, curl, wrk (Debian: apt-get install -y wrk).
# Knobs (environment): BENCH_PORT (18080), BENCH_THREADS (2), BENCH_CONNECTIONS (32), BENCH_DURATION (10s).
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
port=${BENCH_PORT:-18080}
threads=${BENCH_THREADS:-2}
connections=${BENCH_CONNECTIONS:-32}
duration=${BENCH_DURATION:-10s}
base="http://127.0.0.1:${port}"
wallet=0x00000000000000000000000000000000000be7c4

for tool in cargo curl wrk; do
    if ! command -v "$tool" >/dev/null; then
        echo "load.sh: '$tool' is required (wrk on Debian/Ubuntu: apt-get install -y wrk)" >&2
        exit 1
    fi
done
if curl -s -o /dev/null "${base}/healthz"; then
    echo "load.sh: something already listens on ${base}; set BENCH_PORT" >&2
    exit 1
fi

echo "== building payments-server (release)"
(cd "$repo_root" && cargo build --release --quiet -p payments-server)
target_dir=${CARGO_TARGET_DIR:-$repo_root/target}
server="$target_dir/release/payments-server"

work=$(mktemp -d)
server_pid=""
cleanup() {
    if [[ -n "$server_pid" ]]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

db="$work/bench.db"
key=$("$server" keys create --create-db --db "$db" --wallet "$wallet" --scopes inventory:read,inventory:write,receipts:read,receipts:write --name bench |
    sed -n 's/^ *"key": *"\([^"]*\)".*/\1/p')
if [[ -z "$key" ]]; then
    echo "load.sh: could not create a key" >&2
    exit 1
fi

echo "== starting the server on ${base} (log: ${work}/server.log)"
# Production mode (as deployed): it needs a session secret and a master key; throwaway ones here.
"$server" serve --listen "127.0.0.1:${port}" --db "$db" --dev=false \
    --jwt-secret "$(head -c 32 /dev/urandom | base64)" --master-key "$(head -c 32 /dev/urandom | base64)" \
    --rate-limit-per-minute 1000000000 >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
    curl -sf -o /dev/null "${base}/healthz" && break
    if ! kill -0 "$server_pid" 2>/dev/null; then
        echo "load.sh: the server exited:" >&2
        cat "$work/server.log" >&2
        exit 1
    fi
    sleep 0.1
done
curl -sf -o /dev/null "${base}/healthz" || { echo "load.sh: the server did not become healthy" >&2; exit 1; }

echo "== seeding 100 products"
for i in $(seq 1 100); do
    body=$(printf '{"sku":"SEED-%03d","name":"Seed product %d","priceUsd":%d.99,"stockQty":%d,"category":"bench","description":"A product seeded for the load benchmark.","tags":["bench","seed"],"taxable":true}' \
        "$i" "$i" "$((i % 50 + 1))" "$i")
    curl -sf -o /dev/null -X POST "${base}/api/inventory" \
        -H "X-Gateway-Subscription-Key: ${key}" -H 'Content-Type: application/json' -d "$body"
done
listed=$(curl -sf "${base}/api/inventory?pageSize=100" -H "X-Gateway-Subscription-Key: ${key}" |
    grep -o '"sku":"SEED-' | wc -l)
echo "   a GET /api/inventory?pageSize=100 returns ${listed} items"

echo "== machine: $(nproc) cores, $(uname -srm); wrk shares the cores with the server"
echo
echo "== GET /api/inventory?pageSize=100  (wrk -t${threads} -c${connections} -d${duration})"
wrk -t"$threads" -c"$connections" -d"$duration" --latency \
    -H "X-Gateway-Subscription-Key: ${key}" "${base}/api/inventory?pageSize=100"
echo
echo "== POST /api/inventory upserts  (wrk -t${threads} -c${connections} -d${duration})"
BENCH_KEY="$key" wrk -t"$threads" -c"$connections" -d"$duration" --latency \
    -s "$repo_root/bench/upsert.lua" "${base}/api/inventory"
echo
echo "== POST /api/receipts creates  (wrk -t${threads} -c${connections} -d${duration})"
BENCH_KEY="$key" wrk -t"$threads" -c"$connections" -d"$duration" --latency \
    -s "$repo_root/bench/create_receipt.lua" "${base}/api/receipts"
echo
# wrk spends each thread's first request() call while setting up, so the ids the create run made are not
# known exactly: read a receipt created here for the purpose (a 404 run would measure nothing).
curl -sf -o /dev/null -X POST "${base}/api/receipts" -H "X-Gateway-Subscription-Key: ${key}" \
    -H 'Content-Type: application/json' \
    -d '{"id":"bench-read","lineItems":[{"label":"Coffee","priceUsd":3.5}],"totalUsd":3.5}'
echo "== GET /api/receipts/bench-read  (wrk -t${threads} -c${connections} -d${duration})"
wrk -t"$threads" -c"$connections" -d"$duration" --latency \
    -H "X-Gateway-Subscription-Key: ${key}" "${base}/api/receipts/bench-read"
