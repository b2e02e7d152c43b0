#!/usr/bin/env bash
# Property-based API test: schemathesis (PyPI) generates requests from the server's own OpenAPI document
# (GET /api/openapi.json) and fails on any 5xx or any answer the document does not describe (status, content
# type, body schema). Runs the built server in development mode on a loopback port with a fresh temporary
# SQLite database, and stops it afterwards, also on failure.
#
#   bash scripts/schemathesis.sh                 # what CI runs
#   ST_MAX_EXAMPLES=50 ST_MAX_TIME=600 bash scripts/schemathesis.sh   # a longer run
#
# Needs python3 (3.9+) and curl. schemathesis is installed once into a venv under ~/.cache (pinned below).
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION="4.32.5"
MAX_EXAMPLES="${ST_MAX_EXAMPLES:-15}"
MAX_TIME="${ST_MAX_TIME:-180}"
SEED="${ST_SEED:-1}"
VENV="${SCHEMATHESIS_VENV:-$HOME/.cache/schemathesis-venv-$SCHEMATHESIS_VERSION}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/payments-target}"

if [ ! -x "$VENV/bin/st" ]; then
  echo "== installing schemathesis $SCHEMATHESIS_VERSION into $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet "schemathesis==$SCHEMATHESIS_VERSION"
fi

echo "== building payments-server"
cargo build -p payments-server --locked --quiet
SERVER="$CARGO_TARGET_DIR/debug/payments-server"

WORK="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
BASE="http://127.0.0.1:$PORT"

echo "== starting the server on $BASE (development mode, fresh database in $WORK)"
# High rate limits: the run sends thousands of requests with one key from one address; 429s would hide real
# answers.
"$SERVER" --dev --db "$WORK/payments.db" --listen "127.0.0.1:$PORT" --base-url "$BASE" \
  --rate-limit-per-minute 1000000 --sign-in-rate-limit-per-minute 1000000 --log-format json >"$WORK/server.out" 2>"$WORK/server.log" &
SERVER_PID=$!

for _ in $(seq 1 100); do
  if curl -fsS "$BASE/healthz" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "the server exited at start:" >&2
    cat "$WORK/server.out" "$WORK/server.log" >&2
    exit 1
  fi
  sleep 0.2
done
curl -fsS "$BASE/healthz" >/dev/null

# The development start prints the development merchant's key once, in its `export PAYMENTS_KEY=...` line.
KEY="$(sed -n 's/.*export PAYMENTS_KEY=\([^ ]*\) .*/\1/p' "$WORK/server.out" | head -n 1)"
if [ -z "$KEY" ]; then
  echo "no development key in the server's start output:" >&2
  cat "$WORK/server.out" >&2
  exit 1
fi

echo "== schemathesis $SCHEMATHESIS_VERSION against $BASE/api/openapi.json (max $MAX_EXAMPLES examples per operation, ${MAX_TIME}s)"
status=0
"$VENV/bin/st" --no-color run "$BASE/api/openapi.json" \
  --header "X-Gateway-Subscription-Key: $KEY" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
  --phases examples,coverage,fuzzing \
  --max-examples "$MAX_EXAMPLES" \
  --max-time "$MAX_TIME" \
  --seed "$SEED" \
  --workers 2 \
  --request-timeout 10 || status=$?

if [ "$status" -ne 0 ]; then
  echo "schemathesis failed (exit $status); the server's errors:" >&2
  grep -E '"level":"(ERROR|WARN)"' "$WORK/server.log" | tail -n 40 >&2 || true
fi
exit "$status"
