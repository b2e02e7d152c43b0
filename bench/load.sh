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

script=load.sh
# shellcheck source=bench/common.sh
source "$repo_root/bench/common.sh"
bench_require cargo curl wrk
bench_refuse_taken_port
bench_build_server

db="$work/bench.db"
key=$(bench_create_key "$wallet" inventory:read,inventory:write,receipts:read,receipts:write "$db")

bench_start_server "$db"

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
