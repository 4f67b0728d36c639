#!/usr/bin/env bash
# Runs the test suite under the thread sanitizer, then under the address sanitizer (with leak detection).
#
#   scripts/sanitizers.sh [--filter REGEX]... [--only thread|address] [--skip REGEX]...
#
#   --filter REGEX   run only matching tests (passed to `swift test --filter`; repeatable), e.g.
#                    --filter PokestubServerTests --filter PokestubCoreTests
#   --skip REGEX     leave matching tests out (`swift test --skip`; repeatable)
#   --only KIND      run one sanitizer: thread or address
#
# Each sanitizer builds into its own scratch path (/tmp/pokestub-tsan, /tmp/pokestub-asan; override with
# TSAN_SCRATCH and ASAN_SCRATCH) so it never disturbs a normal build. Logs go to $SANITIZER_LOGS (default
# /tmp/pokestub-sanitizers). The exit status is 0 only when every test passed and no sanitizer reported
# anything: a report fails the run even when the test that triggered it passed.
#
# The sanitizer runtimes ship with the Swift toolchain (usr/lib/clang/*/lib/linux/libclang_rt.{tsan,asan}*);
# Debian 12 needs no extra package. Under the thread sanitizer, scripts/sanitizers/tsan-mutex.c (built here
# with the toolchain's clang and preloaded) shows TSan how Swift's Synchronization.Mutex hands over a
# contended lock; without it every contended Mutex reads as a data race. Suppressions for reports outside
# pokestub's code are in scripts/sanitizers/ with the reason for each.
set -uo pipefail
script="$(readlink -f "$0")"
cd "$(dirname "$script")/.."

filters=()
kinds=(thread address)
while [[ $# -gt 0 ]]; do
    case "$1" in
    --filter) filters+=(--filter "$2") && shift 2 ;;
    --skip) filters+=(--skip "$2") && shift 2 ;;
    --only) kinds=("$2") && shift 2 ;;
    -h | --help)
        sed -n '2,/^set /p' "$script" | grep '^#' | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *) echo "unknown argument: $1 (see --help)" >&2 && exit 2 ;;
    esac
done

logs="${SANITIZER_LOGS:-/tmp/pokestub-sanitizers}"
mkdir -p "$logs"
suppressions="$(pwd)/scripts/sanitizers"
status=0

for kind in "${kinds[@]}"; do
    case "$kind" in
    thread)
        scratch="${TSAN_SCRATCH:-/tmp/pokestub-tsan}"
        # halt_on_error=0: collect every report of the run, not just the first.
        export TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1 suppressions=$suppressions/tsan.supp"
        pattern='WARNING: ThreadSanitizer'
        clang="$(dirname "$(readlink -f "$(command -v swift)")")/clang"
        preload="$logs/tsan-mutex.so"
        if ! "$clang" -shared -fPIC -O2 -o "$preload" "$suppressions/tsan-mutex.c" -ldl; then
            echo "!! cannot build $suppressions/tsan-mutex.c with $clang" && exit 2
        fi
        ;;
    address)
        scratch="${ASAN_SCRATCH:-/tmp/pokestub-asan}"
        preload=""
        # fast_unwind_on_malloc=0: libcurl and libmicrohttpd have no frame pointers, so the fast unwinder stops
        # at them and a leak allocated inside them cannot be told apart by who called them (about 4x slower).
        export ASAN_OPTIONS="detect_leaks=1 halt_on_error=1 detect_stack_use_after_return=1 fast_unwind_on_malloc=0"
        export LSAN_OPTIONS="suppressions=$suppressions/lsan.supp print_suppressions=0"
        pattern='ERROR: (AddressSanitizer|LeakSanitizer)'
        ;;
    *) echo "unknown sanitizer: $kind (thread or address)" >&2 && exit 2 ;;
    esac
    log="$logs/$kind.log"
    echo "== $kind sanitizer: building into $scratch"
    if ! swift build --build-tests --sanitize="$kind" --scratch-path "$scratch" >"$logs/$kind-build.log" 2>&1; then
        tail -30 "$logs/$kind-build.log"
        echo "!! $kind: build failed (log $logs/$kind-build.log)"
        status=1
        continue
    fi
    echo "== $kind sanitizer: testing ${filters[*]:-(all tests)}; log $log"
    # The Swift runtime's backtracer would catch a sanitizer's trap first; leave it to the sanitizer.
    SWIFT_BACKTRACE=enable=no LD_PRELOAD="$preload" swift test --skip-build --sanitize="$kind" \
        --scratch-path "$scratch" "${filters[@]}" >"$log" 2>&1
    tests=$?
    reports=$(grep -cE "$pattern" "$log")
    grep -E '(Test run with|Executed [0-9]+ tests)' "$log" | tail -2
    echo "   tests exit status $tests, $reports sanitizer report(s)"
    if [[ $reports -gt 0 ]]; then
        grep -E -A12 "$pattern" "$log" | head -60
    fi
    if [[ $tests -ne 0 ]]; then
        grep -E '(✘|error:|failed)' "$log" | head -20
    fi
    [[ $tests -eq 0 && $reports -eq 0 ]] || status=1
done
exit $status
