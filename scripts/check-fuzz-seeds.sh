#!/usr/bin/env bash
# The fuzz targets (Fuzz/, a package of its own that the main build never compiles) still build against the
# current code, and each one's checks hold on its seeds: every target runs once over Fuzz/corpus/TARGET, no
# fuzzing. A debug build with libFuzzer's instrumentation in its own scratch path, .build/fuzz-seeds.
#
# Linux only: the fuzz targets have been built only with swift.org's Linux toolchain, which ships libFuzzer's
# runtime (usr/lib/clang/*/lib/linux), and `wire` is Linux-only; on macOS this says so and passes.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "$(uname -s)" != Linux ]]; then
    echo "check-fuzz-seeds: skipped on $(uname -s): the fuzz targets build with swift.org's Linux toolchain"
    exit 0
fi
FUZZ_CONFIGURATION=debug FUZZ_SCRATCH="$PWD/.build/fuzz-seeds" exec Fuzz/run.sh seeds
