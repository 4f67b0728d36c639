#!/usr/bin/env bash
# The "Done when" check of issue 3: a real PokeAPI client nobody here wrote (pokebase, from PyPI) works
# against pokestub in record-missing over a local static upstream, then against pokestub in replay with
# the upstream stopped, with identical results and zero unmatched requests. Then (issue 30) the same calls
# against a copy of the shipped stubs: pokebase resolves every nested resource through its endpoint's list,
# so every list it walks must be there, with zero unmatched requests.
#
# Usage: Tests/pokebase/run.sh
#   POKESTUB=path/to/pokestub   use this binary (default: build it with --scratch-path $POKESTUB_SCRATCH,
#                               default /tmp/build-pokebase)
#   POKEAPI_DUMP=dir            the PokeAPI dump (default: ../shared/pokeapi next to the repository)
#   KEEP=1                      keep the work folder (recordings, logs, results) for inspection
#
# Everything listens on 127.0.0.1 only, every wait is bounded, and every process started is stopped.
# Exits non-zero on any failure or difference. Never touches the shipped stubs/ folder.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
DUMP=${POKEAPI_DUMP:-$(cd "$REPO/.." && pwd)/shared/pokeapi}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pokebase-check.XXXXXX")
PIDS=()

cleanup() {
    for pid in ${PIDS[@]+"${PIDS[@]}"}; do  # empty on a failure before any start; bash 3.2 (macOS) needs the guard
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    if [ "${KEEP:-0}" = 1 ]; then echo "work folder kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# Waits (at most 20 s) for a line starting with $2 in file $1 and prints the rest of that line.
wait_for_line() {
    for _ in $(seq 1 200); do
        if line=$(grep -m1 "^$2" "$1" 2>/dev/null); then
            echo "${line#"$2"}"
            return 0
        fi
        sleep 0.1
    done
    fail "no line starting with '$2' in $1: $(cat "$1" 2>/dev/null)"
}

# Stops a process by pid with SIGTERM and waits for it (at most 15 s, then SIGKILL).
stop() {
    kill -TERM "$1" 2>/dev/null || return 0
    for _ in $(seq 1 150); do
        kill -0 "$1" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# A file's SHA-256 in hex: sha256sum (GNU coreutils) where there is one, else shasum (macOS ships it).
sha256() {
    if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1"; else shasum -a 256 "$1"; fi
}

admin_json() {
    "$PY" -c 'import json, sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=10) as r: print(json.dumps(json.load(r)))' "$1"
}

[ -f "$DUMP/api/v2/pokemon/1/index.json" ] || fail "no PokeAPI dump at $DUMP"

if [ -z "${POKESTUB:-}" ]; then
    SCRATCH=${POKESTUB_SCRATCH:-/tmp/build-pokebase}
    echo "building pokestub (scratch $SCRATCH)"
    swift build --package-path "$REPO" --scratch-path "$SCRATCH" --product pokestub >"$WORK/build.log" 2>&1 ||
        { cat "$WORK/build.log"; fail "build failed"; }
    POKESTUB="$SCRATCH/debug/pokestub"
fi
[ -x "$POKESTUB" ] || fail "no pokestub binary at $POKESTUB"

echo "installing pokebase into a throwaway venv"
python3 -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install --quiet --disable-pip-version-check "pokebase==1.4.1" >"$WORK/pip.log" 2>&1 ||
    { cat "$WORK/pip.log"; fail "pip install pokebase failed"; }
PY="$WORK/venv/bin/python"
echo "  $("$PY" -m pip show pokebase 2>/dev/null | grep -E '^(Name|Version)' | tr '\n' ' ')"

echo "starting the static upstream over $DUMP"
python3 "$REPO/Tests/PokestubRecordingTests/scripted_upstream.py" "$WORK/upstream-connections.log" --static "$DUMP" \
    >"$WORK/upstream.out" 2>"$WORK/upstream.err" &
UPSTREAM_PID=$!
PIDS+=("$UPSTREAM_PID")
UPSTREAM="http://127.0.0.1:$(wait_for_line "$WORK/upstream.out" "PORT ")"
echo "  upstream $UPSTREAM"

# --- record-missing -----------------------------------------------------------------------------------
mkdir -p "$WORK/recorded/mappings" "$WORK/recorded/__files"
"$POKESTUB" serve --port 0 --stubs "$WORK/recorded" --mode record-missing --upstream "$UPSTREAM" --log-level notice \
    >"$WORK/record.out" 2>"$WORK/record.err" &
RECORD_PID=$!
PIDS+=("$RECORD_PID")
RECORD_BASE=$(wait_for_line "$WORK/record.out" "pokestub listening on " | cut -d' ' -f1)
echo "record-missing: pokestub $RECORD_BASE"
"$PY" "$HERE/calls.py" "$RECORD_BASE" "$WORK/cache-record" >"$WORK/record.json" || fail "pokebase failed in record-missing"
RECORD_REQUESTS=$(admin_json "$RECORD_BASE/__admin/requests" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["meta"]["total"])')
RECORD_FAILED=$(admin_json "$RECORD_BASE/__admin/requests" |
    "$PY" -c 'import json,sys; print(sum(1 for r in json.load(sys.stdin)["requests"] if r["response"]["status"] >= 500))')
stop "$RECORD_PID"
UPSTREAM_CONNECTIONS=$(grep -c '^connection' "$WORK/upstream-connections.log" || true)
UPSTREAM_REQUESTS=$(grep -c '^request' "$WORK/upstream-connections.log" || true)
stop "$UPSTREAM_PID"
MAPPINGS=$(find "$WORK/recorded/mappings" -name '*.json' | wc -l | tr -d ' ')
BODY_FILES=$(find "$WORK/recorded/__files" -type f | wc -l | tr -d ' ')
echo "  pokebase made $RECORD_REQUESTS requests; $UPSTREAM_REQUESTS went upstream over $UPSTREAM_CONNECTIONS connections"
echo "  wrote $MAPPINGS mappings and $BODY_FILES body files ($(du -sh "$WORK/recorded" | cut -f1))"
echo "  pokestub: $(grep -m1 'recorded stubs in' "$WORK/record.err" | sed 's/^[a-z]*: //')"
[ "$RECORD_FAILED" = 0 ] || fail "$RECORD_FAILED upstream calls failed while recording"
[ "$MAPPINGS" -gt 0 ] || fail "nothing was recorded"
echo "  upstream stopped"

# --- replay on a copy ----------------------------------------------------------------------------------
cp -a "$WORK/recorded" "$WORK/replay-stubs"
"$POKESTUB" serve --port 0 --stubs "$WORK/replay-stubs" --mode replay --upstream "$UPSTREAM" --log-level notice \
    >"$WORK/replay.out" 2>"$WORK/replay.err" &
REPLAY_PID=$!
PIDS+=("$REPLAY_PID")
REPLAY_BASE=$(wait_for_line "$WORK/replay.out" "pokestub listening on " | cut -d' ' -f1)
echo "replay: pokestub $REPLAY_BASE on a copy of the recordings"
"$PY" "$HERE/calls.py" "$REPLAY_BASE" "$WORK/cache-replay" >"$WORK/replay.json" || fail "pokebase failed in replay"
REPLAY_REQUESTS=$(admin_json "$REPLAY_BASE/__admin/requests" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["meta"]["total"])')
UNMATCHED=$(admin_json "$REPLAY_BASE/__admin/requests/unmatched" | "$PY" -c 'import json,sys; print(len(json.load(sys.stdin)["requests"]))')
stop "$REPLAY_PID"
echo "  pokebase made $REPLAY_REQUESTS requests; unmatched: $UNMATCHED"

# --- compare -------------------------------------------------------------------------------------------
"$PY" - "$WORK/record.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))
for call, fields in results.items():
    print("  %-26s name=%s id=%s, %d fields" % (call, fields.get("name"), fields.get("id"), len(fields)))
PY
if ! diff -u "$WORK/record.json" "$WORK/replay.json" >"$WORK/diff.txt"; then
    head -40 "$WORK/diff.txt"
    fail "replay results differ from record-missing results"
fi
[ "$UNMATCHED" = 0 ] || fail "$UNMATCHED unmatched requests in replay"
[ "$REPLAY_REQUESTS" = "$RECORD_REQUESTS" ] || fail "replay made $REPLAY_REQUESTS requests, record-missing $RECORD_REQUESTS"
echo "OK: identical results ($(sha256 "$WORK/record.json" | cut -c1-16)), $REPLAY_REQUESTS requests replayed, 0 unmatched"

# --- the shipped stubs, on a copy --------------------------------------------------------------------------
# Their bodies hold pokeapi.co's absolute links where the dump's are root-relative, so the results are not
# compared with the recording's: every call must succeed and every request must match a stub.
cp -a "$REPO/stubs" "$WORK/shipped-stubs"
"$POKESTUB" serve --port 0 --stubs "$WORK/shipped-stubs" --mode replay --log-level notice \
    >"$WORK/shipped.out" 2>"$WORK/shipped.err" &
SHIPPED_PID=$!
PIDS+=("$SHIPPED_PID")
SHIPPED_BASE=$(wait_for_line "$WORK/shipped.out" "pokestub listening on " | cut -d' ' -f1)
echo "shipped stubs: pokestub $SHIPPED_BASE on a copy of stubs/"
"$PY" "$HERE/calls.py" "$SHIPPED_BASE" "$WORK/cache-shipped" >"$WORK/shipped.json" ||
    fail "pokebase failed against the shipped stubs: $(admin_json "$SHIPPED_BASE/__admin/requests/unmatched" | head -c 2000)"
SHIPPED_REQUESTS=$(admin_json "$SHIPPED_BASE/__admin/requests" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["meta"]["total"])')
SHIPPED_UNMATCHED=$(admin_json "$SHIPPED_BASE/__admin/requests/unmatched" |
    "$PY" -c 'import json,sys; print(" ".join(r["url"] for r in json.load(sys.stdin)["requests"]))')
SHIPPED_LISTS=$(admin_json "$SHIPPED_BASE/__admin/requests" | "$PY" -c 'import json, re, sys
urls = {r["request"]["url"].split("?")[0] for r in json.load(sys.stdin)["requests"]}
print(len({u for u in urls if re.fullmatch("/api/v2/[a-z-]+/?", u)}))')
stop "$SHIPPED_PID"
echo "  pokebase made $SHIPPED_REQUESTS requests, walking $SHIPPED_LISTS lists; unmatched: ${SHIPPED_UNMATCHED:-none}"
[ -z "$SHIPPED_UNMATCHED" ] || fail "unmatched requests against the shipped stubs: $SHIPPED_UNMATCHED"
echo "OK: every call and every list pokebase walked answered from the shipped stubs"
