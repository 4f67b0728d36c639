#!/usr/bin/env python3
"""Soak test: pokestub under 1,000 concurrent keep-alive connections with a full journal and a reload every
second, then under a slowloris attack; fails when the daemon dies, answers an error, or its memory keeps
growing. Every load is bounded in time and stops by itself; only 127.0.0.1 is used.

    scripts/soak.py [--seconds 30] [--binary .build/release/pokestub] [--connections 1000]
"""

from __future__ import annotations

import argparse
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LIST = "/api/v2/pokemon/?offset=0&limit=20"


def rss_kib(pid: int) -> int:
    match = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    return int(match.group(1)) if match else 0


def get(url: str, timeout: float = 5) -> int:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--binary", default=str(REPO / ".build" / "release" / "pokestub"))
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--slowloris", type=int, default=200, help="slow connections in the second phase")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    daemon = subprocess.Popen(
        [args.binary, "serve", "--port", str(port), "--stubs", str(REPO / "stubs"), "--log-level", "warning",
         "--limits-max-connections", str(args.connections + 200), "--limits-idle-timeout-seconds", "10"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    failures: list[str] = []
    try:
        for _ in range(200):
            try:
                if get(base + "/__admin/health", 1) == 200:
                    break
            except OSError:
                time.sleep(0.05)
        # Fill the journal (10,000 entries) before measuring memory.
        subprocess.run(["wrk", "-t2", "-c32", "-d3s", base + LIST], capture_output=True, timeout=60)

        # Phase 1: 1,000 keep-alive connections, a SIGHUP every second, RSS sampled every second.
        wrk = subprocess.Popen(
            ["wrk", "-t2", f"-c{args.connections}", f"-d{args.seconds}s", "--timeout", "10s", "--latency",
             base + LIST], stdout=subprocess.PIPE, text=True)
        samples = []
        for _ in range(args.seconds):
            time.sleep(1)
            if daemon.poll() is not None:
                failures.append("the daemon died under load")
                break
            daemon.send_signal(signal.SIGHUP)
            samples.append(rss_kib(daemon.pid))
        out, _ = wrk.communicate(timeout=args.seconds + 60)
        requests = int(re.search(r"(\d+) requests in", out).group(1))
        rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
        errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
        non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        p99 = re.search(r"99%\s+(\S+)", out)
        print(f"load: {requests:,} requests in {args.seconds} s over {args.connections} connections "
              f"({rps:,.0f} req/s, p99 {p99.group(1) if p99 else '?'}), a reload every second")
        if errors:
            print(f"  socket errors: connect {errors.group(1)}, read {errors.group(2)}, write {errors.group(3)}, "
                  f"timeout {errors.group(4)}")
            if int(errors.group(2)) + int(errors.group(3)) > 0:
                failures.append("read or write errors under load")
        if non2xx:
            failures.append(f"{non2xx.group(1)} non-2xx answers under load")
        warm = samples[len(samples) // 3:] if len(samples) >= 3 else samples
        print("  RSS (MiB) each second: " + " ".join(f"{s / 1024:.0f}" for s in samples))
        if warm:
            growth = (max(warm) - warm[0]) / warm[0]
            print(f"  after warm-up: {warm[0] / 1024:.1f} -> {max(warm) / 1024:.1f} MiB ({growth:+.1%})")
            if growth > 0.15:
                failures.append(f"memory grew {growth:.0%} after warm-up")

        # Phase 2: slowloris. Connections that send a header byte per second must not starve normal clients.
        stop = threading.Event()
        sockets: list[socket.socket] = []

        def slow() -> None:
            for _ in range(args.slowloris):
                try:
                    connection = socket.create_connection(("127.0.0.1", port), timeout=2)
                    connection.sendall(b"GET / HTTP/1.1\r\n")
                    sockets.append(connection)
                except OSError:
                    pass
            while not stop.wait(1):
                for connection in list(sockets):
                    try:
                        connection.sendall(b"X")
                    except OSError:
                        sockets.remove(connection)

        attacker = threading.Thread(target=slow, daemon=True)
        attacker.start()
        time.sleep(2)
        latencies = []
        statuses = []
        for _ in range(100):
            started = time.monotonic()
            statuses.append(get(base + LIST))
            latencies.append((time.monotonic() - started) * 1000)
            time.sleep(0.05)
        open_slow = len(sockets)
        stop.set()
        attacker.join(timeout=5)
        for connection in sockets:
            connection.close()
        print(f"slowloris: {open_slow} of {args.slowloris} slow connections open; 100 normal requests: "
              f"statuses {sorted(set(statuses))}, median {statistics.median(latencies):.1f} ms, "
              f"max {max(latencies):.1f} ms")
        if any(status != 200 for status in statuses):
            failures.append("normal clients got errors during slowloris")
        if daemon.poll() is not None:
            failures.append("the daemon died")
    finally:
        if daemon.poll() is None:
            daemon.send_signal(signal.SIGTERM)
            try:
                daemon.wait(timeout=20)
            except subprocess.TimeoutExpired:
                daemon.kill()
                failures.append("the daemon did not stop within 20 s of SIGTERM")
        if daemon.returncode not in (0, None) and not failures:
            failures.append(f"the daemon exited {daemon.returncode}")
    for failure in failures:
        print(f"FAIL: {failure}")
    print("soak: " + ("FAILED" if failures else "OK"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
