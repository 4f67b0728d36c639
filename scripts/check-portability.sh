#!/usr/bin/env bash
# Fails when Linux-only code sits where a Darwin build would compile it: every OS-specific call lives in a
# platform file (FlyingFox's way: `X+Glibc.swift` beside `X+Darwin.swift`, each wrapped whole in
# `#if os(Linux)` / `#if canImport(Darwin)`). No Mac is available to CI, so this check and the Apple
# reference cited in each Darwin file are the evidence that the Darwin build has what it needs.
#
# It reports, as path:line: message, and exits 1 when:
#   - a Linux-only API (the rules below) appears in a Swift file under Sources/ or Tests/ that is not a Linux
#     platform file (comments are not read);
#   - a Linux platform file (`*+Glibc.swift`, `*+Linux.swift`, or any file whose first line that is not a
#     comment is `#if os(Linux)`) has no Darwin sibling (`X+Darwin.swift` beside it);
#   - a platform file (`+Glibc`, `+Linux`, `+Darwin`) is not wrapped whole: its first line that is not a
#     comment must be its platform's `#if`, its last line the matching `#endif`, with no `#else`/`#elseif`
#     between at that level.
# Usage: scripts/check-portability.sh [repository root]   (default: the parent of this script's folder)
# scripts/check-portability-selftest.sh plants violations in a copy of the tree and checks that this fails.
set -euo pipefail

root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
[[ -d "$root/Sources" ]] || { echo "check-portability: $root/Sources is missing" >&2; exit 2; }

exec python3 - "$root" <<'PYTHON'
import os
import re
import sys

root = sys.argv[1]

# The rules, in one place: (where it applies, pattern, what is reported). "all" rules break a Darwin build
# (the name does not exist there, or has another type) and apply to Sources/ and Tests/; "sources" rules are
# Linux-only behaviour (files, protocols) that would compile on Darwin but not work, and apply to Sources/
# only: tests of Linux-only behaviour switch themselves off elsewhere.
RULES = [
    # inotify(7): Darwin has kqueue vnode events instead (StubTreeWatcher+Darwin.swift).
    ("all", r"\binotify_\w+", "inotify"),
    # inotify's IN_* event masks (IN_CREATE, IN_NONBLOCK, ...).
    ("all", r"\bIN_[A-Z][A-Z_]*\b", "inotify constant"),
    # epoll(7): Linux's readiness API; Darwin has kqueue(2).
    ("all", r"\bepoll_\w+|\bEPOLL[A-Z_]*\b", "epoll"),
    # socket(2) type flags Darwin lacks: set FD_CLOEXEC / O_NONBLOCK with fcntl(2) instead.
    ("all", r"\bSOCK_(CLOEXEC|NONBLOCK)\b", "SOCK_CLOEXEC/SOCK_NONBLOCK"),
    # send(2) flag Darwin lacks: Darwin sets SO_NOSIGPIPE on the socket (SocketSending+Darwin.swift).
    ("all", r"\bMSG_NOSIGNAL\b", "MSG_NOSIGNAL"),
    # Names qualified with the Linux C module do not resolve on Darwin.
    ("all", r"\bGlibc\.", "Glibc. qualification"),
    # Glibc imports socket types as an enum (`__socket_type`), Darwin as Int32: `.rawValue` is Linux-only
    # (use a SocketType platform file).
    ("all", r"\bSOCK_(STREAM|DGRAM|RAW|SEQPACKET|RDM)\.rawValue\b", "socket type .rawValue"),
    # Synchronization's Mutex and Atomic need macOS 15 / iOS 18, above the package's floors: use
    # PokestubLocking's Locked.
    ("all", r"^\s*(@\w+(\([^)]*\))?\s+)*((public|package|internal|fileprivate|private)\s+)?import\s+((typealias|struct|class|enum|protocol|let|var|func)\s+)?Synchronization\b", "Synchronization import"),
    # Linux's /proc file system.
    ("sources", r"\"/proc/", "/proc"),
    # libsystemd's sd_* calls (sd_notify, sd_listen_fds, ...).
    ("sources", r"\bsd_[a-z_]+\s*\(", "sd_ call"),
    # systemd's environment protocol: the notify socket and socket activation variables, read by name.
    ("sources", r"\"(NOTIFY_SOCKET|LISTEN_FDS|LISTEN_PID|LISTEN_FDNAMES)\"", "systemd environment variable"),
]
COMPILED = [(scope, re.compile(pattern), name) for scope, pattern, name in RULES]

# `import Glibc` must sit inside `#if os(Linux)` or `#if canImport(Glibc)` (or their #elseif), checked apart
# from the rules because it depends on the enclosing conditions.
IMPORT_GLIBC = re.compile(r"^\s*(@\w+\s+)*((public|package|internal|fileprivate|private)\s+)?import\s+Glibc\b")
LINUX_CONDITION = re.compile(r"^\s*#(if|elseif)\s+(os\(Linux\)|canImport\(Glibc\))\s*$")

LINUX_SUFFIXES = ("+Glibc.swift", "+Linux.swift")
DARWIN_SUFFIX = "+Darwin.swift"
LINUX_OPENING = re.compile(r"^#if\s+os\(Linux\)\s*$")
DARWIN_OPENING = re.compile(r"^#if\s+canImport\(Darwin\)\s*$")

problems = []


def code_of(line):
    """The line without its `//` comment (a `//` inside a string literal is kept)."""
    in_string = False
    i = 0
    while i < len(line):
        c = line[i]
        if c == "\\" and in_string:
            i += 2
            continue
        if c == '"':
            in_string = not in_string
        elif not in_string and line.startswith("//", i):
            return line[:i]
        i += 1
    return line


def first_code_line(lines):
    """Index of the first line that is neither blank nor a comment, or None."""
    in_block = False
    for index, line in enumerate(lines):
        text = line.strip()
        if in_block:
            if "*/" in text:
                in_block = False
            continue
        if not text or text.startswith("//"):
            continue
        if text.startswith("/*"):
            in_block = "*/" not in text
            continue
        return index
    return None


def last_code_line(lines):
    for index in range(len(lines) - 1, -1, -1):
        text = lines[index].strip()
        if text and not text.startswith("//"):
            return index
    return None


def wrapped_whole(lines, opening):
    """Whether the file is one `#if` (matching `opening`) from its first code line to its last, no #else."""
    first, last = first_code_line(lines), last_code_line(lines)
    if first is None or not opening.match(lines[first].strip()):
        return False
    if lines[last].strip() != "#endif":
        return False
    depth = 0
    for index in range(first, last + 1):
        text = lines[index].strip()
        if text.startswith("#if"):
            depth += 1
        elif text.startswith("#endif"):
            depth -= 1
            if depth == 0 and index != last:
                return False
        elif (text.startswith("#else") or text.startswith("#elseif")) and depth == 1:
            return False
    return depth == 0


def relative(path):
    return os.path.relpath(path, root)


def check_file(path, scope):
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    name = os.path.basename(path)
    first = first_code_line(lines)
    opens_linux = first is not None and LINUX_OPENING.match(lines[first].strip()) is not None
    is_linux_file = name.endswith(LINUX_SUFFIXES) or opens_linux

    if is_linux_file and not wrapped_whole(lines, LINUX_OPENING):
        problems.append(f"{relative(path)}:1: Linux platform file is not wrapped whole in #if os(Linux) ... #endif")
    if name.endswith(DARWIN_SUFFIX) and not wrapped_whole(lines, DARWIN_OPENING):
        problems.append(
            f"{relative(path)}:1: Darwin platform file is not wrapped whole in #if canImport(Darwin) ... #endif")
    if is_linux_file:
        base = name
        for suffix in LINUX_SUFFIXES:
            if base.endswith(suffix):
                base = base[: -len(suffix)] + ".swift"
        sibling = os.path.join(os.path.dirname(path), base[: -len(".swift")] + DARWIN_SUFFIX)
        if not os.path.exists(sibling):
            problems.append(f"{relative(path)}:1: Linux platform file has no Darwin sibling {relative(sibling)}")
        return  # Linux-only APIs are what a Linux platform file is for.

    conditions = []  # the enclosing #if conditions, innermost last; True where it is a Linux condition
    in_block = False
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if in_block:
            if "*/" in text:
                in_block = False
            continue
        if text.startswith("/*"):
            in_block = "*/" not in text
            continue
        if text.startswith("#if"):
            conditions.append(LINUX_CONDITION.match(text) is not None)
        elif text.startswith("#elseif"):
            if conditions:
                conditions[-1] = LINUX_CONDITION.match(text) is not None
        elif text.startswith("#else"):
            if conditions:
                conditions[-1] = False
        elif text.startswith("#endif"):
            if conditions:
                conditions.pop()
        code = code_of(line)
        if not code.strip():
            continue
        if IMPORT_GLIBC.match(code) and not (conditions and conditions[-1]):
            problems.append(
                f"{relative(path)}:{number}: import Glibc outside #if os(Linux) / #if canImport(Glibc)")
        for rule_scope, pattern, rule_name in COMPILED:
            if rule_scope == "sources" and scope != "sources":
                continue
            found = pattern.search(code)
            if found:
                problems.append(
                    f"{relative(path)}:{number}: {rule_name} ({found.group(0).strip()}) outside a Linux platform file")


checked = 0
for folder, scope in (("Sources", "sources"), ("Tests", "all")):
    base = os.path.join(root, folder)
    for directory, subdirectories, files in os.walk(base):
        subdirectories.sort()
        for name in sorted(files):
            if name.endswith(".swift"):
                check_file(os.path.join(directory, name), scope)
                checked += 1

if problems:
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"check-portability: {len(problems)} problem(s) in {checked} Swift files", file=sys.stderr)
    sys.exit(1)
print(f"check-portability: {checked} Swift files; Linux-only code only in Linux platform files, each with a Darwin sibling")
PYTHON
