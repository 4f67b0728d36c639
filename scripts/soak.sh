#!/usr/bin/env bash
# Load and soak: builds pokestub in release, serves the shipped stubs with a full journal, and drives it with
# 1,000 concurrent keep-alive connections (wrk) for SECONDS while a loop sends SIGHUP every second, another
# appends to the journal through requests (misses with near-miss reports, POSTs with bodies) and a third polls
# the admin API. RSS is sampled every second. Then a slowloris phase: 200 connections send their headers one
# byte per second while a normal client's latency is measured against a quiet baseline.
#
#   scripts/soak.sh [SECONDS]      (default 30)
#
# Fails when the daemon dies, wrk reports socket errors or non-2xx answers, a side loop gets an unexpected
# status, RSS grows (see the RSS section below: SOAK_RSS_GROWTH_MB, default 64, and SOAK_RSS_PEAK_MB, default
# 200), or a normal client is refused or slowed past SOAK_SLOW_MS (default 1000 ms) during the slowloris phase. Environment: SOAK_CONNECTIONS (1000), SOAK_SLOWLORIS (200, 0 skips the phase), SOAK_SLOWLORIS_SECONDS (20),
# SOAK_SIGHUP and SOAK_SIDE_LOOPS (1; 0 leaves out the reloads or the journal and admin loops, to tell causes apart),
# SOAK_MAX_CONNECTIONS (the daemon's --limits-max-connections, default 1024 as shipped), SOAK_SCRATCH
# (/tmp/pokestub-soak-build), SOAK_LOGS (/tmp/pokestub-soak). Only 127.0.0.1 is used; every loop stops by itself.
set -euo pipefail
script="$(readlink -f "$0")"
cd "$(dirname "$script")/.."

seconds="${1:-30}"
[[ "$seconds" =~ ^[0-9]+$ && "$seconds" -ge 5 ]] || { echo "usage: scripts/soak.sh [SECONDS >= 5]" >&2; exit 2; }
connections="${SOAK_CONNECTIONS:-1000}"
slowloris="${SOAK_SLOWLORIS:-200}"
slowloris_seconds="${SOAK_SLOWLORIS_SECONDS:-20}"
max_connections="${SOAK_MAX_CONNECTIONS:-1024}"
growth_bound_mb="${SOAK_RSS_GROWTH_MB:-64}"
slow_ms="${SOAK_SLOW_MS:-1000}"
scratch="${SOAK_SCRATCH:-/tmp/pokestub-soak-build}"
logs="${SOAK_LOGS:-/tmp/pokestub-soak}"
mkdir -p "$logs"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 2; }

# 1,000 client sockets plus the daemon's: raise the soft limit of open files as far as the hard one allows.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
echo "== open files limit $(ulimit -n)"

echo "== building pokestub (release) in $scratch"
binary="$(scripts/build-release.sh --scratch-path "$scratch" 2>"$logs/build.log")" || {
    tail -20 "$logs/build.log"
    exit 2
}

"$binary" serve --port 0 --stubs stubs --journal-max-entries 10000 --log-level warning \
    --limits-max-connections "$max_connections" >"$logs/daemon.out" 2>"$logs/daemon.err" &
daemon=$!
failures=()
cleanup() {
    kill "$daemon" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$daemon" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$daemon" 2>/dev/null || true
    jobs -p | xargs -r kill 2>/dev/null || true
}
trap cleanup EXIT

# The start line names the port: "pokestub listening on http://127.0.0.1:PORT (...)".
base=""
for _ in $(seq 300); do
    base="$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$logs/daemon.out" | head -1 || true)"
    [[ -n "$base" ]] && break
    kill -0 "$daemon" 2>/dev/null || break
    sleep 0.1
done
[[ -n "$base" ]] || { echo "!! the daemon did not start"; cat "$logs/daemon.err"; exit 1; }
echo "== daemon pid $daemon at $base (--limits-max-connections $max_connections)"
rss() { awk '/VmRSS/ {print $2}' "/proc/$daemon/status" 2>/dev/null || echo 0; }

# Paths wrk rotates through: every shipped Pokémon with and without its trailing slash, list pages, others.
ids="$(find stubs/mappings/pokemon -maxdepth 1 -name '[0-9]*.json' -printf '%f\n' | sed 's/\.json$//' | sort -n | tr '\n' ',')"
cat >"$logs/paths.lua" <<LUA
local paths = {}
for _, id in ipairs({${ids%,}}) do
  paths[#paths + 1] = "/api/v2/pokemon/" .. id .. "/"
  paths[#paths + 1] = "/api/v2/pokemon/" .. id
end
for offset = 0, 100, 20 do paths[#paths + 1] = "/api/v2/pokemon/?offset=" .. offset .. "&limit=20" end
paths[#paths + 1] = "/api/v2/type/1/"
paths[#paths + 1] = "/api/v2/berry/1/"
paths[#paths + 1] = "/api/v2/pokemon-species/25/"
local counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", paths[(counter % #paths) + 1])
end
LUA

echo "== warm-up: filling the journal"
wrk -t2 -c32 -d3s -s "$logs/paths.lua" "$base" >"$logs/warmup.txt" 2>&1
entries="$(curl -s --max-time 5 "$base/__admin/health" | python3 -c 'import json,sys; print(json.load(sys.stdin)["journal"]["entries"])')"
echo "   journal entries: $entries"
[[ "$entries" == 10000 ]] || failures+=("the journal did not fill (entries $entries)")

deadline=$(($(date +%s) + seconds))
# SIGHUP every second.
(
    count=0
    while [[ "${SOAK_SIGHUP:-1}" == 1 && $(date +%s) -lt $deadline ]]; do
        kill -HUP "$daemon" 2>/dev/null && count=$((count + 1))
        sleep 1
    done
    echo "$count" >"$logs/sighup.count"
) &
# Journal appends through requests: misses (404 with near misses) and POSTs with bodies, every 20 ms.
(
    sent=0 bad=0
    while [[ "${SOAK_SIDE_LOOPS:-1}" == 1 && $(date +%s) -lt $deadline ]]; do
        a=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$base/api/v2/pokemon/99999/?soak=$sent")
        b=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -X POST -H 'Content-Type: application/json' \
            --data "{\"soak\": $sent, \"names\": [\"bulbasaur\", \"pikachu\"]}" "$base/soak/posts")
        [[ "$a" == 404 && "$b" == 404 ]] || { bad=$((bad + 1)); echo "journal loop: got $a $b" >>"$logs/side.err"; }
        sent=$((sent + 2))
        sleep 0.02
    done
    echo "$sent $bad" >"$logs/journal.count"
) &
# Admin polls: health (a reload must never leave it degraded) and the newest journal entry.
(
    polls=0 bad=0
    while [[ "${SOAK_SIDE_LOOPS:-1}" == 1 && $(date +%s) -lt $deadline ]]; do
        health=$(curl -s --max-time 10 "$base/__admin/health" || true)
        status=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$base/__admin/requests?limit=1")
        if [[ "$health" != *'"status" : "healthy"'* && "$health" != *'"status":"healthy"'* ]] || [[ "$status" != 200 ]]; then
            bad=$((bad + 1))
            echo "admin loop: $status ${health:0:200}" >>"$logs/side.err"
        fi
        polls=$((polls + 1))
        sleep 0.5
    done
    echo "$polls $bad" >"$logs/admin.count"
) &
# RSS every second.
(
    while [[ $(date +%s) -lt $deadline ]]; do
        echo "$(rss)"
        sleep 1
    done
) >"$logs/rss.txt" &
sampler=$!

echo "== load: wrk -t2 -c$connections -d${seconds}s, SIGHUP every second, journal and admin loops"
wrk -t2 -c"$connections" -d"${seconds}s" --timeout 10s --latency -s "$logs/paths.lua" "$base" >"$logs/wrk.txt" 2>&1 || true
wait "$sampler" 2>/dev/null || true
sleep 1.5  # the side loops finish their last round
cat "$logs/wrk.txt" | grep -E 'requests in|Requests/sec|Latency|Socket errors|Non-2xx|  50%|  99%' | sed 's/^/   /'

kill -0 "$daemon" 2>/dev/null || failures+=("the daemon died under load")
if grep -q 'Socket errors' "$logs/wrk.txt"; then
    failures+=("wrk: $(grep 'Socket errors' "$logs/wrk.txt" | sed 's/^ *//')")
fi
if grep -q 'Non-2xx' "$logs/wrk.txt"; then
    failures+=("wrk: $(grep 'Non-2xx' "$logs/wrk.txt" | sed 's/^ *//')")
fi
read -r sent bad <"$logs/journal.count" || true
echo "   journal loop: $sent requests, $bad unexpected answers; SIGHUPs sent: $(cat "$logs/sighup.count" 2>/dev/null)"
[[ "${bad:-1}" == 0 ]] || failures+=("journal loop: $bad unexpected answers (see $logs/side.err)")
read -r polls admin_bad <"$logs/admin.count" || true
echo "   admin loop: $polls polls, $admin_bad unexpected"
[[ "${admin_bad:-1}" == 0 ]] || failures+=("admin loop: $admin_bad unexpected answers (see $logs/side.err)")

# RSS. A reload a second makes it a sawtooth (about 7 MB/s of reload garbage until malloc trims its heap, every
# 20 s or so), so a leak shows in the troughs: the lowest RSS of the last third must not be more than
# SOAK_RSS_GROWTH_MB above the lowest of the first third after warm-up (the first fifth). Runs shorter than a
# minute see too few troughs for that; for them, and as a ceiling, the peak must stay within
# SOAK_RSS_PEAK_MB (default 200) of the RSS at the end of the warm-up.
mapfile -t samples <"$logs/rss.txt"
count=${#samples[@]}
if [[ $count -ge 5 ]]; then
    warm=$((count / 5))
    start=${samples[$warm]}
    peak=$start
    for ((i = warm; i < count; i++)); do ((samples[i] > peak)) && peak=${samples[i]}; done
    minimum() {
        local low=${samples[$1]}
        for ((i = $1; i < $2; i++)); do ((samples[i] < low)) && low=${samples[i]}; done
        echo "$low"
    }
    third=$(((count - warm) / 3))
    first_trough=$(minimum "$warm" $((warm + third)))
    last_trough=$(minimum $((count - third)) "$count")
    echo "   RSS MiB each second: $(for s in "${samples[@]}"; do printf '%d ' $((s / 1024)); done)"
    echo "   RSS after warm-up $((start / 1024)) MiB, peak $((peak / 1024)) MiB; lowest in the first third" \
        "$((first_trough / 1024)) MiB, in the last third $((last_trough / 1024)) MiB"
    if (((peak - start) / 1024 > ${SOAK_RSS_PEAK_MB:-200})); then
        failures+=("RSS peaked $(((peak - start) / 1024)) MiB above the end of warm-up (bound ${SOAK_RSS_PEAK_MB:-200})")
    fi
    if ((seconds >= 60 && (last_trough - first_trough) / 1024 > growth_bound_mb)); then
        failures+=("RSS troughs rose $(((last_trough - first_trough) / 1024)) MiB (bound $growth_bound_mb)")
    fi
else
    failures+=("too few RSS samples ($count)")
fi

if [[ "$slowloris" -gt 0 ]]; then
echo "== slowloris: $slowloris connections sending a header byte per second for ${slowloris_seconds}s"
python3 - "$base" "$slowloris" "$slowloris_seconds" "$slow_ms" >"$logs/slowloris.txt" 2>&1 <<'PY' || failures+=("slowloris: $(tail -1 "$logs/slowloris.txt")")
import socket, statistics, sys, threading, time, urllib.request

base, count, seconds, slow_ms = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
host, port = base.split("//")[1].split(":")
port = int(port)


def timed_get():
    started = time.monotonic()
    try:
        with urllib.request.urlopen(base + "/api/v2/pokemon/25/", timeout=10) as response:
            response.read()
            status = response.status
    except Exception as error:  # refused, reset or timed out: all count against the daemon
        status = repr(error)
    return status, (time.monotonic() - started) * 1000


def measure(duration):
    results, end = [], time.monotonic() + duration
    while time.monotonic() < end:
        results.append(timed_get())
        time.sleep(0.1)
    return results


def summary(results):
    latencies = sorted(latency for _, latency in results)
    return (f"{len(results)} requests, statuses {sorted({str(s) for s, _ in results})}, median "
            f"{statistics.median(latencies):.1f} ms, p95 {latencies[int(len(latencies) * 0.95) - 1]:.1f} ms, "
            f"max {latencies[-1]:.1f} ms")


baseline = measure(3)
print("baseline: " + summary(baseline))
stop, sockets, closed = threading.Event(), [], [0]
header = b"X-Slow: " + b"a" * 4096


def attacker():
    for _ in range(count):
        try:
            connection = socket.create_connection((host, port), timeout=5)
            connection.sendall(b"GET /api/v2/pokemon/1/ HTTP/1.1\r\nHost: a\r\n")
            sockets.append(connection)
        except OSError:
            closed[0] += 1
    position = 0
    while not stop.wait(1):
        for connection in list(sockets):
            try:
                connection.sendall(header[position % len(header):position % len(header) + 1])
            except OSError:
                sockets.remove(connection)
                closed[0] += 1
        position += 1


thread = threading.Thread(target=attacker, daemon=True)
thread.start()
time.sleep(2)
during = measure(max(1, seconds - 2))
open_count = len(sockets)
stop.set()
thread.join(timeout=10)
for connection in sockets:
    connection.close()
print(f"slowloris: {open_count} of {count} slow connections still open after {seconds}s, {closed[0]} closed by the daemon")
print("during: " + summary(during))
bad = [status for status, _ in during if status != 200]
worst = max(latency for _, latency in during)
if bad:
    print(f"FAIL: normal client got {bad[:3]} during slowloris")
    sys.exit(1)
if worst > slow_ms:
    print(f"FAIL: normal client waited {worst:.0f} ms during slowloris (bound {slow_ms:.0f} ms)")
    sys.exit(1)
print("ok")
PY
sed 's/^/   /' "$logs/slowloris.txt"
fi
kill -0 "$daemon" 2>/dev/null || failures+=("the daemon died during slowloris")

echo "== stopping (SIGTERM)"
stop_started=$(date +%s%N)
kill -TERM "$daemon"
for _ in $(seq 300); do kill -0 "$daemon" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$daemon" 2>/dev/null; then
    failures+=("the daemon did not stop within 30 s of SIGTERM")
else
    wait "$daemon" 2>/dev/null && code=0 || code=$?
    echo "   stopped in $((($(date +%s%N) - stop_started) / 1000000)) ms, exit status $code"
    [[ $code == 0 ]] || failures+=("the daemon exited with status $code")
fi
trap - EXIT
cleanup

if [[ ${#failures[@]} -gt 0 ]]; then
    printf 'FAIL: %s\n' "${failures[@]}"
    echo "soak: FAILED (logs in $logs)"
    exit 1
fi
echo "soak: OK (logs in $logs)"
