#!/usr/bin/env python3
"""Health and an ordinary stub while hostile requests compute: the latency others see.

Starts a pokestub binary on a temporary stub tree holding an ordinary stub and four stubs that hostile requests
make expensive (a template that backtracks, an XPath that walks the document three times over, an XML body that
declares a 100 KB entity referenced 4,000 times, and 100 stubs whose regular expressions backtrack), then runs
twice as many hostile clients as the machine has cores, each sending one kind in a loop, for a bounded time and
count. Meanwhile it times `GET /__admin/health` and `GET /plain` every 50 ms, and at the end the time from SIGTERM
to exit. Prints a Markdown table: latencies of health and the plain stub idle and under the hostile load (p50, p99,
max, in ms), the hostile requests answered and their statuses, and the stop time.

    Benchmarks/slow_requests.py --binary .build/release/pokestub --seconds 20
"""

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def stub(directory: Path, name: str, mapping: dict) -> None:
    (directory / "mappings" / f"{name}.json").write_text(json.dumps(mapping))


def stub_root(work: Path) -> Path:
    root = work / "stubs"
    (root / "mappings").mkdir(parents=True)
    (root / "__files").mkdir()
    stub(root, "plain", {"request": {"urlPath": "/plain"}, "response": {"status": 200, "body": "plain"}})
    stub(root, "template", {
        "request": {"urlPath": "/template"},
        "response": {"body": "{{regexExtract request.body '(a+)+$'}}", "transformers": ["response-template"]},
    })
    stub(root, "xpath", {
        "request": {"urlPath": "/xpath", "bodyPatterns": [{"matchesXPath": "//*[count(.//*[count(.//*) > 0]) > 0]"}]},
        "response": {"status": 200, "body": "xpath"},
    })
    stub(root, "xml", {
        "request": {"urlPath": "/xml", "bodyPatterns": [{"equalToXml": "<a>x</a>"}]},
        "response": {"status": 200, "body": "xml"},
    })
    for number in range(100):
        stub(root, f"regex-{number}", {
            "priority": number + 1, "request": {"urlPathPattern": "(/)(a+)+$|z{3}"},
            "response": {"status": 200, "body": "regex"},
        })
    return root


def hostile_requests() -> dict[str, tuple[str, str, bytes]]:
    deep = ("<a>" * 250 + "<b/>" * 10_000 + "</a>" * 250).encode()
    entity = "x" * 100_000
    bomb = f'<!DOCTYPE a [<!ENTITY e "{entity}">]><a>{"&e;" * 4_000}</a>'.encode()
    return {
        "template": ("POST", "/template", ("a" * 40 + "b").encode()),
        "xpath": ("POST", "/xpath", deep),
        "xml entity": ("POST", "/xml", bomb),
        "regex stubs": ("GET", "/" + "a" * 30 + "b", b""),
    }


def fetch(base: str, method: str, path: str, body: bytes, timeout: float) -> tuple[int, float]:
    started = time.monotonic()
    request = urllib.request.Request(base + path, data=body if method == "POST" else None, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        error.read()
        status = error.code
    except Exception:
        status = 0
    return status, (time.monotonic() - started) * 1000


def percentiles(values: list[float]) -> str:
    if not values:
        return "| - | - | - |"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"| {statistics.median(ordered):.1f} | {p99:.1f} | {ordered[-1]:.1f} |"


def probe(base: str, seconds: float, stop: threading.Event) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"health": [], "plain": []}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not stop.is_set():
        for name, path in (("health", "/__admin/health"), ("plain", "/plain")):
            status, elapsed = fetch(base, "GET", path, b"", 30)
            times[name].append(elapsed if status == 200 else float("inf"))
        time.sleep(0.05)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(REPO / ".build" / "release" / "pokestub"))
    parser.add_argument("--seconds", type=float, default=20, help="seconds of hostile load (default 20)")
    parser.add_argument("--max-requests", type=int, default=2_000, help="hostile requests at most, in all")
    options = parser.parse_args()
    cores = os.cpu_count() or 2
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), "unknown CPU") if Path("/proc/cpuinfo").exists() else "unknown CPU"
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        root = stub_root(work)
        port_file = work / "port"
        daemon = subprocess.Popen(
            [options.binary, "serve", "--port", "0", "--port-file", str(port_file), "--stubs", str(root),
             "--watch-stubs", "false", "--log-level", "error"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 15
            while not port_file.exists() and time.monotonic() < deadline:
                time.sleep(0.02)
            base = f"http://127.0.0.1:{port_file.read_text().strip()}"
            idle = probe(base, 3, threading.Event())
            requests = hostile_requests()
            kinds = list(requests)
            answered: dict[str, list[tuple[int, float]]] = {kind: [] for kind in kinds}
            budget = threading.Semaphore(options.max_requests)
            stop = threading.Event()

            def hostile(kind: str) -> None:
                method, path, body = requests[kind]
                while not stop.is_set() and budget.acquire(blocking=False):
                    answered[kind].append(fetch(base, method, path, body, 120))

            workers = [threading.Thread(target=hostile, args=(kinds[index % len(kinds)],), daemon=True)
                       for index in range(2 * cores)]
            for worker in workers:
                worker.start()
            time.sleep(0.5)
            loaded = probe(base, options.seconds, stop)
            stop.set()
            stopping = time.monotonic()
            daemon.send_signal(signal.SIGTERM)
            try:
                daemon.wait(timeout=60)
                stopped = f"{time.monotonic() - stopping:.2f} s (exit {daemon.returncode})"
            except subprocess.TimeoutExpired:
                stopped = "over 60 s"
            for worker in workers:
                worker.join(timeout=5)
        finally:
            if daemon.poll() is None:
                daemon.kill()
    print(f"{options.binary}, {cores} cores ({cpu}), {2 * cores} hostile clients for {options.seconds:g} s\n")
    print("| probe | p50 ms | p99 ms | max ms |")
    print("| --- | ---: | ---: | ---: |")
    for name in ("health", "plain"):
        print(f"| {name}, idle " + percentiles(idle[name]))
        print(f"| {name}, under hostile load " + percentiles(loaded[name]))
    print("\n| hostile request | answered | statuses | p50 ms |")
    print("| --- | ---: | --- | ---: |")
    for kind in kinds:
        statuses = sorted({status for status, _ in answered[kind]})
        times = [elapsed for _, elapsed in answered[kind]]
        median = f"{statistics.median(times):.0f}" if times else "-"
        print(f"| {kind} | {len(times)} | {', '.join(map(str, statuses))} | {median} |")
    print(f"\nSIGTERM to exit: {stopped}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
