#!/usr/bin/env bash
# Resource soak of the HTTP edge (docs/benchmarks.md has the figures and how to read them).
#
# Builds payments-server in release and, for each case, starts it on loopback with a fresh temp database,
# runs bench/soak.py against it, prints the figures as JSON, and stops the server it started (by its pid):
#   slow      1,200 connections send the headers of an authenticated POST /api/inventory with
#             Content-Length: 1000000 and no body (the default cap holds them; each is answered 408 when
#             the body timeout passes); /healthz latency and RSS meanwhile
#   overcap   the same against a server started with --max-connections 1000: the 200 over the cap are
#             answered 503 overloaded at once
#   bigbody   100 unauthenticated POST /healthz with 8 MiB - 1 byte bodies, all at once (405 without reading
#             the body); /healthz latency and peak RSS meanwhile
# Everything stays on 127.0.0.1; counts and waits are bounded (soak.py refuses more than 5,000 sockets).
#
# Needs: cargo, curl, python3. Knobs (environment): SOAK_PORT (18090), SOAK_BODY_TIMEOUT_SECS (10),
# SOAK_CASES ("slow overcap bigbody").
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
port=${SOAK_PORT:-18090}
body_timeout=${SOAK_BODY_TIMEOUT_SECS:-10}
cases=${SOAK_CASES:-slow overcap bigbody}
base="http://127.0.0.1:${port}"
wallet=0x00000000000000000000000000000000000be7c4

for tool in cargo curl python3; do
    if ! command -v "$tool" >/dev/null; then
        echo "soak.sh: '$tool' is required" >&2
        exit 1
    fi
done
if curl -s -o /dev/null "${base}/healthz"; then
    echo "soak.sh: something already listens on ${base}; set SOAK_PORT" >&2
    exit 1
fi

echo "== building payments-server (release)" >&2
(cd "$repo_root" && cargo build --release --quiet -p payments-server)
target_dir=${CARGO_TARGET_DIR:-$repo_root/target}
server="$target_dir/release/payments-server"

work=$(mktemp -d)
server_pid=""
stop_server() {
    if [[ -n "$server_pid" ]]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
        server_pid=""
    fi
}
cleanup() {
    stop_server
    rm -rf "$work"
}
trap cleanup EXIT

# start_server EXTRA_FLAGS...: a production-mode server on a fresh database; sets server_pid and key.
start_server() {
    local db="$work/soak-$RANDOM.db"
    key=$("$server" keys create --create-db --test-mode --db "$db" --wallet "$wallet" --scopes inventory:read,inventory:write --name soak |
        sed -n 's/^ *"key": *"\([^"]*\)".*/\1/p')
    "$server" serve --listen "127.0.0.1:${port}" --db "$db" --dev=false --test-mode \
        --jwt-secret "$(head -c 32 /dev/urandom | base64)" --master-key "$(head -c 32 /dev/urandom | base64)" \
        --rate-limit-per-minute 1000000000 --body-timeout-secs "$body_timeout" "$@" >>"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 100); do
        curl -sf -o /dev/null "${base}/healthz" && return 0
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    echo "soak.sh: the server did not become healthy:" >&2
    tail -20 "$work/server.log" >&2
    exit 1
}

for case in $cases; do
    echo "== $case" >&2
    case "$case" in
        slow)
            start_server
            python3 "$repo_root/bench/soak.py" slow --port "$port" --pid "$server_pid" --key "$key" \
                --connections 1200 --wait $((body_timeout + 30))
            ;;
        overcap)
            start_server --max-connections 1000
            python3 "$repo_root/bench/soak.py" slow --port "$port" --pid "$server_pid" --key "$key" \
                --connections 1200 --wait $((body_timeout + 30))
            ;;
        bigbody)
            start_server
            python3 "$repo_root/bench/soak.py" bigbody --port "$port" --pid "$server_pid" --requests 100
            ;;
        *)
            echo "soak.sh: unknown case $case" >&2
            exit 1
            ;;
    esac
    stop_server
done
