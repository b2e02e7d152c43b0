#!/usr/bin/env bash
# Slow-webhook soak: one payments-server (release, a temporary SQLite database, development mode so webhooks may
# go to 127.0.0.1) and bench/webhook-soak driving status changes at RATE per second for DURATION seconds.
# One receipt in SLOW_EVERY sends its webhooks to a receiver that answers after SLOW_MS ms; the rest go to
# HEALTHY receivers that answer at once. Prints the soak's JSON line (healthy p50/p99/max from status change to
# delivery, counts) and the server's RSS (idle, peak). Loopback only; bounded (`timeout` on the soak, every
# process it started is stopped on exit).
#
# Needs: cargo, curl, ps. Environment: RATE (1000), DURATION (10), HEALTHY (4), SLOW_EVERY (20), SLOW_MS (3000),
# BENCH_SKIP_BUILD=1 to use the release binaries already built, CARGO_TARGET_DIR (default <repo>/target).
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rate=${RATE:-1000}
duration=${DURATION:-10}
for value in "$rate" "$duration" "${HEALTHY:-4}" "${SLOW_EVERY:-20}" "${SLOW_MS:-3000}"; do
    [[ "$value" =~ ^[1-9][0-9]*$ ]] || { echo "soak_webhooks.sh: settings must be positive integers" >&2; exit 2; }
done
(( duration <= 300 )) || { echo "soak_webhooks.sh: DURATION is at most 300 seconds" >&2; exit 2; }
target_dir=${CARGO_TARGET_DIR:-$repo_root/target}
if [[ "${BENCH_SKIP_BUILD:-}" != 1 ]]; then
    cargo build --release --locked -p payments-server -p webhook-soak --manifest-path "$repo_root/Cargo.toml" >&2
fi

work=$(mktemp -d)
server_pid=""
sampler_pid=""
cleanup() {
    [[ -n "$sampler_pid" ]] && kill "$sampler_pid" 2>/dev/null || true
    [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$target_dir/release/payments-server" --listen "127.0.0.1:$port" --db "$work/soak.db" --dev \
    --rate-limit-per-minute 1000000000 >"$work/stdout" 2>"$work/stderr" &
server_pid=$!
for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
    sleep 0.1
done
key=$(grep -m1 -oE 'sk_live_[A-Za-z0-9_-]+' "$work/stdout")
wallet=0xdec0de0000000000000000000000000000000001
idle_kb=$(ps -o rss= -p "$server_pid" | tr -d ' ')
( peak=0; while kill -0 "$server_pid" 2>/dev/null; do
      rss=$(ps -o rss= -p "$server_pid" | tr -d ' '); (( rss > peak )) && peak=$rss && echo "$peak" >"$work/peak"
      sleep 0.2
  done ) &
sampler_pid=$!

timeout $(( duration + 120 )) "$target_dir/release/webhook-soak" --server "http://127.0.0.1:$port" \
    --key "$key" --wallet "$wallet" --rate "$rate" --seconds "$duration" --healthy "${HEALTHY:-4}" \
    --slow-every "${SLOW_EVERY:-20}" --slow-ms "${SLOW_MS:-3000}"
echo "{\"serverRssIdleKb\": $idle_kb, \"serverRssPeakKb\": $(cat "$work/peak" 2>/dev/null || echo 0)}"
