#!/usr/bin/env bash
# Checks scripts/check-portability.sh itself on a copy of Sources/, Tests/, Fuzz/ and Benchmarks/: it passes on
# the tree as it is, and fails, naming file:line and the API, when a violation is planted: `inotify_init1(0)`
# in a shared file, a Linux platform file whose Darwin sibling is gone, a platform file not wrapped whole,
# `import Synchronization`; the Darwin spellings Linux code gets wrong (`st_mtim`, `accept4`, `pipe2`,
# `pthread_t()`, a memberwise `sockaddr_in(...)` over two lines, an unguarded `import FoundationNetworking`);
# Linux-only code in a C shim, in Fuzz/ and in Benchmarks/; and APIs newer than a tree's oldest compiler
# (`SourceLocation.filePath`, `Test.cancel`, a bound `#expect(throws:)` result, `Attachment`, an exit test).
# It also checks that the same code passes where it is allowed: in a Linux-only branch (`#if os(Linux)`, the
# `#else` of `#if canImport(Darwin)`, `#ifdef __linux__`), under `#if compiler(>=6.3)`, and a bound
# `#expect(throws:)` result in Tests/ (built with 6.2 and later). Runs in CI with the other scripts/check-*.sh.
set -euo pipefail
repository=$(cd "$(dirname "$0")/.." && pwd)
check="$repository/scripts/check-portability.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
output=""

fresh_copy() {
    rm -rf "$work/tree"
    mkdir -p "$work/tree"
    cp -R "$repository/Sources" "$repository/Tests" "$repository/Fuzz" "$repository/Benchmarks" "$work/tree/"
}

# append FILE TEXT: TEXT after FILE's last line; prints the line TEXT starts on.
append() {
    local file="$work/tree/$1"
    local line=$(($(wc -l <"$file") + 1))
    printf '%s\n' "$2" >>"$file"
    echo "$line"
}

# expect_failure NAME TEXT...: the check must exit 1 and its output must hold every TEXT.
expect_failure() {
    local name=$1
    shift
    local status=0
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

# expect_silent NAME TEXT...: the output of the last run names none of TEXT (code allowed where it was planted).
expect_silent() {
    local name=$1
    shift
    for text in "$@"; do
        if grep -qF -- "$text" <<<"$output"; then
            echo "check-portability-selftest: $name: reported, but allowed there: $(grep -F -- "$text" <<<"$output")" >&2
            failures=$((failures + 1))
            return
        fi
    done
    echo "check-portability-selftest: $name: passes as it should"
}

# The tree as it is passes.
fresh_copy
if ! bash "$check" "$work/tree" >/dev/null; then
    echo "check-portability-selftest: the unchanged tree fails the check" >&2
    failures=$((failures + 1))
fi

# inotify_init1 planted in a shared file, after its last line.
fresh_copy
line=$(append Sources/pokestub/Daemon.swift 'let plantedDescriptor = inotify_init1(0)')
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

# The Darwin spellings Linux code gets wrong, one file each, in one run; and the same code in Linux-only
# branches of Sources/, which fails too: there Linux-only code belongs in platform files, which
# scripts/check-darwin.sh pairs with their Darwin siblings.
fresh_copy
mtim=$(append Sources/pokestub/Daemon.swift 'func plantedModified(_ status: stat) -> Int { status.st_mtim.tv_sec }')
accept=$(append Sources/PokestubServer/HTTPListener.swift 'let plantedAccepted = accept4(3, nil, nil, 0)')
pipe=$(append Tests/PokestubTestSupport/Eventually.swift 'func plantedPipe(_ ends: inout [Int32]) { _ = pipe2(&ends, 0) }')
thread=$(append Tests/PokestubTestSupport/TestFailure.swift 'var plantedThread = pthread_t()')
address=$(append Sources/PokestubServer/SocketAddress.swift 'let plantedAddress = sockaddr_in(
    sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: 0), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))')
networking="$work/tree/Sources/PokestubCore/Stubs/RealPath.swift"
{ echo 'import FoundationNetworking'; cat "$networking"; } >"$work/planted.swift" && mv "$work/planted.swift" "$networking"
linux_branch=$(append Sources/PokestubCore/HTTP/StreamedFile.swift '#if os(Linux)
    func plantedLinuxModified(_ status: stat) -> Int { status.st_mtim.tv_sec }
#endif')
else_branch=$(append Sources/PokestubCore/HTTP/StreamedFile.swift '#if canImport(Darwin)
    let plantedTime = 0
#else
    func plantedElseModified(_ status: stat) -> Int { status.st_mtim.tv_sec }
#endif')
expect_failure "Linux spellings in shared files" \
    "Sources/pokestub/Daemon.swift:$mtim: st_atim/st_mtim/st_ctim (st_mtim)" \
    "Sources/PokestubServer/HTTPListener.swift:$accept: Linux-only system call (accept4)" \
    "Tests/PokestubTestSupport/Eventually.swift:$pipe: Linux-only system call (pipe2)" \
    "Tests/PokestubTestSupport/TestFailure.swift:$thread: pthread_t() zero value (pthread_t())" \
    "Sources/PokestubServer/SocketAddress.swift:$address: memberwise sockaddr_in(...) (sockaddr_in( sin_family:)" \
    "Sources/PokestubCore/Stubs/RealPath.swift:1: import FoundationNetworking outside #if canImport(FoundationNetworking)" \
    "Sources/PokestubCore/HTTP/StreamedFile.swift:$((linux_branch + 1)): st_atim/st_mtim/st_ctim (st_mtim) outside a Linux platform file" \
    "Sources/PokestubCore/HTTP/StreamedFile.swift:$((else_branch + 3)): st_atim/st_mtim/st_ctim (st_mtim) outside a Linux platform file"

# Linux-only code in a C shim, in Fuzz/ and in Benchmarks/; the shim's own #ifdef __linux__ passes.
fresh_copy
shim=$(append Sources/CMicroHTTPD/shim.h 'static inline int planted_accept(int fd) { return accept4(fd, 0, 0, SOCK_CLOEXEC); }')
guarded=$(append Sources/CCurl/shim.h '#ifdef __linux__
static const int planted_flags = MSG_NOSIGNAL;
#else
static const int planted_flags = 0;
#endif')
fuzz=$(append Fuzz/Sources/FuzzSupport/Invariant.swift 'let plantedFlags = SOCK_CLOEXEC')
bench=$(append Benchmarks/json-floor.swift 'func plantedBenchModified(_ status: stat) -> Int { status.st_mtim.tv_sec }')
# Outside Sources/ and Tests/, a Linux-only branch is enough.
fuzz_branch=$(append Fuzz/Sources/FuzzSupport/Invariant.swift '#if os(Linux)
    let plantedLinuxFlags = SOCK_CLOEXEC
#endif')
expect_failure "Linux-only code in a C shim, Fuzz/ and Benchmarks/" \
    "Sources/CMicroHTTPD/shim.h:$shim: Linux-only system call (accept4) outside #ifdef __linux__" \
    "Sources/CMicroHTTPD/shim.h:$shim: SOCK_CLOEXEC/SOCK_NONBLOCK (SOCK_CLOEXEC)" \
    "Fuzz/Sources/FuzzSupport/Invariant.swift:$fuzz: SOCK_CLOEXEC/SOCK_NONBLOCK" \
    "Benchmarks/json-floor.swift:$bench: st_atim/st_mtim/st_ctim"
expect_silent "MSG_NOSIGNAL under #ifdef __linux__ in a C shim, SOCK_CLOEXEC under #if os(Linux) in Fuzz/" \
    "Sources/CCurl/shim.h:$((guarded + 1)):" "Fuzz/Sources/FuzzSupport/Invariant.swift:$((fuzz_branch + 1)):"

# APIs newer than the oldest compiler: Sources/ builds with 6.0, Tests/ with 6.2.
fresh_copy
testing=Sources/PokestubClient/PokestubAdminClient+SwiftTesting.swift
path=$(append "$testing" '#if canImport(Testing)
    let plantedPath = Test.current?.sourceLocation.filePath
    func plantedError() throws {
        let error = #expect(throws: CancellationError.self) { throw CancellationError() }
        _ = error
    }
    let plantedAttachment = Attachment("text", named: "planted.txt")
    func plantedExit() async { await #expect(processExitsWith: .failure) { fatalError() } }
#endif')
cancel=$(append Tests/PokemonClientTests/RecordingExampleTests.swift 'func plantedCancel() throws { try Test.cancel("planted") }')
test_error=$(append Tests/PokemonClientTests/RecordingExampleTests.swift 'func plantedTestError() {
    let error = #expect(throws: CancellationError.self) { throw CancellationError() }
    _ = error
}')
guarded=$(append Tests/PokemonClientTests/RecordingExampleTests.swift '#if compiler(>=6.3)
    func plantedGuardedCancel() throws { try Test.cancel("planted") }
#endif')
expect_failure "APIs newer than the oldest compiler" \
    "$testing:$((path + 1)): Swift Testing's SourceLocation.filePath (sourceLocation.filePath) needs Swift 6.3; Sources/ builds with Swift 6.0" \
    "$testing:$((path + 3)): Swift Testing's #expect(throws:) result" \
    "$testing:$((path + 6)): Swift Testing's Attachment (Attachment) needs Swift 6.2" \
    "$testing:$((path + 7)): Swift Testing's exit test" \
    "Tests/PokemonClientTests/RecordingExampleTests.swift:$cancel: Swift Testing's Test.cancel (Test.cancel) needs Swift 6.3; Tests/ builds with Swift 6.2"
expect_silent "a bound #expect(throws:) result in Tests/, Test.cancel under #if compiler(>=6.3)" \
    "RecordingExampleTests.swift:$((test_error + 1)):" "RecordingExampleTests.swift:$((guarded + 1)):"

if [[ $failures -ne 0 ]]; then
    echo "check-portability-selftest: $failures case(s) failed" >&2
    exit 1
fi
echo "check-portability-selftest: the check passes on the tree and fails on each planted violation"
