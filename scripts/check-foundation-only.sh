#!/bin/sh
# Checks that the libraries apps and UI tests link (PokemonClient, PokestubClient, and PokestubJSON, which
# PokestubClient re-exports) import nothing beyond Foundation, FoundationNetworking and PokestubLocking, so they
# build for iOS 16 and macOS 13 as well as Linux. Synchronization is not allowed: its Mutex and Atomic need
# macOS 15 / iOS 18. PokestubClient may import PokestubJSON too; PokestubLocking itself may import only the C
# library (Darwin, Glibc, Musl). PokestubClient, which UI test runners link (apps link PokemonClient), may also
# import Testing, Swift Testing, in a file wrapped whole in `#if canImport(Testing)`, so it builds where the
# toolchain has no Swift Testing. This checks all four targets.
# Every `import` line in their Swift sources counts, attributes (`@preconcurrency import`), access levels
# (`public import`) and submodule imports (`import struct Foundation.URL`) included.
# Usage: scripts/check-foundation-only.sh [repository root]   (default: the parent of this script's folder)
set -eu

root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
foundation='Foundation|FoundationNetworking|PokestubLocking'
status=0
checked=0

for target in PokestubJSON PokemonClient PokestubClient PokestubLocking; do
    case $target in
    PokestubClient) allowed="^($foundation|PokestubJSON|Testing)\$" allowedText='Foundation, FoundationNetworking, PokestubLocking, PokestubJSON and (under #if canImport(Testing)) Testing' ;;
    PokestubLocking) allowed='^(Darwin|Glibc|Musl)$' allowedText='the C library (Darwin, Glibc, Musl)' ;;
    *) allowed="^($foundation)\$" allowedText='Foundation, FoundationNetworking and PokestubLocking' ;;
    esac
    dir="$root/Sources/$target"
    if [ ! -d "$dir" ]; then
        echo "check-foundation-only: $dir is missing" >&2
        status=1
        continue
    fi
    # One line per import: path:line:text. Matches `import X`, `@attr import X`, `public import X`,
    # `import kind X.Y`, with leading whitespace (imports inside #if blocks).
    matches=$(grep -rnE --include='*.swift' \
        '^[[:space:]]*(@[A-Za-z_]+([(][^)]*[)])?[[:space:]]+)*((public|package|internal|fileprivate|private)[[:space:]]+)?import[[:space:]]' \
        "$dir" || true)
    [ -z "$matches" ] && continue
    while IFS= read -r match; do
        checked=$((checked + 1))
        text=${match#*:*:}
        module=$(printf '%s\n' "$text" | sed -E \
            -e 's/^[[:space:]]*(@[A-Za-z_]+([(][^)]*[)])?[[:space:]]+)*//' \
            -e 's/^(public|package|internal|fileprivate|private)[[:space:]]+//' \
            -e 's/^import[[:space:]]+//' \
            -e 's/^(typealias|struct|class|enum|protocol|let|var|func)[[:space:]]+//' \
            -e 's/[.[:space:]].*$//')
        if [ "$module" = Testing ] && [ "$(head -n 1 "${match%%:*}")" != '#if canImport(Testing)' ]; then
            echo "${match%%:*}: imports Testing outside a file wrapped whole in #if canImport(Testing)" >&2
            status=1
        fi
        if ! printf '%s\n' "$module" | grep -qE "$allowed"; then
            echo "${match%%:*}:$(printf '%s' "${match#*:}" | cut -d: -f1): imports $module; $target may import only $allowedText" >&2
            status=1
        fi
    done <<EOF_MATCHES
$matches
EOF_MATCHES
done

if [ "$status" -eq 0 ]; then
    echo "check-foundation-only: $checked import lines in PokestubJSON, PokemonClient, PokestubClient and PokestubLocking, all Foundation or C library only"
fi
exit "$status"
