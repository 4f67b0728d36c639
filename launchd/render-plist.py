#!/usr/bin/env python3
"""Renders pokestub's launchd job for a prefix, from the one place it is defined: the `service do` block of
Formula/pokestub.rb, translated as Homebrew's own `Service#to_plist` does (Library/Homebrew/service.rb in
Homebrew/brew), so a Mac without Homebrew services runs the same job `brew services` would, under any prefix.

    launchd/render-plist.py PREFIX                # plist on standard output, label com.pokestub.pokestub
    launchd/render-plist.py PREFIX -o FILE        # written to FILE
    launchd/render-plist.py PREFIX --homebrew     # what `brew services` writes (homebrew.mxcl.pokestub,
                                                  # PREFIX/opt/pokestub/bin), for comparison only

With a prefix the formula's folders are PREFIX/bin (`opt_bin`), PREFIX/etc (`etc`) and PREFIX/var (`var`), the
layout Docs/Mac.md installs into; Homebrew's own are the same under `$(brew --prefix)`
(/opt/homebrew on Apple silicon, /usr/local on Intel), except that it runs the binary through its
`opt/pokestub/bin` link. launchd expands neither `~` nor variables (launchd.plist(5)), so the prefix is made
absolute here and every path in the job is absolute.

No open-files limit is set: Homebrew's `service do` block has no key for one (launchd.plist(5) has
`SoftResourceLimits`/`HardResourceLimits` with `NumberOfFiles`), and pokestub raises its own soft limit from
launchd's 256 at start (Sources/pokestub/OpenFileLimit.swift), under either way of starting it.

Only the service methods pokestub's formula may use are translated; any other fails with its name, so the job
never silently differs from the formula. scripts/check-launchd.sh renders and checks it for both of Homebrew's
prefixes. Python 3's standard library only (Xcode's command line tools bring python3).
"""
import argparse
import os
import plistlib
import re
import sys

FORMULA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "Formula", "pokestub.rb")
NAME = "pokestub"
# Homebrew's Service#to_plist adds these session types to every job it writes.
SESSION_TYPES = ["Aqua", "Background", "LoginWindow", "StandardIO", "System"]


class FormulaError(Exception):
    """The service block says something this renderer does not translate."""


def folders(prefix: str, homebrew: bool) -> dict:
    """The formula's folder names (Formula Cookbook, "Variables for directory locations") under `prefix`."""
    return {
        "opt_bin": os.path.join(prefix, "opt", NAME, "bin") if homebrew else os.path.join(prefix, "bin"),
        "etc": os.path.join(prefix, "etc"),
        "var": os.path.join(prefix, "var"),
    }


def service_block(text: str) -> list:
    """The lines of the formula's `service do ... end`, without blank lines and comments."""
    block = re.search(r"^  service do\n(.*?)^  end\n", text, re.S | re.M)
    if not block:
        raise FormulaError("no `service do ... end` block")
    return [line.strip() for line in block.group(1).splitlines() if line.strip() and not line.strip().startswith("#")]


def value(expression: str, names: dict):
    """A service value: "text", folder/"path" (a folder name above), true, false, an integer or a :symbol."""
    expression = expression.strip()
    if expression in ("true", "false"):
        return expression == "true"
    if re.fullmatch(r"\d+", expression):
        return int(expression)
    if re.fullmatch(r":[a-z_]+", expression):
        return expression[1:]
    literal = re.fullmatch(r'"([^"\\#]*)"', expression)
    if literal:
        return literal.group(1)
    path = re.fullmatch(r'(\w+)/"([^"\\#]*)"', expression)
    if path and path.group(1) in names:
        return f"{names[path.group(1)]}/{path.group(2)}"
    if expression in names:
        return names[expression]
    raise FormulaError(f"cannot read {expression!r} (a string, {', '.join(sorted(names))}/\"path\", "
                       "true, false, a number or a :symbol)")


def service(text: str, names: dict) -> dict:
    """The service block's methods and their values."""
    methods = {}
    for line in service_block(text):
        method, _, rest = line.partition(" ")
        if method == "run":
            inner = re.fullmatch(r"\[(.*)\]", rest.strip())
            if not inner:
                raise FormulaError(f"run should be an array: {rest}")
            methods["run"] = [value(part, names) for part in inner.group(1).split(",")]
        elif method == "environment_variables":
            pairs = re.findall(r"(\w+):\s*((?:\w+/)?\"[^\"]*\"|\w+)", rest)
            methods["environment_variables"] = {key: str(value(item, names)) for key, item in pairs}
        else:
            methods[method] = value(rest, names)
    return methods


def job(text: str, prefix: str, homebrew: bool = False) -> dict:
    """The launchd job for `prefix`, as Homebrew's Service#to_plist builds it from the same methods."""
    names = folders(prefix, homebrew)
    methods = service(text, names)
    translated = {
        "run": "ProgramArguments",
        "keep_alive": "KeepAlive",
        "working_dir": "WorkingDirectory",
        "log_path": "StandardOutPath",
        "error_log_path": "StandardErrorPath",
        "environment_variables": "EnvironmentVariables",
        "process_type": "ProcessType",
        "throttle_interval": "ThrottleInterval",
    }
    unknown = sorted(set(methods) - set(translated))
    if unknown:
        raise FormulaError(f"service methods {unknown} are not translated by {os.path.basename(__file__)}; "
                           "add them as Homebrew's Service#to_plist does")
    if "run" not in methods:
        raise FormulaError("the service block has no run")
    plist = {"Label": f"homebrew.mxcl.{NAME}" if homebrew else f"com.{NAME}.{NAME}", "RunAtLoad": True,
             "LimitLoadToSessionType": SESSION_TYPES}
    for method, key in translated.items():
        if method not in methods:
            continue
        item = methods[method]
        if method == "keep_alive":
            if not isinstance(item, bool):
                raise FormulaError("keep_alive: only true or false is translated")
            if not item:
                continue  # Homebrew writes no KeepAlive for false
        if method == "process_type":
            item = item.capitalize()
        plist[key] = item
    return plist


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("prefix", help="the folder holding bin/pokestub, etc/pokestub and var (absolute, or "
                                       "made absolute from the working directory)")
    parser.add_argument("-o", "--output", help="write the plist here instead of standard output")
    parser.add_argument("--homebrew", action="store_true",
                        help="render what `brew services` writes, for comparison (label homebrew.mxcl.pokestub, "
                             "binary under PREFIX/opt/pokestub/bin)")
    arguments = parser.parse_args()
    prefix = os.path.abspath(os.path.expanduser(arguments.prefix))
    if "$" in prefix:
        parser.error(f"{prefix}: launchd expands no variables; give the folder itself")
    with open(FORMULA, encoding="utf-8") as handle:
        text = handle.read()
    try:
        rendered = plistlib.dumps(job(text, prefix, arguments.homebrew))
    except FormulaError as error:
        print(f"{os.path.relpath(FORMULA)}: {error}", file=sys.stderr)
        return 1
    if arguments.output:
        with open(arguments.output, "wb") as handle:
            handle.write(rendered)
    else:
        sys.stdout.buffer.write(rendered)
    return 0


if __name__ == "__main__":
    sys.exit(main())
