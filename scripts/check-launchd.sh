#!/usr/bin/env bash
# Checks the macOS install path without a Mac. The launchd job has one source, the `service do` block of
# Formula/pokestub.rb: `brew services` writes the plist from it for the Homebrew prefix in use, and
# launchd/render-plist.py renders the same job for any other prefix. This checks that
#   - no plist is kept by hand under launchd/ and the formula names no prefix (/usr/local, /opt/homebrew)
#     itself: every path comes from Homebrew's folder names (opt_bin, etc, var);
#   - the job renders for both of Homebrew's default prefixes, /opt/homebrew (Apple silicon) and /usr/local
#     (Intel), as Homebrew writes it (--homebrew) and as Docs/Mac.md installs it: each loads as a property list
#     (python3's plistlib; plutil -lint as well where there is a plutil: macOS has one, and so does the Swift
#     toolchain on Linux), with the keys launchd.plist(5) needs and absolute paths (launchd expands neither ~
#     nor variables), running `pokestub serve --config PREFIX/etc/pokestub/config.json`;
#   - `brew install --HEAD` builds only what it must: `swift build -c release --product pokestub` (no tests,
#     no other product), and `depends_on xcode:` names the Xcode whose Swift matches Package.swift's
#     swift-tools-version (the oldest compiler the package supports);
#   - config.json still holds the "stubs" line the formula rewrites, and the formula's Ruby syntax (ruby -c)
#     where ruby is installed.
# The rendering was also compared, by hand and not here, with Homebrew's own Service#to_plist run on the same
# block (Homebrew/brew's Library/Homebrew/service.rb): the same keys and values for both prefixes.
set -euo pipefail
cd "$(dirname "$0")/.."
formula=Formula/pokestub.rb
renderer=launchd/render-plist.py

if command -v ruby >/dev/null 2>&1; then
    ruby -c "$formula" >/dev/null || exit 1
    linted="ruby -c, "
else
    linted=""
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for prefix in /opt/homebrew /usr/local; do
    for mode in homebrew plain; do
        flag=$([[ $mode == homebrew ]] && echo --homebrew || true)
        python3 "$renderer" "$prefix" $flag -o "$work/${prefix//\//_}-$mode.plist"
    done
done
if command -v plutil >/dev/null 2>&1; then
    for plist in "$work"/*.plist; do
        lint=$(plutil -lint "$plist" 2>&1) || { echo "$lint" >&2; exit 1; }
    done
    linted+="plutil -lint, "
fi

python3 - "$formula" "$work" config.json Package.swift "$linted" <<'PY'
import glob, json, os, plistlib, re, sys

formula_path, work, config_path, package_path, linted = sys.argv[1:6]
problems = []

# One source: no hand-kept plist, no prefix written into the formula's code.
kept = sorted(glob.glob("launchd/*.plist"))
if kept:
    problems.append(f"{', '.join(kept)}: a plist kept by hand is a second source of the launchd job; render it "
                    "with launchd/render-plist.py PREFIX instead")
text = open(formula_path, encoding="utf-8").read()
code = "\n".join(line.split("#", 1)[0] if not line.lstrip().startswith("#") else "" for line in text.splitlines())
for prefix in ("/usr/local", "/opt/homebrew"):
    if prefix in code:
        problems.append(f"{formula_path}: names {prefix} itself; use Homebrew's folder names (opt_bin, etc, var), "
                        "which follow the prefix in use")

# The rendered jobs.
expected_types = {"Label": str, "ProgramArguments": list, "RunAtLoad": bool, "KeepAlive": bool,
                  "WorkingDirectory": str, "StandardOutPath": str, "StandardErrorPath": str}
shown = None
for prefix in ("/opt/homebrew", "/usr/local"):
    for mode in ("homebrew", "plain"):
        path = os.path.join(work, f"{prefix.replace('/', '_')}-{mode}.plist")
        where = f"render-plist.py {prefix}{' --homebrew' if mode == 'homebrew' else ''}"
        try:
            job = plistlib.load(open(path, "rb"))
        except Exception as error:  # plistlib raises several types for a malformed file
            problems.append(f"{where}: not a property list: {error}")
            continue
        mistyped = [f"{where}: {key} should be a {kind.__name__}, not {job.get(key)!r}"
                    for key, kind in expected_types.items() if not isinstance(job.get(key), kind)]
        if mistyped:
            problems += mistyped
            continue
        label = "homebrew.mxcl.pokestub" if mode == "homebrew" else "com.pokestub.pokestub"
        if job["Label"] != label:
            problems.append(f"{where}: Label {job['Label']!r}, expected {label!r}")
        if job["RunAtLoad"] is not True or job["KeepAlive"] is not True:
            problems.append(f"{where}: RunAtLoad and KeepAlive should be true (start at login, restart on exit)")
        binary = f"{prefix}/opt/pokestub/bin/pokestub" if mode == "homebrew" else f"{prefix}/bin/pokestub"
        wanted = {"ProgramArguments": [binary, "serve", "--config", f"{prefix}/etc/pokestub/config.json"],
                  "WorkingDirectory": f"{prefix}/var/pokestub", "StandardOutPath": f"{prefix}/var/log/pokestub.log",
                  "StandardErrorPath": f"{prefix}/var/log/pokestub.log"}
        for key, value in wanted.items():
            if job[key] != value:
                problems.append(f"{where}: {key} is {job[key]!r}, expected {value!r}")
        paths = [job[k] for k in ("WorkingDirectory", "StandardOutPath", "StandardErrorPath")] + [binary]
        for item in paths + list(job.get("EnvironmentVariables", {}).values()):
            if not item.startswith("/") or "~" in item or "$" in item:
                problems.append(f"{where}: {item!r} must be an absolute path (launchd expands nothing)")
        if mode == "plain" and prefix == "/opt/homebrew":
            shown = " ".join(job["ProgramArguments"])

# brew install --HEAD: release, the pokestub product only, on the Xcode whose Swift the package asks for.
builds = re.findall(r'^\s*system "swift", "build"(.*)$', text, re.M)
if len(builds) != 1:
    problems.append(f"{formula_path}: expected one `system \"swift\", \"build\", ...` in install, found {len(builds)}")
else:
    arguments = re.findall(r'"([^"]*)"', builds[0])
    wanted = [("-c", "release"), ("--product", "pokestub")]
    for option, value in wanted:
        if not any(a == option and b == value for a, b in zip(arguments, arguments[1:])):
            problems.append(f"{formula_path}: swift build should pass {option} {value} (got {' '.join(arguments)})")
    extra = [a for a in arguments if a in ("--build-tests", "--target") or a.startswith("--enable-test")]
    if extra:
        problems.append(f"{formula_path}: swift build builds more than the product: {extra}")
tools = re.search(r"^// swift-tools-version:\s*(\d+\.\d+)", open(package_path, encoding="utf-8").read(), re.M)
xcode = re.search(r'^\s*depends_on xcode: \["([\d.]+)", :build\]', text, re.M)
# The first Xcode with each Swift (https://developer.apple.com/xcode/, Xcode release notes).
first_xcode = {"6.0": "16.0", "6.1": "16.3", "6.2": "26.0"}
if not tools or not xcode:
    problems.append(f"{package_path} swift-tools-version or {formula_path} `depends_on xcode: [\"X\", :build]` missing")
elif tools.group(1) not in first_xcode:
    problems.append(f"{package_path}: swift-tools-version {tools.group(1)}: add its first Xcode to check-launchd.sh")
elif first_xcode[tools.group(1)] != xcode.group(1):
    problems.append(f"{formula_path}: depends_on xcode {xcode.group(1)}, but swift-tools-version {tools.group(1)} "
                    f"first came with Xcode {first_xcode[tools.group(1)]}")

# The formula rewrites this line of config.json to put the stubs in var.
if '"stubs": "stubs"' not in open(config_path, encoding="utf-8").read():
    problems.append(f'{config_path}: no "stubs": "stubs" line, which {formula_path} rewrites with inreplace')
if json.load(open(config_path, encoding="utf-8")).get("stubs") != "stubs":
    problems.append(f"{config_path}: stubs should be \"stubs\"")

if problems:
    sys.exit("\n".join(problems))
print(f"launchd job rendered from the formula's service block for /opt/homebrew and /usr/local ({linted}plistlib); "
      f"brew builds --product pokestub on Xcode {xcode.group(1)}: {shown}")
PY
