#!/usr/bin/env bash
# Type-checks the code a Darwin build compiles against Darwin's real C declarations, as far as that can be
# done without a Mac. No macOS SDK can be had here, so the check makes a stand-in `Darwin` module from the
# macOS C library headers PyPI's ziglang wheel ships (lib/libc/include/any-darwin-any: Apple's <sys/event.h>,
# <sys/stat.h>, <netinet/in.h>, <pthread.h>, <mach/...>), with a Swift overlay for what Apple's Darwin overlay
# adds (scripts/darwin-standin/Darwin.swift: errno, SIG_IGN, the fixed-argument open and fcntl, S_IF* as
# mode_t, CLOCK_*, environ) and the Dispatch API Linux's libdispatch lacks (DispatchStandIn.swift: file system
# object sources). swiftc type-checks against it with Clang targeting x86_64-apple-macosx13.0 (the package's
# floor) and only those headers: kqueue and EVFILT_VNODE, st_mtimespec, sin_len, SO_NOSIGPIPE and pthread_t
# as a pointer resolve; inotify, st_mtim, accept4, pipe2, SOCK_CLOEXEC and MSG_NOSIGNAL do not.
#
# What it checks, one Swift module per target (UNITS below), in Swift 6 mode with ExistentialAny and DEBUG
# (as the package builds), any warning failing the check as test.sh's -warnings-as-errors would:
#   - every `+Darwin.swift` file under Sources/, Tests/ and Fuzz/Sources/, found, not listed: a new one is
#     checked with its target;
#   - the shared files UNITS lists: the Foundation-free ones with a Darwin branch (`#if canImport(Darwin)`,
#     `os(macOS)`) and what the platform files use;
#   - stand-ins for what those use from files that need Foundation (scripts/darwin-standin/stubs/), each
#     declaration under a `// same as PATH` line checked to still start a line of PATH, so it cannot drift.
# In the copies it type-checks, `#if` conditions are resolved for macOS (os(macOS) and canImport(Darwin)
# true, other os(...) and canImport(Glibc), canImport(FoundationNetworking), ... false), lines unmoved.
#
# What it cannot check, and prints file by file: files that import Foundation (swift-corelibs-foundation is
# built over Glibc and cannot be loaded over Darwin's headers), Testing, XCTest or CCurl. A `+Darwin.swift`
# file among them fails the check (move its Foundation code to a shared file), and so does a Foundation-free
# file with a Darwin branch that UNITS does not list. Availability is not checked either (Swift's own target
# stays Linux, so `Duration`'s macOS 13 or `Mutex`'s macOS 15 pass), nor Apple Silicon's arm64 headers.
#
# The stand-in is made once, outside the clone: POKESTUB_DARWIN_STANDIN, default
# /var/cache/pokestub/darwin-standin. The headers (the ziglang wheel below, 100 MB, checked against its
# SHA-256; 7 MB kept) are downloaded only when missing; the modules are rebuilt when missing, or when
# scripts/darwin-standin/ or the compiler changed. Cold, with the download, it took 4-7 s here; warm, 1-2 s.
# POKESTUB_SKIP_DARWIN=1 skips it; on macOS it does not apply (Xcode's compiler checks the real SDK).
# Usage: scripts/check-darwin.sh [repository root]   (default: the parent of this script's folder)
# scripts/check-darwin-selftest.sh plants Linux-only code in a copy's Darwin files and checks that this fails.
set -euo pipefail

scripts=$(cd "$(dirname "$0")" && pwd)
root=${1:-$(cd "$scripts/.." && pwd)}
inputs="$scripts/darwin-standin"
standin=${POKESTUB_DARWIN_STANDIN:-/var/cache/pokestub/darwin-standin}
# The wheel the headers come from; every platform's wheel holds the same headers.
zig_version=0.17.0
zig_wheel=ziglang-0.17.0-py3-none-manylinux_2_12_x86_64.manylinux2010_x86_64.musllinux_1_1_x86_64.whl
zig_sha256=97079827064a7492cce5541ceb438ae8003ce1e54e399676da2d62fb7a5dc08b
# The Clang target: macOS 13, the package's floor.
clang_target=x86_64-apple-macosx13.0

if [[ "${POKESTUB_SKIP_DARWIN:-}" == 1 ]]; then
    echo "check-darwin: skipped (POKESTUB_SKIP_DARWIN=1)"
    exit 0
fi
if [[ "$(uname -s)" == Darwin ]]; then
    echo "check-darwin: skipped: on macOS the build itself compiles the Darwin code against the SDK"
    exit 0
fi
[[ -d "$root/Sources" ]] || { echo "check-darwin: $root/Sources is missing" >&2; exit 2; }
swiftc=$(command -v swiftc) || { echo "check-darwin: swiftc is not on PATH" >&2; exit 2; }
mkdir -p "$standin" 2>/dev/null || {
    echo "check-darwin: cannot make $standin; set POKESTUB_DARWIN_STANDIN to a writable folder" >&2
    exit 2
}

# One run at a time makes the stand-in (a lock in its folder, where flock(1) exists); the checks themselves
# run side by side.
exec 9>"$standin/.lock"
if command -v flock >/dev/null; then flock 9; fi

# The headers: ziglang's macOS C library headers, made in a scratch folder and moved into place whole, so a
# download or extraction cut short leaves nothing that looks complete.
headers="$standin/ziglang-$zig_version/any-darwin-any"
if [[ ! -f "$headers/sys/event.h" ]]; then
    echo "check-darwin: downloading ziglang $zig_version from PyPI for macOS's C headers (once; 100 MB)"
    scratch=$(mktemp -d "$standin/.download.XXXXXX")
    trap 'rm -rf "$scratch"' EXIT
    python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux_2_12_x86_64 \
        --dest "$scratch" "ziglang==$zig_version" || {
        echo "check-darwin: pip could not download ziglang $zig_version (PyPI unreachable?)" >&2
        exit 2
    }
    actual=$(sha256sum "$scratch/$zig_wheel" | cut -d' ' -f1)
    if [[ "$actual" != "$zig_sha256" ]]; then
        echo "check-darwin: $zig_wheel has SHA-256 $actual, expected $zig_sha256" >&2
        exit 2
    fi
    python3 - "$scratch/$zig_wheel" "$scratch/headers" <<'PYTHON'
import os
import sys
import zipfile

wheel, destination = sys.argv[1:3]
prefix = "ziglang/lib/libc/include/any-darwin-any/"
with zipfile.ZipFile(wheel) as archive:
    for member in archive.infolist():
        if member.filename.startswith(prefix) and not member.is_dir():
            target = os.path.join(destination, member.filename[len(prefix):])
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with archive.open(member) as source, open(target, "wb") as sink:
                sink.write(source.read())
PYTHON
    rm -rf "$headers"
    mkdir -p "$(dirname "$headers")"
    mv "$scratch/headers" "$headers"
    rm -rf "$scratch"
    trap - EXIT
fi

# The modules: the Clang module Darwin over those headers, its Swift overlay and the Dispatch stand-in, in a
# folder named after what they are made from (the inputs, the compiler, the headers), so a change to any of
# them makes a new one (and removes the old); `complete` is written last.
compiler_version=$("$swiftc" --version 2>/dev/null | head -1)
key=$( (cat "$inputs/module.modulemap" "$inputs/Darwin.h" "$inputs/Darwin.swift" "$inputs/DispatchStandIn.swift"
    echo "$compiler_version $zig_version $clang_target") | sha256sum | cut -c1-16)
modules="$standin/modules-$key"
# Flags every swiftc run here shares: Clang sees only Darwin's headers (-nostdlibinc; -idirafter, so Clang's
# own stddef.h and friends stay first), for macOS.
common=(-Xfrontend -clang-target -Xfrontend "$clang_target" -Xcc -nostdlibinc -Xcc -idirafter -Xcc "$headers"
    -I "$modules/swift" -I "$modules/clang" -module-cache-path "$modules/module-cache" -diagnostic-style llvm)
if [[ ! -f "$modules/complete" ]]; then
    echo "check-darwin: making the Darwin stand-in in $modules"
    find "$standin" -maxdepth 1 -name 'modules-*' -exec rm -rf {} +
    mkdir -p "$modules/clang" "$modules/swift"
    cp "$inputs/module.modulemap" "$inputs/Darwin.h" "$modules/clang/"
    # Swift 5 mode, as Apple builds its overlays (MAP_FAILED is a non-Sendable global let there too).
    for module in Darwin DispatchStandIn; do
        if ! output=$("$swiftc" -emit-module -parse-as-library -swift-version 5 -module-name "$module" \
            "$inputs/$module.swift" -emit-module-path "$modules/swift/$module.swiftmodule" "${common[@]}" 2>&1); then
            # swiftc warns "libc not found" for its own Linux target, whose headers -nostdlibinc hides.
            grep -v "libc not found" <<<"$output" >&2 || true
            echo "check-darwin: could not build the stand-in's $module module" >&2
            exit 2
        fi
    done
    touch "$modules/complete"
fi
exec 9>&-

exec python3 - "$root" "$inputs" "$swiftc" "${common[@]}" <<'PYTHON'
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

root, inputs, swiftc = sys.argv[1:4]
common = sys.argv[4:]
# The repository of this script, which the stand-ins are named relative to (root may be a copy of the tree).
repository = os.path.dirname(os.path.dirname(inputs))
started = time.monotonic()

# The targets checked, one Swift module each: (module, folder, how, shared files, stand-ins, modules it
# imports). Every `+Darwin.swift` file of the folder is added. "module" units are emitted for the units
# after them to import; "typecheck" units only type-check. A file here must need no Foundation.
UNITS = [
    # The lock every target uses, whole: pthread mutexes (C library only).
    ("PokestubLocking", "Sources/PokestubLocking", "module", ["*.swift"], [], []),
    # realpath(3); the streamed body file's close(2); stat(2)'s times for a file's identity; the heap given
    # back (malloc_zone_pressure_relief). Emitted for PokestubServer (HTTPHeaders, a stand-in).
    ("PokestubCore", "Sources/PokestubCore", "module",
     ["Stubs/RealPath.swift", "HTTP/StreamedFile.swift", "Recording/FileIdentity.swift", "Memory/HeapRelease.swift"],
     ["PokestubCore.swift"],
     ["PokestubLocking"]),
    # Sockets: binding (SocketType+Darwin), addresses (sockaddr_in with sin_len, inet_pton, inet_ntop),
    # connection deadlines (clock_gettime, shutdown), errno text; libmicrohttpd's connection values; the
    # server threads' prepared responses (pthread_key_create's destructor, non-optional on Darwin).
    ("PokestubServer", "Sources/PokestubServer", "typecheck",
     ["HTTPListener.swift", "HTTPServerError.swift", "SocketAddress.swift", "ConnectionDeadlines.swift",
      "ConnectionReader.swift", "PreparedResponses.swift"], ["PokestubServer.swift"],
     ["PokestubLocking", "PokestubCore", "CMicroHTTPD"]),
    # The kqueue stub tree watcher, launchd's (absent) notify and socket activation, signals through Dispatch;
    # the malloc arenas (nothing to set on Darwin).
    ("pokestub", "Sources/pokestub", "typecheck",
     ["SignalHandlers.swift", "SocketActivation.swift", "StubTreeEventSource.swift", "SystemdNotifier.swift",
      "HeapArenas.swift"],
     ["pokestub.swift"], ["PokestubLocking"]),
    # Test sockets: SO_NOSIGPIPE, socket types.
    ("PokestubTestSupport", "Tests/PokestubTestSupport", "typecheck", [], [], ["PokestubLocking"]),
    # posix_spawn file actions as Darwin's opaque pointer.
    ("PokestubCLITests", "Tests/PokestubCLITests", "typecheck", [], [], []),
]

# Where Darwin code is looked for; the target of a file is the folder right under these.
SEARCHED = ["Sources", "Tests", "Fuzz/Sources"]
# Modules that cannot be loaded over the stand-in: swift-corelibs-foundation, Swift Testing and XCTest are
# built over Glibc; curl's headers are not in the stand-in.
UNCHECKABLE = ["Foundation", "FoundationNetworking", "FoundationEssentials", "Testing", "XCTest", "CCurl"]

DARWIN_CONDITION = re.compile(r"canImport\(Darwin\)|os\((macOS|iOS|tvOS|watchOS|visionOS)\)")
IMPORT = re.compile(
    r"^\s*(@\w+(\([^)]*\))?\s+)*((public|package|internal|fileprivate|private)\s+)?import\s+"
    r"((typealias|struct|class|enum|protocol|let|var|func)\s+)?(\w+)")
LINUX_ONLY_MODULES = {"Glibc", "Musl", "Bionic", "Android", "WASILibc", "ucrt", "WinSDK", "CRT",
                      "FoundationNetworking", "FoundationXML"}


def resolve(condition):
    """An `#if` condition with os(...) and canImport(...) resolved for macOS; other terms are kept."""
    condition = re.sub(r"\bos\((\w+)\)", lambda m: "true" if m.group(1) == "macOS" else "false", condition)

    def can_import(match):
        name = match.group(1)
        if name == "Darwin":
            return "true"
        return "false" if name in LINUX_ONLY_MODULES else match.group(0)

    return re.sub(r"\bcanImport\((\w+)\)", can_import, condition)


def truth(condition):
    """Whether a resolved condition holds (None when it cannot be read); terms it cannot tell (compiler(...),
    canImport(Testing), -D flags such as DEBUG, which the check sets) count as true."""
    text = re.sub(r"\b(compiler|swift|arch|targetEnvironment|canImport|hasFeature|hasAttribute)\([^)]*\)",
                  "True", condition)
    text = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", text))
    text = re.sub(r"\b(?!True\b|False\b)[A-Za-z_]\w*\b", "True", text)
    text = text.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
    try:
        return bool(eval(text, {"__builtins__": {}}))
    except Exception:
        return None


def macos_copy(text):
    """The file with every #if/#elseif condition resolved for macOS (line for line)."""
    lines = []
    for line in text.split("\n"):
        match = re.match(r"^(\s*#(?:if|elseif)\s+)(.*)$", line)
        lines.append(match.group(1) + resolve(match.group(2)) if match else line)
    return "\n".join(lines)


def active_imports(text):
    """Modules imported on macOS: imports in branches whose conditions are false there are left out."""
    stack = []  # per open #if: [this branch active, a branch of the chain was taken]
    modules = []
    for line in text.split("\n"):
        stripped = line.strip()
        enclosing = all(frame[0] for frame in stack)
        directive = re.match(r"^#(if|elseif|else|endif)\b\s*(.*)$", stripped)
        if directive:
            kind, condition = directive.groups()
            if kind == "if":
                value = truth(resolve(condition)) is not False
                stack.append([value, value])
            elif kind == "elseif" and stack:
                value = not stack[-1][1] and truth(resolve(condition)) is not False
                stack[-1][0] = value
                stack[-1][1] = stack[-1][1] or value
            elif kind == "else" and stack:
                stack[-1][0] = not stack[-1][1]
                stack[-1][1] = True
            elif kind == "endif" and stack:
                stack.pop()
            continue
        if enclosing:
            match = IMPORT.match(line)
            if match:
                modules.append(match.group(7))
    return modules


def has_darwin_branch(text):
    return any(re.match(r"^\s*#(if|elseif)\b", line) and DARWIN_CONDITION.search(line)
               for line in text.split("\n"))


def target_of(path):
    parts = path.split("/")
    depth = 3 if path.startswith("Fuzz/Sources/") else 2
    return "/".join(parts[:depth]) if len(parts) > depth else None


def read(path):
    with open(os.path.join(root, path), encoding="utf-8") as handle:
        return handle.read()


problems = []

# Every Swift file with Darwin code: the `+Darwin.swift` files and the files with a Darwin branch.
darwin_code = {}
for base in SEARCHED:
    for directory, subdirectories, files in os.walk(os.path.join(root, base)):
        subdirectories.sort()
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.relpath(os.path.join(directory, name), root)
            text = read(path)
            if name.endswith("+Darwin.swift") or has_darwin_branch(text):
                darwin_code[path] = text

# The units: the listed shared files and every `+Darwin.swift` file of the folder; a folder with Darwin
# files and no unit gets one of its own.
units = []
folders = {unit[1] for unit in UNITS}
for path in sorted(darwin_code):
    folder = target_of(path)
    if path.endswith("+Darwin.swift") and folder not in folders:
        UNITS.append((os.path.basename(folder), folder, "typecheck", [], [], []))
        folders.add(folder)
for module, folder, how, shared, stands, imports in UNITS:
    files = []
    for pattern in shared:
        found = sorted(os.path.relpath(path, root) for path in glob.glob(os.path.join(root, folder, pattern)))
        if not found:
            problems.append(f"scripts/check-darwin.sh: UNITS lists {folder}/{pattern}, which does not exist")
        files += found
    files += sorted(path for path in darwin_code if path.endswith("+Darwin.swift") and target_of(path) == folder)
    files = list(dict.fromkeys(files))
    units.append((module, how, files, [os.path.join(inputs, "stubs", name) for name in stands], imports))
checked = {path for unit in units for path in unit[2]}

# What is not checked, and why; a Darwin file or a Foundation-free file with a Darwin branch left out fails.
unchecked = []
for path in sorted(checked):
    reasons = [module for module in dict.fromkeys(active_imports(read(path))) if module in UNCHECKABLE]
    if reasons:
        problems.append(f"{path}:1: cannot be type-checked against Darwin: imports {', '.join(reasons)}"
                        + ("; move that code into a shared file" if path.endswith("+Darwin.swift")
                           else "; take it out of UNITS in scripts/check-darwin.sh"))
for path, text in sorted(darwin_code.items()):
    reasons = [module for module in dict.fromkeys(active_imports(text)) if module in UNCHECKABLE]
    if path in checked:
        continue
    if reasons:
        unchecked.append((path, reasons))
    else:
        problems.append(f"{path}:1: has a Darwin branch and needs no Foundation, but scripts/check-darwin.sh's "
                        "UNITS does not list it")

# Each stand-in declaration under a `// same as PATH` line must still start a line of PATH.
for unit in units:
    for stand_in in unit[3]:
        with open(stand_in, encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        for number, line in enumerate(lines[:-1], start=2):
            marked = re.match(r"^\s*//\s*same as\s+(\S+)\s*$", line)
            if not marked:
                continue
            declaration = lines[number - 1].split(" {")[0].strip()
            target = os.path.join(root, marked.group(1))
            real = []
            if os.path.exists(target):
                with open(target, encoding="utf-8") as handle:
                    real = [text.strip() for text in handle]
            if not any(text.startswith(declaration) for text in real):
                problems.append(f"{os.path.relpath(stand_in, repository)}:{number}: `{declaration}` is no longer "
                                f"declared in {marked.group(1)}: update the stand-in")

# libmicrohttpd's header, for CMicroHTTPD, found where pkg-config or the usual prefixes put it.
scratch = tempfile.mkdtemp(prefix="check-darwin.")
c_headers = os.path.join(scratch, "c-headers")
os.makedirs(c_headers)
prefixes = []
try:
    prefixes.append(subprocess.run(["pkg-config", "--variable=includedir", "libmicrohttpd"],
                                   capture_output=True, text=True).stdout.strip())
except OSError:
    pass
for prefix in prefixes + ["/usr/include", "/usr/local/include", "/opt/homebrew/include"]:
    if prefix and os.path.exists(os.path.join(prefix, "microhttpd.h")):
        os.symlink(os.path.join(prefix, "microhttpd.h"), os.path.join(c_headers, "microhttpd.h"))
        break
else:
    problems.append("check-darwin: microhttpd.h not found (install libmicrohttpd-dev): "
                    "Sources/PokestubServer/ConnectionReader.swift needs it")

# The copies, conditions resolved for macOS, under scratch/src with the same relative paths.
source = os.path.join(scratch, "src")
for path in checked:
    os.makedirs(os.path.dirname(os.path.join(source, path)), exist_ok=True)
    with open(os.path.join(source, path), "w", encoding="utf-8") as handle:
        handle.write(macos_copy(darwin_code.get(path) or read(path)))
emitted = os.path.join(scratch, "modules")
os.makedirs(emitted)


def run(unit):
    module, how, files, stands, imports = unit
    # As SwiftPM builds the package (Swift 6, ExistentialAny, DEBUG, the package name for `package` access), in
    # one frontend (-wmo), so every file's errors are reported, not only the first failing batch's; CMicroHTTPD
    # from its module map, its microhttpd.h after Darwin's headers.
    command = [swiftc, "-wmo", "-parse-as-library", "-swift-version", "6", "-enable-upcoming-feature",
               "ExistentialAny", "-D", "DEBUG", "-package-name", "pokestub", "-module-name", module,
               "-I", emitted, "-I", os.path.join(root, "Sources/CMicroHTTPD"), "-Xcc", "-idirafter", "-Xcc", c_headers,
               "-Xfrontend", "-import-module", "-Xfrontend", "DispatchStandIn"] + common
    if how == "module":
        command += ["-emit-module", "-emit-module-path", os.path.join(emitted, module + ".swiftmodule")]
    else:
        command += ["-typecheck"]
    command += [os.path.join(source, path) for path in files] + stands
    result = subprocess.run(command, capture_output=True, text=True)
    # swiftc warns "libc not found" for its own Linux target, whose headers -nostdlibinc hides: expected.
    lines = [line for line in (result.stdout + result.stderr).split("\n")
             if line.strip() and "libc not found for" not in line]
    text = "\n".join(lines).replace(source + "/", "").replace(root + "/", "").replace(repository + "/", "")
    failed = result.returncode != 0 or any(re.search(r":\d+:\d+: (error|warning):", line) for line in lines)
    return module, files, failed, text


# Units in waves: each after the modules it imports.
results = []
done = {"CMicroHTTPD"}
pending = [unit for unit in units if unit[2]]
with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
    while pending:
        ready = [unit for unit in pending if all(module in done for module in unit[4])]
        if not ready:
            problems.append("scripts/check-darwin.sh: UNITS imports modules no unit makes: "
                            + ", ".join(unit[0] for unit in pending))
            break
        for result in pool.map(run, ready):
            results.append(result)
            done.add(result[0])
        pending = [unit for unit in pending if unit not in ready]
shutil.rmtree(scratch, ignore_errors=True)

failed_units = [result for result in results if result[2]]
for module, files, failed, text in results:
    if failed:
        print(f"check-darwin: {module}: type-check against Darwin failed:", file=sys.stderr)
        print(text or "(swiftc failed without a message)", file=sys.stderr)
    else:
        print(f"check-darwin: {module}: {', '.join(os.path.basename(path) for path in files)}")
if unchecked:
    print("check-darwin: not checked, as they import modules built over Glibc that cannot be loaded over Darwin's "
          "headers (their Darwin branches, and the C calls they make on Darwin):")
    for path, reasons in unchecked:
        print(f"  {path}: imports {', '.join(reasons)}")
for problem in problems:
    print(problem, file=sys.stderr)

darwin_files = sum(1 for path in checked if path.endswith("+Darwin.swift"))
unloadable = sorted({module for _, reasons in unchecked for module in reasons})
summary = (f"{len(checked)} files type-checked against Darwin in {len(results)} modules ({darwin_files} "
           f"+Darwin.swift, {len(checked) - darwin_files} shared); {len(unchecked)} files with Darwin branches "
           f"not checked (they import {', '.join(unloadable) or 'nothing unloadable'}); "
           f"{time.monotonic() - started:.1f} s")
if failed_units or problems:
    print(f"check-darwin: FAILED: {len(failed_units)} module(s), {len(problems)} other problem(s); {summary}",
          file=sys.stderr)
    sys.exit(1)
print(f"check-darwin: {summary}")
PYTHON
