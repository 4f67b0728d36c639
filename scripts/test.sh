#!/usr/bin/env bash
# Installs what is missing, then runs every check CI runs: formatting, the committed stubs, a warning-free
# build, and the whole test suite.
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

echo "== tests"
swift test --skip-build
