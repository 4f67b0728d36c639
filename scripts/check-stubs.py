#!/usr/bin/env python3
"""Check that the committed stubs/ tree is exactly what generate-stubs.py makes.

Runs scripts/generate-stubs.py into a temporary directory and compares it,
byte for byte, with stubs/: every file under mappings/ and __files/, plus the
top-level files the generator writes (README.md, LICENSE-pokeapi-data.txt).
Other top-level files in stubs/ are ignored.

Exit 0 when identical; exit 1 listing differing, missing and extra files;
exit 2 if the generator itself fails. Python 3.11 standard library only.

Usage: python3 scripts/check-stubs.py [--source DIR] [--stubs DIR]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
REPO_ROOT = SCRIPTS.parent
GENERATED_DIRS = ("mappings", "__files")


def list_files(root: Path) -> set[str]:
    """Relative paths (forward slashes) of files the comparison covers."""
    out: set[str] = set()
    if not root.is_dir():
        return out
    for entry in root.iterdir():
        if entry.is_file() or entry.is_symlink():
            out.add(entry.name)
    for sub in GENERATED_DIRS:
        base = root / sub
        if not base.exists():
            continue
        for dirpath, _dirs, files in os.walk(base):
            for name in files:
                out.add(Path(dirpath, name).relative_to(root).as_posix())
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, default=REPO_ROOT.parent / "shared" / "pokeapi",
                    help="PokeAPI data directory (default: ../shared/pokeapi next to the repo)")
    ap.add_argument("--stubs", type=Path, default=REPO_ROOT / "stubs",
                    help="committed stub tree to check (default: stubs/ in the repo)")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="check-stubs-") as tmp:
        fresh = Path(tmp) / "stubs"
        proc = subprocess.run(
            [sys.executable, str(SCRIPTS / "generate-stubs.py"),
             "--source", str(args.source), "--out", str(fresh), "--quiet"],
            capture_output=True, text=True,
        )
        if proc.returncode != 0:
            sys.stderr.write(proc.stdout + proc.stderr)
            print("check-stubs: generate-stubs.py failed", file=sys.stderr)
            return 2

        expected = list_files(fresh)
        # Top-level files the generator does not write are not its business.
        actual = {p for p in list_files(args.stubs) if "/" in p or p in expected}

        missing = sorted(expected - actual)
        extra = sorted(actual - expected)
        differ = sorted(
            p for p in expected & actual
            if (fresh / p).read_bytes() != (args.stubs / p).read_bytes()
        )

    if not (missing or extra or differ):
        print(f"check-stubs: OK, {len(expected)} files in {args.stubs} match a fresh generation")
        return 0

    for label, paths in (("differs", differ), ("missing", missing), ("extra", extra)):
        for p in paths:
            print(f"{label}: {p}")
    print(
        f"check-stubs: {args.stubs} is out of date ({len(differ)} differing, {len(missing)} missing, "
        f"{len(extra)} extra); run: python3 scripts/generate-stubs.py",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
