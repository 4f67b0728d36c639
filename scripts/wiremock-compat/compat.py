#!/usr/bin/env python3
"""Side-by-side compatibility report: WireMock 2.35 standalone versus pokestub.

Starts WireMock (the jar shipped by the PyPI package ``wiremock``) and pokestub, each on a free loopback port
with an empty stub root, then for every case: resets both, posts the same stub mapping(s) to both admin APIs,
sends the same raw request(s) to both, and compares what comes back (status, body bytes, Content-Type,
Matched-Stub-Id, chosen headers) and what the admin API then shows (request journal, counts, unmatched
requests, mapping listings, error responses).

It is a report, not a gate: it always exits 0. Python 3.11 standard library only.

    python3 -m venv /tmp/wm-venv && /tmp/wm-venv/bin/pip install wiremock
    swift build --scratch-path /tmp/build-compat --product pokestub
    python3 scripts/wiremock-compat/compat.py [--json results.json] [--only SUBSTRING] [--client-python PY]

``--client-python`` names an interpreter that has the ``wiremock`` package (found by itself next to the jar
when it lives in a venv): the report then also drives WireMock's own Python admin client against both servers.
"""

from __future__ import annotations

import argparse
import base64
import glob
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable

# ----------------------------------------------------------------------------------------------------------------
# HTTP: raw requests through http.client, the target sent byte for byte as written.


class RawConnection(http.client.HTTPConnection):
    """An HTTPConnection that sends the request line as UTF-8 instead of refusing non-ASCII bytes."""

    def _encode_request(self, request: str) -> bytes:  # type: ignore[override]
        return request.encode("utf-8")


@dataclass
class Reply:
    status: int | None  # None when the connection closed without a response
    headers: list[tuple[str, str]]
    body: bytes
    error: str | None = None
    elapsed_ms: float = 0.0

    def header(self, name: str) -> list[str]:
        return [v for k, v in self.headers if k.lower() == name.lower()]

    def json(self) -> Any:
        try:
            return json.loads(self.body.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            return None


def send(port: int, method: str, target: str, headers: list[tuple[str, str]] | None = None,
         body: bytes | str | None = None, timeout: float = 15.0) -> Reply:
    """Sends one request with exactly these headers (plus Host, and Content-Length when there is a body)."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    conn = RawConnection("127.0.0.1", port, timeout=timeout)
    started = time.monotonic()
    try:
        conn.putrequest(method, target, skip_accept_encoding=True)
        for name, value in headers or []:
            conn.putheader(name, value)
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        resp = conn.getresponse()
        data = resp.read()
        return Reply(resp.status, list(resp.getheaders()), data, elapsed_ms=(time.monotonic() - started) * 1000)
    except http.client.RemoteDisconnected as exc:
        return Reply(None, [], b"", f"closed without response ({exc.__class__.__name__})",
                     (time.monotonic() - started) * 1000)
    except (ConnectionResetError, BrokenPipeError) as exc:
        return Reply(None, [], b"", f"connection reset ({exc.__class__.__name__})",
                     (time.monotonic() - started) * 1000)
    except (http.client.HTTPException, OSError) as exc:
        return Reply(None, [], b"", f"{exc.__class__.__name__}: {exc}", (time.monotonic() - started) * 1000)
    finally:
        conn.close()


def admin(port: int, method: str, path: str, payload: Any = None, raw: bytes | str | None = None) -> Reply:
    headers = []
    body = raw
    if payload is not None:
        body = json.dumps(payload)
    if body is not None:
        headers.append(("Content-Type", "application/json"))
    return send(port, method, "/__admin" + path, headers, body)


# ----------------------------------------------------------------------------------------------------------------
# Servers


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    name = ""
    port = 0
    proc: subprocess.Popen | None = None

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def wait_ready(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.proc and self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.proc.returncode}")
            reply = admin(self.port, "GET", "/mappings")
            if reply.status == 200:
                return
            time.sleep(0.3)
        raise RuntimeError(f"{self.name} did not answer on port {self.port} within {seconds}s")


def make_root(base: str, name: str) -> str:
    root = os.path.join(base, name)
    os.makedirs(os.path.join(root, "mappings"))
    os.makedirs(os.path.join(root, "__files"))
    return root


class WireMock(Server):
    name = "WireMock"

    def __init__(self, jar: str, root: str, java: str) -> None:
        self.root = root
        self.port = free_port()
        self.log = open(os.path.join(os.path.dirname(root), "wiremock.log"), "wb")
        # One small JVM: serial GC, C1 only, a capped heap, few Jetty threads.
        self.proc = subprocess.Popen(
            [java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar", jar,
             "--port", str(self.port), "--bind-address", "127.0.0.1", "--root-dir", root,
             "--disable-banner", "--container-threads", "12", "--jetty-acceptor-threads", "1"],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=os.path.dirname(root))
        self.wait_ready(90)


class Pokestub(Server):
    name = "pokestub"

    def __init__(self, binary: str, root: str) -> None:
        self.root = root
        env = {k: v for k, v in os.environ.items() if not k.startswith("POKESTUB_")}
        self.log = open(os.path.join(os.path.dirname(root), "pokestub.log"), "wb")
        # Run from the temporary folder so no ./config.json is picked up.
        self.proc = subprocess.Popen(
            [binary, "serve", "--port", "0", "--stubs", root, "--log-level", "error"],
            stdout=subprocess.PIPE, stderr=self.log, stdin=subprocess.DEVNULL, cwd=os.path.dirname(root), env=env)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().decode("utf-8", "replace")
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if not match:
            raise RuntimeError(f"pokestub did not report its port: {line!r}")
        self.port = int(match.group(1))
        self.wait_ready(30)


# ----------------------------------------------------------------------------------------------------------------
# Cases


@dataclass
class Req:
    method: str
    target: str
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes | str | None = None


@dataclass
class Case:
    name: str
    about: str
    mappings: list[dict] = field(default_factory=list)
    requests: list[Req] = field(default_factory=list)
    # Extra response headers to compare, besides Content-Type and Matched-Stub-Id.
    resp_headers: list[str] = field(default_factory=list)
    # Admin views to take after the requests: names of functions in ADMIN_VIEWS, or (name, argument).
    views: list[Any] = field(default_factory=list)
    # Whether to give each mapping a fixed id (so Matched-Stub-Id and journal stub ids compare directly).
    fixed_ids: bool = True
    # Files to put under __files/ on both sides before the case.
    files: dict[str, bytes] = field(default_factory=dict)
    # Minimum delay expected for the requests, in ms (reported as a yes/no, not compared as a time).
    min_delay_ms: float | None = None
    # Custom step instead of the generic flow: fn(server) -> list of observations.
    custom: Callable[[Server], list["Obs"]] | None = None
    # Whether an unmatched 404's body and Content-Type are compared. Off by default: the two servers' 404 texts
    # always differ, and the unmatched-404-* cases report that once; elsewhere only "404, no stub" is compared.
    compare_404_body: bool = False


@dataclass
class Obs:
    label: str
    value: Any  # JSON-able; compared between servers
    short: str  # for the table cell
    info: Any = None  # shown, not compared


def mapping_id(case: str, index: int) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"pokestub-compat/{case}/{index}"))


def snip(text: str, width: int) -> str:
    text = text.replace("\n", "\\n").replace("\r", "\\r")
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def body_repr(body: bytes) -> str:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return "base64:" + base64.b64encode(body).decode()


def shape(value: Any) -> Any:
    """The structure of a JSON value: member names and value types, arrays by the union of their items."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in sorted(value.items())}
    if isinstance(value, list):
        items = [shape(v) for v in value]
        unique = []
        for item in items:
            if item not in unique:
                unique.append(item)
        return unique
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    return "string"


def obs_reply(label: str, reply: Reply, case: Case, server: Server) -> Obs:
    if reply.status is None:
        value = {"status": None, "error": reply.error}
        return Obs(label, value, f"NO RESPONSE ({reply.error.split(' (')[0] if reply.error else '?'})")
    if reply.status == 404 and not reply.header("Matched-Stub-Id") and not case.compare_404_body:
        return Obs(label, {"status": 404, "matched": False}, "404",
                   info="unmatched 404 body (not compared here): " + snip(body_repr(reply.body), 120))
    value: dict[str, Any] = {
        "status": reply.status,
        "body": body_repr(reply.body),
        "Content-Type": reply.header("Content-Type") or None,
        "Matched-Stub-Id": reply.header("Matched-Stub-Id") or None,
    }
    for name in case.resp_headers:
        value[name] = reply.header(name) or None
    if case.min_delay_ms is not None:
        value[f"waited>={case.min_delay_ms:.0f}ms"] = reply.elapsed_ms >= case.min_delay_ms
    body_text = value["body"]
    short = f"{reply.status}"
    if body_text:
        short += " " + snip(repr(body_text) if len(body_text) < 30 else body_text, 26)
    elif reply.status < 400:
        short += " (empty)"
    return Obs(label, value, short)


def normalize_port(text: str, server: Server) -> str:
    return text.replace(f":{server.port}", ":PORT")


def journal_event(event: dict, server: Server) -> dict:
    request = event.get("request") or {}
    headers = request.get("headers") or {}
    headers = {k: (normalize_port(v, server) if isinstance(v, str) else v) for k, v in sorted(headers.items())}
    matched = event.get("wasMatched")
    stub = event.get("stubMapping")
    return {
        "url": request.get("url"),
        "method": request.get("method"),
        "headers": headers,
        "body": request.get("body"),
        "bodyAsBase64": request.get("bodyAsBase64"),
        "wasMatched": matched,
        # WireMock files an unmatched request under a made-up 404 stub with a random id; pokestub under null.
        # Compared only for matched requests; the 'journal-unmatched-stubMapping' case reports the shapes.
        "stubMapping.id": (stub or {}).get("id") if matched else "(unmatched)",
    }


def view_journal(server: Server, arg: Any = None) -> Obs:
    path = "/requests" + (f"?{arg}" if arg else "")
    reply = admin(server.port, "GET", path)
    data = reply.json() or {}
    events = [journal_event(e, server) for e in data.get("requests", [])]
    short = f"journal {len(events)}: " + ",".join(
        f"{e['method']} {e['url']} {'M' if e['wasMatched'] else 'U'}" for e in events)
    return Obs(f"GET /__admin{path}", {"status": reply.status, "events": events}, snip(short, 60))


def view_count(server: Server, pattern: dict) -> Obs:
    reply = admin(server.port, "POST", "/requests/count", pattern)
    data = reply.json()
    count = data.get("count") if isinstance(data, dict) else None
    return Obs(f"POST /__admin/requests/count {json.dumps(pattern)}",
               {"status": reply.status, "count": count},
               f"count={count}" if reply.status == 200 else f"count→{reply.status}",
               info=None if reply.status == 200 else body_repr(reply.body))


def view_find(server: Server, pattern: dict) -> Obs:
    reply = admin(server.port, "POST", "/requests/find", pattern)
    data = reply.json() or {}
    urls = [r.get("url") for r in data.get("requests", [])]
    return Obs(f"POST /__admin/requests/find {json.dumps(pattern)}", {"status": reply.status, "urls": urls},
               f"find={urls}")


def view_unmatched(server: Server, arg: Any = None) -> Obs:
    reply = admin(server.port, "GET", "/requests/unmatched")
    data = reply.json() or {}
    urls = [r.get("url") for r in data.get("requests", [])]
    return Obs("GET /__admin/requests/unmatched", {"status": reply.status, "urls": urls,
                                                  "shape": shape(data)}, snip(f"unmatched={urls}", 50))


def view_mappings(server: Server, arg: Any = None) -> Obs:
    reply = admin(server.port, "GET", "/mappings")
    data = reply.json() or {}
    ids = [m.get("id") for m in data.get("mappings", [])]
    total = (data.get("meta") or {}).get("total")
    return Obs("GET /__admin/mappings (ids in listed order, meta.total)",
               {"status": reply.status, "ids": ids, "total": total},
               f"{len(ids)} mappings, total={total}")


ADMIN_VIEWS: dict[str, Callable[[Server, Any], Obs]] = {
    "journal": view_journal,
    "count": view_count,
    "find": view_find,
    "unmatched": view_unmatched,
    "mappings": view_mappings,
}


def reset(server: Server) -> None:
    admin(server.port, "POST", "/reset")
    admin(server.port, "DELETE", "/mappings")
    admin(server.port, "DELETE", "/requests")


def post_mapping_obs(label: str, reply: Reply) -> Obs:
    data = reply.json()
    if reply.status is not None and 200 <= reply.status < 300:
        return Obs(label, {"status": reply.status}, f"POST {reply.status}")
    detail = None
    if isinstance(data, dict) and data.get("errors"):
        err = data["errors"][0]
        detail = f"{err.get('title')}: {err.get('detail')}"
    return Obs(label, {"status": reply.status, "shape": shape(data) if data is not None else None},
               f"POST→{reply.status}", info=detail or body_repr(reply.body)[:300])


def run_case(server: Server, case: Case) -> list[Obs]:
    reset(server)
    for name, data in case.files.items():
        path = os.path.join(server.root, "__files", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(data)
    if case.custom:
        return case.custom(server)
    observations: list[Obs] = []
    for index, mapping in enumerate(case.mappings):
        mapping = json.loads(json.dumps(mapping))
        if case.fixed_ids and "id" not in mapping:
            mapping["id"] = mapping_id(case.name, index)
        reply = admin(server.port, "POST", "/mappings", mapping)
        obs = post_mapping_obs(f"POST /__admin/mappings #{index}", reply)
        if obs.value["status"] not in (200, 201):
            observations.append(obs)
        else:
            observations.append(Obs(obs.label, obs.value, "", None))
    for number, req in enumerate(case.requests, 1):
        reply = send(server.port, req.method, req.target, req.headers, req.body)
        label = f"request {number}: {req.method} {req.target}"
        if req.headers:
            label += " " + " ".join(f"[{k}: {v}]" for k, v in req.headers)
        if req.body is not None:
            label += f" body={body_repr(req.body if isinstance(req.body, bytes) else req.body.encode())!r}"
        observations.append(obs_reply(label, reply, case, server))
    for view in case.views:
        name, arg = (view, None) if isinstance(view, str) else view
        observations.append(ADMIN_VIEWS[name](server, arg))
    return observations


# ----------------------------------------------------------------------------------------------------------------
# The cases


def stub(request: dict, body: str = "OK", status: int = 200, **extra: Any) -> dict:
    response: dict[str, Any] = {"status": status}
    if body is not None:
        response["body"] = body
    mapping = {"request": request, "response": response}
    mapping.update(extra)
    return mapping


def G(target: str, *headers: tuple[str, str]) -> Req:
    return Req("GET", target, list(headers))


def P(target: str, body: bytes | str, *headers: tuple[str, str]) -> Req:
    return Req("POST", target, list(headers), body)


JSON_CT = ("Content-Type", "application/json")


def custom_admin_errors(server: Server) -> list[Obs]:
    out = []
    for label, raw in [
        ("bad JSON", "{bad"),
        ("empty body", ""),
        ("JSON array", "[]"),
        ("no request", json.dumps({"response": {"status": 200}})),
        ("urlPath not a string", json.dumps({"request": {"urlPath": 5}, "response": {"status": 200}})),
        ("bad regex", json.dumps({"request": {"urlPattern": "/("}, "response": {"status": 200}})),
        ("unknown matcher", json.dumps({"request": {"urlPath": "/x", "queryParameters": {"a": {"equalsTo": "1"}}},
                                        "response": {"status": 200}})),
    ]:
        reply = admin(server.port, "POST", "/mappings", raw=raw)
        data = reply.json()
        info = None
        if isinstance(data, dict) and isinstance(data.get("errors"), list) and data["errors"]:
            err = data["errors"][0]
            info = {k: err.get(k) for k in ("title", "detail", "source", "code") if k in err}
        out.append(Obs(f"POST /__admin/mappings ({label})",
                       {"status": reply.status, "shape": shape(data) if data is not None else "not JSON"},
                       f"{label}→{reply.status}", info=info or body_repr(reply.body)[:300]))
    return out


def custom_unknown_field(where: str) -> Callable[[Server], list[Obs]]:
    def run(server: Server) -> list[Obs]:
        mapping = {"request": {"method": "GET", "urlPath": "/unknown"}, "response": {"status": 200, "body": "U"}}
        if where == "top":
            mapping["foo"] = 1
        elif where == "request":
            mapping["request"]["foo"] = 1
        else:
            mapping["response"]["foo"] = 1
        reply = admin(server.port, "POST", "/mappings", mapping)
        obs = post_mapping_obs("POST /__admin/mappings", reply)
        obs.short = f"POST→{reply.status}"
        served = send(server.port, "GET", "/unknown")
        return [obs, Obs("GET /unknown", {"status": served.status}, f"GET {served.status}")]
    return run


def custom_post_mapping_reply(server: Server) -> list[Obs]:
    mapping = stub({"method": "GET", "urlPath": "/shape"}, "S", name="shape-stub")
    reply = admin(server.port, "POST", "/mappings", mapping)
    data = reply.json()
    keys = sorted(data) if isinstance(data, dict) else None
    return [Obs("POST /__admin/mappings (no id given): status and top-level keys of the reply",
                {"status": reply.status, "keys": keys, "request": (data or {}).get("request"),
                 "response": (data or {}).get("response")},
                f"{reply.status} keys={','.join(keys or [])}")]


def custom_mappings_listing(server: Server) -> list[Obs]:
    ids = [mapping_id("mappings-listing", i) for i in range(3)]
    for i, mid in enumerate(ids):
        admin(server.port, "POST", "/mappings", stub({"method": "GET", "urlPath": f"/list/{i}"}, f"L{i}", id=mid))
    reply = admin(server.port, "GET", "/mappings")
    data = reply.json() or {}
    listed = [ids.index(m["id"]) if m.get("id") in ids else m.get("id") for m in data.get("mappings", [])]
    first = (data.get("mappings") or [{}])[0]
    out = [
        Obs("GET /__admin/mappings: order (index of creation)", {"order": listed}, f"order={listed}"),
        Obs("GET /__admin/mappings: top-level shape", {"shape": {k: shape(v) for k, v in data.items()
                                                                 if k != "mappings"},
                                                       "keys": sorted(data)}, "keys=" + ",".join(sorted(data))),
        Obs("GET /__admin/mappings: one mapping's keys", {"keys": sorted(first)}, ",".join(sorted(first))),
    ]
    paged = admin(server.port, "GET", "/mappings?limit=1&offset=1").json() or {}
    paged_ids = [ids.index(m["id"]) if m.get("id") in ids else m.get("id") for m in paged.get("mappings", [])]
    out.append(Obs("GET /__admin/mappings?limit=1&offset=1", {"order": paged_ids}, f"page={paged_ids}"))
    one = admin(server.port, "GET", f"/mappings/{ids[0]}")
    out.append(Obs("GET /__admin/mappings/{id}", {"status": one.status, "keys": sorted(one.json() or {})},
                   f"{one.status}"))
    missing = admin(server.port, "GET", f"/mappings/{uuid.uuid4()}")
    out.append(Obs("GET /__admin/mappings/{unknown id}", {"status": missing.status,
                                                          "body": shape(missing.json()) if missing.body else ""},
                   f"unknown id→{missing.status}", info=body_repr(missing.body)[:200]))
    bad = admin(server.port, "GET", "/mappings/not-a-uuid")
    out.append(Obs("GET /__admin/mappings/not-a-uuid", {"status": bad.status}, f"not-a-uuid→{bad.status}",
                   info=body_repr(bad.body)[:200]))
    put = admin(server.port, "PUT", f"/mappings/{ids[1]}",
                stub({"method": "GET", "urlPath": "/list/1"}, "CHANGED"))
    served = send(server.port, "GET", "/list/1")
    out.append(Obs("PUT /__admin/mappings/{id} then GET", {"put": put.status, "get": served.status,
                                                           "body": body_repr(served.body)},
                   f"PUT {put.status}, GET {served.status} {body_repr(served.body)!r}"))
    delete = admin(server.port, "DELETE", f"/mappings/{ids[2]}")
    after = admin(server.port, "GET", "/mappings").json() or {}
    out.append(Obs("DELETE /__admin/mappings/{id}", {"status": delete.status,
                                                     "left": len(after.get("mappings", []))},
                   f"DELETE {delete.status}, left {len(after.get('mappings', []))}"))
    delete_all = admin(server.port, "DELETE", "/mappings")
    after = admin(server.port, "GET", "/mappings").json() or {}
    out.append(Obs("DELETE /__admin/mappings", {"status": delete_all.status,
                                               "left": len(after.get("mappings", []))},
                   f"DELETE all {delete_all.status}, left {len(after.get('mappings', []))}"))
    return out


def custom_journal_shape(server: Server) -> list[Obs]:
    mid = mapping_id("journal-shape", 0)
    admin(server.port, "POST", "/mappings", stub({"method": "POST", "urlPath": "/j"}, "J", id=mid, name="jname"))
    send(server.port, "POST", "/j?x=1&x=2", [("X-Test", "a"), ("X-Test", "b"), JSON_CT], '{"k":1}')
    send(server.port, "GET", "/nothing-here")
    reply = admin(server.port, "GET", "/requests")
    data = reply.json() or {}
    events = data.get("requests", [])
    matched = next((e for e in events if e.get("wasMatched")), {})
    unmatched = next((e for e in events if not e.get("wasMatched")), {})
    req = matched.get("request") or {}
    return [
        Obs("GET /__admin/requests: top-level keys", {"keys": sorted(data)}, ",".join(sorted(data))),
        Obs("serve event keys", {"keys": sorted(matched)}, snip(",".join(sorted(matched)), 60)),
        Obs("serve event .request keys", {"keys": sorted(req)}, snip(",".join(sorted(req)), 60)),
        Obs("repeated request header X-Test", {"value": (req.get("headers") or {}).get("X-Test")},
            f"X-Test={json.dumps((req.get('headers') or {}).get('X-Test'))}"),
        Obs("queryParams of ?x=1&x=2", {"value": req.get("queryParams")},
            snip(json.dumps(req.get("queryParams")), 50)),
        Obs("matched event .stubMapping", {"shape": shape(matched.get("stubMapping")),
                                           "id": (matched.get("stubMapping") or {}).get("id") == mid},
            snip("keys=" + ",".join(sorted(matched.get("stubMapping") or {})), 60)),
        Obs("matched event .response keys", {"keys": sorted(matched.get("response") or {})},
            ",".join(sorted(matched.get("response") or {}))),
        Obs("unmatched event .stubMapping", {"shape": shape(unmatched.get("stubMapping"))},
            "null" if unmatched.get("stubMapping") is None else
            snip("object keys=" + ",".join(sorted(unmatched.get("stubMapping"))), 50)),
        Obs("loggedDateString format", {"fractional": bool(re.search(r"\.\d+Z$", req.get("loggedDateString", "")))},
            str(req.get("loggedDateString")), info=req.get("loggedDateString")),
    ]


def custom_journal_limit(server: Server) -> list[Obs]:
    admin(server.port, "POST", "/mappings", stub({"urlPathPattern": "/order/.*"}, "O",
                                                 id=mapping_id("journal-limit", 0)))
    for i in range(3):
        send(server.port, "GET", f"/order/{i}")
        time.sleep(0.02)
    full = admin(server.port, "GET", "/requests").json() or {}
    limited = admin(server.port, "GET", "/requests?limit=1").json() or {}
    order = [e["request"]["url"] for e in full.get("requests", [])]
    lim = [e["request"]["url"] for e in limited.get("requests", [])]
    return [
        Obs("GET /__admin/requests order", {"urls": order}, f"{order}"),
        Obs("GET /__admin/requests?limit=1", {"urls": lim, "meta": limited.get("meta")},
            f"{lim} meta={limited.get('meta')}"),
    ]


def custom_journal_reset_routes(server: Server) -> list[Obs]:
    out = []
    send(server.port, "GET", "/r1")
    reply = admin(server.port, "POST", "/requests/reset")
    left = len((admin(server.port, "GET", "/requests").json() or {}).get("requests", []))
    out.append(Obs("POST /__admin/requests/reset (old journal reset)", {"status": reply.status, "left": left},
                   f"{reply.status}, left {left}", info=body_repr(reply.body)[:200]))
    send(server.port, "GET", "/r2")
    reply = admin(server.port, "DELETE", "/requests")
    left = len((admin(server.port, "GET", "/requests").json() or {}).get("requests", []))
    out.append(Obs("DELETE /__admin/requests", {"status": reply.status, "left": left}, f"{reply.status}, left {left}"))
    admin(server.port, "POST", "/mappings", stub({"urlPath": "/r3"}, "R"))
    reply = admin(server.port, "POST", "/mappings/reset")
    left = len((admin(server.port, "GET", "/mappings").json() or {}).get("mappings", []))
    out.append(Obs("POST /__admin/mappings/reset", {"status": reply.status, "left": left},
                   f"{reply.status}, left {left}", info=body_repr(reply.body)[:200]))
    admin(server.port, "POST", "/mappings", stub({"urlPath": "/r4"}, "R"))
    send(server.port, "GET", "/r4")
    reply = admin(server.port, "POST", "/reset")
    left_m = len((admin(server.port, "GET", "/mappings").json() or {}).get("mappings", []))
    left_r = len((admin(server.port, "GET", "/requests").json() or {}).get("requests", []))
    out.append(Obs("POST /__admin/reset", {"status": reply.status, "mappings": left_m, "requests": left_r},
                   f"{reply.status}, left {left_m} mappings {left_r} requests"))
    reply = admin(server.port, "GET", "/requests/count")
    out.append(Obs("GET /__admin/requests/count (wrong method)", {"status": reply.status}, f"{reply.status}"))
    return out


def custom_admin_not_journaled(server: Server) -> list[Obs]:
    admin(server.port, "GET", "/mappings")
    admin(server.port, "GET", "/health")
    data = admin(server.port, "GET", "/requests").json() or {}
    health = admin(server.port, "GET", "/health")
    return [Obs("admin requests in the journal", {"count": len(data.get("requests", []))},
                f"{len(data.get('requests', []))} journaled"),
            Obs("GET /__admin/health", {"status": health.status}, f"health→{health.status}")]


def build_cases() -> list[Case]:
    c: list[Case] = []
    add = c.append

    # --- method
    add(Case("method-exact", "method GET: GET matches, POST and lowercase get do not",
             [stub({"method": "GET", "urlPath": "/m"}, "A")],
             [G("/m"), P("/m", "x"), Req("get", "/m")], views=["journal"]))
    add(Case("method-any", "method ANY matches GET, DELETE and PATCH",
             [stub({"method": "ANY", "urlPath": "/m"}, "A")],
             [G("/m"), Req("DELETE", "/m"), Req("PATCH", "/m", body="p")]))
    add(Case("method-missing", "no method field: any method?",
             [stub({"urlPath": "/m"}, "A")], [G("/m"), Req("PUT", "/m", body="p")]))
    add(Case("method-lowercase-stub", "stub method \"get\" (lowercase) vs request GET",
             [stub({"method": "get", "urlPath": "/m"}, "A")], [G("/m")]))

    # --- url / urlPath
    add(Case("url-with-query", "url \"/u?a=1\": exact path+query only",
             [stub({"url": "/u?a=1"}, "A")], [G("/u?a=1"), G("/u"), G("/u?a=1&b=2"), G("/u?a=%31")]))
    add(Case("url-without-query", "url \"/u\" vs request with a query",
             [stub({"url": "/u"}, "A")], [G("/u"), G("/u?a=1"), G("/u?")]))
    add(Case("urlPath-query", "urlPath ignores the query",
             [stub({"urlPath": "/p"}, "A")], [G("/p"), G("/p?x=1"), G("/p/")]))
    add(Case("trailing-slash", "urlPath \"/api/v2/pokemon/1/\" vs \"/api/v2/pokemon/1\" and the reverse",
             [stub({"urlPath": "/api/v2/pokemon/1/"}, "SLASH"), stub({"urlPath": "/api/v2/type/1"}, "NOSLASH")],
             [G("/api/v2/pokemon/1/"), G("/api/v2/pokemon/1"), G("/api/v2/type/1"), G("/api/v2/type/1/")]))
    add(Case("path-case", "urlPath is case-sensitive", [stub({"urlPath": "/Case"}, "A")], [G("/Case"), G("/case")]))
    add(Case("urlPattern-anchored", "urlPattern /api/v2/pokemon/[0-9]+ must match the whole path+query",
             [stub({"urlPattern": "/api/v2/pokemon/[0-9]+"}, "A")],
             [G("/api/v2/pokemon/25"), G("/api/v2/pokemon/25/"), G("/x/api/v2/pokemon/25"),
              G("/api/v2/pokemon/25?limit=1")]))
    add(Case("urlPattern-partial", "urlPattern \"pokemon\" (partial regex) must not match /api/v2/pokemon/",
             [stub({"urlPattern": "pokemon"}, "A")], [G("/api/v2/pokemon/"), G("pokemon")]))
    add(Case("urlPathPattern-anchored", "urlPathPattern ignores the query, anchored on the path",
             [stub({"urlPathPattern": "/api/v2/pokemon/[0-9]+/"}, "A")],
             [G("/api/v2/pokemon/25/?limit=1"), G("/api/v2/pokemon/25/extra"), G("/api/v2/pokemon/x/")]))
    add(Case("urlPathPattern-decoded", "urlPathPattern sees the decoded path (flab.b./)",
             [stub({"urlPathPattern": "/api/v2/pokemon-species/flab.b./"}, "A")],
             [G("/api/v2/pokemon-species/flab%C3%A9b%C3%A9/")]))
    add(Case("urlPathPattern-encoded-literal", "urlPathPattern written with %C3%A9 (as WireMock sees paths)",
             [stub({"urlPathPattern": "/api/v2/pokemon-species/flab%C3%A9b%C3%A9/"}, "A")],
             [G("/api/v2/pokemon-species/flab%C3%A9b%C3%A9/"), G("/api/v2/pokemon-species/flab%C3%A9b%C3%A9/?x=1")]))
    add(Case("urlPattern-encoded-literal", "urlPattern written with %C3%A9 and an encoded query",
             [stub({"urlPattern": "/api/v2/pokemon-species/flab%C3%A9b%C3%A9/\\?q=%C3%A9"}, "A")],
             [G("/api/v2/pokemon-species/flab%C3%A9b%C3%A9/?q=%C3%A9")]))
    add(Case("urlPathTemplate", "urlPathTemplate /api/v2/pokemon/{id} (WireMock 3 feature; in 2.35?)",
             [stub({"method": "GET", "urlPathTemplate": "/api/v2/pokemon/{id}"}, "T")],
             [G("/api/v2/pokemon/25"), G("/api/v2/pokemon/")]))

    # --- percent-encoding in paths
    add(Case("pct-path-stub-unicode", "stub urlPath flabébé/, request flab%C3%A9b%C3%A9/",
             [stub({"urlPath": "/api/v2/pokemon-species/flabébé/"}, "FLABEBE")],
             [G("/api/v2/pokemon-species/flab%C3%A9b%C3%A9/"), G("/api/v2/pokemon-species/flab%c3%a9b%c3%a9/")]))
    add(Case("pct-path-stub-encoded", "stub urlPath flab%C3%A9b%C3%A9/, request encoded and raw UTF-8",
             [stub({"urlPath": "/api/v2/pokemon-species/flab%C3%A9b%C3%A9/"}, "FLABEBE")],
             [G("/api/v2/pokemon-species/flab%C3%A9b%C3%A9/"), G("/api/v2/pokemon-species/flabébé/")]))
    add(Case("pct-path-raw-utf8", "stub urlPath flabébé/, request with raw UTF-8 bytes in the target",
             [stub({"urlPath": "/api/v2/pokemon-species/flabébé/"}, "FLABEBE")],
             [G("/api/v2/pokemon-species/flabébé/")], views=["journal"]))
    add(Case("pct-url-field", "url field with an encoded path and query",
             [stub({"url": "/api/v2/pokemon-species/flab%C3%A9b%C3%A9/?q=%C3%A9"}, "A")],
             [G("/api/v2/pokemon-species/flab%C3%A9b%C3%A9/?q=%C3%A9"),
              G("/api/v2/pokemon-species/flab%C3%A9b%C3%A9/?q=é")]))
    add(Case("pct-2F-path", "%2F in a path: stub urlPath /files/a%2Fb",
             [stub({"urlPath": "/files/a%2Fb"}, "ENC"), stub({"urlPath": "/files/a/b"}, "SLASH")],
             [G("/files/a%2Fb"), G("/files/a/b"), G("/files/a%2fb")]))
    add(Case("pct-space-path", "%20 in a path vs stub with a space",
             [stub({"urlPath": "/with space"}, "SP")], [G("/with%20space"), G("/with+space")]))

    # --- query parameters
    add(Case("query-repeated", "equalTo \"2\" against ?a=1&a=2 (any value?)",
             [stub({"urlPath": "/q", "queryParameters": {"a": {"equalTo": "2"}}}, "A")],
             [G("/q?a=1&a=2"), G("/q?a=2&a=1"), G("/q?a=1")]))
    add(Case("query-plus", "+ in a query value: space or plus?",
             [stub({"urlPath": "/q", "queryParameters": {"s": {"equalTo": "a b"}}}, "SPACE"),
              stub({"urlPath": "/q", "queryParameters": {"p": {"equalTo": "a+b"}}}, "PLUS")],
             [G("/q?s=a+b"), G("/q?s=a%20b"), G("/q?p=a+b"), G("/q?p=a%2Bb")]))
    add(Case("query-percent", "percent-encoded query values (é, &, =)",
             [stub({"urlPath": "/q", "queryParameters": {"n": {"equalTo": "é"}}}, "E"),
              stub({"urlPath": "/q", "queryParameters": {"m": {"equalTo": "a&b=c"}}}, "AMP")],
             [G("/q?n=%C3%A9"), G("/q?n=é"), G("/q?m=a%26b%3Dc"), G("/q?m=a&b=c")]))
    add(Case("query-absent", "absent: true",
             [stub({"urlPath": "/q", "queryParameters": {"debug": {"absent": True}}}, "A")],
             [G("/q"), G("/q?debug=1"), G("/q?debug"), G("/q?debug=")]))
    add(Case("query-or", "or [absent, equalTo 0] (or with absent inside: accepted by 2.35?)",
             [stub({"urlPath": "/q", "queryParameters": {"offset": {"or": [{"absent": True}, {"equalTo": "0"}]}}},
                   "A")],
             [G("/q"), G("/q?offset=0"), G("/q?offset=20")]))
    add(Case("query-or-equalTo", "or [equalTo 0, equalTo 20] (no absent inside)",
             [stub({"urlPath": "/q", "queryParameters": {"offset": {"or": [{"equalTo": "0"}, {"equalTo": "20"}]}}},
                   "A")],
             [G("/q?offset=0"), G("/q?offset=20"), G("/q?offset=40"), G("/q")]))
    add(Case("query-doesNotContain-anything", "doesNotContain and anything",
             [stub({"urlPath": "/q", "queryParameters": {"a": {"doesNotContain": "x"}, "b": {"anything": "anything"}}},
                   "A")],
             [G("/q?a=yyy&b=1"), G("/q?a=xyz&b=1"), G("/q?b=1"), G("/q?a=y")]))
    add(Case("query-and", "and [matches [0-9]+, doesNotMatch 0]",
             [stub({"urlPath": "/q", "queryParameters": {"limit": {"and": [{"matches": "[0-9]+"},
                                                                           {"doesNotMatch": "0"}]}}}, "A")],
             [G("/q?limit=20"), G("/q?limit=0"), G("/q?limit=x"), G("/q")]))
    add(Case("query-caseInsensitive", "equalTo \"Pikachu\" caseInsensitive",
             [stub({"urlPath": "/q", "queryParameters": {"name": {"equalTo": "Pikachu",
                                                                   "caseInsensitive": True}}}, "A")],
             [G("/q?name=PIKACHU"), G("/q?name=pikachu"), G("/q?Name=pikachu")]))
    add(Case("query-empty-value", "equalTo \"\" against ?a= and ?a",
             [stub({"urlPath": "/q", "queryParameters": {"a": {"equalTo": ""}}}, "A")],
             [G("/q?a="), G("/q?a"), G("/q")]))
    add(Case("query-matches-anchored", "matches \"[0-9]\" against ?n=12 (partial must not match)",
             [stub({"urlPath": "/q", "queryParameters": {"n": {"matches": "[0-9]"}}}, "A")],
             [G("/q?n=1"), G("/q?n=12")]))

    # --- headers
    add(Case("header-name-case", "header \"accept\" in the stub vs \"Accept\" in the request",
             [stub({"urlPath": "/h", "headers": {"accept": {"equalTo": "application/json"}}}, "A")],
             [G("/h", ("Accept", "application/json")), G("/h", ("ACCEPT", "application/json")),
              G("/h", ("Accept", "Application/JSON"))]))
    add(Case("header-contains-absent", "headers contains + absent",
             [stub({"urlPath": "/h", "headers": {"User-Agent": {"contains": "poke"},
                                                "X-Debug": {"absent": True}}}, "A")],
             [G("/h", ("User-Agent", "pokeclient/1")), G("/h", ("User-Agent", "pokeclient/1"), ("X-Debug", "1")),
              G("/h")]))
    add(Case("header-repeated", "equalTo \"b\" against two X-Multi fields a and b",
             [stub({"urlPath": "/h", "headers": {"X-Multi": {"equalTo": "b"}}}, "A")],
             [G("/h", ("X-Multi", "a"), ("X-Multi", "b"))]))

    # --- body patterns
    body_json = '{"name": "pikachu", "types": [{"name": "electric"}, {"name": "fairy"}], "id": 25}'
    add(Case("body-equalToJson", "equalToJson: key order and whitespace do not matter; extra member does",
             [stub({"method": "POST", "urlPath": "/b", "bodyPatterns": [
                 {"equalToJson": {"id": 25, "name": "pikachu", "types": [{"name": "electric"}, {"name": "fairy"}]}}]},
                 "A")],
             [P("/b", body_json, JSON_CT), P("/b", '{"id":25,"name":"pikachu","types":[{"name":"electric"},'
                                                   '{"name":"fairy"}],"x":1}', JSON_CT)]))
    add(Case("body-equalToJson-arrayOrder", "ignoreArrayOrder",
             [stub({"method": "POST", "urlPath": "/b", "bodyPatterns": [
                 {"equalToJson": {"a": [1, 2, 3]}, "ignoreArrayOrder": True}]}, "A"),
              stub({"method": "POST", "urlPath": "/b2", "bodyPatterns": [{"equalToJson": {"a": [1, 2, 3]}}]}, "B")],
             [P("/b", '{"a":[3,1,2]}'), P("/b2", '{"a":[3,1,2]}'), P("/b", '{"a":[1,2]}')]))
    add(Case("body-equalToJson-extra", "ignoreExtraElements (nested objects and arrays)",
             [stub({"method": "POST", "urlPath": "/b", "bodyPatterns": [
                 {"equalToJson": {"a": {"b": 1}, "l": [{"x": 1}]}, "ignoreExtraElements": True}]}, "A")],
             [P("/b", '{"a":{"b":1,"c":2},"l":[{"x":1,"y":2}],"z":0}'), P("/b", '{"a":{"b":1},"l":[{"x":1},{"x":2}]}'),
              P("/b", '{"a":{"b":2}}')]))
    add(Case("body-equalToJson-string", "equalToJson given as a string",
             [stub({"method": "POST", "urlPath": "/b", "bodyPatterns": [{"equalToJson": "{\"a\": 1}"}]}, "A")],
             [P("/b", '{ "a" : 1 }'), P("/b", '{"a":2}')]))
    add(Case("body-equalToJson-numbers", "equalToJson 1 vs 1.0 and 1e0",
             [stub({"method": "POST", "urlPath": "/b", "bodyPatterns": [{"equalToJson": {"n": 1}}]}, "A")],
             [P("/b", '{"n":1.0}'), P("/b", '{"n":1e0}'), P("/b", '{"n":"1"}')]))
    add(Case("body-matchesJsonPath", "matchesJsonPath plain: present / missing / null / empty array / not JSON",
             [stub({"method": "POST", "urlPath": "/b", "bodyPatterns": [{"matchesJsonPath": "$.name"}]}, "A")],
             [P("/b", body_json), P("/b", '{"id":1}'), P("/b", '{"name":null}'), P("/b", '{"name":[]}'),
              P("/b", "not json")]))
    add(Case("body-matchesJsonPath-subpattern", "matchesJsonPath {expression: $.name, equalTo: pikachu}",
             [stub({"method": "POST", "urlPath": "/b", "bodyPatterns": [
                 {"matchesJsonPath": {"expression": "$.name", "equalTo": "pikachu"}}]}, "A"),
              stub({"method": "POST", "urlPath": "/b2", "bodyPatterns": [
                  {"matchesJsonPath": {"expression": "$.id", "equalTo": "25"}}]}, "B"),
              stub({"method": "POST", "urlPath": "/b3", "bodyPatterns": [
                  {"matchesJsonPath": {"expression": "$.types", "contains": "fairy"}}]}, "C")],
             [P("/b", body_json), P("/b", '{"name":"raichu"}'), P("/b2", body_json), P("/b3", body_json)]))
    add(Case("body-matchesJsonPath-filter", "matchesJsonPath with a filter $.types[?(@.name == 'electric')]",
             [stub({"method": "POST", "urlPath": "/b", "bodyPatterns": [
                 {"matchesJsonPath": "$.types[?(@.name == 'electric')]"}]}, "A"),
              stub({"method": "POST", "urlPath": "/b2", "bodyPatterns": [
                  {"matchesJsonPath": "$[?(@.id > 20)]"}]}, "B"),
              stub({"method": "POST", "urlPath": "/b3", "bodyPatterns": [
                  {"matchesJsonPath": "$.types[?(@.name != 'water')]"}]}, "C")],
             [P("/b", body_json), P("/b", '{"types":[{"name":"water"}]}'), P("/b2", body_json),
              P("/b2", '{"id": 1}'), P("/b3", body_json), P("/b3", '{"types":[{"name":"water"}]}')]))
    add(Case("body-contains-matches", "contains / matches (whole body) / doesNotMatch",
             [stub({"method": "POST", "urlPath": "/c", "bodyPatterns": [{"contains": "abc"}]}, "CONTAINS"),
              stub({"method": "POST", "urlPath": "/m", "bodyPatterns": [{"matches": "abc"}]}, "MATCHES"),
              stub({"method": "POST", "urlPath": "/n", "bodyPatterns": [{"doesNotMatch": ".*secret.*"}]}, "NOT")],
             [P("/c", "xabcx"), P("/m", "xabcx"), P("/m", "abc"), P("/n", "public"), P("/n", "a secret b"),
              Req("POST", "/n")]))
    add(Case("body-multiline-matches", "matches \".*end\" against a body with a newline (DOTALL?)",
             [stub({"method": "POST", "urlPath": "/m", "bodyPatterns": [{"matches": ".*end"}]}, "A")],
             [P("/m", "start\nend")]))
    add(Case("body-binary-journal", "non-UTF-8 request body: body/bodyAsBase64 in the journal",
             [stub({"method": "POST", "urlPath": "/bin"}, "A")],
             [P("/bin", b"\xff\x00\xfe", ("Content-Type", "application/octet-stream"))], views=["journal"]))

    # --- priority
    add(Case("priority-tie", "two stubs, same priority, both match: which wins?",
             [stub({"urlPath": "/prio"}, "FIRST"), stub({"urlPath": "/prio"}, "SECOND")], [G("/prio")]))
    add(Case("priority-lower-wins", "priority 1 added first vs default added later",
             [stub({"urlPath": "/prio"}, "P1", priority=1), stub({"urlPath": "/prio"}, "DEFAULT")], [G("/prio")]))
    add(Case("priority-default-5", "priority 5 explicit vs omitted (tie → most recent)",
             [stub({"urlPath": "/prio"}, "OMITTED"), stub({"urlPath": "/prio"}, "FIVE", priority=5),
              stub({"urlPath": "/prio"}, "SIX", priority=6)], [G("/prio")]))

    # --- responses
    add(Case("response-jsonBody", "jsonBody: Content-Type added? key order? compact?",
             [{"request": {"urlPath": "/jb"}, "response": {"status": 200, "jsonBody": {
                 "zeta": 1, "alpha": [1, 2, {"b": True, "a": None}], "mid": "é/x", "f": 1.5}}}],
             [G("/jb")]))
    add(Case("response-jsonBody-with-ct", "jsonBody with its own Content-Type header",
             [{"request": {"urlPath": "/jb"}, "response": {"status": 200, "jsonBody": [1, "two"],
                                                           "headers": {"Content-Type": "application/vnd.x+json"}}}],
             [G("/jb")]))
    add(Case("response-body-text", "body text without headers: Content-Type?",
             [{"request": {"urlPath": "/t"}, "response": {"status": 200, "body": "héllo"}}], [G("/t")]))
    add(Case("response-base64Body", "base64Body",
             [{"request": {"urlPath": "/b64"}, "response": {"status": 200, "base64Body": "AAEC/w==",
                                                            "headers": {"Content-Type": "application/octet-stream"}}}],
             [G("/b64")]))
    add(Case("response-bodyFileName", "bodyFileName from __files/",
             [{"request": {"urlPath": "/file"}, "response": {"status": 200, "bodyFileName": "pokemon/1.json"}}],
             [G("/file")], files={"pokemon/1.json": b'{"id": 1, "name": "bulbasaur"}\n'}))
    add(Case("response-header-array", "headers with an array value (two Set-Cookie)",
             [{"request": {"urlPath": "/ck"}, "response": {"status": 200, "body": "C", "headers": {
                 "Set-Cookie": ["a=1; Path=/", "b=2; Path=/"], "X-One": "1"}}}],
             [G("/ck")], resp_headers=["Set-Cookie", "X-One"]))
    add(Case("response-header-number", "a header given as a JSON number (\"X-Num\": 5)",
             [{"request": {"urlPath": "/ck"}, "response": {"status": 200, "body": "C", "headers": {"X-Num": 5}}}],
             [G("/ck")], resp_headers=["X-Num"]))
    add(Case("response-matched-stub-name", "a named stub: Matched-Stub-Id and Matched-Stub-Name headers",
             [stub({"urlPath": "/named"}, "N", name="bulbasaur")], [G("/named")],
             resp_headers=["Matched-Stub-Name"]))
    add(Case("response-status-only", "status only, no body: 204, 200, 418",
             [{"request": {"urlPath": "/s204"}, "response": {"status": 204}},
              {"request": {"urlPath": "/s200"}, "response": {"status": 200}},
              {"request": {"urlPath": "/s418"}, "response": {"status": 418}}],
             [G("/s204"), G("/s200"), G("/s418")]))
    add(Case("response-no-response-field", "mapping without a response object",
             [{"request": {"urlPath": "/nr"}}], [G("/nr")]))
    add(Case("response-fixedDelay", "fixedDelayMilliseconds 300: answers (and not sooner)",
             [{"request": {"urlPath": "/slow"}, "response": {"status": 200, "body": "SLOW",
                                                            "fixedDelayMilliseconds": 300}}],
             [G("/slow")], min_delay_ms=280))
    add(Case("response-fault-empty", "fault EMPTY_RESPONSE",
             [{"request": {"urlPath": "/fault"}, "response": {"fault": "EMPTY_RESPONSE"}}], [G("/fault")],
             views=["journal"]))
    add(Case("response-fault-reset", "fault CONNECTION_RESET_BY_PEER",
             [{"request": {"urlPath": "/fault"}, "response": {"fault": "CONNECTION_RESET_BY_PEER"}}],
             [G("/fault")]))
    add(Case("response-HEAD", "HEAD on an ANY stub with a body",
             [stub({"method": "ANY", "urlPath": "/head"}, "BODY")], [Req("HEAD", "/head")]))

    # --- mappings admin
    add(Case("mapping-unknown-field-top", "unknown top-level field \"foo\"", custom=custom_unknown_field("top")))
    add(Case("mapping-unknown-field-request", "unknown field in request", custom=custom_unknown_field("request")))
    add(Case("mapping-unknown-field-response", "unknown field in response",
             custom=custom_unknown_field("response")))
    add(Case("mapping-scenario", "scenarioName/requiredScenarioState (pokestub: not yet)",
             [stub({"urlPath": "/sc"}, "SC", scenarioName="s", requiredScenarioState="Started")], [G("/sc")]))
    add(Case("mapping-bad-requests", "POST /__admin/mappings errors: status and body shape",
             custom=custom_admin_errors))
    add(Case("mapping-post-reply", "POST /__admin/mappings reply (201? id/uuid?)", custom=custom_post_mapping_reply))
    add(Case("mappings-listing", "GET/PUT/DELETE /__admin/mappings, order, paging, unknown id",
             custom=custom_mappings_listing))

    # --- journal
    add(Case("journal-fields", "GET /__admin/requests fields for a matched and an unmatched request",
             custom=custom_journal_shape))
    add(Case("journal-limit-order", "GET /__admin/requests order and ?limit=1 (newest first?)",
             custom=custom_journal_limit))
    add(Case("journal-count", "POST /__admin/requests/count with a pattern",
             [stub({"urlPathPattern": "/api/v2/.*"}, "A")],
             [G("/api/v2/pokemon/1"), G("/api/v2/pokemon/2?x=1"), G("/api/v2/type/1"), G("/other")],
             views=[("count", {"method": "GET", "urlPathPattern": "/api/v2/pokemon/.*"}),
                    ("count", {"urlPath": "/other"}), ("count", {"method": "ANY"}),
                    ("count", {"url": "/api/v2/pokemon/2?x=1"}),
                    ("count", {"urlPath": "/api/v2/pokemon/2", "queryParameters": {"x": {"equalTo": "1"}}}),
                    ("find", {"urlPathPattern": "/api/v2/type/.*"})]))
    add(Case("journal-unmatched", "GET /__admin/requests/unmatched",
             [stub({"urlPath": "/here"}, "A")], [G("/here"), G("/not-here"), P("/here", "x")],
             views=["unmatched"]))
    add(Case("journal-count-bad-pattern", "POST /__admin/requests/count with an unknown field",
             views=[("count", {"urlPath": "/x", "bogus": 1})]))
    add(Case("journal-reset-routes", "POST /__admin/requests/reset, DELETE /__admin/requests, POST "
                                     "/__admin/mappings/reset, POST /__admin/reset", custom=custom_journal_reset_routes))
    add(Case("admin-not-journaled", "admin requests are not journaled; /__admin/health",
             custom=custom_admin_not_journaled))

    # --- unmatched responses
    add(Case("unmatched-404-no-stubs", "404 of an unmatched request with no stubs", [], [G("/nope")],
             compare_404_body=True))
    add(Case("unmatched-404-near-miss", "404 of an unmatched request with a near miss",
             [stub({"method": "GET", "urlPath": "/api/v2/pokemon/1/"}, "A")], [G("/api/v2/pokemon/2/")],
             compare_404_body=True))
    return c


# ----------------------------------------------------------------------------------------------------------------
# WireMock's Python admin client, run in an interpreter that has the `wiremock` package.

CLIENT_SCRIPT = r'''
import json, sys, traceback, urllib.request
base = sys.argv[1]
from wiremock.constants import Config
Config.base_url = base + "/__admin"
from wiremock.client import (Mappings, Mapping, MappingRequest, MappingResponse, HttpMethods, Requests,
                             NearMissMatchPatternRequest)
out = []
def step(name, fn):
    try:
        result = fn()
        out.append({"step": name, "ok": True, "result": result})
    except Exception as exc:
        out.append({"step": name, "ok": False, "error": f"{exc.__class__.__name__}: {str(exc)[:300]}"})
created = {}
def create():
    m = Mapping(priority=5, request=MappingRequest(method=HttpMethods.GET, url_path="/client"),
                response=MappingResponse(status=200, body="from client"), persistent=False)
    r = Mappings.create_mapping(m)
    created["id"] = r.id
    return {"id": r.id is not None, "status": r.response.status}
step("Mappings.delete_all_mappings()", lambda: Mappings.delete_all_mappings().status_code)
step("Requests.reset_request_journal()", lambda: Requests.reset_request_journal().status_code)
step("Mappings.create_mapping(Mapping(...))", create)
step("Mappings.retrieve_all_mappings()", lambda: {"count": len(Mappings.retrieve_all_mappings().mappings),
                                                  "total": Mappings.retrieve_all_mappings().meta.total})
step("Mappings.retrieve_mapping(id)", lambda: Mappings.retrieve_mapping(created["id"]).request.url_path)
step("GET /client (urllib)", lambda: urllib.request.urlopen(base + "/client").read().decode())
step("Requests.get_matching_request_count(pattern)", lambda: Requests.get_matching_request_count(
    NearMissMatchPatternRequest(url_path="/client", method="GET")).count)
step("Requests.get_matching_requests(pattern)", lambda: len(Requests.get_matching_requests(
    NearMissMatchPatternRequest(url_path="/client", method="GET")).requests))
step("Requests.get_all_received_requests(limit=5)",
     lambda: [r.request.url for r in Requests.get_all_received_requests(limit=5).requests])
step("Requests.get_unmatched_requests()", lambda: len(Requests.get_unmatched_requests().requests))
def one_request():
    first = Requests.get_all_received_requests(limit=1).requests[0]
    got = Requests.get_request(first.id)
    return {"url": got.request.url, "status": got.response_definition.status
            if got.response_definition else "no responseDefinition"}
step("Requests.get_request(id)", one_request)
try:
    urllib.request.urlopen(base + "/nowhere")
except Exception:
    pass
step("Requests.get_unmatched_requests_near_misses()",
     lambda: len(Requests.get_unmatched_requests_near_misses().near_misses or []))
def update():
    m = Mapping(priority=5, request=MappingRequest(method=HttpMethods.GET, url_path="/client"),
                response=MappingResponse(status=200, body="updated"), persistent=False)
    m._id = created["id"]
    return Mappings.update_mapping(m).response.body
step("Mappings.update_mapping(mapping)", update)
step("Mappings.delete_mapping(id)", lambda: Mappings.delete_mapping(created["id"]).status_code)
step("Requests.reset_request_journal() (after traffic)", lambda: Requests.reset_request_journal().status_code)
step("Mappings.reset_mappings()", lambda: Mappings.reset_mappings().status_code)
print(json.dumps(out))
'''


def run_client(python: str, server: Server) -> list[dict]:
    reset(server)
    proc = subprocess.run([python, "-c", CLIENT_SCRIPT, f"http://127.0.0.1:{server.port}"],
                          capture_output=True, text=True, timeout=120)
    try:
        return json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return [{"step": "run", "ok": False, "error": (proc.stderr or proc.stdout)[-500:]}]


# ----------------------------------------------------------------------------------------------------------------
# Finding the tools


# The venv `scripts/install-dependencies.sh --test` makes inside the repository (ignored by git).
REPO_VENV = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".build",
                                         "wiremock-venv"))


def find_jar(explicit: str | None) -> str | None:
    """WireMock's standalone jar: --jar, else $WIREMOCK_JAR, else the one the PyPI wiremock package installed
    in the repository's venv (.build/wiremock-venv), /tmp/wm-venv or this interpreter's site-packages."""
    if explicit:
        return explicit if os.path.isfile(explicit) else None
    candidates = [os.environ.get("WIREMOCK_JAR")]
    patterns = [os.path.join(REPO_VENV, "lib/python3*/site-packages/wiremock/server/wiremock-standalone-*.jar"),
                "/tmp/wm-venv/lib/python3*/site-packages/wiremock/server/wiremock-standalone-*.jar"]
    patterns += [os.path.join(p, "wiremock/server/wiremock-standalone-*.jar") for p in sys.path if p]
    for pattern in patterns:
        candidates += sorted(glob.glob(pattern))
    return next((c for c in candidates if c and os.path.isfile(c)), None)


def find_java() -> str | None:
    """A java that runs: the PATH's, else Homebrew's keg-only openjdk@17 (which brew leaves off the PATH).
    On macOS /usr/bin/java exists without a JDK and only fails, so each candidate is run."""
    candidates = [shutil.which("java")]
    brew = shutil.which("brew")
    if brew:
        prefix = subprocess.run([brew, "--prefix"], capture_output=True, text=True).stdout.strip()
        candidates.append(os.path.join(prefix, "opt", "openjdk@17", "bin", "java"))
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK) and subprocess.run(
                [candidate, "-version"], capture_output=True).returncode == 0:
            return candidate
    return None


def find_client_python(explicit: str | None, jar: str) -> str | None:
    if explicit:
        return explicit
    # <venv>/lib/python3.x/site-packages/wiremock/server/x.jar -> <venv>/bin/python
    venv = os.path.abspath(os.path.join(os.path.dirname(jar), *[".."] * 5))
    python = os.path.join(venv, "bin", "python")
    return python if os.path.isfile(python) else None


# ----------------------------------------------------------------------------------------------------------------
# Report


def compare(wm: list[Obs], ps: list[Obs]) -> tuple[bool, list[dict]]:
    assert len({o.label for o in wm}) == len(wm), "observation labels must be unique"
    by_label_ps = {o.label: o for o in ps}
    diffs = []
    for o in wm:
        other = by_label_ps.get(o.label)
        if other is None or other.value != o.value:
            diffs.append({"label": o.label, "wiremock": o.value, "pokestub": other.value if other else None,
                          "wiremock_info": o.info, "pokestub_info": other.info if other else None})
    for o in ps:
        if o.label not in {w.label for w in wm}:
            diffs.append({"label": o.label, "wiremock": None, "pokestub": o.value})
    return not diffs, diffs


def cell(observations: list[Obs]) -> str:
    return " | ".join(o.short for o in observations if o.short)


def print_table(rows: list[dict], width: int) -> None:
    if not rows:
        print("no cases")
        return
    name_w = max(len("case"), *(len(r["case"]) for r in rows))
    col_w = max(24, (width - name_w - 20) // 2)
    head = f"{'case':<{name_w}}  {'WireMock 2.35.1':<{col_w}}  {'pokestub':<{col_w}}  verdict"
    print(head)
    print("-" * len(head))
    for r in rows:
        wm_lines = textwrap.wrap(r["wiremock_cell"], col_w) or [""]
        ps_lines = textwrap.wrap(r["pokestub_cell"], col_w) or [""]
        for i in range(max(len(wm_lines), len(ps_lines))):
            print(f"{r['case'] if i == 0 else '':<{name_w}}  "
                  f"{wm_lines[i] if i < len(wm_lines) else '':<{col_w}}  "
                  f"{ps_lines[i] if i < len(ps_lines) else '':<{col_w}}  "
                  f"{r['verdict'] if i == 0 else ''}")


def fmt(value: Any, limit: int = 400) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
    return snip(text, limit)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jar", help="WireMock standalone jar (default: found in /tmp/wm-venv or sys.path)")
    parser.add_argument("--java", default=find_java() or "java")
    parser.add_argument("--pokestub", default=os.environ.get("POKESTUB_BIN", "/tmp/build-compat/debug/pokestub"))
    parser.add_argument("--json", metavar="FILE", help="write raw results as JSON to FILE ('-' for stdout)")
    parser.add_argument("--only", metavar="SUBSTRING", help="run only cases whose name contains this")
    parser.add_argument("--client-python", help="interpreter with the `wiremock` package (default: the jar's venv)")
    parser.add_argument("--no-client", action="store_true", help="skip WireMock's Python admin client")
    parser.add_argument("--width", type=int, default=160)
    args = parser.parse_args()

    jar = find_jar(args.jar)
    if not jar:
        print("no WireMock jar: scripts/install-dependencies.sh --test installs it in .build/wiremock-venv, "
              "or pass --jar", file=sys.stderr)
        return 0
    args.pokestub = os.path.abspath(args.pokestub)  # pokestub runs with its stub root's folder as its cwd
    if not os.path.isfile(args.pokestub):
        print(f"no pokestub binary at {args.pokestub}: swift build --scratch-path /tmp/build-compat "
              "--product pokestub, or pass --pokestub", file=sys.stderr)
        return 0
    cases = [c for c in build_cases() if not args.only or args.only in c.name]

    work = tempfile.mkdtemp(prefix="wiremock-compat-")
    servers: list[Server] = []
    results = {"wiremock_jar": jar, "pokestub": args.pokestub, "cases": [], "client": None}
    try:
        wm = WireMock(jar, make_root(work, "wm"), args.java)
        servers.append(wm)
        ps = Pokestub(args.pokestub, make_root(work, "ps"))
        servers.append(ps)
        print(f"WireMock {os.path.basename(jar)} on port {wm.port}; pokestub on port {ps.port}; "
              f"{len(cases)} cases\n", file=sys.stderr)
        rows = []
        for case in cases:
            wm_obs = run_case(wm, case)
            ps_obs = run_case(ps, case)
            same, diffs = compare(wm_obs, ps_obs)
            row = {"case": case.name, "about": case.about, "verdict": "SAME" if same else "DIFFERENT",
                   "wiremock_cell": cell(wm_obs), "pokestub_cell": cell(ps_obs), "differences": diffs,
                   "wiremock": [o.__dict__ for o in wm_obs], "pokestub": [o.__dict__ for o in ps_obs]}
            rows.append(row)
            results["cases"].append(row)
        print_table(rows, args.width)
        different = [r for r in rows if r["verdict"] == "DIFFERENT"]
        print(f"\n{len(rows) - len(different)} SAME, {len(different)} DIFFERENT of {len(rows)} cases\n")
        if different:
            print("Differences")
            print("===========")
            for r in different:
                print(f"\n## {r['case']}: {r['about']}")
                for d in r["differences"]:
                    print(f"  - {d['label']}")
                    print(f"      WireMock: {fmt(d['wiremock'])}")
                    if d.get("wiremock_info"):
                        print(f"                ({fmt(d['wiremock_info'], 300)})")
                    print(f"      pokestub: {fmt(d['pokestub'])}")
                    if d.get("pokestub_info"):
                        print(f"                ({fmt(d['pokestub_info'], 300)})")

        python = None if args.no_client else find_client_python(args.client_python, jar)
        if python:
            client = {"python": python, "wiremock": run_client(python, wm), "pokestub": run_client(python, ps)}
            results["client"] = client
            print("\nWireMock's Python admin client (wiremock package)")
            print("=================================================")
            ps_steps = {s["step"]: s for s in client["pokestub"]}
            for s in client["wiremock"]:
                p = ps_steps.get(s["step"], {"ok": False, "error": "not run"})
                wm_text = fmt(s.get("result") if s["ok"] else "ERROR " + s.get("error", ""), 70)
                ps_text = fmt(p.get("result") if p["ok"] else "ERROR " + p.get("error", ""), 200)
                print(f"  {s['step']}\n      WireMock: {wm_text}\n      pokestub: {ps_text}")
    finally:
        for server in reversed(servers):
            server.stop()
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        text = json.dumps(results, indent=2, ensure_ascii=False, default=str)
        if args.json == "-":
            print(text)
        else:
            with open(args.json, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as exc:  # a report, not a gate
        print(f"compat.py failed: {exc.__class__.__name__}: {exc}", file=sys.stderr)
        sys.exit(0)
