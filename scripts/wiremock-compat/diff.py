#!/usr/bin/env python3
"""Differential test: each mapping tree under trees/ served by WireMock 2.35 and by pokestub, answers compared.

For every tree (``trees/<name>/mappings``, ``__files`` and ``requests.json``; or, when ``requests.json`` names
a ``root`` relative to its folder, the ``mappings`` and ``__files`` there) it starts WireMock standalone
with ``--root-dir`` on the tree and the tree's ``wiremock_args`` (``--global-response-templating`` or
``--local-response-templating``), and pokestub with ``serve --stubs`` on the same tree and its
``pokestub_args``, both on free loopback ports. It sends each request of ``requests.json`` to both, byte for
byte the same, and compares the status, ``Content-Type``, the headers the request names (``compare_headers``)
and the body bytes. Before comparing, each server's own base URL and port are replaced by ``{BASE}`` and
``{PORT}``, and the request's ``shapes`` (regular expression, placeholder) pairs replace values that differ
by nature (random values, the current time), so those compare by shape. A request marked ``status_only``
compares the status alone (the two servers' error pages differ); one marked ``compare_json`` compares the
bodies as parsed JSON (for an answer whose member order is known to differ; no tree uses it now).

Exits 1 when any answer differs, 0 when all agree, 2 when WireMock's jar or java is missing (it downloads
nothing: the jar comes from the PyPI ``wiremock`` package that ``scripts/install-dependencies.sh --test``
installs in ``.build/wiremock-venv``, found as compat.py finds it). Python 3.11 standard library only.

    python3 scripts/wiremock-compat/diff.py [--jar JAR] [--pokestub BIN] [--only SUBSTRING]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compat  # noqa: E402  (the servers, raw requests and jar lookup are shared with the report)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))


class TreeWireMock(compat.Server):
    name = "WireMock"

    def __init__(self, jar: str, java: str, root: str, args: list[str], log_dir: str) -> None:
        self.port = compat.free_port()
        self.log = open(os.path.join(log_dir, "wiremock.log"), "wb")
        self.proc = compat.subprocess.Popen(
            [java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar", jar,
             "--port", str(self.port), "--bind-address", "127.0.0.1", "--root-dir", root,
             "--disable-banner", "--container-threads", "12", "--jetty-acceptor-threads", "1", *args],
            stdout=self.log, stderr=compat.subprocess.STDOUT, stdin=compat.subprocess.DEVNULL, cwd=log_dir)
        try:
            self.wait_ready(90)
        except RuntimeError:
            self.log.flush()
            tail = open(self.log.name, "rb").read()[-3000:].decode("utf-8", "replace")
            raise RuntimeError(f"WireMock did not start on {root}:\n{tail}") from None


class TreePokestub(compat.Server):
    name = "pokestub"

    def __init__(self, binary: str, root: str, args: list[str], log_dir: str) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("POKESTUB_")}
        self.log = open(os.path.join(log_dir, "pokestub.log"), "wb")
        self.proc = compat.subprocess.Popen(
            [binary, "serve", "--port", "0", "--stubs", root, "--log-level", "error", "--watch-stubs", "false",
             "--rewrite-upstream-links", "false", *args],
            stdout=compat.subprocess.PIPE, stderr=self.log, stdin=compat.subprocess.DEVNULL, cwd=log_dir, env=env)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().decode("utf-8", "replace")
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if not match:
            raise RuntimeError(f"pokestub did not start on {root}: {line!r} (see {self.log.name})")
        self.port = int(match.group(1))
        self.wait_ready(30)


def normalise(text: str, port: int, shapes: list[list[str]]) -> str:
    text = text.replace(f"http://127.0.0.1:{port}", "{BASE}").replace(f"http://localhost:{port}", "{BASE}")
    text = re.sub(rf"\b{port}\b", "{PORT}", text)
    for pattern, placeholder in shapes:
        text = re.sub(pattern, placeholder, text)
    return text


def observe(server: compat.Server, request: dict) -> dict:
    headers = [tuple(h) for h in request.get("headers", [])]
    reply = compat.send(server.port, request["method"], request["target"], headers, request.get("body"))
    shapes = request.get("shapes", [])
    seen = {"status": reply.status}
    if request.get("status_only"):
        return seen
    for name in ["Content-Type", *request.get("compare_headers", [])]:
        seen[name] = [normalise(v, server.port, shapes) for v in reply.header(name)]
    seen["body"] = normalise(reply.body.decode("utf-8", "replace"), server.port, shapes)
    if request.get("compare_json"):
        try:
            seen["body"] = json.loads(seen["body"])
        except json.JSONDecodeError:
            pass
    return seen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jar")
    parser.add_argument("--java", default=compat.find_java())
    parser.add_argument("--pokestub", default=os.environ.get("POKESTUB_BIN", os.path.join(REPO, ".build/debug/pokestub")))
    parser.add_argument("--only", default="")
    options = parser.parse_args()
    options.pokestub = os.path.abspath(options.pokestub)  # it runs with each tree's log folder as its cwd
    jar = compat.find_jar(options.jar)
    if not jar or not options.java:
        print("wiremock diff: skipped (needs java and the wiremock-standalone jar: scripts/install-dependencies.sh "
              "--test installs both)")
        return 2
    trees = sorted(d for d in os.listdir(os.path.join(HERE, "trees")) if os.path.isdir(os.path.join(HERE, "trees", d)))
    total = agreed = 0
    differences: list[str] = []
    with tempfile.TemporaryDirectory(prefix="wiremock-diff-") as scratch:
        for tree in trees:
            folder = os.path.join(HERE, "trees", tree)
            spec = json.load(open(os.path.join(folder, "requests.json")))
            # A tree may serve another folder: `root`, relative to its own (the shipped stubs, for `shipped`).
            root = os.path.normpath(os.path.join(folder, spec.get("root", ".")))
            requests = [r for r in spec["requests"] if options.only in r["name"] or options.only in tree]
            if not requests:
                continue
            log_dir = os.path.join(scratch, tree)
            os.makedirs(log_dir)
            # WireMock writes nothing into a root it only reads; pokestub neither. Both read the tree in place.
            wiremock = TreeWireMock(jar, options.java, root, spec.get("wiremock_args", []), log_dir)
            try:
                pokestub = TreePokestub(options.pokestub, root, spec.get("pokestub_args", []), log_dir)
                try:
                    for request in requests:
                        total += 1
                        expected, actual = observe(wiremock, request), observe(pokestub, request)
                        if expected == actual:
                            agreed += 1
                            print(f"  agree   {tree}: {request['name']}")
                        else:
                            print(f"  DIFFER  {tree}: {request['name']}")
                            for key in expected.keys() | actual.keys():
                                if expected.get(key) != actual.get(key):
                                    differences.append(
                                        f"{tree}: {request['name']}: {key}\n    WireMock: {expected.get(key)!r}\n"
                                        f"    pokestub: {actual.get(key)!r}")
                finally:
                    pokestub.stop()
            finally:
                wiremock.stop()
    for difference in differences:
        print(difference)
    print(f"wiremock diff: {agreed} of {total} answers agree with WireMock 2.35")
    return 0 if agreed == total else 1


if __name__ == "__main__":
    sys.exit(main())
