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
for unit in pokestub.service pokestub-admin-token.service; do
    sed "s#/usr/local/bin/pokestub#$binary#" "systemd/$unit" > "$work/$unit"
done
cp systemd/pokestub.socket "$work/pokestub.socket"
systemd-analyze verify --man=no "$work/pokestub.service" "$work/pokestub-admin-token.service" "$work/pokestub.socket"

# The service has its admin token before it starts: the unit that makes it, and the credential pokestub reads.
token_file=/etc/pokestub/admin-token
for line in "Requires=pokestub-admin-token.service" "LoadCredential=admin-token:$token_file"; do
    grep -qx -- "$line" systemd/pokestub.service || { echo "systemd/pokestub.service lacks $line" >&2; exit 1; }
done
grep -q '^After=.*pokestub-admin-token\.service' systemd/pokestub.service \
    || { echo "systemd/pokestub.service does not start after pokestub-admin-token.service" >&2; exit 1; }
make_token="ExecStart=/usr/local/bin/pokestub make-token $token_file --group pokestub-admin"
grep -qx -- "$make_token" systemd/pokestub-admin-token.service \
    || { echo "systemd/pokestub-admin-token.service lacks $make_token" >&2; exit 1; }
# The group the token file is given exists once systemd-sysusers has read the snippet.
# It is installed as /etc/sysusers.d/pokestub.conf (Docs/CIHosts.md); --root reads that folder under the given root.
install -D -m 0644 systemd/pokestub.sysusers "$work/root/etc/sysusers.d/pokestub.conf"
systemd-sysusers --root="$work/root"
grep -q '^pokestub-admin:' "$work/root/etc/group" \
    || { echo "systemd/pokestub.sysusers makes no group pokestub-admin" >&2; exit 1; }
score=$(systemd-analyze security --offline=true "$work/pokestub.service" | awk '/Overall exposure level/ { print $(NF-2) }')
if ! awk -v score="$score" 'BEGIN { exit !(score + 0 <= 2.0) }'; then
    echo "systemd/pokestub.service exposure level $score is above 2.0" >&2
    exit 1
fi
echo "systemd units verify, with the admin token credential; pokestub.service exposure level $score (at most 2.0)"
