#!/usr/bin/env python3
"""Lists the public symbols declared in a module's own sources that have no documentation comment.

Usage: undocumented.py MODULE SYMBOL_GRAPH_DIR

Reads MODULE.symbols.json and MODULE@*.symbols.json (the module's extensions of other modules' types) from
SYMBOL_GRAPH_DIR, as `swift package dump-symbol-graph` writes them. A symbol counts when its access level is
public or open and its declaration is under Sources/MODULE/; members the compiler synthesises or inherits
(`Equatable.!=`, a protocol's default implementation) have no such location and are skipped. Prints one
`Sources/MODULE/File.swift:LINE: kind name` line per symbol without a comment, and exits 1 when there is any.
"""

import glob
import json
import os
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    module, directory = sys.argv[1], sys.argv[2]
    paths = glob.glob(os.path.join(directory, f"{module}.symbols.json"))
    paths += glob.glob(os.path.join(directory, f"{module}@*.symbols.json"))
    if not paths:
        print(f"undocumented.py: no symbol graph for {module} in {directory}", file=sys.stderr)
        return 2
    marker = f"/Sources/{module}/"
    missing = []
    for path in sorted(paths):
        with open(path, encoding="utf-8") as file:
            graph = json.load(file)
        for symbol in graph.get("symbols", []):
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            location = symbol.get("location") or {}
            uri = location.get("uri", "")
            if marker not in uri:
                continue
            lines = (symbol.get("docComment") or {}).get("lines", [])
            if any(line.get("text", "").strip() for line in lines):
                continue
            relative = "Sources/" + uri.split("/Sources/", 1)[1]
            line = location.get("position", {}).get("line", 0) + 1
            kind = symbol.get("kind", {}).get("displayName", "symbol")
            name = ".".join(symbol.get("pathComponents", []))
            missing.append(f"{relative}:{line}: {kind} {name} has no documentation comment")
    for entry in sorted(set(missing)):
        print(entry)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
