#!/usr/bin/env python3
"""Checks that Docs/Architecture.md still describes the code.

Docs/Architecture.md is the hub a newcomer reads first, so what it names must exist. This check reads every code
span (`...`) in it and fails when one names something Sources/ no longer has:

- a path (`Sources/PokestubCore/Serving/StubEngine.swift`, `Sources/PokestubCore/Dashboard/`): the file or folder
  exists;
- a target (`PokestubServer`): Package.swift declares it;
- a type (`StubEngine`, `StubIndex.Match`): each capitalised part is declared in Sources/ (struct, class, enum,
  protocol, actor or typealias);
- a member (`StubEngine.serve`, `ServingScope.nearMissAnswer(for:)`): the member is declared (func, var, let,
  case, init, subscript) in a file that declares or extends the type, and when the span spells argument labels,
  one declaration of that name has exactly those labels;
- a function alone (`deliver(_:context:connection:)`): a declaration with that name and those labels exists.

Spans that are none of these (`GET /api/v2/pokemon/1/`, `limits.maxResponseBytes`, `jsonBody`, C names such as
`MHD_create_response_from_fd64`) are not checked. It also checks the folder table: every folder of Sources/ (two
levels deep) has a row naming it, so a new folder cannot go unexplained.

Usage: python3 scripts/check-architecture.py [--self-test]. Exit 0 when everything named exists, 1 otherwise,
listing each stale name with its line.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "Docs" / "Architecture.md"

TYPE_DECL = re.compile(r"\b(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z][A-Za-z0-9_]*)")
EXTENSION = re.compile(r"\bextension\s+([A-Z][A-Za-z0-9_.]*)")
MEMBER_DECL = re.compile(
    r"\b(?:func|var|let|case|static\s+func|static\s+var|static\s+let)\s+`?([a-zA-Z_][A-Za-z0-9_]*)`?"
)
TYPE_SPAN = re.compile(r"^([A-Z][A-Za-z0-9]*(?:\.[A-Z][A-Za-z0-9]*)*)(?:\.([a-z][A-Za-z0-9]*)(\([^()]*\))?)?$")
FUNCTION_SPAN = re.compile(r"^([a-z][A-Za-z0-9]*)(\([^()]*\))$")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


class Sources:
    def __init__(self, root):
        self.files = {}
        for path in sorted((root / "Sources").rglob("*.swift")):
            self.files[path] = strip_comments(path.read_text(encoding="utf-8"))
        self.types = set()
        self.type_files = {}
        for path, text in self.files.items():
            for name in TYPE_DECL.findall(text):
                self.types.add(name)
                self.type_files.setdefault(name, set()).add(path)
            for name in EXTENSION.findall(text):
                self.type_files.setdefault(name.split(".")[-1], set()).add(path)
        # Target (module) names count as names too: `PokestubServer` is the target, not a type.
        self.targets = set(re.findall(r'name:\s*"([A-Za-z0-9]+)"', (root / "Package.swift").read_text(encoding="utf-8")))

    def members(self, path):
        return set(MEMBER_DECL.findall(self.files[path]))

    def labels(self, paths, name):
        """The argument-label lists of every declaration of `name` (a function or `init`) in `paths`."""
        found = []
        pattern = re.compile(r"\binit[?!]?\s*(?:<[^>]*>)?\s*\(" if name == "init" else r"\bfunc\s+" + re.escape(name) + r"\s*(?:<[^>]*>)?\s*\(")
        for path in paths:
            text = self.files[path]
            for match in pattern.finditer(text):
                depth, index = 1, match.end()
                while index < len(text) and depth:
                    depth += {"(": 1, ")": -1}.get(text[index], 0)
                    index += 1
                found.append(parameter_labels(text[match.end():index - 1]))
        return found


def parameter_labels(parameters):
    parts, depth, current = [], 0, ""
    for char in parameters:
        if char in "([<":
            depth += 1
        elif char in ")]>":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    if current.strip():
        parts.append(current)
    labels = []
    for part in parts:
        head = part.split(":", 1)[0].split()
        head = [word for word in head if not word.startswith("@")]
        if head:
            labels.append(head[0])
    return labels


def spelled_labels(spelled):
    inner = spelled[1:-1]
    return [label for label in inner.split(":") if label != ""] if inner else []


def code_spans(text):
    fence = False
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        if fence:
            continue
        for match in re.finditer(r"`([^`]+)`", line):
            yield number, match.group(1).strip()


def check_span(span, sources):
    """A reason `span` names nothing that exists, or None."""
    if "/" in span and re.match(r"^(Sources|Tests|scripts|systemd|Benchmarks|Docs|Fuzz|stubs)/", span):
        path = ROOT / span.split(":")[0]
        return None if path.exists() else f"no file or folder {span}"
    match = TYPE_SPAN.match(span)
    if match:
        chain, member, spelled = match.group(1).split("."), match.group(2), match.group(3)
        if not any(c.islower() for c in chain[0]):
            return None  # an acronym such as GET or HAR, not a type
        if len(chain) == 1 and member is None and chain[0] in sources.targets:
            return None
        for name in chain:
            if name not in sources.types:
                return f"no type {name}"
        if member is None:
            return None
        owner = chain[-1]
        paths = sources.type_files.get(owner, set())
        if member == "init" or member in set().union(*(sources.members(p) for p in paths)):
            if spelled is None:
                return None
            wanted = spelled_labels(spelled)
            declared = sources.labels(paths, member)
            if wanted in declared:
                return None
            shown = ", ".join("(" + "".join(label + ":" for label in labels) + ")" for labels in declared)
            return f"{owner}.{member} has no declaration with the labels {spelled} (found {shown or 'none'})"
        return f"{owner} declares no member {member}"
    match = FUNCTION_SPAN.match(span)
    if match:
        name, spelled = match.group(1), match.group(2)
        declared = sources.labels(sources.files.keys(), name)
        if spelled_labels(spelled) in declared:
            return None
        return f"no function {name}{spelled}" if not declared else f"{name} has no declaration with the labels {spelled}"
    return None


def check_folders(text):
    problems = []
    for folder in sorted((ROOT / "Sources").glob("*/")):
        for path in [folder, *sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.endswith(".docc"))]:
            relative = path.relative_to(ROOT).as_posix() + "/"
            if f"`{relative}`" not in text:
                problems.append(f"the folder table has no row for `{relative}`")
    return problems


def main():
    text = DOC.read_text(encoding="utf-8")
    sources = Sources(ROOT)
    problems = []
    for number, span in code_spans(text):
        reason = check_span(span, sources)
        if reason:
            problems.append(f"Docs/Architecture.md:{number}: `{span}`: {reason}")
    problems += [f"Docs/Architecture.md: {p}" for p in check_folders(text)]
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} name(s) in Docs/Architecture.md do not exist in Sources/")
        return 1
    print("Docs/Architecture.md: every name and path it spells exists, and every Sources/ folder has a row")
    return 0


def self_test():
    """Each kind of stale name is caught: a check that cannot fail is no check."""
    sources = Sources(ROOT)
    stale = [
        "ServingScope.nearMissReport(for:)",
        "StubEngine.serve(_:in:)",
        "NoSuchType",
        "StubIndex.Nope",
        "Sources/PokestubCore/Nowhere.swift",
        "deliver(_:context:)",
    ]
    live = ["StubEngine", "StubIndex.Match", "ServingScope.match(_:)", "Sources/PokestubCore/Serving/", "GET", "jsonBody"]
    failures = [s for s in stale if check_span(s, sources) is None]
    failures += [s for s in live if check_span(s, sources) is not None]
    for failure in failures:
        print(f"self-test: wrong verdict for `{failure}`: {check_span(failure, sources)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(self_test() if "--self-test" in sys.argv else main())
