#!/usr/bin/env bash
# Installs the Debian packages pokestub needs, when they are missing. Safe to run again.
#   scripts/install-dependencies.sh          build and serve: libmicrohttpd, libcurl, pkg-config
#   scripts/install-dependencies.sh --test   also what the test suite uses (python3 for the fake upstream,
#                                            libc6-dev for the sanitizer run's shim)
set -euo pipefail

packages=(libmicrohttpd-dev libcurl4-openssl-dev pkg-config)
if [[ "${1:-}" == "--test" ]]; then
    # libc6-dev: headers for the thread sanitizer's shim (scripts/sanitizers/tsan-mutex.c); the sanitizer
    # runtimes themselves ship with the Swift toolchain.
    packages+=(python3 python3-venv ca-certificates systemd libc6-dev)
fi

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
echo "pokestub: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
