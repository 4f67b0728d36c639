#!/usr/bin/env bash
# Checks the repository's Markdown: every relative link and image (`[text](path)`, `[text](path#anchor)`,
# `[text](#anchor)`) names a file that exists, and an anchor names a heading of that file as GitHub spells it
# (lower case; punctuation other than `-` and `_` dropped; spaces as `-`; a repeated heading gets `-1`, `-2`);
# and README.md stays at most 250 lines (issue 29: reference material lives in Docs/, one page per area).
# Links in code blocks and code spans are not links and are skipped; so are URLs with a scheme (https:, ...).
# The files are the tracked *.md outside stubs/ (generated) and the DocC catalogs (scripts/check-docc.sh
# resolves those). Needs python3 and git.
set -euo pipefail
cd "$(dirname "$0")/.."
git ls-files -z -- '*.md' ':!:stubs/**' ':!:Sources/**/*.docc/**' | python3 -c '
import re
import sys
from pathlib import Path

README_MAX_LINES = 250
files = [name for name in sys.stdin.read().split("\0") if name]
link = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+\"[^\"]*\")?\)")


def prose(text):
    """The lines of a Markdown text outside fenced code blocks, with code spans blanked, and their numbers."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip()
        marker = re.match(r"(`{3,}|~{3,})", stripped)
        if fence is None and marker:
            fence = marker.group(1)
            continue
        if fence is not None:
            if stripped.startswith(fence) and stripped.strip() == fence[0] * len(stripped.strip()):
                fence = None
            continue
        yield number, re.sub(r"(`+)(?:(?!\1).)+?\1", lambda m: " " * len(m.group(0)), line)


def slug(heading):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading counts as its text
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


anchors_of = {}


def anchors(path):
    if path not in anchors_of:
        seen = {}
        found = set()
        for _, line in prose(path.read_text(encoding="utf-8")):
            heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not heading:
                continue
            base = slug(heading.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        anchors_of[path] = found
    return anchors_of[path]


problems = []
checked = 0
for name in files:
    source = Path(name)
    text = source.read_text(encoding="utf-8")
    if name == "README.md" and text.count("\n") > README_MAX_LINES:
        problems.append(f"README.md: {text.count(chr(10))} lines, more than {README_MAX_LINES}; "
                        "move reference material to its page in Docs/")
    lines = dict(prose(text))
    body = "\n".join(lines.get(number, "") for number in range(1, text.count("\n") + 2))
    for match in link.finditer(body):  # a link text may run over two lines
        number = body.count("\n", 0, match.start()) + 1
        target = match.group(1)
        if not target or re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", target):
            continue
        checked += 1
        path_part, _, anchor = target.partition("#")
        path = source if not path_part else (source.parent / path_part)
        where = f"{name}:{number}: {target}"
        if not path.exists():
            problems.append(f"{where}: no such file")
            continue
        if anchor:
            if path.is_dir() or path.suffix != ".md":
                problems.append(f"{where}: an anchor into a file that is not Markdown")
            elif anchor not in anchors(path):
                problems.append(f"{where}: {path_part or name} has no heading #{anchor}")
for problem in problems:
    print(problem, file=sys.stderr)
if problems:
    sys.exit(1)
print(f"Markdown links: {checked} relative links in {len(files)} files resolve; README.md within "
      f"{README_MAX_LINES} lines")
'
