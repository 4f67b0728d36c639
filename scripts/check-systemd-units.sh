#!/usr/bin/env bash
# Verifies the systemd units and keeps the service's exposure score (systemd-analyze security) at 2.0 or
# below. Runs after the build: the unit is checked against the built binary.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $(uname -s) != Linux ]]; then
    # systemd-analyze exists only on Linux; on macOS scripts/check-launchd.sh checks the service definitions.
    echo "systemd units: not checked on $(uname -s) (systemd-analyze is Linux only)"
    exit 0
fi
binary="$PWD/.build/debug/pokestub"
[[ -x "$binary" ]] || { echo "build first: $binary is missing" >&2; exit 1; }
command -v systemd-analyze >/dev/null || { echo "systemd-analyze is missing (apt-get install systemd)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed "s#/usr/local/bin/pokestub#$binary#" systemd/pokestub.service > "$work/pokestub.service"
cp systemd/pokestub.socket "$work/pokestub.socket"
systemd-analyze verify --man=no "$work/pokestub.service" "$work/pokestub.socket"
score=$(systemd-analyze security --offline=true "$work/pokestub.service" | awk '/Overall exposure level/ { print $(NF-2) }')
if ! awk -v score="$score" 'BEGIN { exit !(score + 0 <= 2.0) }'; then
    echo "systemd/pokestub.service exposure level $score is above 2.0" >&2
    exit 1
fi
echo "systemd units verify; pokestub.service exposure level $score (at most 2.0)"
