#!/usr/bin/env bash
# Builds the libFuzzer targets and runs one of them (or each in turn) for a number of minutes, then stops.
#
#   Fuzz/run.sh TARGET MINUTES      TARGET: stub-loader | matcher | admin | wire |
#                                   recording-names | template | body-patterns |
#                                   all (each in turn, MINUTES each)
#   Fuzz/run.sh reproduce TARGET FILE   runs one input once (a crash artifact or a corpus file)
#   Fuzz/run.sh seeds               runs every target once over its seeds in Fuzz/corpus/ (no fuzzing): the
#                                   targets build and their checks hold on the seeds (scripts/check-fuzz-seeds.sh)
#
# Environment:
#   FUZZ_WORK      where new corpus entries, crash artifacts and logs go (default /tmp/pokestub-fuzz)
#   FUZZ_SCRATCH   SwiftPM scratch path for the fuzz build (default /tmp/pokestub-fuzz-build)
#   FUZZ_TIMEOUT   seconds one input may take before it counts as a hang (default 5; 120 for template and
#                  body-patterns, which bound each input's CPU time themselves)
#   FUZZ_ASAN=1    also build with the address sanitizer (slower, better reports on memory faults)
#   FUZZ_KEEP_GOING=1   keep fuzzing after a crash (libFuzzer fork mode), collecting every artifact
#   FUZZ_PROBE_SECONDS  wire only: how long the health probe after each input may take (default 2)
#   FUZZ_CONFIGURATION  release (default) or debug: debug builds sooner, release fuzzes faster
#
# Exit status: 0 when no target crashed, 1 when one did (its artifact and the command to reproduce it are
# printed), 2 on a usage or build error. The seeds in Fuzz/corpus/ are never modified.
set -euo pipefail

FUZZ_DIR="$(cd "$(dirname "$0")" && pwd)"
WORK="${FUZZ_WORK:-/tmp/pokestub-fuzz}"
SCRATCH="${FUZZ_SCRATCH:-/tmp/pokestub-fuzz-build}"
TIMEOUT="${FUZZ_TIMEOUT:-5}"
CONFIGURATION="${FUZZ_CONFIGURATION:-release}"
TARGETS=(stub-loader matcher admin wire recording-names template body-patterns)

usage() {
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

executable() {
    case "$1" in
    stub-loader) echo FuzzStubLoader ;;
    matcher) echo FuzzMatcher ;;
    admin) echo FuzzAdmin ;;
    wire) echo FuzzWire ;;
    recording-names) echo FuzzRecordingNames ;;
    template) echo FuzzTemplate ;;
    body-patterns) echo FuzzBodyPatterns ;;
    *) echo "unknown target: $1 (stub-loader, matcher, admin, wire, recording-names, template, body-patterns)" >&2 &&
        exit 2 ;;
    esac
}

max_len() {
    case "$1" in
    # A template and a request, or a body and its patterns: room for the hostile cases' small sizes.
    stub-loader | template | body-patterns) echo 16384 ;;
    # Room for a 33,000-byte header field, a few pipelined requests and bodies past the header limit.
    wire) echo 65536 ;;
    *) echo 8192 ;;
    esac
}

# Seconds one input of target $1 may take before libFuzzer calls it a hang. template and body-patterns check
# each input's CPU time against its budget themselves, and their hostile seeds spend the daemon's whole
# budget: up to 0.8 s in a release build, 11 s in CI's debug build on a loaded machine. For them libFuzzer's
# timeout is a backstop, not the bound.
timeout_for() {
    case "$1" in
    template | body-patterns) echo "${FUZZ_TIMEOUT:-120}" ;;
    *) echo "$TIMEOUT" ;;
    esac
}

build() {
    local sanitizers=(--sanitize=fuzzer)
    # swiftc keeps only the last -sanitize= it is given, and SwiftPM gives one per --sanitize: with
    # `--sanitize=fuzzer --sanitize=address` the code got ASan and no coverage instrumentation, so libFuzzer
    # fuzzed blind. One comma-separated flag after SwiftPM's asks for both, when compiling and when linking.
    [[ "${FUZZ_ASAN:-0}" == 1 ]] && sanitizers+=(-Xswiftc -sanitize=address,fuzzer)
    echo "== building the fuzz targets (${sanitizers[*]}) in $SCRATCH" >&2
    swift build --package-path "$FUZZ_DIR" --scratch-path "$SCRATCH" -c "$CONFIGURATION" "${sanitizers[@]}" \
        -Xswiftc -enable-testing >&2 || exit 2
    BIN="$(swift build --package-path "$FUZZ_DIR" --scratch-path "$SCRATCH" -c "$CONFIGURATION" "${sanitizers[@]}" \
        -Xswiftc -enable-testing --show-bin-path)"
}

# Whether libFuzzer's log says it found no coverage at all: the code was built without coverage
# instrumentation, and inputs are mutated blind.
blind() {
    grep -q "Is the code instrumented for coverage" "$1"
}

# Runs one target for $2 minutes; returns 1 when it found a crash, a hang or a memory blow-up.
fuzz() {
    local target="$1" minutes="$2"
    local binary seconds work artifacts log status
    binary="$BIN/$(executable "$target")"
    seconds=$((minutes * 60))
    work="$WORK/$target"
    artifacts="$work/artifacts/"
    log="$work/fuzz.log"
    mkdir -p "$work/corpus" "$artifacts"
    local options=(
        -max_total_time="$seconds" -timeout="$(timeout_for "$target")" -rss_limit_mb=2048 -max_len="$(max_len "$target")"
        -dict="$FUZZ_DIR/dictionaries/$target.dict" -artifact_prefix="$artifacts" -print_final_stats=1
    )
    if [[ "${FUZZ_KEEP_GOING:-0}" == 1 ]]; then
        options+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
    fi
    echo "== $target for $minutes min (log $log, new inputs in $work/corpus, artifacts in $artifacts)" >&2
    status=0
    # SWIFT_BACKTRACE=enable=no leaves traps to libFuzzer, which then writes the input that caused them.
    # The outer timeout is a backstop in case libFuzzer itself wedges.
    SWIFT_BACKTRACE=enable=no timeout --kill-after=30 $((seconds + 120)) \
        "$binary" "${options[@]}" "$work/corpus" "$FUZZ_DIR/corpus/$target" >"$log" 2>&1 || status=$?
    grep -E '^(stat::|Done|#[0-9]+ +DONE)' "$log" >&2 || true
    if blind "$log"; then
        echo "!! $target: libFuzzer saw no coverage (is the build instrumented?); the run fuzzed blind" >&2
        return 1
    fi
    # slow-unit-* files are libFuzzer's notes of inputs past 10 s (-report_slow_units), not failures: on a
    # shared machine the wire target's reset after an admin input (the stub files read again) takes that long.
    if [[ $status -ne 0 ]] || ls "$artifacts" | grep -v '^slow-unit-' | grep -q .; then
        echo "!! $target: exit status $status; last lines of $log:" >&2
        grep -vE '^(#[0-9]|INFO:|0x)' "$log" | tail -25 >&2
        for artifact in "$artifacts"*; do
            [[ -e "$artifact" ]] && echo "   reproduce: Fuzz/run.sh reproduce $target $artifact" >&2
        done
        return 1
    fi
}

[[ $# -ge 1 ]] || usage
if [[ "$1" == reproduce ]]; then
    [[ $# -eq 3 ]] || usage
    executable "$2" >/dev/null
    build
    SWIFT_BACKTRACE=enable=no exec "$BIN/$(executable "$2")" -timeout="$(timeout_for "$2")" -runs=1 "$3"
fi
if [[ "$1" == seeds ]]; then
    [[ $# -eq 1 ]] || usage
    build
    failed=0
    for target in "${TARGETS[@]}"; do
        # -runs=0: libFuzzer executes the seed corpus once, checking every input, and stops before fuzzing.
        log="$(mktemp)"
        if SWIFT_BACKTRACE=enable=no timeout --kill-after=30 600 "$BIN/$(executable "$target")" -runs=0 \
            -timeout="$(timeout_for "$target")" -rss_limit_mb=2048 -max_len="$(max_len "$target")" \
            "$FUZZ_DIR/corpus/$target" >"$log" 2>&1 && ! blind "$log"; then
            echo "$target: $(find "$FUZZ_DIR/corpus/$target" -type f | wc -l) seeds, every check held" >&2
        else
            echo "!! $target failed on its seeds, or saw no coverage; last lines:" >&2
            grep -vE '^(#[0-9]|INFO:|0x)' "$log" | tail -25 >&2
            failed=1
        fi
        rm -f "$log"
    done
    exit $failed
fi
[[ $# -ge 2 ]] || usage
[[ "$2" =~ ^[0-9]+$ && "$2" -ge 1 ]] || usage
if [[ "$1" == all ]]; then
    selected=("${TARGETS[@]}")
else
    executable "$1" >/dev/null
    selected=("$1")
fi
build
failed=0
for target in "${selected[@]}"; do
    fuzz "$target" "$2" || failed=1
done
exit $failed
