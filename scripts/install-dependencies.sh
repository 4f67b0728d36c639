#!/usr/bin/env bash
# Installs what pokestub needs, when it is missing: Debian packages with apt-get, or Homebrew formulae on
# macOS. Safe to run again.
#   scripts/install-dependencies.sh          build and serve: libmicrohttpd, libcurl, pkg-config
#   scripts/install-dependencies.sh --test   also what the test suite uses (python3 for the fake upstream,
#                                            libc6-dev for the sanitizer run's shim on Linux)
#   scripts/install-dependencies.sh --bench  also what Benchmarks/run.sh drives and compares with: wrk, nginx
#
# macOS: Homebrew's libmicrohttpd and pkg-config (`brew install libmicrohttpd pkg-config`); libcurl is the
# system's, in the macOS SDK. Swift comes with Xcode 16 or later (or its Command Line Tools). When `brew` is
# missing, this prints how to get it and exits 1: it does not install Homebrew itself.
# Written for macOS from Homebrew's documentation (https://docs.brew.sh/Installation); run on Debian only.
set -euo pipefail

what="${1:-}"
case "$what" in
"" | --test | --bench) ;;
*) echo "usage: scripts/install-dependencies.sh [--test | --bench]" >&2 && exit 2 ;;
esac

install_with_homebrew() {
    if ! command -v brew >/dev/null 2>&1; then
        cat >&2 <<'EOF'
pokestub: Homebrew is missing. Install it (https://brew.sh) with:

  /bin/bash -c "$(curl -fsSL https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh)"

then put brew on the PATH as its installer says (on Apple silicon: eval "$(/opt/homebrew/bin/brew shellenv)",
on Intel: eval "$(/usr/local/bin/brew shellenv)"), and run this script again. Or install what pokestub
needs by hand: brew install libmicrohttpd pkg-config
EOF
        exit 1
    fi
    if ! command -v swift >/dev/null 2>&1; then
        echo "pokestub: swift is missing: install Xcode 16 or later, or run xcode-select --install" >&2
        exit 1
    fi
    local formulae=(libmicrohttpd pkg-config)
    if [[ "$what" == "--bench" ]]; then formulae+=(wrk nginx); fi
    # python3 ships with the Command Line Tools that Swift needs, and venv with it; the sanitizer shim and
    # systemd are Linux only, so --test adds nothing here.
    local missing=()
    for formula in "${formulae[@]}"; do
        case "$formula" in
        # pkg-config is an alias of Homebrew's pkgconf formula: ask for the command, not the formula name.
        pkg-config) command -v pkg-config >/dev/null 2>&1 || missing+=("$formula") ;;
        *) brew list --formula --versions "$formula" >/dev/null 2>&1 || missing+=("$formula") ;;
        esac
    done
    [[ ${#missing[@]} -eq 0 ]] && return 0
    echo "pokestub: brew install ${missing[*]}" >&2
    brew install "${missing[@]}"
}

install_with_apt() {
    local packages=(libmicrohttpd-dev libcurl4-openssl-dev pkg-config)
    if [[ "$what" == "--test" ]]; then
        # libc6-dev: headers for the thread sanitizer's shim (scripts/sanitizers/tsan-mutex.c); the sanitizer
        # runtimes themselves ship with the Swift toolchain.
        # chromium, chromium-driver: the dashboard check drives the page in headless Chromium (check-dashboard.sh).
        packages+=(python3 python3-venv ca-certificates systemd libc6-dev chromium chromium-driver)
    fi
    if [[ "$what" == "--bench" ]]; then packages+=(wrk nginx-light); fi

    local missing=()
    for package in "${packages[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$package")
        fi
    done
    [[ ${#missing[@]} -eq 0 ]] && return 0

    local sudo=""
    if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
    echo "pokestub: installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    if [[ " ${missing[*]} " == *" nginx-light "* ]]; then
        # The package starts a system nginx on port 80; the benchmark runs its own.
        $sudo systemctl disable --now nginx >/dev/null 2>&1 || $sudo service nginx stop >/dev/null 2>&1 || true
    fi
}

case "$(uname -s)" in
Darwin) install_with_homebrew ;;
Linux)
    if command -v dpkg-query >/dev/null 2>&1; then
        install_with_apt
    else
        echo "pokestub: this script knows apt-get (Debian, Ubuntu) and Homebrew (macOS); install libmicrohttpd," \
            "libcurl and pkg-config with your system's package manager" >&2
        exit 1
    fi
    ;;
*) echo "pokestub: $(uname -s) is not supported: Debian (apt-get) and macOS (Homebrew) are" >&2 && exit 1 ;;
esac
