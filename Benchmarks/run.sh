#!/usr/bin/env bash
# Benchmarks pokestub against nginx serving the same bytes on loopback, and prints a table of ratios.
#   Benchmarks/run.sh                 full run (wrk -t2 -c64 -d8s per route; about 5 minutes)
#   Benchmarks/run.sh --quick         a short end-to-end run (what CI does: about 1 minute)
#   Benchmarks/run.sh --only record   only the record path (and proxy mode) against a direct fetch
# Installs what it needs (wrk and nginx: apt-get on Debian, Homebrew on macOS; see
# scripts/install-dependencies.sh --bench) and builds the release binary first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh --bench
swift build -c release --product pokestub >/dev/null
exec python3 Benchmarks/bench.py --binary .build/release/pokestub "$@"
