#!/usr/bin/env bash
# Benchmarks pokestub against nginx serving the same bytes on loopback, and prints a table of ratios.
#   Benchmarks/run.sh                 full run (wrk -t2 -c64 -d8s per route; about 5 minutes)
#   Benchmarks/run.sh --quick         a short end-to-end run (what CI does: about 1 minute)
#   Benchmarks/run.sh --only record   only the record path (and proxy mode) against a direct fetch
# Installs what it needs from apt (wrk, nginx-light) and builds the release binary first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh
missing=()
for package in wrk nginx-light; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [[ ${#missing[@]} -gt 0 ]]; then
    sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    # The package starts a system nginx on port 80; the benchmark runs its own.
    $sudo systemctl disable --now nginx >/dev/null 2>&1 || $sudo service nginx stop >/dev/null 2>&1 || true
fi
swift build -c release --product pokestub >/dev/null
exec python3 Benchmarks/bench.py --binary .build/release/pokestub "$@"
