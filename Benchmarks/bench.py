#!/usr/bin/env python3
"""pokestub benchmark: pokestub and nginx serve the same bytes on loopback; wrk drives each in turn.

What it measures, each pokestub figure beside nginx's from the same run:
- per route (list page, the 542 KB pokemon/1, a miss, a 2 KB POST): req/s and p50/p99/p99.9 latency, with
  the journal on and off; peak RSS with a full journal; start to first answer;
- latency under many connections: the list route at 1,000 connections;
- a slow path cannot hide behind the mean: readers of the list route with and without one client that streams
  a 4 MiB upload slowly in 64 KiB pieces;
- 10 / 1,000 / 10,000 generated stubs; the record path against a direct libcurl fetch, with the relay floors
  (Benchmarks/relay-floor.c): the least a relay on libcurl and libmicrohttpd takes for the same GETs, buffered
  as pokestub is (on the server's thread, or handed over to an upstream thread) and streamed;
- beside each route, the libmicrohttpd floor (Benchmarks/floor.c): the same library with pokestub's settings
  and a handler that only queues a prepared answer, so the table shows how much of the gap to nginx is the
  library's and how much is pokestub's.

Honesty: the wrk runs of a pokestub/nginx pair run back to back, the order reversed every other round; every
figure is the median of `--rounds` rounds (each metric's median on its own), and the ratio is the ratio of
the medians. Every wrk run also reports `other CPU %`: the CPU time the machine spent during the run outside
the server under test, wrk and this script (busy jiffies of /proc/stat, less the server's processes' utime +
stime from /proc/PID/stat and the script's and its reaped children's rusage), as a percentage of all cores'
capacity over the run. Where there is no /proc (macOS) it is `n/a`.

Every load is bounded by wrk's duration (the uploader stops with it); every process started here is stopped
at the end, also on Ctrl-C, SIGTERM or an error. Only 127.0.0.1 is used.

`--markdown FILE` (`--update-readme` for Benchmarks/README.md) writes the result tables between the lines
`<!-- bench:begin -->` and `<!-- bench:end -->` of FILE, so the tables of Benchmarks/README.md come from one
command.

Run through Benchmarks/run.sh, which installs wrk and nginx-light and builds the release binary.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parent.parent
SHARED_POKEMON_1 = REPO.parent / "shared" / "pokeapi" / "api" / "v2" / "pokemon" / "1" / "index.json"
LIST_PATH = "/api/v2/pokemon/?offset=0&limit=20"
BIG_PATH = "/api/v2/pokemon/1/"
# A page no plain stub holds: the pokemon list's response template renders it (it walks the whole list).
TEMPLATED_PATH = "/api/v2/pokemon?offset=10&limit=20"
MISS_PATH = "/api/v2/pokemon/9999/"
POST_PATH = "/api/v2/bench/post"
POST_RESPONSE = '{"ok":true}'
UPLOAD_PATH = "/api/v2/bench/upload"
UPLOAD_RESPONSE = '{"uploaded":true}'
UPLOAD_BYTES = 4 * 1024 * 1024
UPLOAD_PIECE_BYTES = 64 * 1024
MANY_CONNECTIONS = 1000
# pokestub's per-connection pool with its default limits (HTTPServer.connectionMemoryBytes): the 32 KiB header
# limit, a quarter more, and 64 bytes for each of 500 query arguments.
FLOOR_POOL_BYTES = 32768 + 32768 // 4 + 64 * 500
BEGIN_MARKER = "<!-- bench:begin -->"
END_MARKER = "<!-- bench:end -->"
# Issue 28's targets, printed beside the measurements: each route against the libmicrohttpd floor of the same run,
# the templated page against the plain page, the record path against the handed-over relay floor.
TARGETS = {"list": "≥ 0.85x floor", "templated": "≥ 25% of the plain page", "big": "≥ 0.95x floor",
           "miss": "≥ 0.85x floor", "post": "≥ 0.85x floor", "rss": "40 MiB", "start": "50 ms",
           "scale": "250 ms; within 5%", "record": "≤ 1.15x the handed-over relay floor",
           "many": "p99.9 ≤ 1.25x nginx's, max ≤ 2x"}

# wrk calls done() once at the end; it prints what wrk's own summary rounds or leaves out: p99.9, the
# exact request count and duration (µs), and the error counters (`status` counts answers of 400 and above).
DONE_LUA = """
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("bench-result %.0f %.0f %.1f %.1f %.1f %.1f %.0f %.0f %.0f %.0f %.0f\\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    latency:percentile(99.9), latency.max, e.connect, e.read, e.write, e.status, e.timeout))
end
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


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


class CPUSample:
    """A snapshot of the CPU time the machine, one set of processes, this script and its reaped children have
    used, to tell, between two snapshots, how much of the cores went to anything else.

    The machine's busy time is /proc/stat's first line (user + nice + system + irq + softirq + steal; guest
    time is already in user and nice) and its capacity the sum of all its fields but the guest ones, in clock
    ticks (proc(5)); a process's is utime + stime from /proc/PID/stat (fields 14 and 15, all its threads).
    This script's own time and its waited-for children's (wrk, once it has exited) come from getrusage(2).
    Without /proc (macOS) nothing is sampled and the result is None."""

    TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def __init__(self, pids: list[int]):
        self.machine = self._machine()
        self.processes = sum(self._process(pid) for pid in pids) if self.machine else 0
        own = resource.getrusage(resource.RUSAGE_SELF)
        reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.harness = (own.ru_utime + own.ru_stime + reaped.ru_utime + reaped.ru_stime) * self.TICKS

    @staticmethod
    def _machine() -> tuple[int, int] | None:
        try:
            fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
        except (OSError, ValueError):
            return None
        user, nice, system, idle, iowait, irq, softirq, steal = fields + [0] * (8 - len(fields))
        return user + nice + system + irq + softirq + steal, sum(fields)

    @staticmethod
    def _process(pid: int) -> int:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return 0
        fields = stat.rsplit(")", 1)[1].split()  # the command name, in parentheses, may hold spaces
        return int(fields[11]) + int(fields[12])  # utime, stime: fields 14 and 15 counting from pid

    @staticmethod
    def other_percent(before: "CPUSample", after: "CPUSample") -> float | None:
        """Percent of all cores' capacity between the samples used by processes other than the sampled ones,
        this script and its reaped children; None without /proc."""
        if not before.machine or not after.machine:
            return None
        busy = after.machine[0] - before.machine[0]
        capacity = after.machine[1] - before.machine[1]
        ours = (after.processes - before.processes) + (after.harness - before.harness)
        return max(0.0, (busy - ours) / capacity * 100) if capacity > 0 else None


class Server:
    def __init__(self, name: str, process: subprocess.Popen, base: str, start_seconds: float):
        self.name, self.process, self.base, self.start_seconds = name, process, base, start_seconds
        self._pids: list[int] | None = None

    def pids(self) -> list[int]:
        """The server's process and its children (nginx's workers), listed once: they stay for its life."""
        if self._pids is None:
            self._pids = [self.process.pid] + children(self.process.pid)
        return self._pids

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def launched(name: str, command: list[str], port: int, probe: str) -> Server:
    """Starts `command` (a server listening on 127.0.0.1:`port`) and waits until `probe` answers; the time from
    the start to that answer is the server's `start_seconds`. Stops it again if it never answers."""
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               stdin=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        seconds = wait_until_answering(base + probe, started)
    except BaseException:
        Server(name, process, base, 0).stop()
        raise
    return Server(name, process, base, seconds)


def start_pokestub(binary: str, stubs: Path, probe: str, extra: list[str] | None = None,
                   name: str = "pokestub") -> Server:
    port = free_port()
    return launched(name, [binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--stubs", str(stubs),
                           "--log-level", "error", *(extra or [])], port, probe)


# nginx as its documentation advises for static content (http://nginx.org/en/docs/http/ngx_http_core_module.html):
# `sendfile` hands the file to the kernel instead of copying it through a buffer, `tcp_nopush` (TCP_CORK, with
# sendfile) sends the header and the start of the file in one packet and the file in full packets, `tcp_nodelay`
# sends the last partial packet of a keep-alive answer at once, and `open_file_cache` keeps the descriptors,
# sizes and modification times of the files, so no answer opens or stats one. `keepalive_requests` (default
# 1,000) is raised so that wrk never reconnects: pokestub (libmicrohttpd) serves any number of requests on one
# connection. Each route is an exact location that serves its file itself: `rewrite ... break` names the file
# without the internal redirect `try_files` makes, and (a path ending in `/` is not a file to nginx's static
# module) without the index module. The miss answers 404 with the miss body through `error_page`, nginx's way
# of giving an error status a body of its own.
NGINX_CONFIG = """worker_processes {workers};
daemon off;
pid {work}/nginx-{port}.pid;
error_log {work}/nginx-error.log;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  default_type application/json;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  open_file_cache max=64 inactive=60s;
  open_file_cache_valid 60s;
  open_file_cache_min_uses 1;
  open_file_cache_errors on;
  keepalive_requests 1000000;
  client_body_temp_path {work}/nginx-body;
  proxy_temp_path {work}/nginx-proxy;
  fastcgi_temp_path {work}/nginx-fastcgi;
  uwsgi_temp_path {work}/nginx-uwsgi;
  scgi_temp_path {work}/nginx-scgi;
  server {{
    listen 127.0.0.1:{port} backlog=4096;
    root {root};
    location = /api/v2/pokemon/ {{ rewrite ^ /list.json break; }}
    location = /api/v2/pokemon {{ rewrite ^ /templated.json break; }}
    location = /api/v2/pokemon/1/ {{ rewrite ^ /pokemon-1.json break; }}
    location = {miss} {{ return 404; }}
    error_page 404 /miss.txt;
    location = /miss.txt {{ internal; default_type "text/plain; charset=utf-8"; }}
    location = {post} {{ return 200 '{post_response}'; }}
    location = {upload} {{ client_max_body_size 16m; return 200 '{upload_response}'; }}
  }}
}}
"""


def nginx_config(root: str, work: str, port: int | str) -> str:
    """The benchmark's nginx configuration (NGINX_CONFIG) for a root, a work directory and a port."""
    return NGINX_CONFIG.format(workers=os.cpu_count() or 1, work=work, port=port, root=root, miss=MISS_PATH,
                               post=POST_PATH, post_response=POST_RESPONSE, upload=UPLOAD_PATH,
                               upload_response=UPLOAD_RESPONSE)


def start_nginx(root: Path, work: Path, probe: str) -> Server:
    port = free_port()
    conf = work / f"nginx-{port}.conf"
    conf.write_text(nginx_config(str(root), str(work), port))
    return launched("nginx", ["nginx", "-c", str(conf)], port, probe)


def build_c(work: Path, source: str, packages: list[str], extra: list[str] | None = None) -> tuple[Path | None, str]:
    """Compiles Benchmarks/`source` (a benchmark reference in C) with `cc -O2` against the libraries pokestub
    links, with `pkg-config` for the `packages`' flags where there is one (Homebrew's prefix on macOS), else
    `-l` each of them. Returns the binary and the command line, or None and why not."""
    binary = work / Path(source).stem
    flags = ["-l" + package.removeprefix("lib") for package in packages]
    if shutil.which("pkg-config"):
        found = subprocess.run(["pkg-config", "--cflags", "--libs", *packages], capture_output=True, text=True)
        if found.returncode == 0 and found.stdout.strip():
            flags = found.stdout.split()
    flags += extra or []
    compiler = shutil.which("cc") or shutil.which("clang") or shutil.which("gcc")
    if compiler is None:
        return None, "no C compiler"
    built = subprocess.run([compiler, "-O2", "-o", str(binary), str(REPO / "Benchmarks" / source), *flags],
                           capture_output=True, text=True)
    if built.returncode != 0:
        return None, f"{source} did not build: {built.stderr.strip()[-300:]}"
    return binary, f"{Path(compiler).name} -O2 {source} {' '.join(flags)}"


def start_floor(binary: Path, root: Path, probe: str, connections: int) -> Server:
    """The libmicrohttpd floor on a free port, serving `root` (the nginx root) with pokestub's settings: its
    per-connection pool (FLOOR_POOL_BYTES), one thread per core, the same connection limit and reserve."""
    port = free_port()
    threads = os.cpu_count() or 1
    admitted = connections + max(8, connections // 16)
    return launched("libmicrohttpd floor", [str(binary), str(port), str(root), str(FLOOR_POOL_BYTES), str(threads),
                                            str(admitted)], port, probe)


def wrk_script(work: Path, name: str, lines: str = "") -> Path:
    """A wrk Lua script: `lines` (method, body, headers), then the done() that prints the figures read here."""
    script = work / f"{name}.lua"
    script.write_text(lines + DONE_LUA)
    return script


def wrk(server: Server, path: str, seconds: int, connections: int, script: Path) -> dict:
    """One wrk run against `server`, bounded by `seconds` (and killed 60 s after that). Latencies in ms."""
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s", "-s", str(script),
               server.base + path]
    pids = server.pids()
    before = CPUSample(pids)
    completed = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    after = CPUSample(pids)
    match = re.search(r"^bench-result (.*)$", completed.stdout, re.M)
    if not match:
        raise RuntimeError(f"wrk printed no result for {server.name} {path}: {completed.stdout[-400:]!r} "
                           f"{completed.stderr[-400:]!r}")
    requests, duration_us, p50, p99, p999, most, *errors = (float(value) for value in match.group(1).split())
    errors_by_kind = {kind: int(count) for kind, count in zip(("connect", "read", "write", "status", "timeout"),
                                                             errors)}
    return {"rps": requests / (duration_us / 1e6) if duration_us else 0.0, "p50": p50 / 1000, "p99": p99 / 1000,
            "p99_9": p999 / 1000, "max": most / 1000, "requests": int(requests), "errors": errors_by_kind,
            "other_cpu_percent": CPUSample.other_percent(before, after)}


def median_of(runs: list[dict]) -> dict:
    """Each metric's median over the rounds on its own; the error counters summed; the rounds kept."""
    summary: dict = {}
    for key in ("rps", "p50", "p99", "p99_9", "max", "other_cpu_percent"):
        values = [run[key] for run in runs if run.get(key) is not None]
        summary[key] = statistics.median(values) if values else None
    summary["errors"] = {kind: sum(run["errors"][kind] for run in runs) for kind in runs[0]["errors"]}
    summary["rounds"] = runs
    return summary


def in_rounds(runs: list[tuple[str, str, Callable[[], dict]]], rounds: int) -> dict[str, dict]:
    """Runs every (group, member, run) of `runs` once per round, in the given order in even rounds and in the
    reverse order in odd ones (so pokestub and nginx, listed next to each other, swap who goes first), and
    returns each `group/member`'s median over the rounds."""
    results: dict[str, list[dict]] = collections.defaultdict(list)
    for round_index in range(rounds):
        order = runs if round_index % 2 == 0 else list(reversed(runs))
        for group, member, run in order:
            result = run()
            results[f"{group}/{member}"].append(result)
            print(f"  round {round_index + 1}/{rounds} {group}, {member}: {result['rps']:,.0f} req/s, "
                  f"p50 {result['p50']:.2f} ms, p99 {result['p99']:.2f} ms, p99.9 {result['p99_9']:.2f} ms, "
                  f"other CPU {percent(result['other_cpu_percent'])}{error_note(result['errors'], group)}",
                  flush=True)
    return {key: median_of(value) for key, value in results.items()}


class SlowUploader:
    """One client that POSTs `UPLOAD_BYTES` to `UPLOAD_PATH` in `UPLOAD_PIECE_BYTES` pieces with a
    `Content-Length`, the pieces spread evenly over `upload_seconds`, one upload after another on a new
    connection each, until stopped. Used as a context manager: it stops at the end of the `with` block, the
    upload then under way closed unfinished (counted as `aborted`)."""

    def __init__(self, base: str, upload_seconds: float):
        self.port = int(base.rsplit(":", 1)[1])
        self.interval = upload_seconds / (UPLOAD_BYTES // UPLOAD_PIECE_BYTES)
        self.stopping = threading.Event()
        self.statuses: collections.Counter = collections.Counter()
        self.aborted = 0
        self.failures: list[str] = []
        self.thread = threading.Thread(target=self._run, name="slow-uploader", daemon=True)

    def __enter__(self) -> "SlowUploader":
        self.thread.start()
        return self

    def __exit__(self, *_) -> None:
        self.stopping.set()
        self.thread.join(timeout=15)

    def summary(self) -> dict:
        return {"completed": dict(self.statuses), "aborted": self.aborted, "failures": self.failures[:5]}

    def _run(self) -> None:
        while not self.stopping.is_set():
            try:
                self._upload()
            except OSError as error:
                self.failures.append(f"{type(error).__name__}: {error}")
                self.stopping.wait(0.1)  # a refused or reset connection: not a tight loop

    def _upload(self) -> None:
        head = (f"POST {UPLOAD_PATH} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                f"Content-Type: application/octet-stream\r\nContent-Length: {UPLOAD_BYTES}\r\n"
                "Connection: close\r\n\r\n").encode()
        piece = b"u" * UPLOAD_PIECE_BYTES
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as sock:
            sock.sendall(head)
            for _ in range(UPLOAD_BYTES // UPLOAD_PIECE_BYTES):
                if self.stopping.wait(self.interval):
                    self.aborted += 1
                    return
                sock.sendall(piece)
            answer = b""
            while b"\r\n" not in answer:
                received = sock.recv(4096)
                if not received:
                    break
                answer += received
            status = answer.split(b" ", 2)[1].decode() if answer.startswith(b"HTTP/1.") else "no answer"
            self.statuses[status] += 1


def mapping(directory: Path, name: str, body: dict) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_text(json.dumps(body))


def prepare_stub_root(work: Path) -> Path:
    """The shipped stubs, with pokemon 1 as the 542 KB file as stored in shared/pokeapi, a POST stub and an
    upload stub (any body; the slow uploader's)."""
    root = work / "stubs"
    shutil.copytree(REPO / "stubs", root)
    shutil.copyfile(SHARED_POKEMON_1, root / "__files" / "pokemon" / "1.json")
    mapping(root / "mappings" / "bench", "post.json", {
        "request": {"method": "POST", "urlPath": POST_PATH},
        "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": POST_RESPONSE},
    })
    mapping(root / "mappings" / "bench", "upload.json", {
        "request": {"method": "POST", "urlPath": UPLOAD_PATH},
        "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": UPLOAD_RESPONSE},
    })
    return root


def prepare_nginx_root(work: Path, pokestub_base: str) -> Path:
    """nginx serves exactly the bytes pokestub sends (its upstream links already point at itself)."""
    root = work / "nginx-root"
    root.mkdir()
    (root / "list.json").write_bytes(urllib_body(pokestub_base + LIST_PATH))
    (root / "templated.json").write_bytes(urllib_body(pokestub_base + TEMPLATED_PATH))
    (root / "pokemon-1.json").write_bytes(urllib_body(pokestub_base + BIG_PATH))
    (root / "miss.txt").write_bytes(urllib_body(pokestub_base + MISS_PATH))
    return root


def scale_root(work: Path, count: int) -> Path:
    """The pokemon list's plain page stubs plus `count` generated stubs: a third literal paths, a third path
    templates, a third regular expressions."""
    root = work / f"scale-{count}"
    (root / "mappings").mkdir(parents=True)
    shutil.copytree(REPO / "stubs" / "mappings" / "pokemon" / "list", root / "mappings" / "list")
    shutil.copytree(REPO / "stubs" / "__files" / "pokemon" / "list", root / "__files" / "pokemon" / "list")
    shutil.copytree(REPO / "stubs" / "__files" / "pokemon" / "list-noslash",
                    root / "__files" / "pokemon" / "list-noslash")
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


def ratio(value: float | None, reference: float | None) -> str:
    return f"{value / reference:.2f}x" if value is not None and reference else "n/a"


def percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0f}%"


def error_note(errors: dict, group: str = "") -> str:
    """`errors` as a short note, empty when there are none; 404s are expected on the miss route."""
    shown = {kind: count for kind, count in errors.items()
             if count and not (kind == "status" and group.startswith("miss"))}
    if not shown:
        return ""
    return " (" + ", ".join(f"{count:,} {'answers >= 400' if kind == 'status' else kind + ' errors'}"
                            for kind, count in shown.items()) + ")"


def raise_open_file_limit(needed: int) -> str:
    """Raises this process's soft RLIMIT_NOFILE (inherited by wrk, nginx and pokestub) to `needed` where it
    is lower and the hard limit allows; returns a note for the output."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            pass  # macOS refuses values above kern.maxfilesperproc; the note below says what is in force
        raised = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        return f"open files: soft limit raised from {soft} to {raised} for the servers and wrk"
    return f"open files: soft limit {soft if soft != resource.RLIM_INFINITY else 'unlimited'}"


def pokestub_connection_limit(binary: str) -> int | None:
    """pokestub's default `limits.maxConnections`, as `serve --help` prints it; None where it does not."""
    try:
        out = subprocess.run([binary, "serve", "--help"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    # The option's description runs until the next option; its default is written `(default 1024)`.
    match = re.search(r"--limits-max-connections\b(.*?)(?:\n\s*--|\Z)", out.stdout + out.stderr, re.S)
    default = re.search(r"\(default (\d+)\)", match.group(1)) if match else None
    return int(default.group(1)) if default else None


def command_line(*command: str) -> str:
    """The first line `command` prints (on either stream), or `unknown`."""
    try:
        out = subprocess.run(list(command), capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    lines = (out.stdout + out.stderr).strip().splitlines()
    return lines[0].strip() if lines else "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(REPO / ".build" / "release" / "pokestub"))
    parser.add_argument("--quick", action="store_true",
                        help="short run for CI: 1 s per wrk run, 1 round, scale 10 and 1000")
    parser.add_argument("--duration", type=int, help="seconds per wrk run (default 8, quick 1)")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--rounds", type=int,
                        help="rounds of every pokestub/nginx pair; figures are their medians (default 3, quick 1)")
    parser.add_argument("--json", help="also write the results as JSON to this file")
    parser.add_argument("--markdown", metavar="FILE",
                        help=f"write the result tables into FILE between {BEGIN_MARKER} and {END_MARKER} "
                             "(a new FILE is created with them)")
    parser.add_argument("--update-readme", action="store_true", help="--markdown Benchmarks/README.md")
    parser.add_argument("--only", choices=["record", "routes", "start"],
                        help="run one part only: `record` times the record path (and proxy mode) against nginx, "
                             "`routes` the per-route table alone, `start` start to first answer and resident "
                             "memory, with the shipped stubs and with none (see start_breakdown)")
    parser.add_argument("--route", action="append", choices=["list", "templated", "big", "miss", "post"],
                        help="with --only routes: only this route (repeatable; default every route)")
    parser.add_argument("--record-requests", type=int,
                        help="sequential GETs per record-path timing (default 300, quick 50)")
    parser.add_argument("--record-rounds", type=int, default=5,
                        help="record-path timings: the best of this many rounds (default 5)")
    parser.add_argument("--compare", metavar="BINARY",
                        help="with --only record or start: also time this pokestub binary (say, a build of main) in "
                             "the same run")
    args = parser.parse_args()
    if args.update_readme:
        args.markdown = str(REPO / "Benchmarks" / "README.md")
    if args.markdown:
        if args.only:
            parser.error("--markdown and --update-readme need the full run (no --only)")
        check_markers(Path(args.markdown))
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, lambda number, _: sys.exit(128 + number))  # runs the `finally` that stops servers

    record_requests = args.record_requests or (50 if args.quick else 300)
    seconds = args.duration or (1 if args.quick else 8)
    rounds = args.rounds or (1 if args.quick else 3)
    scales = [10, 1000] if args.quick else [10, 1000, 10000]
    results: dict = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "machine": machine(),
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "versions": {"pokestub": command_line("git", "-C", str(REPO), "describe", "--always", "--dirty"),
                     "swift": command_line("swift", "--version"), "nginx": command_line("nginx", "-v"),
                     "wrk": command_line("wrk", "-v").split(" Copyright")[0]},
        "wrk": f"-t2 -c{args.connections} -d{seconds}s", "rounds": rounds,
        "open_files": raise_open_file_limit(4 * MANY_CONNECTIONS + 1024),
        "nginx_config": nginx_config("ROOT", "WORK", "PORT"),
    }
    servers: list[Server] = []
    work = Path(tempfile.mkdtemp(prefix="pokestub-bench-"))
    work.chmod(0o755)  # nginx workers run as another user and must read the files
    try:
        stubs = prepare_stub_root(work)
        team: list = []
        while len(json.dumps({"team": team})) < 1990:
            team.append({"name": f"pokemon-{len(team)}", "level": len(team), "moves": ["tackle", "growl"]})
        post_body = json.dumps({"team": team})
        get_script = wrk_script(work, "get")
        post_script = wrk_script(work, "post", f'wrk.method = "POST"\nwrk.body = {json.dumps(post_body)}\n'
                                               'wrk.headers["Content-Type"] = "application/json"\n')
        routes = [("list page (1.4 KB)", LIST_PATH, get_script, "list"),
                  ("templated list page (1.4 KB)", TEMPLATED_PATH, get_script, "templated"),
                  ("pokemon/1 (542 KB)", BIG_PATH, get_script, "big"),
                  ("miss (404 + near misses)", MISS_PATH, get_script, "miss"),
                  (f"POST {len(post_body)} B JSON", POST_PATH, post_script, "post")]
        if args.only == "routes" and args.route:
            routes = [route for route in routes if route[3] in args.route]

        # The 1,000-connection run needs pokestub to admit that many at once (and a probe beside them).
        default_limit = pokestub_connection_limit(args.binary)
        needed = MANY_CONNECTIONS + 16
        limit_flags: list[str] = []
        if default_limit is None or default_limit < needed:
            limit_flags = ["--limits-max-connections", str(max(needed, 1024))]
            results["connection_limit"] = (f"pokestub runs with {' '.join(limit_flags)} (its default, "
                                           f"{default_limit or 'not found in serve --help'}, admits fewer than "
                                           f"the {MANY_CONNECTIONS:,}-connection run needs)")
        else:
            results["connection_limit"] = (f"pokestub's default limits.maxConnections ({default_limit:,}) admits "
                                           f"the {MANY_CONNECTIONS:,}-connection run; no flag passed")

        if args.only == "start":
            binaries = [("pokestub", args.binary)] + ([("compare", args.compare)] if args.compare else [])
            results["start"] = start_breakdown(binaries, stubs, work, 5 * rounds)
            print("\n".join(start_lines(results["start"], binaries)))
            return finish(args, results, None)
        pokestub = start_pokestub(args.binary, stubs, BIG_PATH, limit_flags)
        servers.append(pokestub)
        nginx_root = prepare_nginx_root(work, pokestub.base)
        nginx = start_nginx(nginx_root, work, BIG_PATH)
        servers.append(nginx)
        check_same_bytes(pokestub.base, nginx.base)
        if args.only == "record":
            pokestub.stop()
            servers.remove(pokestub)
            # Direct timings before and after, the best of them for every ratio: other load on the machine
            # only ever makes a timing longer.
            direct = direct_timing(nginx.base, record_requests, args.record_rounds)
            if args.compare:
                results["record_compare"] = record_overhead(args.compare, nginx.base, work / "compare",
                                                            record_requests, args.record_rounds, direct)
            results["record"] = record_overhead(args.binary, nginx.base, work, record_requests, args.record_rounds,
                                                direct)
            results["relay_floors"] = relay_floors(work, nginx.base, record_requests, args.record_rounds)
            direct = min(direct, direct_timing(nginx.base, record_requests, args.record_rounds))
            for name, binary in (("record_compare", args.compare), ("record", args.binary)):
                if results.get(name):
                    results[name]["direct_ms"] = direct
                    print(f"\n{binary}:")
                    print("\n".join(record_lines(results[name])))
            print("\n".join(relay_floor_lines(results["relay_floors"], direct,
                                              results.get("record", {}).get("through_ms"))))
            return finish(args, results, None)

        quiet = start_pokestub(args.binary, stubs, BIG_PATH, ["--journal-max-entries", "0", *limit_flags],
                               "pokestub, journal off")
        servers.append(quiet)
        floor_binary, results["floor_build"] = build_c(work, "floor.c", ["libmicrohttpd"])
        floor = None
        if floor_binary is not None:
            # The connection limit pokestub runs with: the flag's when one is passed, else its default.
            admitted = int(limit_flags[1]) if limit_flags else (default_limit or 1024)
            try:
                floor = start_floor(floor_binary, nginx_root, BIG_PATH, admitted)
                servers.append(floor)
                check_same_bytes(floor.base, nginx.base, "the libmicrohttpd floor")
            except (RuntimeError, SystemExit, OSError) as error:  # a reference: its failure skips it
                results["floor_build"] = f"the floor built but did not serve: {error}"
                print(f"libmicrohttpd floor skipped: {error}", flush=True)
                if floor is not None:
                    floor.stop()
                    servers.remove(floor)
                floor = None
        print(f"pokestub benchmark: {rounds} round(s), wrk {results['wrk']}; {results['machine']}", flush=True)
        runs = []
        for label, path, script, _ in routes:
            members = [("pokestub", pokestub), ("nginx", nginx), ("journal off", quiet)]
            if floor is not None:
                members.append(("floor", floor))
            for name, server in members:
                runs.append((label, name, lambda server=server, path=path, script=script:
                             wrk(server, path, seconds, args.connections, script)))
        measured = in_rounds(runs, rounds)
        quiet.stop()
        servers.remove(quiet)
        results["routes"] = [{"route": label, "target": TARGETS[key], "pokestub": measured[f"{label}/pokestub"],
                              "nginx": measured[f"{label}/nginx"],
                              "journal_off": measured[f"{label}/journal off"],
                              "floor": measured.get(f"{label}/floor")} for label, _, _, key in routes]
        if floor is not None:
            results["start_seconds_floor"] = floor.start_seconds
        if args.only == "routes":
            if floor is not None:
                floor.stop()
                servers.remove(floor)
            report = route_lines(results)
            print("\n" + "\n".join(report))
            return finish(args, results, None)
        fill_journal(pokestub.base)
        results["peak_rss_kib"] = {"pokestub_full_journal": peak_rss_kib(pokestub.pids()),
                                   "nginx": peak_rss_kib(nginx.pids())}
        results["start_seconds"] = {"pokestub": pokestub.start_seconds, "nginx": nginx.start_seconds}

        # Latency where the mean hides it: many connections, and readers beside one slow upload.
        upload_seconds = max(0.5, seconds / 4)  # three or four uploads end inside a run
        uploads: dict[str, list[dict]] = collections.defaultdict(list)

        def with_uploader(server: Server) -> dict:
            with SlowUploader(server.base, upload_seconds) as uploader:
                result = wrk(server, LIST_PATH, seconds, args.connections, get_script)
            uploads[server.name].append(uploader.summary())
            return result

        many = f"list page, {MANY_CONNECTIONS:,} connections"
        quiet_readers = f"list page, {args.connections} readers"
        busy_readers = f"list page, {args.connections} readers + 1 slow upload"
        runs = []
        # The floor beside them at 1,000 connections: how much of the tail is the library's own.
        for name, server in (("pokestub", pokestub), ("nginx", nginx), ("floor", floor)):
            if server is not None:
                runs.append((many, name, lambda server=server: wrk(server, LIST_PATH, seconds, MANY_CONNECTIONS,
                                                                   get_script)))
        for name, server in (("pokestub", pokestub), ("nginx", nginx)):
            runs.append((quiet_readers, name, lambda server=server: wrk(server, LIST_PATH, seconds,
                                                                        args.connections, get_script)))
            runs.append((busy_readers, name, lambda server=server: with_uploader(server)))
        measured = in_rounds(runs, rounds)
        results["latency"] = [{"run": label, "pokestub": measured[f"{label}/pokestub"],
                               "nginx": measured[f"{label}/nginx"], "floor": measured.get(f"{label}/floor")}
                              for label in (many, quiet_readers, busy_readers)]
        if floor is not None:
            floor.stop()
            servers.remove(floor)
        results["uploads"] = {"bytes": UPLOAD_BYTES, "piece_bytes": UPLOAD_PIECE_BYTES,
                              "seconds_per_upload": upload_seconds, "by_server": dict(uploads)}
        pokestub.stop()
        servers.remove(pokestub)

        # Each round starts every size once, the order reversed every other round, so a drift in the machine's
        # speed falls on all sizes alike; a size's figures are the medians of its rounds.
        roots = {count: scale_root(work, count) for count in scales}
        runs: dict[int, list[dict]] = {count: [] for count in scales}
        for round_index in range(rounds):
            for count in (scales if round_index % 2 == 0 else list(reversed(scales))):
                server = start_pokestub(args.binary, roots[count], LIST_PATH)
                servers.append(server)
                result = wrk(server, LIST_PATH, seconds, args.connections, get_script)
                runs[count].append({"start_seconds": server.start_seconds, "rps": result["rps"],
                                    "other_cpu_percent": result["other_cpu_percent"]})
                server.stop()
                servers.remove(server)
        results["scale"] = [
            {"stubs": count, "rounds": runs[count],
             **{key: statistics.median(run[key] for run in runs[count] if run[key] is not None)
                if any(run[key] is not None for run in runs[count]) else None
                for key in ("start_seconds", "rps", "other_cpu_percent")}}
            for count in scales]

        results["record"] = record_overhead(args.binary, nginx.base, work, record_requests, args.record_rounds)
        results["relay_floors"] = relay_floors(work, nginx.base, record_requests, args.record_rounds)
    finally:
        for server in servers:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)
    report = report_lines(results)
    print("\n" + "\n".join(report))
    return finish(args, results, report)


def route_lines(results: dict) -> list[str]:
    """The heading line, the per-route table, the floor's note and nginx's configuration, as Markdown."""
    versions = results["versions"]
    lines = [
        f"pokestub benchmark, {results['date']}: {results['machine']}; load average at start "
        f"{', '.join(f'{value:.1f}' for value in results['load_average'] or [])}; pokestub {versions['pokestub']}, "
        f"{versions['swift']}, {versions['nginx']}, {versions['wrk']}; wrk {results['wrk']}; every figure the "
        f"median of {results['rounds']} round(s), pokestub and nginx back to back in alternating order. Ratios "
        "are pokestub / nginx from this run (req/s: higher is better; latency, RSS, start: lower). "
        "`other CPU %`: share of all cores used during the runs by processes other than the server, wrk and "
        "the benchmark (pokestub / nginx / journal off / floor).",
        "",
        "| route | pokestub req/s | nginx req/s | ratio | target | p50 ms (ratio) | p99 ms (ratio) "
        "| p99.9 ms (ratio) | journal off req/s (ratio) | libmicrohttpd floor req/s (ratio) | pokestub / floor "
        "| other CPU % |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in results["routes"]:
        mine, theirs, off, floor = row["pokestub"], row["nginx"], row["journal_off"], row.get("floor")
        floor_cells = (f"{floor['rps']:,.0f} ({ratio(floor['rps'], theirs['rps'])}) | {ratio(mine['rps'], floor['rps'])}"
                       if floor else "n/a | n/a")
        lines.append(
            f"| {row['route']} | {mine['rps']:,.0f} | {theirs['rps']:,.0f} | **{ratio(mine['rps'], theirs['rps'])}** "
            f"| {row['target']} | " + " | ".join(f"{mine[key]:.2f} ({ratio(mine[key], theirs[key])})"
                                                for key in ("p50", "p99", "p99_9"))
            + f" | {off['rps']:,.0f} ({ratio(off['rps'], theirs['rps'])}) | {floor_cells} | "
            + " / ".join(percent(run["other_cpu_percent"]) for run in (mine, theirs, off, floor) if run) + " |")
    for row in results["routes"]:
        for name in ("pokestub", "nginx", "journal_off", "floor"):
            note = error_note(row[name]["errors"], "miss" if row["route"].startswith("miss") else "") if row.get(name) else ""
            if note:
                lines.append(f"|   {row['route']}, {name}:{note} | | | | | | | | | | | |")
    floor_note = (f"compiled with `{results['floor_build']}`" if results.get("start_seconds_floor") is not None
                  else f"not measured: {results.get('floor_build', 'not built')}")
    lines += [
        "",
        "libmicrohttpd floor: `Benchmarks/floor.c`, the least a server on libmicrohttpd does per request with "
        "pokestub's daemon settings (thread pool of one thread per core, the same per-connection pool of "
        f"{FLOOR_POOL_BYTES:,} bytes, connection limit, strict parsing), answering each route from one response "
        f"made at start; no Swift, matching or journal; {floor_note}. `pokestub / floor` is the share of the "
        "library's own ceiling pokestub reaches.",
        "",
        "nginx, configured for static content as its documentation advises (`NGINX_CONFIG` in "
        "`Benchmarks/bench.py`; ROOT holds the bytes pokestub served, WORK and PORT are the run's):",
        "",
        "```nginx",
        *results["nginx_config"].rstrip("\n").splitlines(),
        "```",
    ]
    return lines


def report_lines(results: dict) -> list[str]:
    """The results as Markdown: a heading line, the tables and notes; printed, and written by --markdown."""
    lines = route_lines(results)
    rss, start = results["peak_rss_kib"], results["start_seconds"]
    lines += [
        "",
        f"- peak RSS, shipped stubs + full 10,000-entry journal: pokestub **{rss['pokestub_full_journal'] / 1024:.1f} "
        f"MiB**; nginx (master + workers) {rss['nginx'] / 1024:.1f} MiB "
        f"({ratio(rss['pokestub_full_journal'], rss['nginx'])}); target {TARGETS['rss']}",
        f"- start to first answer, shipped stubs: pokestub **{start['pokestub'] * 1000:.1f} ms**; nginx "
        f"{start['nginx'] * 1000:.1f} ms ({ratio(start['pokestub'], start['nginx'])})"
        + (f"; libmicrohttpd floor {results['start_seconds_floor'] * 1000:.1f} ms"
           if results.get("start_seconds_floor") is not None else "") + f"; target {TARGETS['start']}",
        "",
        "Latency where the mean hides it (list page; ratios to nginx; at 1,000 connections the libmicrohttpd floor"
        f" beside them; target there: {TARGETS['many']}):",
        "",
        "| run | server | req/s | p50 ms | p99 ms | p99.9 ms | max ms | errors | other CPU % |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |",
    ]
    for row in results["latency"]:
        mine, theirs = row["pokestub"], row["nginx"]
        members = [("pokestub", mine), ("nginx", theirs)]
        if row.get("floor") is not None:
            members.append(("libmicrohttpd floor", row["floor"]))
        for name, run in members:
            compared = run is not theirs
            figures = [f"{run[key]:.2f}" + (f" ({ratio(run[key], theirs[key])})" if compared else "")
                       for key in ("p50", "p99", "p99_9", "max")]
            rps = f"{run['rps']:,.0f}" + (f" ({ratio(run['rps'], theirs['rps'])})" if compared else "")
            errors = error_note(run["errors"]).strip(" ()") or "none"
            lines.append(f"| {row['run'] if run is mine else ''} | {name} | {rps} | {' | '.join(figures)} "
                         f"| {errors} | {percent(run['other_cpu_percent'])} |")
    uploads = results["uploads"]
    outcomes = []
    for name, summaries in uploads["by_server"].items():
        answered: collections.Counter = collections.Counter()
        for summary in summaries:
            answered.update(summary["completed"])
        failures = [failure for summary in summaries for failure in summary["failures"]]
        outcomes.append(f"{name}: " + (", ".join(f"{count} answered {status}" for status, count in answered.items())
                                       or "none answered")
                        + f", {sum(summary['aborted'] for summary in summaries)} cut off at the end of a run"
                        + (f", {len(failures)} failed ({'; '.join(failures[:2])})" if failures else ""))
    done = "; ".join(outcomes)
    lines += [
        "",
        f"- the slow upload: {uploads['bytes'] // (1024 * 1024)} MiB POSTed with a `Content-Length` in "
        f"{uploads['piece_bytes'] // 1024} KiB pieces spread over {uploads['seconds_per_upload']:g} s, one upload "
        f"after another on a new connection while wrk reads; {done}. nginx answers `return 200` and discards "
        "the body; pokestub reads it, matches it and keeps it in the journal.",
        f"- {results['connection_limit']}; {results['open_files']}.",
        "",
        "| stubs | start to first answer ms | list req/s | ratio to 10 stubs | other CPU % |",
        "| ---: | ---: | ---: | ---: | ---: |",
    ]
    baseline = results["scale"][0]["rps"] if results["scale"] else None
    for row in results["scale"]:
        lines.append(f"| {row['stubs']:,} | {row['start_seconds'] * 1000:.1f} | {row['rps']:,.0f} | "
                     f"{ratio(row['rps'], baseline)} | {percent(row['other_cpu_percent'])} |")
    lines += ["", f"(the median of {results['rounds']} round(s), the sizes in alternating order; target for 10,000 "
              f"stubs: {TARGETS['scale']})", ""]
    lines += record_lines(results["record"])
    if results["record"]:
        lines += relay_floor_lines(results["relay_floors"], results["record"]["direct_ms"],
                                   results["record"].get("through_ms"))
    return lines


def record_lines(record: dict | None) -> list[str]:
    if not record:
        return ["record path: skipped (this build has no record mode)"]
    return [
        f"record path: {record['requests']} sequential GETs of {BIG_PATH} (curl, one reused connection), "
        f"best of {record['rounds']}; ratios to the direct fetch:",
        "",
        f"- direct to nginx: {record['direct_ms']:.0f} ms",
        f"- through `pokestub --mode record`: {record['through_ms']:.0f} ms "
        f"(**{ratio(record['through_ms'], record['direct_ms'])}**)",
        f"- through `pokestub --mode proxy`: {record['proxy_ms']:.0f} ms "
        f"({ratio(record['proxy_ms'], record['direct_ms'])})",
    ]


def relay_floor_lines(floors: dict, direct_ms: float, record_ms: float | None = None) -> list[str]:
    if not floors.get("timings"):
        return ["", f"relay floors: skipped ({floors.get('build')})"]
    labels = {"buffered": "buffered, on the server's thread",
              "handed-over": "buffered, handed over to an upstream thread (as pokestub)",
              "streamed": "streamed (as nginx's proxy_pass)"}
    lines = ["", "relay floors (Benchmarks/relay-floor.c: libcurl and libmicrohttpd, no journal, no matching), "
                 "the same GETs:", ""]
    for mode, milliseconds in floors["timings"].items():
        shown = f"{milliseconds:.0f} ms ({ratio(milliseconds, direct_ms)})" if milliseconds else "did not start"
        lines.append(f"- {labels[mode]}: {shown}")
    handed_over = floors["timings"].get("handed-over")
    if record_ms and handed_over:
        lines += ["", f"`pokestub --mode record` / the handed-over relay floor: **{ratio(record_ms, handed_over)}** "
                      f"(target {TARGETS['record']})"]
    return lines


def check_markers(path: Path) -> None:
    """Stops before the run when `path` exists without both markers in order (nothing of it is replaced)."""
    if not path.exists():
        return
    text = path.read_text()
    begin, end = text.find(BEGIN_MARKER), text.find(END_MARKER)
    if begin < 0 or end < begin:
        raise SystemExit(f"{path} has no {BEGIN_MARKER} ... {END_MARKER} section to write the tables into; "
                         "add the two lines where the tables go")


def write_markdown(path: Path, report: list[str]) -> None:
    """Replaces what lies between the markers in `path` with `report` (a new file gets the markers)."""
    block = (f"{BEGIN_MARKER}\n<!-- written by `Benchmarks/run.sh --markdown`: rerun it rather than editing -->\n"
             + "\n".join(report) + f"\n{END_MARKER}")
    if not path.exists():
        path.write_text(block + "\n")
        return
    check_markers(path)
    text = path.read_text()
    begin, end = text.find(BEGIN_MARKER), text.find(END_MARKER)
    path.write_text(text[:begin] + block + text[end + len(END_MARKER):])
    print(f"\nwrote the tables into {path}")


def finish(args: argparse.Namespace, results: dict, report: list[str] | None) -> int:
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    if args.markdown and report is not None:
        write_markdown(Path(args.markdown), report)
    return 0


def urllib_body(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read()
    except urllib.error.HTTPError as error:
        return error.read()


def check_same_bytes(server: str, nginx: str, name: str = "pokestub") -> None:
    for path in (LIST_PATH, TEMPLATED_PATH, BIG_PATH, MISS_PATH):
        mine, theirs = urllib_body(server + path), urllib_body(nginx + path)
        if mine != theirs:
            raise SystemExit(f"{name} and nginx do not serve the same bytes for {path}: "
                             f"{len(mine)} B {mine[:80]!r} against {len(theirs)} B {theirs[:80]!r}")


def memory_kib(pid: int) -> dict:
    """VmRSS, VmHWM (peak), RssAnon (heap and stacks) and RssFile (mapped files: the binary, libraries, ICU's
    data) of a process, in KiB, from /proc/PID/status; empty where there is no /proc."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return {}
    return {field: int(value) for field, value in re.findall(r"^(VmRSS|VmHWM|RssAnon|RssFile):\s+(\d+) kB",
                                                            status, re.MULTILINE)}


def start_breakdown(binaries: list[tuple[str, str]], stubs: Path, work: Path, rounds: int) -> dict:
    """Start to first answer (exec to the first answer of GET /api/v2/pokemon/1/) of each binary, the binaries
    taking turns, `rounds` times each with the shipped stubs and with an empty stub folder (exec, the Swift
    runtime, Foundation and the server's start alone); the median and the least of each. Then the memory of
    one start of each with the shipped stubs: at the first answer, and after the journal is filled (its
    10,000 entries), peak included, split into anonymous memory and mapped files."""
    empty = work / "empty-stubs"
    (empty / "mappings").mkdir(parents=True, exist_ok=True)
    starts: dict = {name: {"stubs": [], "empty": []} for name, _ in binaries}
    for _ in range(rounds):
        for name, binary in binaries:
            for kind, root in (("stubs", stubs), ("empty", empty)):
                server = start_pokestub(binary, root, BIG_PATH)
                starts[name][kind].append(server.start_seconds)
                server.stop()
    result: dict = {}
    for name, binary in binaries:
        memory: dict = {}
        for kind, root in (("stubs", stubs), ("empty", empty)):
            server = start_pokestub(binary, root, BIG_PATH)
            try:
                memory[f"{kind}_at_start"] = memory_kib(server.process.pid)
                if kind == "stubs":
                    fill_journal(server.base)
                    memory["stubs_full_journal"] = memory_kib(server.process.pid)
            finally:
                server.stop()
        result[name] = {"binary": binary, "memory_kib": memory,
                        **{f"start_{kind}_ms": {"median": statistics.median(values) * 1000,
                                                "least": min(values) * 1000, "runs": len(values)}
                           for kind, values in starts[name].items()}}
    return result


def start_lines(start: dict, binaries: list[tuple[str, str]]) -> list[str]:
    """The start breakdown as text, a block per binary."""
    lines = []
    for name, binary in binaries:
        entry = start[name]
        memory = entry["memory_kib"]

        def mib(kind: str, field: str) -> str:
            value = memory.get(kind, {}).get(field)
            return "n/a" if value is None else f"{value / 1024:.1f}"

        with_stubs, empty = entry["start_stubs_ms"], entry["start_empty_ms"]
        lines += [
            f"{name} ({binary}):",
            f"  start to first answer, shipped stubs: median {with_stubs['median']:.1f} ms, least "
            f"{with_stubs['least']:.1f} ms ({with_stubs['runs']} starts); no stubs: median {empty['median']:.1f} ms, "
            f"least {empty['least']:.1f} ms: loading the stubs takes about "
            f"{with_stubs['median'] - empty['median']:.1f} ms",
            f"  RSS MiB (anonymous / mapped files): no stubs {mib('empty_at_start', 'VmRSS')} "
            f"({mib('empty_at_start', 'RssAnon')} / {mib('empty_at_start', 'RssFile')}); shipped stubs at the first "
            f"answer {mib('stubs_at_start', 'VmRSS')} ({mib('stubs_at_start', 'RssAnon')} / "
            f"{mib('stubs_at_start', 'RssFile')}), peak {mib('stubs_at_start', 'VmHWM')}; full journal "
            f"{mib('stubs_full_journal', 'VmRSS')} ({mib('stubs_full_journal', 'RssAnon')} / "
            f"{mib('stubs_full_journal', 'RssFile')}), peak {mib('stubs_full_journal', 'VmHWM')}",
        ]
    return lines


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

    def through(mode: str) -> float | None:
        root = work / f"{mode}-stubs"
        shutil.rmtree(root, ignore_errors=True)
        (root / "mappings").mkdir(parents=True)
        port = free_port()
        process = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--stubs", str(root), "--mode", mode,
             "--upstream", upstream, "--log-level", "error"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        server = Server(f"pokestub-{mode}", process, f"http://127.0.0.1:{port}", 0)
        try:
            try:
                wait_until_answering(server.base + "/__admin/health", time.monotonic(), 10)
            except RuntimeError:
                return None
            sequential_gets(server.base, count)  # warm up: first recording, connection to the upstream
            return min(sequential_gets(server.base, count) for _ in range(rounds))
        finally:
            server.stop()

    if direct is None:
        direct = direct_timing(upstream, count, rounds)
    recorded = through("record")
    if recorded is None:
        return None
    proxied = through("proxy")
    return {"requests": count, "rounds": rounds, "direct_ms": direct, "through_ms": recorded, "proxy_ms": proxied}


RELAY_MODES = ["buffered", "handed-over", "streamed"]


def relay_floors(work: Path, upstream: str, count: int, rounds: int) -> dict:
    """Builds Benchmarks/relay-floor.c and times `count` sequential GETs through each of its modes (the best of
    `rounds`, after a warm-up), as record_overhead times pokestub: the least a relay on the same libraries takes,
    buffered as pokestub is, and streamed."""
    binary, build = build_c(work, "relay-floor.c", ["libmicrohttpd", "libcurl"], ["-lpthread"])
    if binary is None:
        return {"build": build, "timings": None}
    timings: dict[str, float | None] = {}
    for mode in RELAY_MODES:
        port = free_port()
        try:
            server = launched(f"relay floor ({mode})",
                              [str(binary), str(port), upstream, mode, str(FLOOR_POOL_BYTES),
                               str(os.cpu_count() or 1)], port, BIG_PATH)
        except RuntimeError:
            timings[mode] = None
            continue
        try:
            sequential_gets(server.base, count)  # warm up: the connection to the upstream
            timings[mode] = min(sequential_gets(server.base, count) for _ in range(rounds))
        finally:
            server.stop()
    return {"build": build, "timings": timings}


def sequential_gets(base: str, count: int) -> float:
    """Milliseconds for `count` GETs of BIG_PATH from `base` by one curl process reusing one connection.

    The wait for curl blocks in waitpid: `subprocess.run(timeout=...)` polls for the child's exit with sleeps
    that grow to 50 ms, which rounded every timing up to 63.5 ms plus a multiple of 50 (115, 165, 215 ms...).
    Each transfer is bounded by curl's --max-time and the whole run by a timer that kills curl."""
    arguments = ["curl", "-s", "--max-time", "30"]
    for _ in range(count):
        arguments += ["-o", "/dev/null", base + BIG_PATH]
    started = time.monotonic()
    process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    watchdog = threading.Timer(300, process.kill)
    watchdog.start()
    try:
        code = process.wait()
    finally:
        watchdog.cancel()
    elapsed = (time.monotonic() - started) * 1000
    if code != 0:
        raise subprocess.CalledProcessError(code, arguments[:4] + ["..."])
    return elapsed


def direct_timing(upstream: str, count: int, rounds: int) -> float:
    """The best of `rounds` timings of `count` sequential GETs straight to the upstream, after a warm-up."""
    sequential_gets(upstream, count)
    return min(sequential_gets(upstream, count) for _ in range(rounds))


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        out = subprocess.run(["sysctl", "-n", "machdep.cpu.brand_string"], capture_output=True, text=True)
        cpu = out.stdout.strip() or cpu  # macOS has no /proc/cpuinfo
    return f"{os.cpu_count()} cores, {cpu}"


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("\ninterrupted: every process started here has been stopped", file=sys.stderr)
        sys.exit(130)
