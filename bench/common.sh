# Shared start-up of the single-server bench scripts (load.sh, users_search.sh): sourced, not run.
# Before sourcing, set `script` (the caller's name, for messages) and `base` (http://127.0.0.1:PORT).
# Provides: bench_require TOOL..., bench_refuse_taken_port, bench_build_server (sets `server`),
# a `work` directory with an EXIT trap that stops `server_pid` (when set) and deletes `work`, and
# bench_create_key WALLET SCOPES DB (prints the new key; creates the database), and
# bench_start_server DB (starts the server in production mode on DB, sets `server_pid`, waits until healthy).

bench_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

bench_require() {
    local tool
    for tool in "$@"; do
        if ! command -v "$tool" >/dev/null; then
            echo "${script}: '$tool' is required (Debian/Ubuntu: apt-get install -y $*)" >&2
            exit 1
        fi
    done
}

bench_refuse_taken_port() {
    if curl -s -o /dev/null "${base}/healthz"; then
        echo "${script}: something already listens on ${base}; set BENCH_PORT" >&2
        exit 1
    fi
}

# BENCH_SERVER=path/to/payments-server skips the build and runs that binary (e.g. a debug build, whose
# figures are then upper bounds).
bench_build_server() {
    if [[ -n "${BENCH_SERVER:-}" ]]; then
        server="$BENCH_SERVER"
        echo "== using ${server}"
        return
    fi
    echo "== building payments-server (release)"
    (cd "$bench_root" && cargo build --release --quiet -p payments-server)
    server="${CARGO_TARGET_DIR:-$bench_root/target}/release/payments-server"
}

work=$(mktemp -d)
server_pid=""
bench_cleanup() {
    if [[ -n "$server_pid" ]]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap bench_cleanup EXIT

bench_create_key() {
    local key
    key=$("$server" keys create --create-db --test-mode --db "$3" --wallet "$1" --scopes "$2" --name bench |
        sed -n 's/^ *"key": *"\([^"]*\)".*/\1/p')
    if [[ -z "$key" ]]; then
        echo "${script}: could not create a key" >&2
        exit 1
    fi
    printf '%s\n' "$key"
}

bench_start_server() {
    echo "== starting the server on ${base} (log: ${work}/server.log)"
    # Production mode (as deployed): it needs a session secret and a master key; throwaway ones here.
    "$server" serve --listen "${base#http://}" --db "$1" --dev=false --test-mode \
        --jwt-secret "$(head -c 32 /dev/urandom | base64)" --master-key "$(head -c 32 /dev/urandom | base64)" \
        --rate-limit-per-minute 1000000000 >"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 100); do
        curl -sf -o /dev/null "${base}/healthz" && return
        if ! kill -0 "$server_pid" 2>/dev/null; then
            echo "${script}: the server exited:" >&2
            cat "$work/server.log" >&2
            exit 1
        fi
        sleep 0.1
    done
    echo "${script}: the server did not become healthy" >&2
    exit 1
}
