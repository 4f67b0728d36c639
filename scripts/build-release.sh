#!/usr/bin/env bash
# Builds the release pokestub and prints the path of the binary; extra arguments go to `swift build`
# (say, --scratch-path DIR, relative to the repository's root). Build output goes to standard error.
#
# On Linux the Swift runtime and Foundation are linked into the binary (`--static-swift-stdlib`): it then
# needs only the system's libraries (libmicrohttpd, libcurl, libxml2), not the toolchain's, which is what
# /usr/local/bin/pokestub under systemd wants, and it starts with less to load: on the 2-core AMD EPYC, start
# to first answer took 12.4 ms instead of 18.4 ms with no stubs and 66 ms instead of 74 ms with the shipped
# ones, and RSS after start was 40.3 MiB instead of 46.0 (medians of 9 starts each). On macOS the Swift
# runtime is part of the system and SwiftPM links it dynamically whatever is asked, so no flag is passed.
# The static link prints one linker warning about `mktemp` from the toolchain's libFoundationEssentials.a
# itself (with gold); it is not pokestub's code and the build succeeds.
#
# On Linux with glibc 2.36 or later, and lld beside the toolchain (Swift's Linux toolchains ship it), the
# binary is linked by lld with its relative relocations packed (`-z pack-relative-relocs`, DT_RELR, which
# glibc's loader reads from 2.36): the table the loader walks at every start shrinks from 1.85 MB of
# Elf64_Rela records (gold's, all read and so resident for the process's life) to 34 KB, about 2 MiB less
# resident memory (Benchmarks/README.md). Where either is missing, the toolchain's default linker (gold) links as before.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release)
if [[ "$(uname -s)" == Linux ]]; then
    flags+=(--static-swift-stdlib)
    glibc="$(getconf GNU_LIBC_VERSION 2>/dev/null || true)"   # "glibc 2.36"; empty on musl
    glibc_minor="${glibc#glibc 2.}"
    toolchain_bin="$(dirname "$(readlink -f "$(command -v swift)")")"
    if [[ "$glibc" == "glibc 2."* && "$glibc_minor" =~ ^[0-9]+$ && "$glibc_minor" -ge 36 ]] \
        && { [[ -x "$toolchain_bin/ld.lld" ]] || command -v ld.lld >/dev/null; }; then
        flags+=(-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
    fi
fi
swift build "${flags[@]}" --product pokestub "$@" >&2
bin_path="$(swift build "${flags[@]}" --show-bin-path "$@")"
echo "$bin_path/pokestub"
