#!/usr/bin/env bash
# Checks scripts/check-portability.sh itself on a copy of Sources/ and Tests/: it passes on the tree as it
# is, and fails, naming file:line and the API, when a violation is planted: `inotify_init1(0)` in a shared
# file, a Linux platform file whose Darwin sibling is gone, a platform file not wrapped whole, and
# `import Synchronization`. Runs in CI with the other scripts/check-*.sh.
set -euo pipefail
repository=$(cd "$(dirname "$0")/.." && pwd)
check="$repository/scripts/check-portability.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fresh_copy() {
    rm -rf "$work/tree"
    mkdir -p "$work/tree"
    cp -R "$repository/Sources" "$repository/Tests" "$work/tree/"
}

# expect_failure NAME TEXT...: the check must exit 1 and its output must hold every TEXT.
expect_failure() {
    local name=$1
    shift
    local output status=0
    output=$(bash "$check" "$work/tree" 2>&1) || status=$?
    if [[ $status -ne 1 ]]; then
        echo "check-portability-selftest: $name: exit status $status, expected 1" >&2
        failures=$((failures + 1))
        return
    fi
    for text in "$@"; do
        if ! grep -qF -- "$text" <<<"$output"; then
            echo "check-portability-selftest: $name: the output does not name \"$text\":" >&2
            echo "$output" >&2
            failures=$((failures + 1))
            return
        fi
    done
    echo "check-portability-selftest: $name: fails as it should ($(grep -F -- "$1" <<<"$output" | head -1))"
}

# The tree as it is passes.
fresh_copy
if ! bash "$check" "$work/tree" >/dev/null; then
    echo "check-portability-selftest: the unchanged tree fails the check" >&2
    failures=$((failures + 1))
fi

# inotify_init1 planted in a shared file, after its last line.
fresh_copy
shared="$work/tree/Sources/pokestub/Daemon.swift"
echo 'let plantedDescriptor = inotify_init1(0)' >>"$shared"
line=$(wc -l <"$shared" | tr -d ' ')
expect_failure "inotify_init1 in a shared file" "Sources/pokestub/Daemon.swift:$line: inotify (inotify_init1)"

# A Linux platform file without its Darwin sibling.
fresh_copy
rm "$work/tree/Sources/pokestub/StubTreeWatcher+Darwin.swift"
expect_failure "a missing Darwin sibling" \
    "Sources/pokestub/StubTreeWatcher+Glibc.swift:1: Linux platform file has no Darwin sibling"

# A platform file that is not wrapped whole: code after its #endif.
fresh_copy
echo 'let outsideTheBranch = 1' >>"$work/tree/Sources/pokestub/SystemdNotifier+Darwin.swift"
expect_failure "a Darwin file not wrapped whole" \
    "Sources/pokestub/SystemdNotifier+Darwin.swift:1: Darwin platform file is not wrapped whole"

# Synchronization imported by a library apps link.
fresh_copy
library="$work/tree/Sources/PokemonClient/PokemonClient.swift"
{ echo 'import Synchronization'; cat "$library"; } >"$work/planted.swift" && mv "$work/planted.swift" "$library"
expect_failure "import Synchronization" "Sources/PokemonClient/PokemonClient.swift:1: Synchronization import"

if [[ $failures -ne 0 ]]; then
    echo "check-portability-selftest: $failures case(s) failed" >&2
    exit 1
fi
echo "check-portability-selftest: the check passes on the tree and fails on each planted violation"
