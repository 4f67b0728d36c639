#!/usr/bin/env bash
# Opens the dashboard in headless Chromium against a live daemon (the debug build) and checks it the way a
# developer uses it; see scripts/dashboard/check_dashboard.py. Skips, exiting 0, when Chromium or its
# WebDriver is not installed (scripts/install-dependencies.sh --test installs them on Debian). With
# --screenshots it also writes the screenshots of Docs/AdminAPI.md to Docs/images/.
set -euo pipefail
cd "$(dirname "$0")/.."
binary="$PWD/.build/debug/pokestub"
[[ -x "$binary" ]] || { echo "build first: $binary is missing" >&2; exit 1; }
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    echo "check-dashboard: skipped, chromium and chromedriver are not installed (apt-get install chromium chromium-driver)"
    exit 0
fi
venv=.build/dashboard-venv
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c "import selenium" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "selenium>=4.10,<5"
fi
shots=()
[[ "${1:-}" == "--screenshots" ]] && shots=(Docs/images)
"$venv/bin/python" scripts/dashboard/check_dashboard.py "$binary" "$PWD/stubs" "${shots[@]}"
