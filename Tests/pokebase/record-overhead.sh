#!/usr/bin/env bash
# Measures what recording costs: the same list of PokeAPI URLs fetched
#   1. directly from a local nginx over the PokeAPI dump with libcurl (the curl tool, one process, one
#      reused connection),
#   2. through pokestub in record-missing on an empty folder (every request a miss: upstream call through
#      pokestub's libcurl pool, JSON canonicalized, files written with a rename and no fsync, stub added),
#   3. through pokestub in proxy mode (upstream call, nothing written),
#   4. through pokestub in replay on what step 2 recorded,
# and prints the wall-clock ratio of each to the direct fetch. Timings vary from run to run; never assert
# on them in tests.
#
# Usage: Tests/pokebase/record-overhead.sh [ROUNDS]
#   POKESTUB=path/to/pokestub   a release build is what should be measured
#                               (swift build -c release --scratch-path /tmp/build-record-rel --product pokestub)
#   POKEAPI_DUMP=dir            default ../shared/pokeapi
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
DUMP=${POKEAPI_DUMP:-$(cd "$REPO/.." && pwd)/shared/pokeapi}
ROUNDS=${1:-3}
POKESTUB=${POKESTUB:?set POKESTUB to a pokestub binary (a release build)}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/record-overhead.XXXXXX")
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

wait_for_line() {
    for _ in $(seq 1 200); do
        if line=$(grep -m1 "^$2" "$1" 2>/dev/null); then echo "${line#"$2"}"; return 0; fi
        sleep 0.05
    done
    echo "no line '$2' in $1" >&2; exit 1
}

# nginx over the dump, in the foreground, everything under $WORK.
NGINX_PORT=$(free_port)
mkdir -p "$WORK/nginx"
cat >"$WORK/nginx/nginx.conf" <<NGINX
worker_processes 1;
daemon off;
master_process off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 256; }
http {
    access_log off;
    default_type application/json;
    client_body_temp_path $WORK/nginx; proxy_temp_path $WORK/nginx; fastcgi_temp_path $WORK/nginx;
    uwsgi_temp_path $WORK/nginx; scgi_temp_path $WORK/nginx;
    keepalive_requests 100000;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        root $DUMP;
        location / { try_files \$uri/index.json \$uri =404; }
    }
}
NGINX
/usr/sbin/nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" &
PIDS+=($!)
for _ in $(seq 1 100); do curl -sf -o /dev/null "http://127.0.0.1:$NGINX_PORT/api/v2/" && break; sleep 0.05; done
UPSTREAM="http://127.0.0.1:$NGINX_PORT"

# The URL list: resources of several sizes (2 KB to 760 KB).
PATHS=()
for id in $(seq 1 151); do PATHS+=("/api/v2/pokemon-species/$id/"); done
for id in $(seq 1 29); do PATHS+=("/api/v2/pokemon/$id/"); done
for id in $(seq 1 18); do PATHS+=("/api/v2/type/$id/"); done
for id in $(seq 1 50); do PATHS+=("/api/v2/move/$id/"); done
for id in $(seq 1 20); do PATHS+=("/api/v2/berry/$id/"); done

# Fetches every path from base $1 with one curl process (one reused connection); prints seconds.
fetch_all() {
    local config="$WORK/curl.cfg"
    : >"$config"
    for path in "${PATHS[@]}"; do printf 'url = "%s%s"\noutput = "/dev/null"\n' "$1" "$path" >>"$config"; done
    local start end
    start=$(date +%s.%N)
    curl -sf -K "$config" || { echo "a fetch from $1 failed" >&2; exit 1; }
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}

start_pokestub() {  # mode, stubs folder; sets POKESTUB_BASE and POKESTUB_PID
    "$POKESTUB" serve --port 0 --stubs "$2" --mode "$1" --upstream "$UPSTREAM" --log-level warning \
        >"$WORK/pokestub.out" 2>"$WORK/pokestub.err" &
    POKESTUB_PID=$!
    PIDS+=("$POKESTUB_PID")
    POKESTUB_BASE=$(wait_for_line "$WORK/pokestub.out" "pokestub listening on " | cut -d' ' -f1)
}
stop_pokestub() { kill -TERM "$POKESTUB_PID"; wait "$POKESTUB_PID" 2>/dev/null || true; }

median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

BYTES=$(for path in "${PATHS[@]}"; do cat "$DUMP$path/index.json"; done | wc -c)
echo "${#PATHS[@]} URLs, $((BYTES / 1024)) KiB from nginx on $UPSTREAM, $ROUNDS rounds, pokestub $POKESTUB"
fetch_all "$UPSTREAM" >/dev/null  # warm the page cache
direct=() record=() proxy=() replay=()
for round in $(seq 1 "$ROUNDS"); do
    direct+=("$(fetch_all "$UPSTREAM")")
    rm -rf "$WORK/stubs" && mkdir -p "$WORK/stubs/mappings"
    start_pokestub record-missing "$WORK/stubs"
    record+=("$(fetch_all "$POKESTUB_BASE")")
    stop_pokestub
    mkdir -p "$WORK/empty-$round"
    start_pokestub proxy "$WORK/empty-$round"
    proxy+=("$(fetch_all "$POKESTUB_BASE")")
    stop_pokestub
    start_pokestub replay "$WORK/stubs"
    fetch_all "$POKESTUB_BASE" >/dev/null  # first pass loads the link-rewrite cache
    replay+=("$(fetch_all "$POKESTUB_BASE")")
    stop_pokestub
done
D=$(printf '%s\n' "${direct[@]}" | median)
R=$(printf '%s\n' "${record[@]}" | median)
P=$(printf '%s\n' "${proxy[@]}" | median)
Y=$(printf '%s\n' "${replay[@]}" | median)
printf 'direct libcurl from nginx     %6.3f s  (%s)\n' "$D" "${direct[*]}"
printf 'pokestub record-missing       %6.3f s  %5.2fx direct  (%s)\n' "$R" "$(echo "$R / $D" | bc -l)" "${record[*]}"
printf 'pokestub proxy (no writes)    %6.3f s  %5.2fx direct  (%s)\n' "$P" "$(echo "$P / $D" | bc -l)" "${proxy[*]}"
printf 'pokestub replay (recorded)    %6.3f s  %5.2fx direct  (%s)\n' "$Y" "$(echo "$Y / $D" | bc -l)" "${replay[*]}"
echo "recorded: $(find "$WORK/stubs/mappings" -name '*.json' | wc -l) mappings, $(du -sh "$WORK/stubs" | cut -f1)"
