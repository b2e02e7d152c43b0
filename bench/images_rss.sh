#!/usr/bin/env bash
# Peak server memory of inventory listings whose products carry large images (issue 10, item 5;
# docs/benchmarks.md has the figures).
#
# Builds payments-server in release, seeds a fresh SQLite database on loopback with 40 products of 3 images
# of 2 MiB each (random bytes behind a PNG signature, uploaded through POST /api/inventory/images), then, on a
# freshly started server per case (so the kernel's peak-RSS mark, VmHWM, starts clean):
#   one     one GET /api/inventory?pageSize=40
#   four    four such GETs at once
#   images  every image once through GET /api/inventory/{id}/images/{n}, 4 at a time (skipped when the
#           server has no such route: it answers 404)
# and prints RSS before, peak RSS (VmHWM) and the answers' sizes and times. The server it started is stopped
# by its pid. Bounded: 40 products, at most 120 image reads, every curl capped at 120 s.
#
# Needs: cargo, curl, python3. Knobs (environment): IMAGES_PORT (18095), IMAGES_PRODUCTS (40, at most 200).
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
port=${IMAGES_PORT:-18095}
products=${IMAGES_PRODUCTS:-40}
base="http://127.0.0.1:${port}"
wallet=0x00000000000000000000000000000000000be7c5
if ((products < 1 || products > 200)); then
    echo "images_rss.sh: IMAGES_PRODUCTS must be 1..200" >&2
    exit 1
fi

for tool in cargo curl python3; do
    if ! command -v "$tool" >/dev/null; then
        echo "images_rss.sh: '$tool' is required" >&2
        exit 1
    fi
done
if curl -s -o /dev/null "${base}/healthz"; then
    echo "images_rss.sh: something already listens on ${base}; set IMAGES_PORT" >&2
    exit 1
fi

echo "== building payments-server (release)" >&2
(cd "$repo_root" && cargo build --release --quiet -p payments-server)
target_dir=${CARGO_TARGET_DIR:-$repo_root/target}
server="$target_dir/release/payments-server"

work=$(mktemp -d)
db="$work/images.db"
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

jwt_secret=$(head -c 32 /dev/urandom | base64)
master_key=$(head -c 32 /dev/urandom | base64)
# A branch may make `keys create` refuse a missing database unless told to create it.
create_db=()
if "$server" keys create --help 2>/dev/null | grep -q -- --create-db; then create_db=(--create-db); fi
# And may need the database's mode said before any server ran on it.
if "$server" keys create --help 2>/dev/null | grep -q -- --test-mode; then create_db+=(--test-mode); fi
key=$("$server" keys create --db "$db" "${create_db[@]}" --wallet "$wallet" \
    --scopes inventory:read,inventory:write --name images | sed -n 's/^ *"key": *"\([^"]*\)".*/\1/p')
if [[ -z "$key" ]]; then
    echo "images_rss.sh: could not create a key" >&2
    exit 1
fi

start_server() {
    "$server" serve --listen "127.0.0.1:${port}" --db "$db" --dev=false --test-mode \
        --jwt-secret "$jwt_secret" --master-key "$master_key" \
        --rate-limit-per-minute 1000000000 >>"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 100); do
        curl -sf -o /dev/null "${base}/healthz" && return 0
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    echo "images_rss.sh: the server did not become healthy:" >&2
    tail -20 "$work/server.log" >&2
    exit 1
}

rss_kib() { sed -n "s/^$1:[[:space:]]*\([0-9]*\) kB/\1/p" "/proc/${server_pid}/status"; }
mib() { python3 -c "print(f'{$1 / 1024:.1f}')"; }

# 2 MiB images: a PNG signature (the type check reads magic bytes) and random bytes, so nothing compresses.
for n in 0 1 2; do
    python3 -c "import os,sys; sys.stdout.buffer.write(b'\x89PNG\r\n\x1a\n' + os.urandom(2*1024*1024 - 8))" \
        >"$work/image-$n.png"
done

echo "== seeding ${products} products x 3 images of 2 MiB" >&2
start_server
for i in $(seq 1 "$products"); do
    curl -sf -m 120 -o /dev/null -H "X-Gateway-Subscription-Key: $key" -H 'content-type: application/json' \
        -d "{\"sku\":\"IMG-$i\",\"name\":\"Product $i\",\"priceUsd\":9.99,\"stockQty\":5}" "${base}/api/inventory"
    for n in 0 1 2; do
        curl -sf -m 120 -o /dev/null -H "X-Gateway-Subscription-Key: $key" \
            -F "sku=IMG-$i" -F "image=@$work/image-$n.png;type=image/png" "${base}/api/inventory/images"
    done
done
stop_server

# list_pages N: N concurrent GET /api/inventory?pageSize=<products>; prints "status bytes seconds" per answer.
list_pages() {
    local pids=()
    for c in $(seq 1 "$1"); do
        curl -s -m 120 -o "$work/page-$c.json" -w '%{http_code} %{size_download} %{time_total}\n' \
            -H "X-Gateway-Subscription-Key: $key" "${base}/api/inventory?pageSize=${products}" >"$work/answer-$c" &
        pids+=($!)
    done
    wait "${pids[@]}"
    cat "$work"/answer-*
    rm -f "$work"/answer-*
}

report() {
    local before=$1 peak after answers
    answers=$(cat) # the answers first: the pipeline's left side runs meanwhile
    peak=$(rss_kib VmHWM)
    after=$(rss_kib VmRSS)
    python3 - "$2" "$before" "$peak" "$after" "$answers" <<'EOF'
import json, sys
case, before, peak, after, answers = sys.argv[1:6]
rows = [line.split() for line in answers.strip().splitlines()]
print(json.dumps({
    "case": case,
    "rss_before_mib": round(int(before) / 1024, 1),
    "rss_peak_mib": round(int(peak) / 1024, 1),
    "rss_after_mib": round(int(after) / 1024, 1),
    "answers": len(rows),
    "statuses": sorted({row[0] for row in rows}),
    "answer_bytes_max": max(int(row[1]) for row in rows),
    "seconds_max": max(float(row[2]) for row in rows),
}))
EOF
}

for case in one four images; do
    start_server
    before=$(rss_kib VmRSS)
    case "$case" in
        one) list_pages 1 | report "$before" "one GET pageSize=${products}" ;;
        four) list_pages 4 | report "$before" "four GETs pageSize=${products} at once" ;;
        images)
            ids=$(python3 -c "
import json, urllib.request
req = urllib.request.Request('${base}/api/inventory?pageSize=${products}',
                             headers={'X-Gateway-Subscription-Key': '${key}'})
print(' '.join(item['id'] for item in json.load(urllib.request.urlopen(req, timeout=120))['items']))")
            first=$(curl -s -m 120 -o /dev/null -w '%{http_code}' -H "X-Gateway-Subscription-Key: $key" \
                "${base}/api/inventory/${ids%% *}/images/0")
            if [[ "$first" != 200 ]]; then
                echo "{\"case\": \"images\", \"skipped\": \"GET /api/inventory/{id}/images/0 answered $first\"}"
            else
                before=$(rss_kib VmRSS)
                for id in $ids; do
                    for n in 0 1 2; do echo "$id $n"; done
                done | xargs -P 4 -n 2 sh -c 'curl -s -m 120 -o /dev/null -w "%{http_code} %{size_download} %{time_total}\n" \
                    -H "X-Gateway-Subscription-Key: $0" "$1/api/inventory/$2/images/$3"' "$key" "$base" |
                    report "$before" "every image once through its route, 4 at a time"
            fi
            ;;
    esac
    stop_server
done
