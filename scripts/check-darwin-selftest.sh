#!/usr/bin/env bash
# Checks scripts/check-darwin.sh itself on a copy of Sources/ and Tests/: it passes on the tree as it is, and
# fails, naming file:line, when Linux-only code is planted where a Darwin build compiles it: `st_mtim` (Darwin:
# st_mtimespec), `accept4` with `SOCK_CLOEXEC` and `inotify_init1` in Darwin platform files, `pthread_t()`
# (a pointer on Darwin, with no zero initializer), and a memberwise `sockaddr_in(...)` without `sin_len` in a
# shared file; and when a Darwin file imports Foundation, a Foundation-free file with a Darwin branch is not
# listed, or a stand-in no longer matches the declaration it stands for. Two runs of the check on the stand-in
# scripts/check-darwin.sh keeps (made first if missing). Runs in CI with the other scripts/check-*.sh.
set -euo pipefail
repository=$(cd "$(dirname "$0")/.." && pwd)
check="$repository/scripts/check-darwin.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

if [[ "${POKESTUB_SKIP_DARWIN:-}" == 1 || "$(uname -s)" == Darwin ]]; then
    echo "check-darwin-selftest: skipped, as scripts/check-darwin.sh is"
    exit 0
fi

fresh_copy() {
    rm -rf "$work/tree"
    mkdir -p "$work/tree"
    cp -R "$repository/Sources" "$repository/Tests" "$work/tree/"
}

# plant FILE TEXT: TEXT as the last lines inside FILE's closing #endif (a platform file's own #if), or at its
# end when it has none; prints the line TEXT starts on.
plant() {
    python3 - "$work/tree/$1" "$2" <<'PYTHON'
import sys

path, text = sys.argv[1:3]
with open(path, encoding="utf-8") as handle:
    lines = handle.read().rstrip("\n").split("\n")
at = len(lines) - 1 if lines[-1].strip() == "#endif" else len(lines)
lines[at:at] = text.split("\n")
with open(path, "w", encoding="utf-8") as handle:
    handle.write("\n".join(lines) + "\n")
print(at + 1)
PYTHON
}

# expect_failure NAME TEXT...: the check must exit 1 and its output must hold every TEXT.
expect_failure() {
    local name=$1
    shift
    local output status=0
    output=$(bash "$check" "$work/tree" 2>&1) || status=$?
    if [[ $status -ne 1 ]]; then
        echo "check-darwin-selftest: $name: exit status $status, expected 1:" >&2
        echo "$output" >&2
        failures=$((failures + 1))
        return
    fi
    for text in "$@"; do
        if ! grep -qF -- "$text" <<<"$output"; then
            echo "check-darwin-selftest: $name: the output does not name \"$text\":" >&2
            echo "$output" >&2
            failures=$((failures + 1))
            return
        fi
    done
    echo "check-darwin-selftest: $name: fails as it should:"
    for text in "$@"; do grep -F -- "$text" <<<"$output" | head -1; done | sort -u | sed 's/^/    /'
}

# The tree as it is passes (and the stand-in is made, if it was missing).
fresh_copy
if ! output=$(bash "$check" "$work/tree" 2>&1); then
    echo "check-darwin-selftest: the unchanged tree fails the check:" >&2
    echo "$output" >&2
    exit 1
fi

# Linux-only code in Darwin files and in checked shared files, one per module, in one run.
fresh_copy
watcher=Sources/pokestub/StubTreeWatcher+Darwin.swift
watcher_line=$(plant "$watcher" '    func plantedModified(_ status: stat) -> Int { Int(status.st_mtim.tv_sec) }')
sending=Tests/PokestubTestSupport/SocketSending+Darwin.swift
sending_line=$(plant "$sending" '    func plantedAccept(_ socket: Int32) -> Int32 { accept4(socket, nil, nil, SOCK_CLOEXEC) }')
socket_type=Sources/PokestubServer/SocketType+Darwin.swift
socket_type_line=$(plant "$socket_type" '    func plantedWatch() -> Int32 { inotify_init1(0) }')
spawn=Tests/PokestubCLITests/SpawnFileActions+Darwin.swift
spawn_line=$(plant "$spawn" '    func plantedThread() -> pthread_t { pthread_t() }')
address=Sources/PokestubServer/SocketAddress.swift
address_line=$(plant "$address" \
    'func plantedAddress() -> sockaddr_in { sockaddr_in(sin_family: 2, sin_port: 0, sin_addr: in_addr(), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0)) }')
expect_failure "Linux-only code in Darwin and shared files" \
    "$watcher:$watcher_line:" "has no member 'st_mtim'" \
    "$sending:$sending_line:" "cannot find 'accept4' in scope" "cannot find 'SOCK_CLOEXEC' in scope" \
    "$socket_type:$socket_type_line:" "cannot find 'inotify_init1' in scope" \
    "$spawn:$spawn_line:" \
    "$address:$address_line:" "missing argument for parameter 'sin_len'"

# A Darwin file that imports Foundation, a Foundation-free file with a Darwin branch that UNITS does not list,
# and a stand-in whose real declaration was renamed, in one run.
fresh_copy
notifier=Sources/pokestub/SystemdNotifier+Darwin.swift
{ echo '#if canImport(Darwin)'; echo '    import Foundation'; tail -n +2 "$repository/$notifier"; } >"$work/tree/$notifier"
printf '#if canImport(Darwin)\n    import Darwin\n#endif\n\nfunc plantedPid() -> Int32 { getpid() }\n' \
    >"$work/tree/Sources/PokestubCore/PlantedPid.swift"
sed -i 's/static func visibleEntries(of folder: String)/static func visibleChildren(of folder: String)/' \
    "$work/tree/Sources/pokestub/StubTreeWatcher.swift"
expect_failure "Foundation in a Darwin file, an unlisted file, a stale stand-in" \
    "$notifier:1: cannot be type-checked against Darwin: imports Foundation" \
    "Sources/PokestubCore/PlantedPid.swift:1: has a Darwin branch and needs no Foundation" \
    "scripts/darwin-standin/stubs/pokestub.swift:11: \`static func visibleEntries(of folder: String) -> [String]\` is no longer declared"

if [[ $failures -ne 0 ]]; then
    echo "check-darwin-selftest: $failures case(s) failed" >&2
    exit 1
fi
echo "check-darwin-selftest: the check passes on the tree and fails on each planted violation"
