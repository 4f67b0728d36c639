#!/usr/bin/env python3
"""A scripted upstream for pokestub's recording tests (Python 3.11 standard library only).

Usage: scripted_upstream.py CONNECTION_LOG [--static DIR] [--tls CERT_FILE KEY_FILE]

Binds 127.0.0.1 on a free port, prints "PORT <n>" on standard output, and appends one line per accepted
TCP connection to CONNECTION_LOG, so a test can tell how many connections pokestub opened (replay must
open none) without connecting itself. Speaks HTTP/1.1 with keep-alive, so connection reuse is visible.

With --static DIR it serves the PokeAPI dump in DIR the way shared/pokeapi/README.md describes (a
directory answers with its index.json). Otherwise it answers the scripted routes below. With --tls it
speaks HTTPS with the given certificate (tests use a self-signed one that must be refused).
"""
import argparse
import base64
import gzip
import http.server
import json
import os
import socketserver
import ssl
import struct
import threading
import time
import zlib
from urllib.parse import parse_qs, urlsplit

ARGUMENTS = argparse.ArgumentParser()
ARGUMENTS.add_argument("log")
ARGUMENTS.add_argument("--static")
ARGUMENTS.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
OPTIONS = ARGUMENTS.parse_args()
LOG_PATH = OPTIONS.log
STATIC_ROOT = OPTIONS.static
LOG_LOCK = threading.Lock()
REQUEST_COUNTS = {}
GATES = {}
GATES_LOCK = threading.Lock()


def gate(name):
    """The event behind /hold?gate=NAME and /release?gate=NAME, made at first use by either."""
    with GATES_LOCK:
        return GATES.setdefault(name, threading.Event())


def log_line(text):
    with LOG_LOCK:
        with open(LOG_PATH, "a", encoding="utf-8") as log:
            log.write(text + "\n")


def brotli_uncompressed(data):
    """A valid brotli stream (RFC 7932) made of uncompressed meta-blocks: no encoder needed."""
    bits = []

    def put(value, count):
        for index in range(count):
            bits.append((value >> index) & 1)

    def pad():
        while len(bits) % 8:
            bits.append(0)

    out = bytearray()

    def flush():
        pad()
        for index in range(0, len(bits), 8):
            out.append(sum(bit << shift for shift, bit in enumerate(bits[index:index + 8])))
        bits.clear()

    put(0, 1)  # WBITS = 16
    for start in range(0, len(data), 65536):
        chunk = data[start:start + 65536]
        put(0, 1)  # ISLAST = 0
        put(0, 2)  # MNIBBLES = 4
        put(len(chunk) - 1, 16)  # MLEN - 1
        put(1, 1)  # ISUNCOMPRESSED
        flush()
        out.extend(chunk)
    put(1, 1)  # ISLAST
    put(1, 1)  # ISLASTEMPTY
    flush()
    return bytes(out)


def tiny_png():
    """A valid 2x2 RGBA PNG, with bytes >= 0x80 and NUL bytes in it."""
    def chunk(kind, payload):
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))
    raw = b"".join(b"\x00" + bytes([255, 0, 128, 255, 0, 200, 0, 0]) for _ in range(2))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def get_request(self):
        connection = super().get_request()
        log_line("connection")
        return connection


class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=STATIC_ROOT or ".", **kwargs)

    def log_message(self, *args):
        pass

    def translate_path(self, path):
        result = super().translate_path(path)
        return os.path.join(result, "index.json") if os.path.isdir(result) else result

    def send_body(self, status, body, content_type="application/json", headers=(), encoding=None):
        if encoding == "gzip":
            body = gzip.compress(body, mtime=0)
        elif encoding == "deflate":
            body = zlib.compress(body)
        elif encoding == "br":
            body = brotli_uncompressed(body)
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        if encoding:
            self.send_header("Content-Encoding", encoding)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def base(self):
        return "http://127.0.0.1:%d" % self.server.server_address[1]

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        url = urlsplit(self.path)
        log_line("request %s %s" % (self.command, self.path))
        if STATIC_ROOT is not None:
            return super().do_GET() if self.command == "GET" else super().do_HEAD()
        query = parse_qs(url.query)
        path = url.path
        text = json.dumps({"greeting": "hello", "from": path, "n": 42}).encode()
        if path in ("/gzip", "/deflate", "/br"):
            return self.send_body(200, text, encoding=path[1:], headers=[("Vary", "Accept-Encoding")])
        if path == "/chunked":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for piece in [b"first line\n", b"second line, ", "caf\u00e9 \u2603\n".encode()]:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                self.wfile.flush()
                time.sleep(0.01)
            self.wfile.write(b"0\r\n\r\n")
            return
        if path == "/sprite.png":
            return self.send_body(200, tiny_png(), content_type="image/png")
        if path == "/redirect":
            return self.send_body(301, b"<a href=\"/target\">moved</a>", content_type="text/html",
                                  headers=[("Location", self.base() + "/target")])
        if path == "/cookies":
            return self.send_body(200, b"{}", headers=[
                ("Set-Cookie", "session=abc123; Path=/; HttpOnly"),
                ("Set-Cookie", "theme=dark; Path=/"),
                ("Set-Cookie", "tracking=xyz; Max-Age=60")])
        if path == "/padded":
            return self.send_body(200, b"{}", headers=[("X-Padded", "\t spaced  value \t"), ("X-Blank", " \t ")])
        if path == "/slow":
            time.sleep(int(query.get("ms", ["3000"])[0]) / 1000)
            return self.send_body(200, b"{\"slow\": true}")
        if path == "/hold":
            # Answers only once /release?gate=NAME was asked for (504 after 30 s), so a test decides when.
            released = gate(query.get("gate", [""])[0]).wait(timeout=30)
            return self.send_body(200 if released else 504, json.dumps({"released": released}).encode())
        if path == "/release":
            gate(query.get("gate", [""])[0]).set()
            return self.send_body(200, b"{}")
        if path == "/cut":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"{\"truncated\": \"" + b"x" * 100)
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if path.startswith("/echo"):
            echo = {
                "method": self.command, "target": self.path,
                "headers": [[name, value] for name, value in self.headers.items()],
                "body": base64.b64encode(body).decode(),
            }
            return self.send_body(200, json.dumps(echo).encode())
        if path == "/links":
            links = {
                "count": 2,
                "next": self.base() + "/api/v2/pokemon/?offset=20&limit=20",
                "results": [{"name": "bulbasaur", "url": "https://pokeapi.co/api/v2/pokemon/1/"},
                            {"name": "evil", "url": "https://pokeapi.co.evil.example/x"}],
            }
            return self.send_body(200, json.dumps(links).encode())
        if path == "/volatile":
            return self.send_body(200, b"{\"stable\": true}", headers=[
                ("X-Request-Id", str(time.time_ns())), ("CF-Ray", "%x-AMS" % time.time_ns()),
                ("Age", "12"), ("Server-Timing", "total;dur=%d" % (time.time_ns() % 1000)),
                ("Cache-Control", "public, max-age=86400"), ("ETag", "W/\"stable\"")])
        if path == "/counter":
            REQUEST_COUNTS[path] = REQUEST_COUNTS.get(path, 0) + 1
            time.sleep(0.3)
            return self.send_body(200, json.dumps({"calls": REQUEST_COUNTS[path]}).encode())
        if path == "/compact":
            # Compact JSON whose member order, number spellings and escapes a re-serialisation would change.
            text = b'{"name":"fire","id":10,"weight":1.0,"hundred":1e2,"big":12345678901234567890,"e":"\\u00e9","list":[]}'
            return self.send_body(200, text)
        if path == "/version":
            return self.send_body(200, json.dumps({"version": query.get("v", ["1"])[0]}).encode())
        if path.startswith("/bad-header/"):
            # Header fields pokestub cannot pass on, written raw (send_header would not write these).
            kind = path.rsplit("/", 1)[1]
            head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
            if kind == "many":
                head += b"".join(b"X-Field-%d: %d\r\n" % (i, i) for i in range(10000))
            elif kind == "bare-lf":
                head += b"X-A: one\nX-Injected: two\r\n"
            elif kind == "nul":
                head += b"X-A: one\x00two\r\n"
            elif kind == "bare-cr":
                head += b"X-A: one\rtwo\r\n"
            self.wfile.write(head + b"\r\n{}")
            self.wfile.flush()
            self.close_connection = True
            return
        if path == "/inflating":
            # `mb` mebibytes of zeros, gzip-compressed to a few kilobytes: an answer that inflates on arrival.
            size = int(query.get("mb", ["1"])[0]) << 20
            return self.send_body(200, bytes(size), content_type="application/octet-stream", encoding="gzip")
        if path == "/large.txt":
            return self.send_body(200, ("line\n" * 20000).encode(), content_type="text/plain")
        return self.send_body(404, b"{\"detail\": \"Not found.\"}")

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = handle_any


def main():
    server = Server(("127.0.0.1", 0), Handler)
    if OPTIONS.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*OPTIONS.tls)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever(poll_interval=0.1)


if __name__ == "__main__":
    main()
