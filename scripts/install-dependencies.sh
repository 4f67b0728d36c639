#!/usr/bin/env bash
# Installs what pokestub needs, when it is missing: Debian packages with apt-get, or Homebrew formulae on
# macOS. Safe to run again.
#   scripts/install-dependencies.sh          build and serve: libmicrohttpd, libcurl, pkg-config
#   scripts/install-dependencies.sh --test   also what the test suite uses (python3 for the fake upstream,
#                                            libc6-dev for the sanitizer run's shim on Linux), and for the
#                                            WireMock differential test (scripts/wiremock-compat/diff.py) a
#                                            Java 17 runtime when `java` is missing and the PyPI `wiremock`
#                                            package, which ships WireMock's 2.35.1 standalone jar, in a venv
#                                            at .build/wiremock-venv (ignored by git)
#   scripts/install-dependencies.sh --bench  also what Benchmarks/run.sh drives and compares with: wrk, nginx
#
# macOS: Homebrew's libmicrohttpd and pkg-config (`brew install libmicrohttpd pkg-config`); libcurl is the
# system's, in the macOS SDK. Swift comes with Xcode 16 or later (or its Command Line Tools). When `brew` is
# missing, this prints how to get it and exits 1: it does not install Homebrew itself.
# Written for macOS from Homebrew's documentation (https://docs.brew.sh/Installation); run on Debian only.
set -euo pipefail

what="${1:-}"
repo=$(cd "$(dirname "$0")/.." && pwd)
# The PyPI release of python-wiremock pinned here ships wiremock/server/wiremock-standalone-2.35.1.jar
# (2.6.1 and 2.7.0 both do); diff.py looks for the jar in this venv first.
wiremock_package="wiremock==2.7.0"
wiremock_venv="$repo/.build/wiremock-venv"
case "$what" in
"" | --test | --bench) ;;
*) echo "usage: scripts/install-dependencies.sh [--test | --bench]" >&2 && exit 2 ;;
esac

# Whether a Java runtime answers. On macOS /usr/bin/java exists without any JDK (it only prints where to get
# one and fails), so the command is run, not merely looked up.
java_runs() {
    command -v java >/dev/null 2>&1 && java -version >/dev/null 2>&1
}

# The venv holding WireMock's jar for diff.py: made once, and pip runs only when the jar is not there yet.
install_wiremock_venv() {
    local jar
    jar=$(compgen -G "$wiremock_venv/lib/python3*/site-packages/wiremock/server/wiremock-standalone-2.35.1.jar" || true)
    [[ -n "$jar" ]] && return 0
    echo "pokestub: pip install $wiremock_package into $wiremock_venv (WireMock 2.35.1's jar, for diff.py)" >&2
    python3 -m venv "$wiremock_venv"
    "$wiremock_venv/bin/pip" install --quiet --disable-pip-version-check "$wiremock_package"
}

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
    # systemd are Linux only. --test adds a Java runtime for the WireMock differential test when none runs:
    # Homebrew's openjdk@17 (https://formulae.brew.sh/formula/openjdk@17). It is keg-only
    # (https://docs.brew.sh/FAQ#what-does-keg-only-mean): brew does not put its java on the PATH, so diff.py
    # also looks for it at "$(brew --prefix)/opt/openjdk@17/bin/java", the formula's opt prefix
    # (https://docs.brew.sh/Manpage#--prefix---unbrewed---installed-formula-).
    if [[ "$what" == "--test" ]] && ! java_runs && ! [[ -x "$(brew --prefix)/opt/openjdk@17/bin/java" ]]; then
        formulae+=(openjdk@17)
    fi
    local missing=()
    for formula in "${formulae[@]}"; do
        case "$formula" in
        # pkg-config is an alias of Homebrew's pkgconf formula: ask for the command, not the formula name.
        pkg-config) command -v pkg-config >/dev/null 2>&1 || missing+=("$formula") ;;
        *) brew list --formula --versions "$formula" >/dev/null 2>&1 || missing+=("$formula") ;;
        esac
    done
    if [[ ${#missing[@]} -gt 0 ]]; then
        echo "pokestub: brew install ${missing[*]}" >&2
        brew install "${missing[@]}"
    fi
    if [[ "$what" == "--test" ]]; then install_wiremock_venv; fi
}

install_with_apt() {
    local packages=(libmicrohttpd-dev libcurl4-openssl-dev pkg-config)
    if [[ "$what" == "--test" ]]; then
        # libc6-dev: headers for the thread sanitizer's shim (scripts/sanitizers/tsan-mutex.c); the sanitizer
        # runtimes themselves ship with the Swift toolchain.
        # chromium, chromium-driver: the dashboard check drives the page in headless Chromium (check-dashboard.sh).
        packages+=(python3 python3-venv ca-certificates systemd libc6-dev chromium chromium-driver)
        # The WireMock differential test runs WireMock's jar: Debian 12's Java 17 runtime, unless a java runs.
        if ! java_runs; then packages+=(openjdk-17-jre-headless); fi
    fi
    if [[ "$what" == "--bench" ]]; then packages+=(wrk nginx-light); fi

    local missing=()
    for package in "${packages[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$package")
        fi
    done
    if [[ ${#missing[@]} -gt 0 ]]; then install_apt_packages "${missing[@]}"; fi
    if [[ "$what" == "--test" ]]; then install_wiremock_venv; fi
}

install_apt_packages() {
    local missing=("$@")
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
