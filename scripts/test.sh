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

echo "== build (warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

for check in scripts/check-*.sh; do
    [[ -e "$check" ]] || continue
    echo "== $check"
    bash "$check"
done

echo "== pokebase (a PokeAPI client from PyPI) recorded through record-missing, then replayed"
POKESTUB=.build/debug/pokestub Tests/pokebase/run.sh

echo "== benchmark script end to end (short setting; its figures are not checked here)"
bench_log=$(mktemp)
Benchmarks/run.sh --quick --duration 1 > "$bench_log"
grep -E "^\| (list|pokemon|miss|POST)" "$bench_log" || true
rm -f "$bench_log"

echo "== tests"
swift test --skip-build

echo "== tests under the thread and address sanitizers (the in-process targets; see scripts/sanitizers.sh)"
scripts/sanitizers.sh --ci
