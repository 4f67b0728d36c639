#!/usr/bin/env python3
"""pokestub benchmark: pokestub and nginx serve the same bytes on loopback; wrk drives each in turn.

Prints one table of req/s, p50/p99 latency, peak RSS and start-to-first-answer, each with its ratio to nginx
measured in the same run, then the scale runs (10 / 1,000 / 10,000 stubs), the memory with a full journal,
and the record path against a direct libcurl fetch. Every load is bounded by wrk's duration; every process
started here is stopped at the end. Only 127.0.0.1 is used.

Run through Benchmarks/run.sh, which installs wrk and nginx-light and builds the release binary.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED_POKEMON_1 = REPO.parent / "shared" / "pokeapi" / "api" / "v2" / "pokemon" / "1" / "index.json"
LIST_PATH = "/api/v2/pokemon/?offset=0&limit=20"
BIG_PATH = "/api/v2/pokemon/1/"
MISS_PATH = "/api/v2/pokemon/9999/"
POST_PATH = "/api/v2/bench/post"
POST_RESPONSE = '{"ok":true}'


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def http_status(url: str, timeout: float = 2.0) -> int:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


def wait_until_answering(url: str, started: float, limit: float = 15.0) -> float:
    """Seconds from `started` until `url` answers (any HTTP status), polling every millisecond."""
    deadline = started + limit
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", int(url.split(":")[2].split("/")[0])), timeout=0.2) as sock:
                path = "/" + url.split("/", 3)[3]
                sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
                if sock.recv(12).startswith(b"HTTP/1."):
                    return time.monotonic() - started
        except OSError:
            pass
        time.sleep(0.001)
    raise RuntimeError(f"{url} did not answer within {limit} s")


def peak_rss_kib(pids: list[int]) -> int:
    """Sum of VmHWM (peak resident set) over the processes, in KiB.

    Where there is no /proc (macOS), the resident set at the time of the call from ps(1) instead: a lower
    bound of the peak."""
    if not Path("/proc/self/status").exists():
        return sum(current_rss_kib(pid) for pid in pids)
    total = 0
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        match = re.search(r"VmHWM:\s+(\d+) kB", status)
        if match:
            total += int(match.group(1))
    return total


def current_rss_kib(pid: int) -> int:
    """The resident set of one process now, in KiB, from ps -o rss= (BSD and procps ps both print KiB)."""
    out = subprocess.run(["ps", "-o", "rss=", "-p", str(pid)], capture_output=True, text=True).stdout.strip()
    return int(out) if out.isdigit() else 0


def children(pid: int) -> list[int]:
    try:
        out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    except OSError:
        return []
    return [int(line) for line in out.split()]


class Server:
    def __init__(self, name: str, process: subprocess.Popen, base: str, start_seconds: float):
        self.name, self.process, self.base, self.start_seconds = name, process, base, start_seconds

    def pids(self) -> list[int]:
        return [self.process.pid] + children(self.process.pid)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_pokestub(binary: str, stubs: Path, probe: str, extra: list[str] | None = None) -> Server:
    port = free_port()
    started = time.monotonic()
    process = subprocess.Popen(
        [binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--stubs", str(stubs), "--log-level", "error",
         *(extra or [])],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    seconds = wait_until_answering(base + probe, started)
    return Server("pokestub", process, base, seconds)


def start_nginx(root: Path, work: Path, probe: str) -> Server:
    port = free_port()
    conf = work / f"nginx-{port}.conf"
    conf.write_text(f"""
worker_processes 2;
daemon off;
pid {work}/nginx-{port}.pid;
error_log {work}/nginx-error.log;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  default_type application/json;
  client_body_temp_path {work}/nginx-body;
  proxy_temp_path {work}/nginx-proxy;
  fastcgi_temp_path {work}/nginx-fastcgi;
  uwsgi_temp_path {work}/nginx-uwsgi;
  scgi_temp_path {work}/nginx-scgi;
  server {{
    listen 127.0.0.1:{port};
    root {root};
    location = /api/v2/pokemon/ {{ try_files /list.json =404; }}
    location = /api/v2/pokemon/1/ {{ try_files /pokemon-1.json =404; }}
    location = {MISS_PATH} {{ return 404; }}
    error_page 404 /miss.txt;
    location = /miss.txt {{ internal; default_type "text/plain; charset=utf-8"; }}
    location = {POST_PATH} {{ return 200 '{POST_RESPONSE}'; }}
  }}
}}
""")
    started = time.monotonic()
    process = subprocess.Popen(["nginx", "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    seconds = wait_until_answering(base + probe, started)
    return Server("nginx", process, base, seconds)


def wrk(url: str, seconds: int, connections: int, script: Path | None = None) -> dict:
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "5s"]
    if script:
        command += ["-s", str(script)]
    out = subprocess.run(command + [url], capture_output=True, text=True, timeout=seconds + 60).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))

    def latency(label: str) -> float:
        match = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        if not match:
            return float("nan")
        value, unit = float(match.group(1)), match.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    errors = re.search(r"Socket errors: (.*)", out)
    return {"rps": rps, "p50": latency("50"), "p99": latency("99"), "errors": errors.group(1) if errors else ""}


def mapping(directory: Path, name: str, body: dict) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_text(json.dumps(body))


def prepare_stub_root(work: Path) -> Path:
    """The shipped stubs, with pokemon 1 as the 542 KB file as stored in shared/pokeapi, and a POST stub."""
    root = work / "stubs"
    shutil.copytree(REPO / "stubs", root)
    shutil.copyfile(SHARED_POKEMON_1, root / "__files" / "pokemon" / "1.json")
    mapping(root / "mappings" / "bench", "post.json", {
        "request": {"method": "POST", "urlPath": POST_PATH},
        "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": POST_RESPONSE},
    })
    return root


def prepare_nginx_root(work: Path, pokestub_base: str) -> Path:
    """nginx serves exactly the bytes pokestub sends (its upstream links already point at itself)."""
    root = work / "nginx-root"
    root.mkdir()
    (root / "list.json").write_bytes(urllib_body(pokestub_base + LIST_PATH))
    (root / "pokemon-1.json").write_bytes(urllib_body(pokestub_base + BIG_PATH))
    (root / "miss.txt").write_bytes(urllib_body(pokestub_base + MISS_PATH))
    return root


def scale_root(work: Path, count: int) -> Path:
    """The pokemon list stub plus `count` generated stubs: a third literal paths, a third path
    templates, a third regular expressions."""
    root = work / f"scale-{count}"
    (root / "mappings").mkdir(parents=True)
    # The list's templated stub and its template (stubs/README.md, "Pagination").
    (root / "__files").mkdir()
    shutil.copy(REPO / "stubs" / "mappings" / "pokemon" / "list.json", root / "mappings" / "list.json")
    shutil.copy(REPO / "stubs" / "__files" / "list-page.hbs", root / "__files" / "list-page.hbs")
    generated = []
    for index in range(count):
        kind = index % 3
        if kind == 0:
            request = {"method": "GET", "urlPath": f"/api/v2/generated-{index}/item/"}
        elif kind == 1:
            request = {"method": "GET", "urlPathTemplate": f"/api/v2/template-{index}/{{id}}/"}
        else:
            request = {"method": "GET", "urlPathPattern": f"/api/v2/pattern-{index}/[0-9]+/"}
        generated.append({"request": request, "response": {"status": 200, "body": f"stub {index}"}})
    (root / "mappings" / "generated.json").write_text(json.dumps({"mappings": generated}))
    return root


def ratio(value: float, reference: float) -> str:
    return f"{value / reference:.2f}x" if reference else "n/a"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(REPO / ".build" / "release" / "pokestub"))
    parser.add_argument("--quick", action="store_true", help="short run for CI: 1 s per route, scale 10 and 1000")
    parser.add_argument("--duration", type=int, help="seconds per wrk run (default 8, quick 1)")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--json", help="also write the results as JSON to this file")
    parser.add_argument("--only", choices=["record"],
                        help="run one part only: `record` times the record path (and proxy mode) against nginx")
    parser.add_argument("--record-requests", type=int,
                        help="sequential GETs per record-path timing (default 300, quick 50)")
    parser.add_argument("--rounds", type=int, default=2, help="record-path timings: the best of this many rounds")
    parser.add_argument("--compare", metavar="BINARY",
                        help="with --only record: also time this pokestub binary (say, a build of main) in the same run")
    args = parser.parse_args()
    record_requests = args.record_requests or (50 if args.quick else 300)
    seconds = args.duration or (1 if args.quick else 8)
    scales = [10, 1000] if args.quick else [10, 1000, 10000]
    results: dict = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "machine": machine(),
                     "wrk": f"-t2 -c{args.connections} -d{seconds}s"}
    servers: list[Server] = []
    work = Path(tempfile.mkdtemp(prefix="pokestub-bench-"))
    work.chmod(0o755)  # nginx workers run as another user and must read the files
    try:
        stubs = prepare_stub_root(work)
        post_script = work / "post.lua"
        team: list = []
        while len(json.dumps({"team": team})) < 1990:
            team.append({"name": f"pokemon-{len(team)}", "level": len(team), "moves": ["tackle", "growl"]})
        post_body = json.dumps({"team": team})
        post_script.write_text(f'wrk.method = "POST"\nwrk.body = {json.dumps(post_body)}\n'
                               'wrk.headers["Content-Type"] = "application/json"\n')
        routes = [("list page (1.4 KB)", LIST_PATH, None), ("pokemon/1 (542 KB)", BIG_PATH, None),
                  ("miss (404 + near misses)", MISS_PATH, None), (f"POST {len(post_body)} B JSON", POST_PATH,
                                                                  post_script)]

        pokestub = start_pokestub(args.binary, stubs, BIG_PATH)
        servers.append(pokestub)
        nginx = start_nginx(prepare_nginx_root(work, pokestub.base), work, BIG_PATH)
        servers.append(nginx)
        check_same_bytes(pokestub.base, nginx.base)
        if args.only == "record":
            pokestub.stop()
            servers.remove(pokestub)
            # Direct timings before and after, the best of them for every ratio: other load on the machine
            # only ever makes a timing longer.
            direct = direct_timing(nginx.base, record_requests, args.rounds)
            if args.compare:
                results["record_compare"] = record_overhead(args.compare, nginx.base, work / "compare",
                                                            record_requests, args.rounds, direct)
            results["record"] = record_overhead(args.binary, nginx.base, work, record_requests, args.rounds, direct)
            direct = min(direct, direct_timing(nginx.base, record_requests, args.rounds))
            for name, binary in (("record_compare", args.compare), ("record", args.binary)):
                if results.get(name):
                    results[name]["direct_ms"] = direct
                    print(f"\n{binary}:", end="")
                    print_record(results[name])
            return finish(args, results)

        rows = []
        for label, path, script in routes:
            reference = wrk(nginx.base + path, seconds, args.connections, script)
            measured = wrk(pokestub.base + path, seconds, args.connections, script)
            rows.append((label, measured, reference))
        fill_journal(pokestub.base)
        journal_full_rss = peak_rss_kib(pokestub.pids())
        results["routes"] = [{"route": label, "pokestub": m, "nginx": r} for label, m, r in rows]
        results["peak_rss_kib"] = {"pokestub_full_journal": journal_full_rss, "nginx": peak_rss_kib(nginx.pids())}
        results["start_seconds"] = {"pokestub": pokestub.start_seconds, "nginx": nginx.start_seconds}
        pokestub.stop()
        servers.remove(pokestub)

        quiet = start_pokestub(args.binary, stubs, BIG_PATH, ["--journal-max-entries", "0"])
        servers.append(quiet)
        journal_off = []
        for label, path, script in routes:
            journal_off.append((label, wrk(quiet.base + path, seconds, args.connections, script)))
        quiet.stop()
        servers.remove(quiet)
        results["journal_off"] = [{"route": label, "pokestub": m} for label, m in journal_off]

        print(f"\npokestub benchmark, {results['date']}, {results['machine']}, wrk {results['wrk']}")
        print("ratios are pokestub / nginx from this run (req/s: higher is better; latency, RSS, start: lower)\n")
        print(f"| route | pokestub req/s | nginx req/s | ratio | p50 ms (ratio) | p99 ms (ratio) | journal off req/s (ratio) |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for (label, measured, reference), (_, off) in zip(rows, journal_off):
            print(f"| {label} | {measured['rps']:,.0f} | {reference['rps']:,.0f} | "
                  f"{ratio(measured['rps'], reference['rps'])} | {measured['p50']:.2f} ({ratio(measured['p50'], reference['p50'])}) | "
                  f"{measured['p99']:.2f} ({ratio(measured['p99'], reference['p99'])}) | "
                  f"{off['rps']:,.0f} ({ratio(off['rps'], reference['rps'])}) |")
            for name, result in (("pokestub", measured), ("nginx", reference), ("pokestub, journal off", off)):
                if result["errors"]:
                    print(f"|   {name} socket errors: {result['errors']} | | | | | | |")
        nginx_rss = results["peak_rss_kib"]["nginx"]
        print(f"\npeak RSS, shipped stubs + full 10,000-entry journal: pokestub {journal_full_rss / 1024:.1f} MiB; "
              f"nginx (master + workers) {nginx_rss / 1024:.1f} MiB ({ratio(journal_full_rss, nginx_rss)})")
        print(f"start to first answer: pokestub {pokestub.start_seconds * 1000:.1f} ms (1918 shipped stubs, "
              f"20 MB of bodies); nginx {nginx.start_seconds * 1000:.1f} ms "
              f"({ratio(pokestub.start_seconds, nginx.start_seconds)})")

        print("\n| stubs | start to first answer ms | list req/s | ratio to 10 stubs |")
        print("| ---: | ---: | ---: | ---: |")
        baseline = None
        results["scale"] = []
        for count in scales:
            server = start_pokestub(args.binary, scale_root(work, count), LIST_PATH)
            servers.append(server)
            measured = wrk(server.base + LIST_PATH, seconds, args.connections)
            baseline = baseline or measured["rps"]
            print(f"| {count:,} | {server.start_seconds * 1000:.1f} | {measured['rps']:,.0f} | "
                  f"{ratio(measured['rps'], baseline)} |")
            results["scale"].append({"stubs": count, "start_seconds": server.start_seconds, "rps": measured["rps"]})
            server.stop()
            servers.remove(server)

        results["record"] = record_overhead(args.binary, nginx.base, work, record_requests, args.rounds)
        print_record(results["record"])
    finally:
        for server in servers:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)
    return finish(args, results)


def finish(args: argparse.Namespace, results: dict) -> int:
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


def print_record(record: dict | None) -> None:
    if not record:
        print("\nrecord path: skipped (this build has no record mode)")
        return
    print(f"\nrecord path: {record['requests']} sequential GETs of {BIG_PATH} (curl, one reused connection), "
          f"best of {record['rounds']}:")
    print(f"  direct to nginx                 {record['direct_ms']:7.0f} ms")
    print(f"  through `pokestub --mode record` {record['through_ms']:6.0f} ms "
          f"({ratio(record['through_ms'], record['direct_ms'])})")
    print(f"  through `pokestub --mode proxy`  {record['proxy_ms']:6.0f} ms "
          f"({ratio(record['proxy_ms'], record['direct_ms'])})")


def urllib_body(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read()
    except urllib.error.HTTPError as error:
        return error.read()


def check_same_bytes(pokestub: str, nginx: str) -> None:
    for path in (LIST_PATH, BIG_PATH, MISS_PATH):
        mine, theirs = urllib_body(pokestub + path), urllib_body(nginx + path)
        if mine != theirs:
            raise SystemExit(f"pokestub and nginx do not serve the same bytes for {path}: "
                             f"{len(mine)} B {mine[:80]!r} against {len(theirs)} B {theirs[:80]!r}")


def fill_journal(base: str) -> None:
    """Sends requests until the journal holds its 10,000 entries (wrk has usually filled it already)."""
    for _ in range(3):
        with urllib.request.urlopen(base + "/__admin/health", timeout=5) as response:
            health = json.load(response)
        if health["journal"]["entries"] >= health["journal"]["maxEntries"]:
            return
        subprocess.run(["wrk", "-t1", "-c8", "-d1s", base + LIST_PATH], capture_output=True, timeout=60)


def record_overhead(binary: str, upstream: str, work: Path, count: int, rounds: int = 2,
                    direct: float | None = None) -> dict | None:
    """`count` sequential GETs through pokestub in record mode (every request goes upstream and is written)
    and in proxy mode (goes upstream, nothing written) against the same GETs straight to the upstream, all
    with curl reusing one connection; the best of `rounds` timings of each. `direct` is a direct timing
    already made (so two binaries compare against the same one)."""

    def timed(base: str) -> float:
        arguments = ["curl", "-s"]
        for _ in range(count):
            arguments += ["-o", "/dev/null", base + BIG_PATH]
        started = time.monotonic()
        subprocess.run(arguments, check=True, timeout=300, stdout=subprocess.DEVNULL)
        return (time.monotonic() - started) * 1000

    def through(mode: str) -> float | None:
        root = work / f"{mode}-stubs"
        shutil.rmtree(root, ignore_errors=True)
        (root / "mappings").mkdir(parents=True)
        port = free_port()
        process = subprocess.Popen(
            [binary, "serve", "--port", str(port), "--stubs", str(root), "--mode", mode, "--upstream", upstream,
             "--log-level", "error"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        server = Server(f"pokestub-{mode}", process, f"http://127.0.0.1:{port}", 0)
        try:
            try:
                wait_until_answering(server.base + "/__admin/health", time.monotonic(), 10)
            except RuntimeError:
                return None
            timed(server.base)  # warm up: first recording, connection to the upstream
            return min(timed(server.base) for _ in range(rounds))
        finally:
            server.stop()

    if direct is None:
        direct = direct_timing(upstream, count, rounds)
    recorded = through("record")
    if recorded is None:
        return None
    proxied = through("proxy")
    return {"requests": count, "rounds": rounds, "direct_ms": direct, "through_ms": recorded, "proxy_ms": proxied}


def direct_timing(upstream: str, count: int, rounds: int) -> float:
    """The best of `rounds` timings of `count` sequential GETs straight to the upstream, after a warm-up."""
    arguments = ["curl", "-s"]
    for _ in range(count):
        arguments += ["-o", "/dev/null", upstream + BIG_PATH]
    timings = []
    for _ in range(rounds + 1):
        started = time.monotonic()
        subprocess.run(arguments, check=True, timeout=300, stdout=subprocess.DEVNULL)
        timings.append((time.monotonic() - started) * 1000)
    return min(timings[1:])


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {cpu}"


if __name__ == "__main__":
    sys.exit(main())
