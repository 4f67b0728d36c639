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

# The unit's own serve command line, run with the shipped config and stubs: it starts, and a job holding the admin
# token cannot stop the shared daemon through the admin API (403); SIGTERM, as systemctl stop sends, does.
exec_start=$(sed -n 's#^ExecStart=/usr/local/bin/pokestub ##p' systemd/pokestub.service)
exec_start=${exec_start//'${CONFIGURATION_DIRECTORY}'/$PWD}
exec_start=${exec_start//'${STATE_DIRECTORY}'/$PWD}
token=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
read -r -a serve_args <<< "$exec_start"
"$binary" "${serve_args[@]}" --port 0 --port-file "$work/port" --admin-token "$token" --watch-stubs false \
    > "$work/serve.out" 2> "$work/serve.err" &
serve_pid=$!
for _ in $(seq 1 200); do [[ -s "$work/port" ]] && break; sleep 0.05; done
[[ -s "$work/port" ]] || { echo "the unit's serve command did not start:" >&2; cat "$work/serve.err" >&2; exit 1; }
status=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H "Authorization: Bearer $token" \
    "http://127.0.0.1:$(cat "$work/port")/__admin/shutdown")
kill -TERM "$serve_pid"
wait "$serve_pid" || { echo "the unit's serve command did not stop cleanly on SIGTERM" >&2; exit 1; }
[[ $status == 403 ]] || { echo "POST /__admin/shutdown with the token got $status under the unit's flags, not 403" >&2; exit 1; }
echo "systemd units verify, with the admin token credential; pokestub.service exposure level $score (at most 2.0);"
echo "its serve command starts on the shipped config and stubs and refuses POST /__admin/shutdown (403)"
