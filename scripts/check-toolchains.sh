#!/usr/bin/env bash
# Builds pokestub with the oldest and the middle of the supported compilers, and runs the whole test suite
# with the middle one against the newer C libraries Homebrew ships, each in a Debian chroot:
#
#   trixie: Debian's swiftlang 6.0.3 (the compiler of Xcode 16.0-16.2), libmicrohttpd 1.0.1, curl 8.14
#           -> every product, debug and release, warnings as errors
#   sid:    Debian's swiftlang 6.2.3 (the compiler of Xcode 26.0-26.3), libmicrohttpd 1.0.x, curl 8.x
#           -> every product, debug and release, warnings as errors; then the whole suite
#
# The host's own toolchain (swift.org's 6.3.1 on Debian 12, libmicrohttpd 0.9.75, curl 7.88) is tested by
# scripts/test.sh itself.
#
# The chroots are made once with debootstrap from the Debian mirror the host's apt already uses, and kept in
# a cache outside the clone (POKESTUB_TOOLCHAIN_CACHE, default /var/cache/pokestub/toolchains); a missing or
# half-made one is made again. Each chroot also keeps its own copy of the sources and their .build: the
# sources are copied in by content (rsync --checksum, without times), so a file that did not change keeps
# its time and the build there stays incremental across runs and clones.
#
# Usage: scripts/check-toolchains.sh [--prepare] [trixie|sid ...]
#   --prepare   only make the chroots (and install their packages); build nothing
#   POKESTUB_SKIP_TOOLCHAINS=1 skips the whole check (it needs root, debootstrap and the Debian archive). Not
#   root, it goes through sudo when sudo asks no password, and is skipped with a message otherwise (CI=true:
#   it fails instead).
# Linux with apt only: on macOS, Xcode's own compiler is the one that matters and this check does not apply.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${POKESTUB_TOOLCHAIN_CACHE:-/var/cache/pokestub/toolchains}
# Bump to remake every chroot (when the package list below changes).
layout=1
packages=(swiftlang libmicrohttpd-dev libcurl4-openssl-dev pkg-config python3 rsync ca-certificates)

prepare_only=false
suites=()
for arg in "$@"; do
    case "$arg" in
    --prepare) prepare_only=true ;;
    trixie | sid) suites+=("$arg") ;;
    *) echo "usage: scripts/check-toolchains.sh [--prepare] [trixie|sid ...]" >&2 && exit 2 ;;
    esac
done
[[ ${#suites[@]} -gt 0 ]] || suites=(trixie sid)

if [[ "${POKESTUB_SKIP_TOOLCHAINS:-}" == 1 ]]; then
    echo "check-toolchains: skipped (POKESTUB_SKIP_TOOLCHAINS=1)"
    exit 0
fi
if [[ "$(uname -s)" != Linux ]] || ! command -v apt-get >/dev/null 2>&1; then
    echo "check-toolchains: skipped: this check makes Debian chroots and runs on Debian only"
    exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
    # debootstrap, chroot and mounts need root: through sudo when it asks no password; otherwise CI fails and a
    # developer's run says what it left out.
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        exec sudo -n --preserve-env=POKESTUB_TOOLCHAIN_CACHE,POKESTUB_DEBIAN_MIRROR,CI bash "$0" "$@"
    fi
    if [[ "${CI:-}" == true ]]; then
        echo "check-toolchains: needs root (debootstrap, chroot and mounts)" >&2
        exit 1
    fi
    echo "check-toolchains: skipped: needs root or password-less sudo (debootstrap, chroot and mounts)"
    exit 0
fi

# One run at a time uses the cache: two clones checked at once would share the chroots and their sources.
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock -w 3600 9 || { echo "check-toolchains: another run held $cache for an hour" >&2; exit 1; }

# The Debian mirror the host's apt uses (deb822 .sources or one-line sources.list), so the chroots come from
# the same place as the host's packages. POKESTUB_DEBIAN_MIRROR overrides it.
debian_mirror() {
    if [[ -n "${POKESTUB_DEBIAN_MIRROR:-}" ]]; then
        echo "$POKESTUB_DEBIAN_MIRROR"
        return
    fi
    local uri
    uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
        awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i ~ /\/debian\/?$/) { print $i; exit } }')
    if [[ -z "$uri" ]]; then
        uri=$(grep -hE '^deb\s' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
            awk '{ for (i = 2; i <= NF; i++) if ($i ~ /\/debian\/?$/) { print $i; exit } }' | head -n 1)
    fi
    [[ -n "$uri" ]] || { echo "check-toolchains: no Debian mirror in the host's apt sources; set POKESTUB_DEBIAN_MIRROR" >&2; exit 1; }
    echo "${uri%/}"
}

mounted=()
unmount_all() {
    local i
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
    mounted=()
}
trap unmount_all EXIT

# /proc, /dev and /dev/pts inside a chroot while it is used; undone on exit.
mount_into() {
    local root=$1 fs
    for fs in proc dev dev/pts; do
        if ! mountpoint -q "$root/$fs"; then
            case "$fs" in
            proc) mount -t proc proc "$root/proc" ;;
            *) mount --bind "/$fs" "$root/$fs" ;;
            esac
            mounted+=("$root/$fs")
        fi
    done
}

in_chroot() {
    local root=$1
    shift
    chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

# Makes $cache/$suite (debootstrap, then the packages), unless a finished one with this layout is there.
prepare() {
    local suite=$1 root="$cache/$1" stamp="$cache/$1.ready" started
    # swift is a link that is absolute inside the chroot: test the link, not what it points to on the host.
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$layout" && ( -L "$root/usr/bin/swift" || -f "$root/usr/bin/swift" ) ]]; then
        return 0
    fi
    started=$(date +%s)
    local mirror
    mirror=$(debian_mirror)
    echo "check-toolchains: making the $suite chroot in $root (debootstrap from the host's Debian mirror)"
    unmount_all
    rm -rf "$root" "$stamp"
    mkdir -p "$cache"
    debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$cache/$suite.debootstrap.log" 2>&1 ||
        { tail -n 20 "$cache/$suite.debootstrap.log" >&2; exit 1; }
    # sid's Release file may be past its Valid-Until on a mirror that is not refreshed; the packages are
    # still checked against the archive key.
    echo 'Acquire::Check-Valid-Until "false";' >"$root/etc/apt/apt.conf.d/99pokestub"
    cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
    mount_into "$root"
    in_chroot "$root" apt-get update -qq
    in_chroot "$root" apt-get install -y -qq --no-install-recommends "${packages[@]}" >"$cache/$suite.apt.log" 2>&1 ||
        { tail -n 20 "$cache/$suite.apt.log" >&2; exit 1; }
    in_chroot "$root" apt-get clean
    unmount_all
    echo "$layout" >"$stamp"
    echo "check-toolchains: $suite chroot ready in $(($(date +%s) - started)) s"
}

# The host's own tools: debootstrap makes the chroots, rsync copies the sources into them.
host_tools=()
command -v debootstrap >/dev/null 2>&1 || host_tools+=(debootstrap)
command -v rsync >/dev/null 2>&1 || host_tools+=(rsync)
if [[ ${#host_tools[@]} -gt 0 ]]; then
    echo "check-toolchains: installing ${host_tools[*]}"
    apt-get update -qq && apt-get install -y -qq --no-install-recommends "${host_tools[@]}" >/dev/null
fi

for suite in "${suites[@]}"; do prepare "$suite"; done
$prepare_only && exit 0

shared=$(cd "$repo/.." && pwd)/shared

# Copies the working tree into the chroot by content: unchanged files keep their old times, so the chroot's
# .build stays incremental. Git's files and every build folder stay out.
sync_sources() {
    local root=$1
    mkdir -p "$root/src/pokestub" "$root/src/shared"
    rsync -r --checksum --delete --links \
        --exclude=/.build --exclude=/.swiftpm --exclude=/.git --exclude=/Fuzz/.build --exclude=__pycache__ \
        "$repo/" "$root/src/pokestub/"
    # The PokeAPI dump beside the repository, which the tests' upstream serves; read-only, as in CI.
    if [[ -d "$shared" ]] && ! mountpoint -q "$root/src/shared"; then
        mount --bind -o ro "$shared" "$root/src/shared"
        mounted+=("$root/src/shared")
    fi
}

# Runs a step in the chroot's copy of the sources, timed, with its output in $cache/$suite.log; a failure
# prints the output's end and fails the check.
step() {
    local suite=$1 name=$2 started status=0
    shift 2
    started=$(date +%s)
    in_chroot "$cache/$suite" /bin/sh -c 'cd /src/pokestub && exec "$@"' sh "$@" >>"$cache/$suite.log" 2>&1 || status=$?
    if [[ $status -ne 0 ]]; then
        echo "check-toolchains: $suite: $name FAILED (exit $status); the end of $cache/$suite.log, each line once:" >&2
        tail -n 400 "$cache/$suite.log" | awk '!seen[$0]++' | tail -n 80 >&2
        exit 1
    fi
    echo "check-toolchains: $suite: $name: ok ($(($(date +%s) - started)) s)"
}

# Debian's swiftlang 6.2.3 ships the `_Testing_Foundation` module (Swift Testing's Foundation overlay), which
# every test target that imports Foundation and Testing links against, without its library. An empty library
# in its place lets the tests link; pokestub's tests use nothing of the overlay (attachments of Foundation
# types), so a missing symbol would still fail the link.
patch_toolchain() {
    local root=$1 lib=usr/libexec/swift/lib/swift/linux
    if [[ -d "$root/$lib/_Testing_Foundation.swiftmodule" && ! -e "$root/$lib/lib_Testing_Foundation.so" ]]; then
        in_chroot "$root" cc -shared -o "/$lib/lib_Testing_Foundation.so" -x c /dev/null
    fi
}

check_suite() {
    local suite=$1 root="$cache/$1" version
    : >"$cache/$suite.log"
    mount_into "$root"
    patch_toolchain "$root"
    sync_sources "$root"
    version=$(in_chroot "$root" swift --version 2>&1 | head -n 1)
    echo "check-toolchains: $suite: $version; libmicrohttpd $(in_chroot "$root" pkg-config --modversion libmicrohttpd), libcurl $(in_chroot "$root" pkg-config --modversion libcurl)"
    step "$suite" "debug build of every product, warnings as errors" swift build -Xswiftc -warnings-as-errors
    step "$suite" "release build of every product, warnings as errors" swift build -c release -Xswiftc -warnings-as-errors
    if [[ "$suite" == sid ]]; then
        step "$suite" "test build, warnings as errors" swift build --build-tests -Xswiftc -warnings-as-errors
        step "$suite" "the whole test suite" swift test --skip-build --no-parallel
    fi
    unmount_all
}

for suite in "${suites[@]}"; do check_suite "$suite"; done
