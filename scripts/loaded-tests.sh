#!/usr/bin/env bash
# The whole test suite on a loaded machine: `stress --cpu N` (Debian's stress, installed when missing) keeps
# every core busy while the suite runs RUNS times in a row, as CI does (`swift test --no-parallel`). Any
# failed run fails the script. The load stops with the script, and by itself after a bound.
#
#   scripts/loaded-tests.sh [RUNS]      (default 3; builds first; LOADED_CPUS, default the core count)
#
# Not part of scripts/test.sh (three loaded runs take about ten minutes on two cores); run it by hand after
# changing anything that waits, times or runs concurrently in the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
[[ "$runs" =~ ^[0-9]+$ && "$runs" -ge 1 ]] || { echo "usage: scripts/loaded-tests.sh [RUNS >= 1]" >&2; exit 2; }
cpus="${LOADED_CPUS:-$(nproc)}"
if ! command -v stress >/dev/null; then
    sudo_cmd=""; [[ $(id -u) -eq 0 ]] || sudo_cmd="sudo"
    $sudo_cmd apt-get install -y -q stress >/dev/null
fi
swift build --build-tests
# At most an hour of load, whatever happens to this script.
stress --cpu "$cpus" --timeout 3600 >/dev/null 2>&1 &
load=$!
trap 'kill "$load" 2>/dev/null || true; wait "$load" 2>/dev/null || true' EXIT
failed=0
for run in $(seq 1 "$runs"); do
    started=$SECONDS
    if swift test --skip-build --no-parallel >"/tmp/pokestub-loaded-run-$run.log" 2>&1; then
        result=passed
    else
        result=FAILED
        failed=$((failed + 1))
        grep -E "recorded an issue" "/tmp/pokestub-loaded-run-$run.log" | head -20
    fi
    echo "run $run of $runs under stress --cpu $cpus: $result in $((SECONDS - started)) s" \
        "($(grep -E 'Test run with' "/tmp/pokestub-loaded-run-$run.log" | tail -1))"
done
echo "$((runs - failed)) passed, $failed failed"
[[ $failed -eq 0 ]]
