#!/usr/bin/env bash
# Benchmarks pokestub against nginx serving the same bytes on loopback, and prints tables of ratios.
#   Benchmarks/run.sh                    full run: 3 rounds of wrk -t2 -c64 -d8s per route, pokestub and nginx
#                                        back to back in alternating order, with the libmicrohttpd floor
#                                        beside them, medians reported (about 10 minutes)
#   Benchmarks/run.sh --rounds 2         the same with 2 rounds
#   Benchmarks/run.sh --quick            a short end-to-end run, 1 round (what CI does: about 1 minute)
#   Benchmarks/run.sh --update-readme    a full run that rewrites Benchmarks/README.md's tables between
#                                        <!-- bench:begin --> and <!-- bench:end --> (--markdown FILE: any file)
#   Benchmarks/run.sh --json FILE        also the results, each round's figures included, as JSON
#   Benchmarks/run.sh --only record      only the record path (and proxy mode) against a direct fetch
# Installs what it needs (wrk and nginx: apt-get on Debian, Homebrew on macOS; see
# scripts/install-dependencies.sh --bench) and builds the release binary first. bench.py raises the soft
# open-file limit for the 1,000-connection run; `Benchmarks/bench.py --help` lists every option.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh --bench
binary="$(scripts/build-release.sh)"
exec python3 Benchmarks/bench.py --binary "$binary" "$@"
