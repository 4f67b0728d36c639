#!/usr/bin/env bash
# Installs what is missing, builds pokestub in release mode, and serves the shipped stubs with config.json.
# Extra arguments go to `pokestub serve` (e.g. --port 0).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh
binary="$(scripts/build-release.sh)"
exec "$binary" serve --config config.json "$@"
