#!/usr/bin/env bash
# Fails when Linux-only code sits where a Darwin build would compile it, or code needs a newer compiler than
# the oldest the package supports. Every OS-specific call lives in a platform file (FlyingFox's way:
# `X+Glibc.swift` beside `X+Darwin.swift`, each wrapped whole in `#if os(Linux)` / `#if canImport(Darwin)`).
# No Mac is available to CI, so this check, scripts/check-darwin.sh (the Darwin files type-checked against
# macOS's C headers) and the Apple reference cited in each Darwin file are the evidence that the Darwin build
# has what it needs.
#
# It reads the Swift files under Sources/, Tests/, Fuzz/ and Benchmarks/ and the C shims (Sources/C*/*.h, .c),
# comments left out, and reports, as path:line: message, exiting 1, when:
#   - a Linux-only API (the "all", "sources" and "c" rules below) appears outside a Linux platform file (under
#     Sources/ and Tests/), or outside a Linux platform file and a branch no Darwin build compiles (under Fuzz/
#     and Benchmarks/: `#if os(Linux)`, `#if canImport(Glibc)`, the `#else` of `#if canImport(Darwin)`; in the C
#     shims, `#ifdef __linux__` or the `#else` of `#ifdef __APPLE__`);
#   - an API or language feature newer than the oldest compiler a file must build with (the version rules
#     below, against OLDEST_COMPILER) appears outside `#if compiler(>=` that version `)`;
#   - `import Glibc` is outside `#if os(Linux)` / `#if canImport(Glibc)`, or `import FoundationNetworking`
#     outside `#if canImport(FoundationNetworking)` (Darwin's Foundation has URLSession itself);
#   - under Sources/ and Tests/: a Linux platform file (`*+Glibc.swift`, `*+Linux.swift`, or any file whose
#     first line that is not a comment is `#if os(Linux)`) has no Darwin sibling (`X+Darwin.swift` beside
#     it), or a platform file (`+Glibc`, `+Linux`, `+Darwin`) is not wrapped whole: its first line that is not
#     a comment must be its platform's `#if`, its last line the matching `#endif`, with no `#else`/`#elseif`
#     between at that level.
# Usage: scripts/check-portability.sh [repository root]   (default: the parent of this script's folder)
# scripts/check-portability-selftest.sh plants violations in a copy of the tree and checks that this fails.
set -euo pipefail

root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
[[ -d "$root/Sources" ]] || { echo "check-portability: $root/Sources is missing" >&2; exit 2; }

exec python3 - "$root" <<'PYTHON'
import bisect
import functools
import itertools
import os
import re
import sys

root = sys.argv[1]

# The rules, in one place: (where it applies, pattern, what is reported).
#   "all": breaks a Darwin build (the name does not exist there, or has another type): every Swift file read.
#   "sources": Linux-only behaviour (files, protocols) that would compile on Darwin but not work: Sources/
#     only; tests of Linux-only behaviour switch themselves off elsewhere.
#   "c": Linux-only in the C shims Swift imports (Sources/C*/).
#   A version, "6.1": an API or language feature that came with that compiler (Swift Testing, Foundation and
#     the standard library ship with it): applies to the trees whose oldest compiler (OLDEST_COMPILER) is
#     older, outside `#if compiler(>=6.1)`.
# Patterns are searched in each file's code with comments left out, so one may span lines.
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
    # System calls Darwin lacks: accept4(2), pipe2(2), dup3(2) (Darwin: accept, pipe, dup2, then fcntl(2) for
    # FD_CLOEXEC / O_NONBLOCK), and eventfd(2), signalfd(2), timerfd_create(2) (Darwin: kqueue).
    ("all", r"\b(accept4|pipe2|dup3|eventfd|signalfd|timerfd_\w+)\s*\(", "Linux-only system call"),
    # Glibc's `struct stat` times; Darwin's are st_atimespec, st_mtimespec, st_ctimespec (<sys/stat.h>).
    ("all", r"\bst_[amc]tim\b", "st_atim/st_mtim/st_ctim"),
    # A zero `pthread_t`: an integer on Glibc, an opaque pointer on Darwin (`pthread_t()` does not compile
    # there); keep a `pthread_t?` instead.
    ("all", r"\bpthread_t\s*\(\s*\)", "pthread_t() zero value"),
    # sockaddr_in's memberwise initializer: Darwin's struct starts with `sin_len`, so the labels Glibc's takes
    # do not compile there; make it zeroed (`sockaddr_in()`) and set the fields.
    ("all", r"\bsockaddr_in6?\s*\(\s*sin6?_\w+\s*:", "memberwise sockaddr_in(...)"),
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
    # The C shims: Linux-only calls, flags, fields and headers (as the Swift rules above).
    ("c", r"\b(accept4|pipe2|dup3|eventfd|signalfd|timerfd_\w+)\s*\(", "Linux-only system call"),
    ("c", r"\bSOCK_(CLOEXEC|NONBLOCK)\b", "SOCK_CLOEXEC/SOCK_NONBLOCK"),
    ("c", r"\bMSG_NOSIGNAL\b", "MSG_NOSIGNAL"),
    ("c", r"\bst_[amc]tim\b", "st_atim/st_mtim/st_ctim"),
    ("c", r"\binotify_\w+|\bepoll_\w+|\bEPOLL[A-Z_]*\b", "inotify/epoll"),
    ("c", r"#\s*include\s*<(sys/(inotify|epoll|eventfd|signalfd|timerfd|sendfile|prctl)\.h|linux/[^>]*|features\.h)>",
     "Linux-only header"),
    # Swift Testing 6.3 (Xcode 26.4): `SourceLocation.filePath` is public (`_filePath` before).
    ("6.3", r"\b\w*[Ll]ocation\??\.filePath\b", "Swift Testing's SourceLocation.filePath"),
    # Swift Testing 6.3: cancelling the running test or test case, `Test.cancel(_:)`, `Test.Case.cancel(_:)`.
    ("6.3", r"\bTest(\.Case)?\.cancel\s*\(", "Swift Testing's Test.cancel"),
    # Swift Testing 6.2 (Xcode 26): exit tests, `#expect(processExitsWith:)` / `#require(processExitsWith:)`
    # (`exitsWith:` was the experimental spelling before).
    ("6.2", r"#(expect|require)\s*\(\s*(processExitsWith|exitsWith)\s*:", "Swift Testing's exit test"),
    # Swift Testing 6.2: attachments, `Attachment` and the `Attachable` protocols.
    ("6.2", r"\b(Attachment|Attachable|AttachableWrapper)\b", "Swift Testing's Attachment"),
    # Foundation 6.2 (macOS 26; swift-foundation SF-0011): concurrency-safe notifications,
    # `NotificationCenter.MainActorMessage` and `AsyncMessage`.
    ("6.2", r"\b(MainActorMessage|AsyncMessage)\b", "Foundation's NotificationCenter messages"),
    # The standard library 6.2: InlineArray and the Span types (macOS 26 and later for most).
    ("6.2", r"\b(InlineArray|RawSpan|MutableSpan|MutableRawSpan|OutputSpan|OutputRawSpan|UTF8Span)\b|\bSpan\s*<",
     "InlineArray/Span"),
    # Swift 6.2 (SE-0461): `@concurrent` and `nonisolated(nonsending)`.
    ("6.2", r"@concurrent\b|\bnonisolated\s*\(\s*nonsending\s*\)", "@concurrent/nonisolated(nonsending)"),
    # Swift Testing 6.1 (Xcode 16.3, ST-0006): `#expect(throws:)` and `#require(throws:)` return the error;
    # with 6.0 they return Void, so binding or returning their result does not compile.
    ("6.1", r"(?:\b(?:let|var)\s+\w+[^=\n]*|\b(?!_\b)\w+(?:\.\w+)*\s*)=\s*(?:try\s+)?(?:await\s+)?"
     r"#(?:expect|require)\s*\(\s*throws\s*:|\breturn\s+(?:try\s+)?(?:await\s+)?#(?:expect|require)\s*\(\s*throws\s*:",
     "Swift Testing's #expect(throws:) result"),
]
COMPILED = [(where, re.compile(pattern, re.M), name) for where, pattern, name in RULES]

# The oldest compiler each tree must build with, which the version rules are checked against. Sources/:
# Swift 6.0 (Xcode 16.0; scripts/check-toolchains.sh builds every product with Debian trixie's 6.0.3).
# Tests/: 6.2 (Debian sid's 6.2.3 builds and runs them there; nothing older builds them); Fuzz/ and
# Benchmarks/ are held to the same. Lowering Tests to (6, 0) holds the tests to 6.0 too, which the 6.1 rule
# (`let error = #expect(throws:)`) then enforces there.
OLDEST_COMPILER = {"Sources": (6, 0), "Tests": (6, 2), "Fuzz": (6, 2), "Benchmarks": (6, 2)}

# `import Glibc` must sit inside `#if os(Linux)` or `#if canImport(Glibc)` (or their #elseif), checked apart
# from the rules because it depends on the enclosing conditions; `import FoundationNetworking` likewise inside
# `#if canImport(FoundationNetworking)`: Darwin has no such module, and Linux toolchains may lack it.
IMPORT = r"^\s*(@\w+\s+)*((public|package|internal|fileprivate|private)\s+)?import\s+"
IMPORT_GLIBC = re.compile(IMPORT + r"Glibc\b")
LINUX_CONDITION = re.compile(r"^\s*#(if|elseif)\s+(os\(Linux\)|canImport\(Glibc\))\s*$")
IMPORT_NETWORKING = re.compile(IMPORT + r"FoundationNetworking\b")
NETWORKING_CONDITION = re.compile(r"^\s*#(if|elseif)\s+[^|]*(?<!!)canImport\(FoundationNetworking\)[^|]*$")

LINUX_SUFFIXES = ("+Glibc.swift", "+Linux.swift")
DARWIN_SUFFIX = "+Darwin.swift"
LINUX_OPENING = re.compile(r"^#if\s+os\(Linux\)\s*$")
DARWIN_OPENING = re.compile(r"^#if\s+canImport\(Darwin\)\s*$")

APPLE_SYSTEMS = ("macOS", "iOS", "tvOS", "watchOS", "visionOS")
# Modules no Darwin system has (canImport is false there).
NOT_ON_DARWIN = {"Glibc", "Musl", "Bionic", "Android", "WASILibc", "ucrt", "WinSDK", "CRT", "FoundationNetworking",
                 "FoundationXML"}
LINUX_MACROS = {"__linux__", "__linux", "linux", "__gnu_linux__"}
DARWIN_MACROS = {"__APPLE__", "__MACH__"}

problems = []


def code_of(line):
    """The line without its `//` comment (a `//` inside a string literal is kept)."""
    if "//" not in line:
        return line
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


@functools.lru_cache(maxsize=None)
def compiled_on_darwin(condition, language):
    """Whether some Darwin build may compile a branch with this condition: false only when it is false on every
    Apple system whatever the terms it cannot tell (DEBUG, compiler(...), canImport(Testing), ...) are."""
    atoms = {}

    def atom(value):
        name = f"a{len(atoms)}"
        atoms[name] = value
        return f" {name} "

    if language == "c":
        if re.search(r"[<>=+*/%&|^~]", re.sub(r"&&|\|\||!(?!=)", "", condition)):
            return True  # arithmetic or comparisons: cannot tell
        text = re.sub(r"\bdefined\s*\(\s*(\w+)\s*\)|\bdefined\s+(\w+)",
                      lambda m: atom(m.group(1) or m.group(2)), condition)
        text = re.sub(r"\b(?!a\d+\b)[A-Za-z_]\w*\b", lambda m: atom(m.group(0)), text)
        systems = [None]
    else:
        text = re.sub(r"\b(os|canImport|compiler|swift|arch|targetEnvironment|hasFeature|hasAttribute|_runtime|"
                      r"_endian|_pointerBitWidth|_hasAtomicBitWidth)\s*\(\s*([^)]*?)\s*\)",
                      lambda m: atom((m.group(1), m.group(2))), condition)
        text = re.sub(r"\b(?!a\d+\b|true\b|false\b)[A-Za-z_]\w*\b", lambda m: atom(("flag", m.group(0))), text)
        systems = APPLE_SYSTEMS
    text = re.sub(r"\btrue\b", " True ", re.sub(r"\bfalse\b", " False ", text))
    text = re.sub(r"\b0\b", " False ", text)
    text = re.sub(r"\b[1-9]\d*[uUlL]*\b", " True ", text)
    text = text.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
    for system in systems:
        values, unknown = {}, []
        for name, value in atoms.items():
            if language == "c":
                if value in LINUX_MACROS:
                    values[name] = False
                elif value in DARWIN_MACROS:
                    values[name] = True
                else:
                    unknown.append(name)
            elif value[0] == "os":
                values[name] = value[1] == system
            elif value[0] == "canImport" and value[1].split(",")[0].strip() in NOT_ON_DARWIN:
                values[name] = False
            elif value[0] == "canImport" and value[1] == "Darwin" or value[0] == "_runtime" and value[1] == "_ObjC":
                values[name] = True
            else:
                unknown.append(name)
        if len(unknown) > 8:
            return True
        for guess in itertools.product((False, True), repeat=len(unknown)):
            values.update(zip(unknown, guess))
            try:
                if eval(text, {"__builtins__": {}}, values):
                    return True
            except Exception:
                return True
    return False


def compiler_guard(condition):
    """The compiler version a branch's own condition guarantees (`compiler(>=6.2)`), or None."""
    if "||" in condition:
        return None
    found = [(int(major), int(minor or 0)) for major, minor in
             re.findall(r"(?<!!)\bcompiler\s*\(\s*>=\s*(\d+)(?:\.(\d+))?", condition)]
    return max(found) if found else None


def version(text):
    major, minor = text.split(".")
    return (int(major), int(minor))


def line_states(lines, language):
    """For each line: (its code, or "" for comments and directives; whether a Darwin build may compile it; the
    compiler version its branches guarantee; the innermost branch's directive line, or None)."""
    states = []
    frames = []  # per open #if: [conditions so far in the chain, this branch's condition, its directive line]
    in_block = False
    darwin, guard = True, None  # for the current branches, worked out again at each directive
    for line in lines:
        text = line.strip()
        if in_block:
            if "*/" in text:
                in_block = False
            states.append(("", True, None, None))
            continue
        if text.startswith("/*"):
            in_block = "*/" not in text
            states.append(("", True, None, None))
            continue
        code = code_of(line)
        directive = re.match(r"^\s*#\s*(if|ifdef|ifndef|elseif|elif|else|endif)\b(.*)$", code)
        if directive:
            kind, condition = directive.group(1), directive.group(2).strip()
            text = code.strip()
            if language == "c":
                condition = re.sub(r"/\*.*?\*/", "", condition).strip()
                if kind == "ifdef":
                    kind, condition = "if", f"defined({condition})"
                elif kind == "ifndef":
                    kind, condition = "if", f"!defined({condition})"
                elif kind == "elif":
                    kind = "elseif"
            if kind == "if":
                frames.append([[condition], condition, text])
            elif kind == "elseif" and frames:
                frames[-1][0].append(condition)
                frames[-1][1:] = [condition, text]
            elif kind == "else" and frames:
                frames[-1][1:] = [None, text]
            elif kind == "endif" and frames:
                frames.pop()
            states.append(("", True, None, None))
            darwin, guard = True, None
            for chain, condition, _ in frames:
                previous = chain if condition is None else chain[:-1]
                branch = " && ".join([f"!({c})" for c in previous] + ([f"({condition})"] if condition else []))
                if branch and not compiled_on_darwin(branch, language):
                    darwin = False
                if condition:
                    found = compiler_guard(condition)
                    if found and (guard is None or found > guard):
                        guard = found
            continue
        code = code if language == "swift" else re.sub(r"/\*.*?\*/", "", code)
        states.append((code, darwin, guard, frames[-1][2] if frames and frames[-1][1] else None))
    return states


def check_rules(path, lines, language, wheres, oldest, branches_allowed=True):
    """Reports every rule of `wheres` (and the version rules newer than `oldest`) that matches where it counts:
    outside a Linux-only branch, or anywhere when `branches_allowed` is false (Sources/ and Tests/ keep
    Linux-only code in platform files, where scripts/check-darwin.sh type-checks the Darwin side)."""
    states = line_states(lines, language)
    code = "\n".join(state[0] for state in states)
    starts = [0]
    for state in states:
        starts.append(starts[-1] + len(state[0]) + 1)
    reported = set()
    for where, pattern, name in COMPILED:
        needed = None
        if where[0].isdigit():
            needed = version(where)
            if oldest is None or oldest >= needed:
                continue
        elif where not in wheres:
            continue
        for found in pattern.finditer(code):
            number = bisect.bisect_right(starts, found.start())
            _, darwin, guard, _ = states[number - 1]
            if (number, name) in reported:
                continue
            text = " ".join(found.group(0).split()).rstrip("( ")
            text = text if len(text) <= 60 else text[:57] + "..."
            if needed is None and (darwin or not branches_allowed):
                where_text = "outside #ifdef __linux__" if language == "c" else \
                    "outside a Linux platform file" if not branches_allowed else \
                    "outside a Linux platform file or a Linux-only branch"
                problems.append(f"{relative(path)}:{number}: {name} ({text}) {where_text}")
                reported.add((number, name))
            elif needed is not None and (guard is None or guard < needed):
                tree = relative(path).split(os.sep)[0]
                problems.append(
                    f"{relative(path)}:{number}: {name} ({text}) needs Swift {needed[0]}.{needed[1]}; {tree}/ builds "
                    f"with Swift {oldest[0]}.{oldest[1]}: put it under #if compiler(>={needed[0]}.{needed[1]})")
                reported.add((number, name))
    return states


def check_swift(path, tree):
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    name = os.path.basename(path)
    platform_rules = tree in ("Sources", "Tests")
    first = first_code_line(lines)
    opens_linux = first is not None and LINUX_OPENING.match(lines[first].strip()) is not None
    is_linux_file = platform_rules and (name.endswith(LINUX_SUFFIXES) or opens_linux)

    if is_linux_file and not wrapped_whole(lines, LINUX_OPENING):
        problems.append(f"{relative(path)}:1: Linux platform file is not wrapped whole in #if os(Linux) ... #endif")
    if platform_rules and name.endswith(DARWIN_SUFFIX) and not wrapped_whole(lines, DARWIN_OPENING):
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

    # A Linux platform file is for Linux-only APIs; the version rules still apply to it.
    wheres = set() if is_linux_file else ({"all", "sources"} if tree == "Sources" else {"all"})
    states = check_rules(path, lines, "swift", wheres, OLDEST_COMPILER.get(tree), branches_allowed=not platform_rules)
    if is_linux_file:
        return
    for number, (code, _, _, innermost) in enumerate(states, start=1):
        if IMPORT_GLIBC.match(code) and not (innermost and LINUX_CONDITION.match(innermost)):
            problems.append(
                f"{relative(path)}:{number}: import Glibc outside #if os(Linux) / #if canImport(Glibc)")
        if IMPORT_NETWORKING.match(code) and not (innermost and NETWORKING_CONDITION.match(innermost)):
            problems.append(
                f"{relative(path)}:{number}: import FoundationNetworking outside #if canImport(FoundationNetworking)")


def check_c(path):
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    check_rules(path, lines, "c", {"c"}, None)


def walk(folder):
    """Files under folder, sorted, leaving out hidden folders and build products."""
    for directory, subdirectories, files in os.walk(folder):
        subdirectories[:] = sorted(d for d in subdirectories if not d.startswith(".") and d != "build")
        for name in sorted(files):
            yield os.path.join(directory, name)


swift_files = c_files = 0
for tree in ("Sources", "Tests", "Fuzz", "Benchmarks"):
    for path in walk(os.path.join(root, tree)):
        if path.endswith(".swift"):
            check_swift(path, tree)
            swift_files += 1
for shim in sorted(os.listdir(os.path.join(root, "Sources"))):
    if shim.startswith("C") and os.path.isdir(os.path.join(root, "Sources", shim)):
        for path in walk(os.path.join(root, "Sources", shim)):
            if path.endswith((".h", ".c")):
                check_c(path)
                c_files += 1

if problems:
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"check-portability: {len(problems)} problem(s) in {swift_files} Swift files and {c_files} C files",
          file=sys.stderr)
    sys.exit(1)
print(f"check-portability: {swift_files} Swift files and {c_files} C files; Linux-only code only in Linux platform "
      "files and branches, each platform file with a Darwin sibling; nothing newer than the oldest compiler")
PYTHON
