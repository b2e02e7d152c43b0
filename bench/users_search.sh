#!/usr/bin/env bash
# Search over 100,000 users (docs/benchmarks.md has the figures).
#
# Builds payments-server in release, creates a key (which applies the migrations) on a fresh temp SQLite
# database, seeds BENCH_USERS (100000) listed users straight into it with sqlite3 (profiles with domains,
# platforms and languages, xp spread over 0..9999, 1 in 100 live), starts the server on loopback and runs
# wrk against GET /api/users/search with each filter, and GET /api/users/live. Stops the server it started
# and deletes the database. Everything stays on 127.0.0.1; each wrk run is bounded by BENCH_DURATION.
#
# Needs: cargo, curl, wrk, sqlite3 (Debian: apt-get install -y wrk sqlite3).
# Knobs: BENCH_PORT (18081), BENCH_USERS (100000), BENCH_THREADS (2), BENCH_CONNECTIONS (8), BENCH_DURATION (5s).
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
port=${BENCH_PORT:-18081}
users=${BENCH_USERS:-100000}
threads=${BENCH_THREADS:-2}
connections=${BENCH_CONNECTIONS:-8}
duration=${BENCH_DURATION:-5s}
base="http://127.0.0.1:${port}"
wallet=0x00000000000000000000000000000000000be7c4

script=users_search.sh
# shellcheck source=bench/common.sh
source "$repo_root/bench/common.sh"
bench_require cargo curl wrk sqlite3
bench_refuse_taken_port
bench_build_server

db="$work/bench.db"
key=$(bench_create_key "$wallet" users:read,graphql:read "$db")

now_ms=$(( $(date +%s) * 1000 ))
echo "== seeding ${users} users"
seed_started=$(date +%s%N)
sqlite3 "$db" >/dev/null <<SQL
PRAGMA journal_mode = WAL;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${users})
INSERT INTO users (wallet, display_name, name_key, domains_json, platforms_json, languages_json, purchase_cents,
    xp, live, space_public, live_since, last_heartbeat, last_seen, listed_at, created_at, updated_at)
SELECT printf('0x%040x', i), 'User ' || i, 'user ' || i,
    json_array('d' || (i % 20), 'd' || ((i * 7 + 3) % 20)),
    json_array('p' || (i % 8)),
    CASE WHEN i % 10 < 6 THEN json_array('en', 'l' || (i % 10)) ELSE json_array('l' || (i % 10)) END,
    ((i * 7919) % 10000) * 100, (i * 7919) % 10000,
    i % 100 = 0, 1, CASE WHEN i % 100 = 0 THEN ${now_ms} END, CASE WHEN i % 100 = 0 THEN ${now_ms} END,
    ${now_ms}, ${now_ms}, ${now_ms}, ${now_ms}
FROM n;
INSERT OR IGNORE INTO user_metrics (kind, value, user_id)
    SELECT 'domain', value, users.id FROM users, json_each(users.domains_json)
    UNION ALL SELECT 'platform', value, users.id FROM users, json_each(users.platforms_json)
    UNION ALL SELECT 'language', value, users.id FROM users, json_each(users.languages_json);
COMMIT;
SQL
echo "   $(sqlite3 "$db" 'SELECT COUNT(*) FROM users') users, $(sqlite3 "$db" 'SELECT COUNT(*) FROM user_metrics') metric rows in $(( ($(date +%s%N) - seed_started) / 1000000 )) ms"

bench_start_server "$db"

echo "== machine: $(nproc) cores, $(uname -srm); wrk shares the cores with the server"
# d1 with p0 matches nobody (odd and even ids): the worst case, every listed user walked in xp order.
for path in \
    "/api/users/search" \
    "/api/users/search?limit=100&scan=1000" \
    "/api/users/search?q=user%2012345&scan=1000" \
    "/api/users/search?languages=en&domains=d3" \
    "/api/users/search?languages=l7&domains=d3&platforms=p3" \
    "/api/users/search?domains=d1&platforms=p0" \
    "/api/users/search?minXp=5000&maxXp=5010" \
    "/api/users/search?live=true" \
    "/api/users/live"; do
    answer=$(curl -sf "${base}${path}" -H "X-Gateway-Subscription-Key: ${key}")
    shown=$({ grep -o '"wallet"' <<<"$answer" || true; } | wc -l)
    total=$(grep -o '"total":[0-9]*' <<<"$answer" || true)
    echo
    echo "== GET ${path}  (${shown} users ${total}; wrk -t${threads} -c${connections} -d${duration})"
    wrk -t"$threads" -c"$connections" -d"$duration" --latency \
        -H "X-Gateway-Subscription-Key: ${key}" "${base}${path}" | grep -E 'Requests/sec|^ +(50|99)%|Non-2xx|Socket errors'
done
