#!/usr/bin/env bash
# Installs what is missing, then runs every check CI runs: formatting, the committed stubs, a warning-free
# build, the whole test suite, and then the in-process test targets under the thread and address sanitizers.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh --test

echo "== lint (swift format)"
swift format lint --strict --recursive Package.swift Sources Tests

echo "== shipped stubs match their generator"
python3 scripts/check-stubs.py

echo "== shipped PokeAPI schemas match ../shared/pokeapi/schema/v2"
python3 scripts/refresh-schemas.py --check

echo "== Docs/Architecture.md names only what Sources/ has"
python3 scripts/check-architecture.py --self-test
python3 scripts/check-architecture.py

echo "== build (warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

for check in scripts/check-*.sh; do
    [[ -e "$check" ]] || continue
    echo "== $check"
    bash "$check"
done

echo "== WireMock 2.35 differential test (scripts/wiremock-compat/diff.py)"
# install-dependencies.sh --test above installed java when missing and the jar (the PyPI wiremock package, in
# .build/wiremock-venv; see scripts/wiremock-compat/README.md). Exit status 2 means java or the jar is still
# missing (the install was skipped or failed): reported as skipped, not failed.
diff_status=0
python3 scripts/wiremock-compat/diff.py --pokestub .build/debug/pokestub || diff_status=$?
if [[ $diff_status -eq 2 ]]; then
    echo "skipped: java or the wiremock-standalone jar is missing"
elif [[ $diff_status -ne 0 ]]; then
    exit "$diff_status"
fi

echo "== pokebase (a PokeAPI client from PyPI) recorded through record-missing, then replayed"
POKESTUB=.build/debug/pokestub Tests/pokebase/run.sh

echo "== benchmark script end to end (short setting; its figures are not checked here)"
bench_log=$(mktemp)
Benchmarks/run.sh --quick --duration 1 > "$bench_log"
grep -E "^\| (list|pokemon|miss|POST)|^- (direct|through|buffered|streamed)" "$bench_log" || true
rm -f "$bench_log"

echo "== tests (one at a time: see below)"
# Swift Testing runs tests in parallel on Swift concurrency's cooperative pool, one thread per core. Here
# that is two threads, and a few CPU-bound tests (10,000 stubs, a 10 MB stub, regex budgets) running at once
# starve every other test's tasks for seconds, so that waits with deadlines expire on an idle machine. One
# at a time takes about twice as long (110 s instead of 55 s here) and measures each test alone.
swift test --skip-build --no-parallel

echo "== tests under the thread and address sanitizers (the in-process targets; see scripts/sanitizers.sh)"
scripts/sanitizers.sh --ci
