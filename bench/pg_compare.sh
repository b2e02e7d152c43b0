#!/usr/bin/env bash
# The server's PostgreSQL path beside the driver's own speed, in one run on this machine (docs/benchmarks.md
# has the figures). On fresh databases (created and dropped here) of the server at PAYMENTS_BENCH_PG_URL:
#   1. pgbench -S (point select, scale 1) and pgbench with bench/pg_order.sql (2 selects + 1 insert in one
#      transaction), 16 clients, 2 threads, prepared statements;
#   2. bench-baseline pg-probe (hyper + tokio-postgres + a deadpool pool of 16): GET /point, POST /orders;
#   3. payments-server (release, production mode, test-mode chain, its pool of 16) on PostgreSQL:
#      GET /api/receipts/{id} of a random one of 5,000 receipts created beforehand, POST /api/receipts;
# each HTTP run with wrk -t2 -c64 -d${DURATION}s on 127.0.0.1, each bounded by `timeout`. Prints one table
# with requests or transactions per second and the ratios server GET / probe point select and server POST /
# probe order; the load average before and after. Each HTTP run also prints its p50 and p99 latency and the
# CPU time per request of the serving process and of its database's backends (from /proc).
#
# Needs: cargo, curl, psql, pgbench, wrk (installed with apt-get when missing and root), a PostgreSQL server
# that lets the URL's role create databases. Environment: PAYMENTS_BENCH_PG_URL
# (postgres://postgres@127.0.0.1:5432/postgres), DURATION (10), BENCH_SKIP_BUILD=1 (use the release
# binaries in the target directory), CARGO_TARGET_DIR.
set -euo pipefail

script=pg_compare.sh
port=${BENCH_PORT:-18110}
probe_port=$((port + 1))
base="http://127.0.0.1:${port}"
duration=${DURATION:-10}
admin_url=${PAYMENTS_BENCH_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# Every side without TLS, as the probe (tokio-postgres `NoTls`): libpq's default `sslmode=prefer` (pgbench,
# psql) and the server's would otherwise encrypt on loopback whenever the cluster has `ssl = on`, as this
# machine's has, and the comparison would weigh encryption against none (docs/benchmarks.md).
export PGSSLMODE=disable

if ! command -v wrk >/dev/null && [[ $(id -u) == 0 ]]; then
    apt-get install -y -qq wrk >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq wrk >/dev/null)
fi
bench_require curl psql pgbench wrk timeout
bench_refuse_taken_port

suffix=$(head -c 4 /dev/urandom | od -An -tx1 | tr -d ' \n')
databases=("bench_pgbench_$suffix" "bench_probe_$suffix" "bench_server_$suffix")
url_of() { printf '%s\n' "${admin_url%/*}/$1"; }
probe_pid=""
drop_databases() {
    if [[ -n "$probe_pid" ]]; then kill "$probe_pid" 2>/dev/null || true; wait "$probe_pid" 2>/dev/null || true; fi
    bench_cleanup
    for database in "${databases[@]}"; do
        psql -q "$admin_url" -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1 || true
    done
}
trap drop_databases EXIT
for database in "${databases[@]}"; do
    psql -q "$admin_url" -c "CREATE DATABASE $database" >/dev/null
done

target="${CARGO_TARGET_DIR:-$bench_root/target}/release"
if [[ "${BENCH_SKIP_BUILD:-}" != 1 ]]; then
    echo "== building payments-server and bench-baseline (release)"
    (cd "$bench_root" && cargo build --release --quiet -p payments-server --bin payments-server -p bench-baseline)
fi
server="$target/payments-server"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# CPU time (user + system, in clock ticks) of one process: cpu_ticks PID (0 when it is gone); and
# "PID TICKS" of each PostgreSQL backend serving one database: backend_ticks NAME.
ticks_per_second=$(getconf CLK_TCK)
cpu_ticks() {
    # The fields after the command name (in parentheses): utime and stime are the 12th and 13th.
    if [[ -r /proc/$1/stat ]]; then sed 's/^.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'; else echo 0; fi
}
backend_ticks() {
    local pid
    for pid in $(pgrep -f "postgres: .* $1 " || true); do echo "$pid $(cpu_ticks "$pid")"; done
}

# wrk's "Requests/sec" of one run: wrk_run NAME URL [wrk args...]. With `serving_pid` and `serving_db`
# set, it also prints the CPU time per request of that process and of the database's backends.
declare -A result
wrk_run() {
    local name=$1 url=$2
    shift 2
    local out serving_before backends_before
    serving_before=$(cpu_ticks "${serving_pid:-0}")
    backends_before=$(backend_ticks "${serving_db:-none}")
    out=$(timeout $((duration + 30)) wrk -t2 -c64 -d"${duration}s" --latency "$@" "$url")
    result[$name]=$(awk '/^Requests\/sec/ {print $2}' <<<"$out")
    echo "$name: ${result[$name]} req/s; p50 $(awk '$1 == "50%" {print $2}' <<<"$out"), p99 $(awk '$1 == "99%" {print $2}' <<<"$out"); $(grep -E 'non-2xx|Non-2xx' <<<"$out" | tr '\n' ' ')"
    local requests serving_used database_used
    requests=$(awk '/requests in/ {print $1}' <<<"$out")
    serving_used=$(($(cpu_ticks "${serving_pid:-0}") - serving_before))
    # Backends opened during the run count in full.
    database_used=$(awk 'NR == FNR { before[$1] = $2; next } { used += $2 - before[$1] } END { print used + 0 }' \
        <(printf '%s\n' "$backends_before") <(backend_ticks "${serving_db:-none}"))
    if [[ -n "${serving_pid:-}" && "${requests:-0}" -gt 0 ]]; then
        awk -v s="$serving_used" -v d="$database_used" -v r="$requests" -v t="$ticks_per_second" \
            'BEGIN { printf "  CPU per request: %.1f us serving, %.1f us database\n", s * 1e6 / t / r, d * 1e6 / t / r }'
    fi
}
pgbench_run() {
    local name=$1
    shift
    local out
    out=$(timeout $((duration + 60)) pgbench -n -c16 -j2 -M prepared -T"$duration" "$@")
    result[$name]=$(awk -F'= ' '/^tps/ {split($2, a, " "); print a[1]}' <<<"$out")
    echo "$name: ${result[$name]} tps"
}

echo "== pgbench"
pgbench -q -i -s 1 "$(url_of "${databases[0]}")" >/dev/null 2>&1
pgbench_run pgbench_select -S "$(url_of "${databases[0]}")"

echo "== probe (log: $work/probe.log)"
"$target/bench-baseline" pg-probe --port "$probe_port" --url "$(url_of "${databases[1]}")" >"$work/probe.log" 2>&1 &
probe_pid=$!
serving_pid=$probe_pid serving_db=${databases[1]}
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:${probe_port}/point" && break; sleep 0.1; done
pgbench_run pgbench_order -f "$bench_root/bench/pg_order.sql" "$(url_of "${databases[1]}")"
wrk_run probe_point "http://127.0.0.1:${probe_port}/point"
# A file, not a process substitution: wrk loads the script again for each thread, and a pipe is empty
# after the first read (every request then went out as a GET and was answered 404).
printf 'wrk.method = "POST"\n' >"$work/post.lua"
wrk_run probe_order "http://127.0.0.1:${probe_port}/orders" -s "$work/post.lua"
kill "$probe_pid"; wait "$probe_pid" 2>/dev/null || true; probe_pid="" serving_pid=""

echo "== server"
server_db="$(url_of "${databases[2]}")?sslmode=disable"
export BENCH_KEY
BENCH_KEY=$(bench_create_key 0x1111111111111111111111111111111111111111 "receipts:read,receipts:write" "$server_db")
bench_start_server "$server_db"
echo "== creating 5,000 receipts"
seq 1 5000 | xargs -P 8 -I{} curl -sf -o /dev/null -X POST "${base}/api/receipts" \
    -H "X-Gateway-Subscription-Key: $BENCH_KEY" -H 'Content-Type: application/json' \
    -d '{"id":"pg-{}","lineItems":[{"label":"Coffee","priceUsd":3.5}],"totalUsd":3.5}'
serving_pid=$server_pid serving_db=${databases[2]}
wrk_run server_get "$base" -s "$bench_root/bench/get_receipt_random.lua"
wrk_run server_post "${base}/api/receipts" -s "$bench_root/bench/create_receipt.lua"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
echo
echo "| measure | per second |"
echo "|---|---|"
echo "| pgbench -S (point select, 16 clients) | ${result[pgbench_select]} |"
echo "| pgbench order-shaped transaction (16 clients) | ${result[pgbench_order]} |"
echo "| probe GET /point (wrk -c64) | ${result[probe_point]} |"
echo "| probe POST /orders (wrk -c64) | ${result[probe_order]} |"
echo "| server GET /api/receipts/{id} of 5,000 (wrk -c64) | ${result[server_get]} |"
echo "| server POST /api/receipts (wrk -c64) | ${result[server_post]} |"
echo
echo "server GET / probe point select: $(ratio "${result[server_get]}" "${result[probe_point]}") (goal >= 0.8)"
echo "server POST / probe order: $(ratio "${result[server_post]}" "${result[probe_order]}") (goal >= 1.0)"
echo "server GET / pgbench -S: $(ratio "${result[server_get]}" "${result[pgbench_select]}");" \
    "server POST / pgbench order: $(ratio "${result[server_post]}" "${result[pgbench_order]}")"
echo "load average before: $load_before; after: $(cut -d' ' -f1-3 /proc/loadavg)"
