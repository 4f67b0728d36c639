#!/usr/bin/env bash
# Runs scripts/uitest-daemon.sh the way Docs/XCUITest.md does, against the debug build: start prints
# POKEMON_URL=http://127.0.0.1:PORT with the port from the port file, the daemon answers /__admin/health there,
# a second start refuses while it runs, stop ends it and the port file goes with it; and a daemon that cannot
# start (a port file in a missing folder) makes start fail with the daemon's own message. Runs after the build.
set -euo pipefail
cd "$(dirname "$0")/.."
binary="$PWD/.build/debug/pokestub"
[[ -x "$binary" ]] || { echo "build first: $binary is missing" >&2; exit 1; }
work=$(mktemp -d)
export POKESTUB="$binary" POKESTUB_RUN_DIR="$work/run"
trap 'scripts/uitest-daemon.sh stop; rm -rf "$work"' EXIT
fail() { echo "check-uitest-daemon: $*" >&2; exit 1; }

line=$(scripts/uitest-daemon.sh start --stubs stubs)
[[ "$line" =~ ^POKEMON_URL=http://127\.0\.0\.1:([0-9]+)$ ]] || fail "start printed '$line'"
port=${BASH_REMATCH[1]}
[[ "$(cat "$work/run/port")" == "$port" ]] || fail "port file holds '$(cat "$work/run/port")', start said $port"
pid=$(cat "$work/run/pid")
python3 - "http://127.0.0.1:$port/__admin/health" <<'PY' || fail "no healthy answer on port $port"
import json, sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=10) as answer:
    sys.exit(0 if json.load(answer)["status"] == "healthy" else 1)
PY
if scripts/uitest-daemon.sh start --stubs stubs 2>/dev/null; then fail "a second start succeeded"; fi
scripts/uitest-daemon.sh stop
if kill -0 "$pid" 2>/dev/null; then fail "pid $pid still runs after stop"; fi
[[ ! -e "$work/run/port" ]] || fail "the port file outlived the daemon"

if error=$(scripts/uitest-daemon.sh start --port-file "$work/missing/port" 2>&1); then
    fail "start succeeded with a port file in a missing folder"
fi
[[ "$error" == *"cannot write the port file $work/missing/port: folder $work/missing does not exist"* ]] ||
    fail "start failed without the daemon's reason: $error"
echo "uitest-daemon.sh: start served on port $port (port file, listening line, health), stop ended it; a bad start failed with the daemon's message"
