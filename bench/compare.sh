#!/usr/bin/env bash
# Throughput of payments-server as a ratio against bare handlers, measured side by side on the same machine
# in the same run (absolute requests/s depend on the machine and on what else runs on it; a ratio taken
# within one run mostly cancels that out).
#
# Builds bench-baseline, payments-server and the payments CLI (release), starts on free 127.0.0.1 ports,
# each with a temporary database:
#   bench-baseline fixed-json     a constant ~100-byte JSON body, no I/O (the ceiling of any JSON route)
#   bench-baseline sqlite-order   one SQLite transaction per POST: 2 point reads + 1 insert, the server's
#                                 SQLite settings (WAL, synchronous=NORMAL, one writer, spawn_blocking)
#   payments-server               production flags (--dev=false), as bench/load.sh starts it
# then runs wrk (-t2 -c64 -d${DURATION}s, loopback only, each run bounded by `timeout`) against
#   1. baseline fixed-json            GET /
#   2. baseline sqlite-order          POST /orders
#   3. server GET /api/receipts/{id}  one receipt created beforehand, read with a subscription key
#   4. server POST /api/orders        needs a split (admin sign-in with a throwaway key through
#                                     `payments admin login`, then `payments split deploy`) and an item
#                                     with unlimited stock (stockQty -1)
# and prints one table (requests/s, p50, p99, errors) with the ratios server GET / fixed-json and
# server orders / sqlite-order, and the server's RSS idle and peak (`ps -o rss=` every 0.2 s during its
# runs; the kernel's VmHWM beside it). Every process it started is stopped on exit.
#
# Needs: cargo, curl, wrk (Debian/Ubuntu: apt-get install -y wrk), ps.
# Environment:
#   DURATION            seconds per wrk run (10)
#   PAYMENTS_BENCH_DB   passed to the server (and `keys create`) as --db instead of a temp SQLite file,
#                       e.g. postgres://user@127.0.0.1/bench (only if the server supports it)
#   BENCH_SKIP_BUILD=1  use the release binaries already in the target directory
#   CARGO_TARGET_DIR    where cargo puts the binaries (default: <repo>/target)
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
duration=${DURATION:-10}
threads=2
connections=64
if ! [[ "$duration" =~ ^[1-9][0-9]*$ ]]; then
    echo "compare.sh: DURATION must be a whole number of seconds (got '$duration')" >&2
    exit 2
fi

for tool in cargo curl wrk ps timeout; do
    if ! command -v "$tool" >/dev/null; then
        hint=""
        [[ "$tool" == wrk ]] && hint=" (Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y wrk; macOS: brew install wrk)"
        echo "compare.sh: '$tool' is required${hint}" >&2
        exit 1
    fi
done

# The admin key file and session file must not be readable by others (the CLI refuses them otherwise).
umask 077
work=$(mktemp -d)
pids=()
sampler_pid=""
cleanup() {
    local pid
    if [[ -n "$sampler_pid" ]]; then
        kill "$sampler_pid" 2>/dev/null || true
        wait "$sampler_pid" 2>/dev/null || true
    fi
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        # The server finishes in-flight requests on SIGTERM; none are left once wrk has stopped.
        for _ in $(seq 1 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [[ "${BENCH_SKIP_BUILD:-}" != 1 ]]; then
    echo "== building bench-baseline, payments-server and the payments CLI (release)"
    # Compiler output is shown only when the build fails, so the report stays readable.
    if ! (cd "$repo_root" && cargo build --release --quiet -p bench-baseline -p payments-server -p payments-cli) \
        >"$work/build.log" 2>&1; then
        cat "$work/build.log" >&2
        echo "compare.sh: the release build failed" >&2
        exit 1
    fi
fi
target_dir=${CARGO_TARGET_DIR:-$repo_root/target}
baseline="$target_dir/release/bench-baseline"
server="$target_dir/release/payments-server"
cli="$target_dir/release/payments"
for binary in "$baseline" "$server" "$cli"; do
    [[ -x "$binary" ]] || { echo "compare.sh: $binary is missing (build it, or unset BENCH_SKIP_BUILD)" >&2; exit 1; }
done

# A free loopback port in REPLY (nothing answers a connect on it, and this script has not picked it).
picked=" "
free_port() {
    local port
    for _ in $(seq 1 200); do
        port=$((20000 + RANDOM % 40000))
        [[ "$picked" == *" $port "* ]] && continue
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            picked+="$port "
            REPLY=$port
            return 0
        fi
    done
    echo "compare.sh: found no free loopback port" >&2
    return 1
}

# Waits until $2 answers (any HTTP status), or fails with process $1's log $3.
wait_ready() {
    local pid=$1 url=$2 log=$3
    for _ in $(seq 1 100); do
        if curl -s -o /dev/null "$url"; then
            return 0
        fi
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "compare.sh: the process behind $url exited:" >&2
            cat "$log" >&2
            exit 1
        fi
        sleep 0.1
    done
    echo "compare.sh: $url did not answer within 10 s; log:" >&2
    cat "$log" >&2
    exit 1
}

rss_kb() {
    ps -o rss= -p "$1" 2>/dev/null | tr -d ' ' || true
}

# --- start the baselines and the server -------------------------------------------------------------------

free_port; fixed_port=$REPLY
free_port; order_port=$REPLY
free_port; server_port=$REPLY
fixed_url="http://127.0.0.1:${fixed_port}"
order_url="http://127.0.0.1:${order_port}"
base="http://127.0.0.1:${server_port}"

echo "== starting the baselines on ${fixed_url} (fixed-json) and ${order_url} (sqlite-order)"
"$baseline" fixed-json --port "$fixed_port" >"$work/fixed-json.log" 2>&1 &
pids+=($!)
wait_ready "${pids[-1]}" "$fixed_url/" "$work/fixed-json.log"
"$baseline" sqlite-order --port "$order_port" --db "$work/baseline-orders.db" >"$work/sqlite-order.log" 2>&1 &
pids+=($!)
wait_ready "${pids[-1]}" "$order_url/" "$work/sqlite-order.log"

db=${PAYMENTS_BENCH_DB:-$work/server.db}
reader_wallet=0x00000000000000000000000000000000000be7c4
reader_key=$("$server" keys create --create-db --test-mode --db "$db" --wallet "$reader_wallet" --scopes receipts:read,receipts:write --name bench-reader |
    sed -n 's/^ *"key": *"\([^"]*\)".*/\1/p')
if [[ -z "$reader_key" ]]; then
    echo "compare.sh: could not create a subscription key (payments-server keys create --db $db)" >&2
    exit 1
fi

echo "== starting payments-server on ${base} (production flags, --db ${db})"
# As deployed: no development mode, so a session secret and a master key (throwaway ones here), a platform
# split recipient and the chain's factories (needed to deploy a split; the addresses a fresh anvil would give,
# nothing is sent on chain here), and a rate limit high enough not to interfere.
cat >"$work/chain-contracts.json" <<'JSON'
{"chainId": 31337, "token": "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
 "splitFactory": "0x5FbDB2315678afecb367f032d93F642f64180aa3",
 "depositFactory": "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"}
JSON
"$server" serve --listen "127.0.0.1:${server_port}" --db "$db" --dev=false --test-mode \
    --jwt-secret "$(head -c 32 /dev/urandom | base64)" --master-key "$(head -c 32 /dev/urandom | base64)" \
    --platform-recipient 0x5050505050505050505050505050505050505050 \
    --chain-contracts "$work/chain-contracts.json" \
    --rate-limit-per-minute 1000000000 >"$work/server.log" 2>&1 &
server_pid=$!
pids+=("$server_pid")
wait_ready "$server_pid" "$base/healthz" "$work/server.log"
rss_start=$(rss_kb "$server_pid")

# --- set up what the server runs need ---------------------------------------------------------------------

receipt_id=bench-receipt-1
status=$(curl -s -o "$work/receipt.json" -w '%{http_code}' -X POST "$base/api/receipts" \
    -H "X-Gateway-Subscription-Key: ${reader_key}" -H 'Content-Type: application/json' \
    -d "{\"id\":\"${receipt_id}\",\"lineItems\":[{\"label\":\"Coffee\",\"priceUsd\":3.5},{\"label\":\"Cake\",\"priceUsd\":4.25}],\"totalUsd\":7.75}")
if [[ "$status" != 200 && "$status" != 201 ]]; then
    echo "compare.sh: creating the receipt to read back failed ($status): $(cat "$work/receipt.json")" >&2
    exit 1
fi

# Orders: a merchant signed in as admin (EIP-712, through the CLI) with a split, a key and an item.
orders_skip=""
merchant_key=""
order_body='{"items":[{"sku":"BENCH-ORDER","qty":1}]}'
setup_orders() {
    local session="$work/admin-session.json" private_key="$work/admin.key" wallet status
    # A throwaway secp256k1 key (32 random bytes are a valid key but with negligible probability).
    printf '0x%s\n' "$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')" >"$private_key"
    if ! "$cli" admin login --url "$base" --session-file "$session" --private-key-file "$private_key" \
        --json >"$work/login.json" 2>"$work/login.err"; then
        orders_skip="admin sign-in failed (payments admin login): $(tr '\n' ' ' <"$work/login.err")"
        return 1
    fi
    wallet=$(grep -o '"wallet": *"0x[0-9a-fA-F]\{40\}"' "$work/login.json" | head -n 1 | grep -o '0x[0-9a-fA-F]\{40\}' || true)
    if [[ -z "$wallet" ]]; then
        orders_skip="payments admin login --json printed no wallet: $(cat "$work/login.json")"
        return 1
    fi
    if ! "$cli" split deploy --url "$base" --session-file "$session" --json >"$work/split.json" 2>"$work/split.err"; then
        orders_skip="split deploy failed (payments split deploy): $(tr '\n' ' ' <"$work/split.err")"
        return 1
    fi
    merchant_key=$("$server" keys create --create-db --test-mode --db "$db" --wallet "$wallet" \
        --scopes inventory:read,inventory:write,orders:create,receipts:read --name bench-merchant |
        sed -n 's/^ *"key": *"\([^"]*\)".*/\1/p')
    if [[ -z "$merchant_key" ]]; then
        orders_skip="could not create the merchant's key (payments-server keys create)"
        return 1
    fi
    status=$(curl -s -o "$work/item.json" -w '%{http_code}' -X POST "$base/api/inventory" \
        -H "X-Gateway-Subscription-Key: ${merchant_key}" -H 'Content-Type: application/json' \
        -d '{"sku":"BENCH-ORDER","name":"Bench item","priceUsd":9.99,"stockQty":-1,"taxable":true}')
    if [[ "$status" != 200 && "$status" != 201 ]]; then
        orders_skip="creating the inventory item failed ($status): $(cat "$work/item.json")"
        return 1
    fi
    status=$(curl -s -o "$work/order.json" -w '%{http_code}' -X POST "$base/api/orders" \
        -H "X-Gateway-Subscription-Key: ${merchant_key}" -H 'Content-Type: application/json' -d "$order_body")
    if [[ "$status" != 200 && "$status" != 201 ]]; then
        orders_skip="a trial POST /api/orders failed ($status): $(cat "$work/order.json")"
        return 1
    fi
}
echo "== setting up the orders run (admin sign-in with a throwaway key, split, item with stockQty -1)"
if setup_orders; then
    echo "   ready: a trial order answered $(grep -o '"status": *"[a-z_]*"' "$work/order.json" | head -n 1)"
else
    echo "   SKIPPING the server orders run: ${orders_skip}" >&2
fi
sleep 1
rss_idle=$(rss_kb "$server_pid")

# --- load runs ---------------------------------------------------------------------------------------------

declare -A rps p50 p99 errors
# run NAME URL [METHOD BODY KEY]: one wrk run; its result line goes into the arrays.
run() {
    local name=$1 url=$2 method=${3:-GET} body=${4:-} key=${5:-} out="$work/wrk-$1.txt" line
    echo
    echo "== ${name}: wrk -t${threads} -c${connections} -d${duration}s ${method} ${url}"
    if ! BENCH_METHOD="$method" BENCH_BODY="$body" BENCH_KEY="$key" \
        timeout --signal=INT --kill-after=5 $((duration + 30)) \
        wrk -t"$threads" -c"$connections" -d"${duration}s" --latency -s "$repo_root/bench/compare.lua" "$url" >"$out" 2>&1; then
        echo "   wrk failed:" >&2
        cat "$out" >&2
    fi
    sed -n '/Latency Distribution/,/^Requests\/sec/p' "$out" | sed 's/^/   /'
    line=$(grep '^BENCH_RESULT ' "$out" || true)
    if [[ -z "$line" ]]; then
        errors[$name]="no result"
        return 0
    fi
    rps[$name]=$(sed -n 's/.* rps=\([0-9.]*\).*/\1/p' <<<"$line")
    p50[$name]=$(sed -n 's/.* p50_us=\([0-9]*\).*/\1/p' <<<"$line")
    p99[$name]=$(sed -n 's/.* p99_us=\([0-9]*\).*/\1/p' <<<"$line")
    local http socket
    http=$(sed -n 's/.* http_errors=\([0-9]*\).*/\1/p' <<<"$line")
    socket=$(sed -n 's/.* socket_errors=\([0-9]*\).*/\1/p' <<<"$line")
    errors[$name]="${http}/${socket}"
}

# Samples the server's RSS every 0.2 s into $work/rss.txt while it runs (stopped after its runs).
sample_rss() {
    while kill -0 "$server_pid" 2>/dev/null; do
        rss_kb "$server_pid" >>"$work/rss.txt"
        sleep 0.2
    done
}

echo
echo "== machine: $(nproc) cores, $(uname -srm); wrk shares the cores with the process under load"
run fixed-json "$fixed_url/"
run sqlite-order "$order_url/orders" POST '{"itemId":1,"qty":1}'
sample_rss &
sampler_pid=$!
run server-get "$base/api/receipts/${receipt_id}" GET "" "$reader_key"
if [[ -z "$orders_skip" ]]; then
    run server-orders "$base/api/orders" POST "$order_body" "$merchant_key"
fi
kill "$sampler_pid" 2>/dev/null || true
wait "$sampler_pid" 2>/dev/null || true
sampler_pid=""
rss_peak=$(sort -n "$work/rss.txt" 2>/dev/null | tail -n 1)
hwm=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/${server_pid}/status" 2>/dev/null || true)

# --- report -----------------------------------------------------------------------------------------------

ms() { awk -v us="$1" 'BEGIN { printf "%.2f ms", us / 1000 }'; }
row() {
    local label=$1 name=$2
    if [[ -n "${rps[$name]:-}" ]]; then
        printf '%-42s %12s %11s %11s %10s\n' "$label" "$(printf '%.0f' "${rps[$name]}")" \
            "$(ms "${p50[$name]}")" "$(ms "${p99[$name]}")" "${errors[$name]}"
    else
        printf '%-42s %s\n' "$label" "${3:-no result (${errors[$name]:-not run})}"
    fi
}
ratio() {
    local numerator=${rps[$1]:-} denominator=${rps[$2]:-}
    if [[ -n "$numerator" && -n "$denominator" ]]; then
        awk -v a="$numerator" -v b="$denominator" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }'
    else
        echo "n/a"
    fi
}
kb_mb() { [[ -n "$1" ]] && awk -v kb="$1" 'BEGIN { printf "%.1f MiB", kb / 1024 }' || echo "n/a"; }

echo
echo "== results: wrk -t${threads} -c${connections} -d${duration}s on 127.0.0.1, $(nproc) cores shared with wrk"
printf '%-42s %12s %11s %11s %10s\n' "handler" "requests/s" "p50" "p99" "errors*"
row "baseline fixed-json (GET)" fixed-json
row "baseline sqlite-order (POST)" sqlite-order
row "server GET /api/receipts/{id}" server-get
row "server POST /api/orders" server-orders "SKIPPED: ${orders_skip}"
echo "* errors: answers with status >= 400 / socket errors (connect, read, write, timeout)"
echo
echo "ratio server GET /api/receipts/{id} / baseline fixed-json:    $(ratio server-get fixed-json)"
echo "ratio server POST /api/orders / baseline sqlite-order:        $(ratio server-orders sqlite-order)"
echo
echo "server RSS: at start $(kb_mb "$rss_start"), idle after setup $(kb_mb "$rss_idle"), peak during load $(kb_mb "$rss_peak") (sampled every 0.2 s; kernel VmHWM $(kb_mb "$hwm"))"
if [[ -n "$orders_skip" ]]; then
    echo
    echo "NOTE: the server orders run was skipped: ${orders_skip}"
fi
