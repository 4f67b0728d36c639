#!/usr/bin/env bash
# Checks the macOS service definitions without a Mac: launchd/com.pokestub.pokestub.plist loads as a property
# list (python3's plistlib; plutil -lint as well where there is a plutil: macOS has one, and so does the Swift
# toolchain on Linux), has the keys launchd.plist(5) needs with absolute paths (launchd expands neither ~
# nor variables), and runs what Formula/pokestub.rb's service block runs, with the same folder, logs and
# keep-alive, once Homebrew's opt_bin, etc and var are read with /usr/local as the prefix. It also checks that
# config.json still holds the "stubs" line the formula rewrites, and the formula's Ruby syntax when ruby is here.
set -euo pipefail
cd "$(dirname "$0")/.."
plist=launchd/com.pokestub.pokestub.plist
formula=Formula/pokestub.rb

if command -v plutil >/dev/null 2>&1; then
    lint=$(plutil -lint "$plist" 2>&1) || { echo "$lint" >&2; exit 1; }
    linted="plutil -lint, "
else
    linted=""
fi
if command -v ruby >/dev/null 2>&1; then
    ruby -c "$formula" >/dev/null || exit 1
    linted+="ruby -c, "
fi

python3 - "$plist" "$formula" config.json "$linted" <<'PY'
import json, plistlib, re, sys

plist_path, formula_path, config_path, linted = sys.argv[1:5]
problems = []
with open(plist_path, "rb") as handle:
    try:
        job = plistlib.load(handle)
    except Exception as error:  # plistlib raises several types for a malformed file
        sys.exit(f"{plist_path}: not a property list: {error}")

expected_types = {"Label": str, "ProgramArguments": list, "RunAtLoad": bool, "KeepAlive": bool,
                  "WorkingDirectory": str, "StandardOutPath": str, "StandardErrorPath": str}
for key, kind in expected_types.items():
    if key not in job:
        problems.append(f"{plist_path}: {key} is missing")
    elif not isinstance(job[key], kind):
        problems.append(f"{plist_path}: {key} must be a {kind.__name__}, not {type(job[key]).__name__}")
if problems:
    sys.exit("\n".join(problems))
label = plist_path.rsplit("/", 1)[-1].removesuffix(".plist")
if job["Label"] != label:
    problems.append(f"{plist_path}: Label {job['Label']!r} should match the file name ({label!r})")
if job["RunAtLoad"] is not True:
    problems.append(f"{plist_path}: RunAtLoad should be true, so the agent starts at login")
for key in ("WorkingDirectory", "StandardOutPath", "StandardErrorPath"):
    if not job[key].startswith("/") or "~" in job[key] or "$" in job[key]:
        problems.append(f"{plist_path}: {key} {job[key]!r} must be an absolute path (launchd expands nothing)")
arguments = job["ProgramArguments"]
if not arguments or not all(isinstance(a, str) for a in arguments) or not arguments[0].startswith("/"):
    problems.append(f"{plist_path}: ProgramArguments must be strings, the first an absolute path")

# The formula's service block: `run [...]` and the one-argument methods after it.
text = open(formula_path, encoding="utf-8").read()
block = re.search(r"^  service do\n(.*?)^  end\n", text, re.S | re.M)
if not block:
    sys.exit(f"{formula_path}: no service do ... end block")
prefix = "/usr/local"
names = {"opt_bin": f"{prefix}/bin", "bin": f"{prefix}/bin", "etc": f"{prefix}/etc", "var": f"{prefix}/var"}


def value(expression: str, where: str):
    """A Ruby service value: a "string", name/"path" with a Homebrew folder name, true or false."""
    expression = expression.strip()
    if expression in ("true", "false"):
        return expression == "true"
    literal = re.fullmatch(r'"([^"\\#]*)"', expression)
    if literal:
        return literal.group(1)
    path = re.fullmatch(r'(\w+)/"([^"\\#]*)"', expression)
    if path and path.group(1) in names:
        return f"{names[path.group(1)]}/{path.group(2)}"
    sys.exit(f"{formula_path}: cannot read {expression!r} in {where}")


service = {}
for line in block.group(1).splitlines():
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    name, _, rest = line.partition(" ")
    if name == "run":
        inner = re.fullmatch(r"\[(.*)\]", rest.strip())
        if not inner:
            sys.exit(f"{formula_path}: run should be an array: {rest}")
        service["run"] = [value(part, "run") for part in inner.group(1).split(",")]
    else:
        service[name] = value(rest, name)

pairs = [("run", "ProgramArguments"), ("keep_alive", "KeepAlive"), ("working_dir", "WorkingDirectory"),
         ("log_path", "StandardOutPath"), ("error_log_path", "StandardErrorPath")]
for method, key in pairs:
    if method not in service:
        problems.append(f"{formula_path}: the service block has no {method}")
    elif service[method] != job[key]:
        problems.append(f"{plist_path}: {key} is {job[key]!r}, but the formula's {method} is {service[method]!r} "
                        f"(with {prefix} as Homebrew's prefix)")
extra = set(service) - {method for method, _ in pairs}
if extra:
    problems.append(f"{formula_path}: service methods {sorted(extra)} have no counterpart checked in {plist_path}")

# The formula rewrites this line of config.json to put the stubs in var.
if '"stubs": "stubs"' not in open(config_path, encoding="utf-8").read():
    problems.append(f'{config_path}: no "stubs": "stubs" line, which {formula_path} rewrites with inreplace')
if json.load(open(config_path, encoding="utf-8")).get("stubs") != "stubs":
    problems.append(f"{config_path}: stubs should be \"stubs\"")

if problems:
    sys.exit("\n".join(problems))
print(f"launchd plist and Homebrew service agree ({linted}plistlib): {' '.join(arguments)}")
PY
