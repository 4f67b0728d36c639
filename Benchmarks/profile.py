#!/usr/bin/env python3
"""Where pokestub's instructions per request go beyond the libmicrohttpd floor's, route by route.

Counts instructions with valgrind's callgrind, which counts every instruction a process executes whatever else
runs on the machine, so the figures hold on a loaded host where a wall-clock benchmark does not. For each
route of Benchmarks/bench.py (the list page, the templated list page, the 542 KB pokemon/1, a miss, a 2 KB
POST), it starts pokestub (the shipped stubs, as bench.py prepares them) and the floor (Benchmarks/floor.c,
the same library with pokestub's daemon settings answering from memory) under callgrind, sends warm-up
requests, zeroes the counters, sends `--requests` requests on one keep-alive connection, and dumps. It prints
instructions per request for both, their ratio, and pokestub's functions with the most instructions of their
own (self cost), each with its share of the route's total.

    python3 Benchmarks/profile.py --binary .build/release/pokestub [--requests 1000] [--route KEY]
                                  [--markdown Benchmarks/README.md]

`--markdown FILE` writes the tables between `<!-- profile:begin -->` and `<!-- profile:end -->` of FILE.

Only 127.0.0.1 is used; every process started is stopped at the end. Needs valgrind (callgrind_control,
callgrind_annotate). The figures are user-space instructions: the kernel's work (sockets, sendfile) is not
counted, and callgrind runs a process's threads one at a time, so lock contention does not show.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402  (the benchmark's routes, stub root and floor, shared rather than copied)

WARM_UP = 50
TOP_FUNCTIONS = 12


def routes() -> list[tuple[str, str, str, bytes | None, int]]:
    """(key, label, path, POST body or None, request count divisor): the templated page is ~50x the
    plain page's instructions, so it gets fewer requests."""
    team: list = []
    while len(json.dumps({"team": team})) < 1990:  # bench.py's POST body
        team.append({"name": f"pokemon-{len(team)}", "level": len(team), "moves": ["tackle", "growl"]})
    post_body = json.dumps({"team": team}).encode()
    return [
        ("list", "list page (1.4 KB)", bench.LIST_PATH, None, 1),
        ("templated", "templated list page (1.4 KB)", bench.TEMPLATED_PATH, None, 20),
        ("big", "pokemon/1 (542 KB)", bench.BIG_PATH, None, 4),
        ("miss", "miss (404 + near misses)", bench.MISS_PATH, None, 1),
        ("post", f"POST {len(post_body)} B JSON", bench.POST_PATH, post_body, 1),
    ]


def under_callgrind(name: str, command: list[str], port: int, probe: str, out: Path) -> bench.Server:
    """`command` under callgrind, instrumenting nothing until told to (`--instr-atstart=no`: start-up runs at
    near native speed)."""
    wrapped = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
               "--dump-instr=no", *command]
    started = time.monotonic()
    process = subprocess.Popen(wrapped, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               stdin=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        seconds = bench.wait_until_answering(base + probe, started, limit=120.0)
    except BaseException:
        bench.Server(name, process, base, 0).stop()
        raise
    return bench.Server(name, process, base, seconds)


def send(port: int, path: str, body: bytes | None, count: int) -> None:
    """`count` requests on one keep-alive connection; every answer read to its end."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        for _ in range(count):
            if body is None:
                connection.request("GET", path)
            else:
                connection.request("POST", path, body=body, headers={"Content-Type": "application/json"})
            connection.getresponse().read()
    finally:
        connection.close()


def control(pid: int, *arguments: str) -> None:
    subprocess.run(["callgrind_control", *arguments, str(pid)], check=True, capture_output=True, timeout=120)


def measure(server: bench.Server, out: Path, path: str, body: bytes | None, count: int, label: str) -> Path:
    """Instructions of `count` requests to `path`, dumped to a file of their own."""
    port = int(server.base.rsplit(":", 1)[1])
    pid = server.process.pid
    send(port, path, body, WARM_UP)
    control(pid, "--instr=on")
    control(pid, "--zero")
    send(port, path, body, count)
    control(pid, "--instr=off")
    before = set(out.parent.glob(out.name + "*"))
    control(pid, f"--dump={label}")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        dumped = [p for p in set(out.parent.glob(out.name + "*")) - before if p.stat().st_size > 0]
        if dumped:
            # The dump is written when the process next runs; wait until its totals line is there.
            text = dumped[0].read_text(errors="replace")
            if re.search(r"^totals:", text, re.M):
                return dumped[0]
        time.sleep(0.2)
    raise RuntimeError(f"callgrind wrote no dump for {label}")


def annotate(dump: Path, inclusive: bool = False) -> tuple[int, list[tuple[int, str]]]:
    """The total instructions of a dump (the sum of every function's own; callgrind's PROGRAM TOTALS line is
    wrong after a zero while instrumenting) and its functions by self cost (or `inclusive`: with their
    callees'), names demangled."""
    text = subprocess.run(["callgrind_annotate", "--auto=no", f"--inclusive={'yes' if inclusive else 'no'}",
                           "--threshold=100", str(dump)],
                          capture_output=True, text=True, check=True).stdout
    functions = []
    for line in text.splitlines():
        match = re.match(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$", line)
        if match and "PROGRAM TOTALS" not in line:
            functions.append((int(match.group(1).replace(",", "")), match.group(2).strip()))
    names = [short_name(symbol) for _, symbol in functions]
    if shutil.which("swift"):
        demangled = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(names),
                                   capture_output=True, text=True)
        if demangled.returncode == 0 and len(demangled.stdout.splitlines()) == len(names):
            names = demangled.stdout.splitlines()
    return sum(cost for cost, _ in functions), [(cost, name) for (cost, _), name in zip(functions, names)]


def short_name(symbol: str) -> str:
    """`file:function [object]` as `function (object)`."""
    objects = re.search(r"\s*\[([^\]]*)\]$", symbol)
    symbol = symbol[:objects.start()] if objects else symbol
    function = symbol.rsplit(":", 1)[1] if ":" in symbol else symbol
    return function + (f" ({Path(objects.group(1)).name})" if objects else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(bench.REPO / ".build" / "release" / "pokestub"))
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--route", action="append", help="only these route keys (list, templated, big, miss, post)")
    parser.add_argument("--markdown", help="also write the tables to this file")
    args = parser.parse_args()
    for tool in ("valgrind", "callgrind_control", "callgrind_annotate"):
        if shutil.which(tool) is None:
            raise SystemExit(f"profile.py needs {tool} (Debian: valgrind)")
    chosen = [r for r in routes() if not args.route or r[0] in args.route]
    lines: list[str] = []
    servers: list[bench.Server] = []
    with tempfile.TemporaryDirectory(prefix="pokestub-profile-") as scratch:
        work = Path(scratch)
        try:
            stubs = bench.prepare_stub_root(work)
            plain = bench.start_pokestub(args.binary, stubs, bench.LIST_PATH)
            servers.append(plain)
            nginx_root = bench.prepare_nginx_root(work, plain.base)
            plain.stop()
            servers.remove(plain)
            floor_binary, floor_build = bench.build_c(work, "floor.c", ["libmicrohttpd"])
            if floor_binary is None:
                raise SystemExit(f"the floor did not build: {floor_build}")
            port = bench.free_port()
            pokestub = under_callgrind(
                "pokestub", [args.binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--stubs", str(stubs),
                             "--log-level", "error"], port, bench.LIST_PATH, work / "pokestub.out")
            servers.append(pokestub)
            floor_port = bench.free_port()
            floor = under_callgrind(
                "floor", [str(floor_binary), str(floor_port), str(nginx_root), str(bench.FLOOR_POOL_BYTES), "2", "64"],
                floor_port, bench.LIST_PATH, work / "floor.out")
            servers.append(floor)
            lines.append(f"Instructions per request under callgrind, {args.requests} requests per route on one "
                         f"keep-alive connection after {WARM_UP} warm-up requests (the templated page and "
                         "pokemon/1 fewer, as noted); user space only.")
            lines.append("")
            lines.append("| route | requests | pokestub instructions / request | floor instructions / request | "
                         "pokestub / floor |")
            lines.append("| --- | ---: | ---: | ---: | ---: |")
            details: list[str] = []
            for key, label, path, body, divisor in chosen:
                count = max(10, args.requests // divisor)
                dump = measure(pokestub, work / "pokestub.out", path, body, count, key)
                mine = annotate(dump)
                own = [(cost, name) for cost, name in annotate(dump, inclusive=True)[1]
                       if name.endswith(f"({Path(args.binary).name})")]
                theirs = annotate(measure(floor, work / "floor.out", path, body, count, key))
                per_mine, per_theirs = mine[0] / count, theirs[0] / count
                lines.append(f"| {label} | {count:,} | {per_mine:,.0f} | {per_theirs:,.0f} | "
                             f"{per_mine / per_theirs if per_theirs else 0:.1f}x |")
                details.append(f"\n**{label}**: pokestub's functions by their own instructions (share of the "
                               "route's total)\n")
                details.append("| function | instructions / request | share |")
                details.append("| --- | ---: | ---: |")
                own_suffix = f" ({Path(args.binary).name})"
                for cost, name in mine[1][:TOP_FUNCTIONS]:
                    details.append(f"| `{name.removesuffix(own_suffix)[:110]}` | {cost / count:,.0f} | "
                                   f"{100 * cost / mine[0] if mine[0] else 0:.1f}% |")
                details.append(f"\n**{label}**: pokestub's own functions with their callees (inclusive), below "
                               "the server thread's entry\n")
                details.append("| function | instructions / request | share |")
                details.append("| --- | ---: | ---: |")
                for cost, name in [entry for entry in own if "HTTPServer" not in entry[1]][:TOP_FUNCTIONS]:
                    details.append(f"| `{name.removesuffix(own_suffix)[:110]}` | {cost / count:,.0f} | "
                                   f"{100 * cost / mine[0] if mine[0] else 0:.1f}% |")
                print(lines[-1], flush=True)
            lines.extend(details)
        finally:
            for server in servers:
                server.stop()
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        write_markdown(Path(args.markdown), text)


def write_markdown(path: Path, text: str) -> None:
    """Writes `text` between `<!-- profile:begin -->` and `<!-- profile:end -->` of `path` when it has them
    (Benchmarks/README.md does), else as the whole file."""
    begin, end = "<!-- profile:begin -->", "<!-- profile:end -->"
    old = path.read_text() if path.exists() else ""
    if begin in old and end in old:
        head, rest = old.split(begin, 1)
        path.write_text(f"{head}{begin}\n<!-- written by `Benchmarks/profile.py --markdown`: rerun it rather than "
                        f"editing -->\n{text}\n{end}{rest.split(end, 1)[1]}")
    else:
        path.write_text(text + "\n")


if __name__ == "__main__":
    main()
