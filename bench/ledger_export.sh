#!/usr/bin/env bash
# Ledger export of LEDGER_ROWS (100,000) transfers: time and the server's peak memory (issue 26; figures in
# docs/benchmarks.md).
#
# Starts payments-server (release, or BENCH_SERVER) on a fresh SQLite database in test mode, creates one
# receipt through the API, then gives it a deposit address and LEDGER_ROWS recorded payment-token transfers
# with sqlite3 behind the server (WAL: the server keeps serving). It then exports the ledger as CSV and as
# JSON with curl (each capped at 300 s) and prints the server's RSS before, its peak (VmHWM) after each
# export, the time and the size. A streamed export keeps the peak flat; a buffered one grows with the rows.
#
# Needs: cargo, curl, sqlite3. Knobs: BENCH_PORT (18097), LEDGER_ROWS (100000, at most 1000000).
set -euo pipefail

script=ledger_export.sh
port=${BENCH_PORT:-18097}
rows=${LEDGER_ROWS:-100000}
base="http://127.0.0.1:${port}"
wallet=0x00000000000000000000000000000000000be7c5
if ((rows < 1 || rows > 1000000)); then
    echo "${script}: LEDGER_ROWS must be 1..1000000" >&2
    exit 1
fi
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_require cargo curl sqlite3
bench_refuse_taken_port
bench_build_server
db="$work/ledger.db"
key=$(bench_create_key "$wallet" "receipts:read,receipts:write" "$db")
bench_start_server "$db"

curl -sf -o /dev/null -X POST "${base}/api/receipts" -H "X-Gateway-Subscription-Key: ${key}" \
    -H 'Content-Type: application/json' \
    -d '{"id":"bulk-1","lineItems":[{"label":"Tea","priceUsd":1.00}],"totalUsd":1.00}'
config=$(curl -sf "${base}/api/site/config")
token=$(printf '%s' "$config" | sed -n 's/.*"token":{[^}]*"address":"\(0x[0-9a-fA-F]*\)".*/\1/p' | tr 'A-F' 'a-f')
chain_id=$(printf '%s' "$config" | sed -n 's/.*"chainId":\([0-9]*\).*/\1/p')
if [[ -z "$token" || -z "$chain_id" ]]; then
    echo "${script}: could not read the token and chain from /api/site/config" >&2
    exit 1
fi
deposit=0x00000000000000000000000000000000000de905
echo "== seeding ${rows} transfers of ${token} on chain ${chain_id}"
sqlite3 "$db" >/dev/null <<SQL
PRAGMA busy_timeout = 10000;
UPDATE receipts SET pay_to = '${deposit}', pay_split = '0x0000000000000000000000000000000000005711'
    WHERE public_id = 'bulk-1';
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows})
INSERT INTO chain_transfers (chain_id, transaction_hash, log_index, block_number, block_hash, token, from_wallet,
    to_wallet, amount, recorded_at)
SELECT ${chain_id}, printf('0x%064x', i), 0, i, printf('0x%064x', i), '${token}',
    '0x00000000000000000000000000000000000b0b00', '${deposit}', '10000', 1700000000000 + i FROM n;
SQL

rss() { awk -v field="$1:" '$1 == field { print $2 }' "/proc/${server_pid}/status"; }
echo "rss before: $(rss VmRSS) kB (peak so far $(rss VmHWM) kB)"
for format in csv json csv; do
    start=$(date +%s.%N)
    size=$(curl -sf --max-time 300 ${LEDGER_CURL_RATE:+--limit-rate "$LEDGER_CURL_RATE"} -H "X-Gateway-Subscription-Key: ${key}" \
        "${base}/api/exports/ledger?format=${format}" | wc -c)
    end=$(date +%s.%N)
    printf '%s: %d bytes in %.2f s; server peak RSS %s kB, RSS now %s kB\n' \
        "$format" "$size" "$(echo "$end - $start" | bc)" "$(rss VmHWM)" "$(rss VmRSS)"
done
