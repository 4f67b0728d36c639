#!/usr/bin/env bash
# Starts a pokestub daemon before a UI test run and stops it after: from a CI step around `xcodebuild test`,
# or from a scheme's Test pre-action and post-action (Docs/XCUITest.md shows both). Needs only bash (3.2, as
# macOS ships it, or later) and a pokestub binary; copy it into an app's repository as it is.
#
#   scripts/uitest-daemon.sh start [SERVE ARGUMENTS...]
#       Starts `pokestub serve --port 0 --port-file RUN_DIR/port SERVE ARGUMENTS...` in the background (a
#       later --port wins over --port 0), waits for the port file and the listening line (at most
#       POKESTUB_START_TIMEOUT seconds, 30 by default), and prints one line, POKEMON_URL=http://HOST:PORT,
#       for the caller to pass on: TEST_RUNNER_POKEMON_URL for xcodebuild, which hands it to the test runner.
#   scripts/uitest-daemon.sh stop
#       Sends SIGTERM (the daemon finishes requests in flight and exits 0), waits at most 15 s, then SIGKILL.
#
# RUN_DIR is $POKESTUB_RUN_DIR, by default ${TMPDIR:-/tmp}/pokestub-uitests: it holds port, pid and log
# (the daemon's standard output and error). POKESTUB names the binary; by default pokestub on the PATH, then
# Homebrew's (/opt/homebrew/bin, /usr/local/bin), then this repository's .build/release/pokestub.
set -euo pipefail

run_dir="${POKESTUB_RUN_DIR:-${TMPDIR:-/tmp}/pokestub-uitests}"
run_dir="${run_dir%/}"

find_binary() {
    if [[ -n "${POKESTUB:-}" ]]; then
        echo "$POKESTUB"
        return
    fi
    local candidate
    for candidate in "$(command -v pokestub 2>/dev/null || true)" /opt/homebrew/bin/pokestub /usr/local/bin/pokestub \
        "$(cd "$(dirname "$0")/.." && pwd)/.build/release/pokestub"; do
        if [[ -n "$candidate" && -x "$candidate" ]]; then
            echo "$candidate"
            return
        fi
    done
    echo "uitest-daemon: no pokestub binary (brew install it, build it, or set POKESTUB)" >&2
    exit 1
}

start() {
    local binary
    binary=$(find_binary)
    mkdir -p "$run_dir"
    if [[ -f "$run_dir/pid" ]] && kill -0 "$(cat "$run_dir/pid")" 2>/dev/null; then
        echo "uitest-daemon: already running (pid $(cat "$run_dir/pid")); stop it first" >&2
        exit 1
    fi
    # A port file left by a killed daemon would name a dead port: only the new daemon's may be read.
    rm -f "$run_dir/port" "$run_dir/pid"
    nohup "$binary" serve --port 0 --port-file "$run_dir/port" "$@" >"$run_dir/log" 2>&1 </dev/null &
    local pid=$!
    echo "$pid" >"$run_dir/pid"
    local deadline=$((SECONDS + ${POKESTUB_START_TIMEOUT:-30}))
    local line=""
    # Bounded polling of another process's files: the port file appears once the daemon serves, and the
    # listening line right after it.
    while [[ ! -f "$run_dir/port" || -z "$line" ]]; do
        if ! kill -0 "$pid" 2>/dev/null; then
            wait "$pid" 2>/dev/null && status=0 || status=$?
            echo "uitest-daemon: pokestub exited with status $status before serving:" >&2
            tail -20 "$run_dir/log" >&2
            rm -f "$run_dir/pid"
            exit 1
        fi
        if ((SECONDS >= deadline)); then
            echo "uitest-daemon: pokestub did not serve within ${POKESTUB_START_TIMEOUT:-30} s; log:" >&2
            tail -20 "$run_dir/log" >&2
            stop
            exit 1
        fi
        sleep 0.1
        line=$(grep -m1 '^pokestub listening on ' "$run_dir/log" 2>/dev/null || true)
    done
    local url=${line#pokestub listening on }
    echo "POKEMON_URL=${url%% *}"
}

stop() {
    [[ -f "$run_dir/pid" ]] || return 0
    local pid
    pid=$(cat "$run_dir/pid")
    if kill -TERM "$pid" 2>/dev/null; then
        local deadline=$((SECONDS + 15))
        while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$run_dir/pid"
}

case "${1:-}" in
start) shift && start "$@" ;;
stop) stop ;;
*) echo "usage: scripts/uitest-daemon.sh start [SERVE ARGUMENTS...] | stop" >&2 && exit 2 ;;
esac
