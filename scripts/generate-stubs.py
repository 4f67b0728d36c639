#!/usr/bin/env python3
"""Generate the shipped WireMock 2.x stub tree (stubs/) from real PokeAPI data.

Source: the read-only PokeAPI/api-data subset in ../shared/pokeapi (see its
README.md). Output: OUT/mappings/**.json (one WireMock stub mapping per file)
and OUT/__files/** (response bodies), plus OUT/README.md and
OUT/LICENSE-pokeapi-data.txt.

Bodies are served the way pokeapi.co serves them: compact JSON, raw UTF-8,
source key order, no trailing newline, and root-relative links made absolute
with PokeAPI's deploy regex  (")(/(api|schema)/v2)  ->  "https://pokeapi.co/...

List endpoints are paginated exactly like pokeapi.co's deploy function
(PokeAPI/deploy functions_v1/src/index.js): default limit 20, `count` stays
the total, `next`/`previous` use `?offset=..&limit=..` with the `next` limit
clipped to what remains.

The output is deterministic: running the script twice gives byte-identical
files. Python 3.11 standard library only.

Usage: python3 scripts/generate-stubs.py [--source DIR] [--out DIR] [--quiet]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path

NAMESPACE = uuid.UUID("6f1c5e2a-7b1d-4c8e-9a57-9d0f4e3b2a10")
BASE_URL = "https://pokeapi.co"
PAGE_SIZE = 20
CONTENT_TYPE = "application/json; charset=utf-8"
# `du -sb stubs` must stay at or below this.
BUDGET_BYTES = 25_000_000
# The files in the tree must stay at or below this (mappings, bodies, README and licence).
BUDGET_FILES = 2_000
# Apparent size of a directory entry, used to estimate `du -sb` before writing.
DIR_SIZE_ESTIMATE = 4096

# Endpoints shipped by id, by name and as paginated lists.
NAMED_ENDPOINTS = (
    "pokemon",
    "pokemon-species",
    "type",
    "ability",
    "berry",
    "move",
    "generation",
)
# Optional extras, added in this order only while the budget allows.
EVOLUTION_CHAIN = "evolution-chain"
ENCOUNTERS_GROUP = "pokemon/encounters"

# PokeAPI's `ditto transform --base-url` regex (pokeapi_ditto/common.py).
LINK_RE = re.compile(r'(")(/(api|schema)/v2)')
RELATIVE_PREFIXES = ("/api/v2", "/schema/v2")
SLUG_RE = re.compile(r"[a-z0-9-]+")


class GenerationError(Exception):
    pass


@dataclass
class OutFile:
    data: bytes
    group: str  # summary row (endpoint) this file is counted under
    kind: str  # "mapping", "body" or "doc"


class Tree:
    """The whole output, held in memory until it is written."""

    def __init__(self) -> None:
        self.files: dict[str, OutFile] = {}
        self.stub_ids: dict[str, str] = {}

    def add(self, rel: str, data: bytes, group: str, kind: str) -> None:
        if rel in self.files:
            raise GenerationError(f"two outputs want the same file: {rel}")
        self.files[rel] = OutFile(data, group, kind)

    def remove_group(self, group: str) -> None:
        for rel in [r for r, f in self.files.items() if f.group == group]:
            del self.files[rel]

    def estimated_size(self) -> int:
        dirs: set[str] = set()
        for rel in self.files:
            parts = rel.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                dirs.add("/".join(parts[:i]))
        # +1 for the out dir itself.
        return sum(len(f.data) for f in self.files.values()) + (len(dirs) + 1) * DIR_SIZE_ESTIMATE


# --------------------------------------------------------------------------
# JSON helpers


def absolutize_text(text: str) -> str:
    return LINK_RE.sub(r"\1" + BASE_URL + r"\2", text)


def load_source_json(path: Path):
    """Read a source file and make its links absolute the way the deploy does."""
    text = path.read_text(encoding="utf-8")
    return json.loads(absolutize_text(text))


def check_no_relative_links(obj, where: str) -> None:
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, str):
            if o.startswith(RELATIVE_PREFIXES):
                raise GenerationError(f"{where}: relative link left: {o!r}")
        elif isinstance(o, list):
            stack.extend(o)
        elif isinstance(o, dict):
            for k, v in o.items():
                if k.startswith(RELATIVE_PREFIXES):
                    raise GenerationError(f"{where}: relative link left in key: {k!r}")
                stack.append(v)


def body_bytes(obj, where: str) -> bytes:
    data = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    # Verify: parses, round-trips, and has no relative links left.
    parsed = json.loads(data.decode("utf-8"))
    if parsed != obj:
        raise GenerationError(f"{where}: body does not round-trip")
    check_no_relative_links(parsed, where)
    return data


def mapping_bytes(mapping: dict) -> bytes:
    return (json.dumps(mapping, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def stub_id(url: str) -> str:
    return str(uuid.uuid5(NAMESPACE, "GET " + url))


def make_mapping(url: str, request: dict, body_file: str) -> dict:
    return {
        "id": stub_id(url),
        "name": "GET " + url,
        "request": {"method": "GET", **request},
        "response": {
            "status": 200,
            "headers": {"Content-Type": CONTENT_TYPE},
            "bodyFileName": body_file,
        },
    }


def add_mapping(tree: Tree, rel: str, mapping: dict | list[dict], group: str) -> None:
    """One mapping per file, or several in WireMock's {"mappings": [...]} form (the same resource with and
    without its trailing slash, which pokeapi.co both answers)."""
    mappings = mapping if isinstance(mapping, list) else [mapping]
    for item in mappings:
        name = item["name"]
        if item["id"] in tree.stub_ids:
            raise GenerationError(f"duplicate stub {name!r} ({rel} and {tree.stub_ids[item['id']]})")
        tree.stub_ids[item["id"]] = rel
    content = mappings[0] if len(mappings) == 1 else {"mappings": mappings}
    tree.add("mappings/" + rel, mapping_bytes(content), group, "mapping")


def both_forms(url: str, request: dict, body_file: str) -> list[dict]:
    """The mapping for `url` and for the same path without (or with) its trailing slash: pokeapi.co
    answers both forms of a resource path with the same body."""
    twin = url[:-1] if url.endswith("/") else url + "/"
    twin_request = {**request, "urlPath": twin}
    return [make_mapping(url, request, body_file), make_mapping(twin, twin_request, body_file)]


def remove_group(tree: Tree, group: str) -> None:
    tree.remove_group(group)
    tree.stub_ids = {i: r for i, r in tree.stub_ids.items() if "mappings/" + r in tree.files}


# --------------------------------------------------------------------------
# Source access


def resource_ids(source: Path, endpoint: str) -> list[int]:
    d = source / "api" / "v2" / endpoint
    if not d.is_dir():
        raise GenerationError(f"missing source directory {d}")
    ids = sorted(int(p.name) for p in d.iterdir() if p.is_dir() and p.name.isdigit())
    if not ids:
        raise GenerationError(f"no resources in {d}")
    return ids


# --------------------------------------------------------------------------
# Builders


def add_root(tree: Tree, source: Path) -> None:
    url = "/api/v2/"
    obj = load_source_json(source / "api" / "v2" / "index.json")
    tree.add("__files/root.json", body_bytes(obj, "root index"), "root", "body")
    add_mapping(tree, "root.json", both_forms(url, {"urlPath": url}, "root.json"), "root")


def add_resources(tree: Tree, source: Path, endpoint: str, by_name: bool) -> None:
    names: dict[str, int] = {}
    id_files: set[str] = set()
    for rid in resource_ids(source, endpoint):
        where = f"{endpoint}/{rid}"
        obj = load_source_json(source / "api" / "v2" / endpoint / str(rid) / "index.json")
        if not isinstance(obj, dict) or obj.get("id") != rid:
            raise GenerationError(f"{where}: body id is {obj.get('id')!r}, expected {rid}")
        body_file = f"{endpoint}/{rid}.json"
        tree.add("__files/" + body_file, body_bytes(obj, where), endpoint, "body")
        url = f"/api/v2/{endpoint}/{rid}/"
        add_mapping(tree, f"{endpoint}/{rid}.json", both_forms(url, {"urlPath": url}, body_file), endpoint)
        id_files.add(str(rid))
        if by_name:
            name = obj.get("name")
            if not isinstance(name, str) or not SLUG_RE.fullmatch(name):
                raise GenerationError(f"{where}: name {name!r} is not an ASCII slug")
            if name in names:
                raise GenerationError(f"{where}: name {name!r} also used by id {names[name]}")
            names[name] = rid
    for name, rid in sorted(names.items()):
        if name in id_files:
            raise GenerationError(f"{endpoint}: name {name!r} (id {rid}) collides with an id file name")
        url = f"/api/v2/{endpoint}/{name}/"
        add_mapping(
            tree,
            f"{endpoint}/{name}.json",
            both_forms(url, {"urlPath": url}, f"{endpoint}/{rid}.json"),
            endpoint,
        )


# The body of every list stub: a WireMock 2.35 response template (Handlebars) that answers any `offset` and
# `limit` as pokeapi.co's deploy function does (PokeAPI/deploy functions_v1/src/index.js):
#   offset = parseInt(query.offset) || 0, limit = parseInt(query.limit) || 20,
#   next = {offset + limit, min(limit, count - offset - limit)} when count > offset + limit, else null,
#   previous = {max(offset - limit, 0), offset - that} when offset > 0, else null,
#   results = all[offset : offset + limit].
# The list itself is the stub's `transformerParameters`: `count`, `url` (the link every result's id is appended
# to), `ids` and, for lists whose results have names, `names` (parallel to `ids`). Flat arrays weigh a fraction
# of {name, url} objects: with a release build, seven lists as objects, one stub per path form, held 8.8 MiB of
# the daemon's resident memory at start; all 49 as arrays, one stub each, 3.6 MiB. `regexExtract '^[0-9]+'` reads
# the leading digits as parseInt does (empty or not a number: the default); an absent parameter is tested for
# first, since WireMock's regexExtract fails on a missing value. Comparisons go through
# `math` so both sides are numbers, and `lt X 1` stands for `eq X 0` (Handlebars.java's `eq` is Java's
# `equals`, which a BigDecimal and an Integer never are). The lines are joined without white space: the
# answer is compact JSON, as pokeapi.co's.
LIST_TEMPLATE_LINES = (
    "{{#assign 'rawOffset'}}{{#if request.query.offset}}",
    "{{regexExtract request.query.offset.[0] '^[0-9]+' default='0'}}{{else}}0{{/if}}{{/assign}}",
    "{{#assign 'rawLimit'}}{{#if request.query.limit}}",
    "{{regexExtract request.query.limit.[0] '^[0-9]+' default='0'}}{{else}}0{{/if}}{{/assign}}",
    "{{#assign 'pageOffset'}}{{math rawOffset '+' 0}}{{/assign}}",
    "{{#assign 'pageLimit'}}{{#if (lt (math rawLimit '+' 0) 1)}}" + str(PAGE_SIZE) + "{{else}}{{math rawLimit '+' 0}}{{/if}}{{/assign}}",
    "{{#assign 'pageEnd'}}{{math pageOffset '+' pageLimit}}{{/assign}}",
    '{"count":{{parameters.count}},',
    '"next":{{#if (lt (math pageEnd \'+\' 0) parameters.count)}}"' + BASE_URL + '{{request.path}}?offset={{pageEnd}}',
    "&limit={{#if (lt (math pageEnd '+' pageLimit) parameters.count)}}{{pageLimit}}",
    '{{else}}{{math parameters.count \'-\' pageEnd}}{{/if}}"{{else}}null{{/if}},',
    '"previous":{{#if (gt (math pageOffset \'+\' 0) 0)}}"' + BASE_URL + "{{request.path}}?offset=",
    "{{#if (gt (math pageOffset '-' pageLimit) 0)}}{{math pageOffset '-' pageLimit}}&limit={{pageLimit}}",
    '{{else}}0&limit={{pageOffset}}{{/if}}"{{else}}null{{/if}},',
    # The results walk the page's indexes alone (WireMock's `range`, both bounds included), from the offset to
    # the end of the page or of the list: rendering costs the page, not the list. An offset at or past the end
    # gives no results (and `range` is not asked for an empty span, which WireMock 2.35 refuses below -1).
    "\"results\":[{{#if (lt (math pageOffset '+' 0) parameters.count)}}",
    "{{#assign 'lastIndex'}}{{#if (lt (math pageEnd '+' 0) parameters.count)}}{{math pageEnd '-' 1}}",
    "{{else}}{{math parameters.count '-' 1}}{{/if}}{{/assign}}",
    "{{#each (range (math pageOffset '+' 0) (math lastIndex '+' 0))}}{{#if @index}},{{/if}}",
    '{"{{#if ../parameters.names}}name":"{{lookup ../parameters.names this}}","{{/if}}',
    'url":"{{../parameters.url}}{{lookup ../parameters.ids this}}/"}{{/each}}{{/if}}]}',
)
LIST_TEMPLATE_FILE = "list-page.hbs"
# The templated list stubs' priority: below the default (5), so the plain page stubs answer first.
LIST_TEMPLATE_PRIORITY = 10
# What a result's name and link may hold: nothing the template would have to JSON- or HTML-escape.
RESULT_TEXT_RE = re.compile(r"[A-Za-z0-9._~:/?#@!$()*+,;%-]+")


def add_list_template(tree: Tree) -> None:
    text = "".join(LIST_TEMPLATE_LINES)
    tree.add("__files/" + LIST_TEMPLATE_FILE, text.encode("utf-8"), "lists", "body")


def paginate(all_results: list, count: int, endpoint: str, offset: int, limit: int, slash: bool = True) -> dict:
    """pokeapi.co's deploy function for a request path /api/v2/<endpoint>/ (or without the slash: the links
    keep the request path as it was sent), for offset >= 0 and limit >= 1. What the template renders; the
    tests compare the daemon's answers with this."""
    path = f"/api/v2/{endpoint}/" if slash else f"/api/v2/{endpoint}"

    def link(o: int, l: int) -> str:
        return f"{BASE_URL}{path}?offset={o}&limit={l}"

    end = offset + limit
    nxt = link(end, min(limit, count - end)) if count > end else None
    prev = link(max(offset - limit, 0), offset - max(offset - limit, 0)) if offset > 0 else None
    return {"count": count, "next": nxt, "previous": prev, "results": all_results[offset:end]}


def add_lists(tree: Tree, source: Path, endpoint: str, pages: bool) -> None:
    """One templated stub answering every `offset` and `limit` of the list at both path forms (a
    `urlPathPattern` with the trailing slash optional, so the list is held once), from the whole list in its
    `transformerParameters`; with `pages`, the walk's pages as plain stubs beside it (add_list_pages)."""
    where = f"{endpoint} list"
    src = load_source_json(source / "api" / "v2" / endpoint / "index.json")
    if list(src.keys()) != ["count", "next", "previous", "results"]:
        raise GenerationError(f"{where}: unexpected keys {list(src.keys())}")
    count, results = src["count"], src["results"]
    if count != len(results) or src["next"] is not None or src["previous"] is not None:
        raise GenerationError(f"{where}: source list is not the complete list")
    url_base = f"{BASE_URL}/api/v2/{endpoint}/"
    named = bool(results) and "name" in results[0]
    names: list[str] = []
    ids: list[int] = []
    for item in results:
        if list(item.keys()) != (["name", "url"] if named else ["url"]) or not all(
                isinstance(v, str) and RESULT_TEXT_RE.fullmatch(v) for v in item.values()):
            raise GenerationError(f"{where}: result {item!r} is not a plain name and url")
        # The template writes each url back as url_base + id + "/": only a list whose every url has that shape
        # can be held as ids.
        m = re.fullmatch(re.escape(url_base) + r"(-?[0-9]+)/", item["url"])
        if not m:
            raise GenerationError(f"{where}: result url {item['url']!r} is not {url_base}<id>/")
        ids.append(int(m.group(1)))
        if named:
            names.append(item["name"])
    path = f"/api/v2/{endpoint}/"
    # Named and identified by `?offset=&limit=`: the bare path belongs to the plain first page without a query.
    mapping = make_mapping(f"{path}?offset=&limit=", {"urlPathPattern": f"/api/v2/{endpoint}/?"}, LIST_TEMPLATE_FILE)
    mapping["name"] += " (any page)"
    mapping["response"]["transformers"] = ["response-template"]
    parameters: dict = {"count": count, "url": url_base}
    if named:
        parameters["names"] = names
    parameters["ids"] = ids
    mapping["response"]["transformerParameters"] = parameters
    # A fallback: the pages a client reaches by following `next` from the first page are stubs of their own
    # (below), served without rendering; the template answers every other offset and limit.
    mapping["priority"] = LIST_TEMPLATE_PRIORITY
    add_mapping(tree, f"{endpoint}/list.json", mapping, "lists")
    if pages:
        add_list_pages(tree, endpoint, count, results)


def add_list_pages(tree: Tree, endpoint: str, count: int, results: list) -> None:
    """The pages a client walks by `next` from the first page (offsets 0, 20, 40, ... with limit 20, the last
    page with its clipped limit) and the whole list (what pokebase asks for), as plain stubs at the default
    priority: byte for byte what the list's template renders for them (ShippedStubsTests checks it), served
    without rendering."""
    group = endpoint + " (lists)"

    def add_page(rel: str, offset: int, limit: int) -> None:
        mappings = []
        for slash in (True, False):
            path = f"/api/v2/{endpoint}/" if slash else f"/api/v2/{endpoint}"
            folder = "list" if slash else "list-noslash"
            body_file = f"{endpoint}/{folder}/offset-{offset}-limit-{limit}.json"
            body = paginate(results, count, endpoint, offset, limit, slash)
            tree.add("__files/" + body_file, body_bytes(body, body_file), group, "body")
            for query_text, query in page_queries(offset, limit):
                url = f"{path}?{query_text}" if query_text else path
                mappings.append(make_mapping(url, {"urlPath": path, "queryParameters": query}, body_file))
        add_mapping(tree, rel, mappings, group)

    for offset in range(0, max(count, 1), PAGE_SIZE):
        add_page(f"{endpoint}/list/offset-{offset}.json", offset, PAGE_SIZE)
    last = ((count - 1) // PAGE_SIZE) * PAGE_SIZE if count > 0 else 0
    tail = count - last
    if last > 0 and tail != PAGE_SIZE:
        add_page(f"{endpoint}/list/offset-{last}-limit-{tail}.json", last, tail)
    if count != PAGE_SIZE:
        add_page(f"{endpoint}/list/all.json", 0, count)


def page_queries(offset: int, limit: int) -> list[tuple[str, dict]]:
    """The queries a plain page answers, each as (query string, `queryParameters`): `offset` given, or absent
    when it is 0, and `limit` given, or absent when it is the page size (the defaults pokeapi.co reads). One
    mapping per combination rather than `{"or": [{"absent": true}, {"equalTo": "0"}]}`: WireMock 2.35.1's file
    loader drops `absent` from a logical `or` and then refuses to start ("Logical OR must be constructed with
    at least two matchers"). The full query comes first."""
    offsets = [(f"offset={offset}", {"equalTo": str(offset)})]
    if offset == 0:
        offsets.append(("", {"absent": True}))
    limits = [(f"limit={limit}", {"equalTo": str(limit)})]
    if limit == PAGE_SIZE:
        limits.append(("", {"absent": True}))
    queries = []
    for offset_text, offset_pattern in offsets:
        for limit_text, limit_pattern in limits:
            text = "&".join(t for t in (offset_text, limit_text) if t)
            queries.append((text, {"offset": offset_pattern, "limit": limit_pattern}))
    return queries


def add_encounters(tree: Tree, source: Path) -> None:
    group = ENCOUNTERS_GROUP
    for rid in resource_ids(source, "pokemon"):
        src = source / "api" / "v2" / "pokemon" / str(rid) / "encounters" / "index.json"
        if not src.is_file():
            raise GenerationError(f"missing {src}")
        where = f"pokemon/{rid}/encounters"
        obj = load_source_json(src)
        if not isinstance(obj, list):
            raise GenerationError(f"{where}: expected a JSON array")
        body_file = f"pokemon/encounters/{rid}.json"
        tree.add("__files/" + body_file, body_bytes(obj, where), group, "body")
        # By id and by the pokemon's name (pokeapi.co answers both), in one file: the by-name mappings share
        # the by-id body file.
        name = load_source_json(source / "api" / "v2" / "pokemon" / str(rid) / "index.json")["name"]
        if not isinstance(name, str) or not SLUG_RE.fullmatch(name) or name.isdigit():
            raise GenerationError(f"pokemon/{rid}: name {name!r} is not an ASCII slug")
        mappings = []
        for key in (str(rid), name):
            url = f"/api/v2/pokemon/{key}/encounters"  # no trailing slash, as linked
            mappings += both_forms(url, {"urlPath": url}, body_file)
        add_mapping(tree, f"pokemon/encounters/{rid}.json", mappings, group)


def add_meta(tree: Tree, source: Path) -> None:
    """`GET /api/v2/meta/`: the data version, a single object (no id, no list)."""
    url = "/api/v2/meta/"
    obj = load_source_json(source / "api" / "v2" / "meta" / "index.json")
    if not isinstance(obj, dict) or "hash" not in obj:
        raise GenerationError(f"meta: unexpected body {obj!r}")
    tree.add("__files/meta.json", body_bytes(obj, "meta"), "root", "body")
    add_mapping(tree, "meta.json", both_forms(url, {"urlPath": url}, "meta.json"), "root")


def list_endpoints(source: Path) -> list[str]:
    """Every list the root index names, in its order (`meta`, which it names too, is a single object)."""
    root = json.loads((source / "api" / "v2" / "index.json").read_text(encoding="utf-8"))
    endpoints = []
    for name, url in root.items():
        if url != f"/api/v2/{name}/" or not SLUG_RE.fullmatch(name):
            raise GenerationError(f"root index: {name!r} -> {url!r} is not /api/v2/<name>/")
        if name != "meta":
            endpoints.append(name)
    return endpoints


# --------------------------------------------------------------------------
# Docs


def source_provenance(source: Path) -> tuple[str, str]:
    readme = (source / "README.md").read_text(encoding="utf-8")
    m = re.search(r"\|\s*Commit\s*\|\s*`([0-9a-f]{40})`([^|\n]*)\|", readme)
    if not m:
        raise GenerationError("could not find the api-data commit in the source README.md")
    return m.group(1), m.group(2).strip().strip(",").strip()


def id_ranges(ids: list[int]) -> str:
    parts: list[str] = []
    start = prev = ids[0]
    for i in ids[1:] + [None]:
        if i is not None and i == prev + 1:
            prev = i
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if i is not None:
            start = prev = i
    return ", ".join(parts)


def readme_text(tree: Tree, source: Path, included: list[str], left_out: list[str]) -> str:
    commit, commit_info = source_provenance(source)
    meta_hash = ""
    meta = source / "api" / "v2" / "meta" / "index.json"
    if meta.is_file():
        m = json.loads(meta.read_text(encoding="utf-8"))
        if isinstance(m, dict) and "hash" in m:
            meta_hash = f" Data version (`/api/v2/meta/` hash): `{m['hash']}`."

    def n(group: str, kind: str) -> int:
        return sum(1 for f in tree.files.values() if f.group == group and f.kind == kind)

    rows = []
    for ep in NAMED_ENDPOINTS:
        bodies = n(ep, "body")
        pages = n(ep + " (lists)", "mapping")
        rows.append(f"| `{ep}` | {bodies} | {n(ep, 'mapping')} (by id and by name) | 1 + {pages} pages |")
    if EVOLUTION_CHAIN in included:
        rows.append(f"| `{EVOLUTION_CHAIN}` | {n(EVOLUTION_CHAIN, 'body')} | {n(EVOLUTION_CHAIN, 'mapping')} (by id) | 1 |")
    if ENCOUNTERS_GROUP in included:
        rows.append(
            f"| `pokemon/<id or name>/encounters` | {n(ENCOUNTERS_GROUP, 'body')} | {n(ENCOUNTERS_GROUP, 'mapping')} "
            "(by id and by name, one file each) | - |"
        )
    id_lines = []
    for ep in NAMED_ENDPOINTS + ((EVOLUTION_CHAIN,) if EVOLUTION_CHAIN in included else ()):
        id_lines.append(f"- `{ep}`: {id_ranges(resource_ids(source, ep))}")
    other_lists = [ep for ep in list_endpoints(source) if ep not in NAMED_ENDPOINTS and ep != EVOLUTION_CHAIN]
    list_names = ", ".join(f"`{ep}`" for ep in other_lists)
    files = len(tree.files) + 1  # and this README
    mapping_files = sum(1 for f in tree.files.values() if f.kind == "mapping")
    left = ""
    if left_out:
        left = "\nLeft out to stay within the size budget: " + ", ".join(f"`{g}`" for g in left_out) + ".\n"

    return f"""# PokeAPI stubs (WireMock 2.x format)

Generated by `scripts/generate-stubs.py`. Do not edit by hand; regenerate with

```sh
python3 scripts/generate-stubs.py    # rewrites stubs/mappings and stubs/__files
python3 scripts/check-stubs.py       # CI: fails if stubs/ differs from a fresh run
```

## Source and licence

Real PokeAPI v2 responses from [PokeAPI/api-data](https://github.com/PokeAPI/api-data)
at commit `{commit}` ({commit_info}).{meta_hash}
The data is under the BSD 3-Clause licence, "Copyright 2018-2019 PokéAPI
contributors"; see [`LICENSE-pokeapi-data.txt`](LICENSE-pokeapi-data.txt),
which must stay next to the data. Pokémon names and game text are trademarks
or copyrights of their owners.

## Contents

`mappings/` holds one file per resource or page, `__files/` the response
bodies (referenced by `bodyFileName`). pokeapi.co answers every path with and
without its trailing slash, so each file holds (at least) two mappings in WireMock's
`{{"mappings": [...]}}` form: `/api/v2/pokemon/1/` and `/api/v2/pokemon/1`.
A list is one templated mapping for both path forms, whose response template (`__files/list-page.hbs`)
writes `next`/`previous` with the request path as it was sent, as pokeapi.co does. Every mapping has a stable `id`:
`uuid5(6f1c5e2a-7b1d-4c8e-9a57-9d0f4e3b2a10, "GET " + path-and-query)`, the request its `name` shows (a templated
list stub's is `/api/v2/<endpoint>/?offset=&limit=`).

- `GET /api/v2/` (root index): `mappings/root.json`; `GET /api/v2/meta/` (the data version):
  `mappings/meta.json`.
- Every list the root index names ({len(list_endpoints(source))}): `mappings/<endpoint>/list.json`, one
  templated stub each (see Pagination).
- Single resources (counts are files; each holds the mappings for both path forms):

| endpoint | bodies | resource mapping files | list mapping files |
| --- | ---: | ---: | ---: |
{chr(10).join(rows)}

The other lists, with no resources in the source subset, are the templated stub alone: {list_names}.

By-name mappings (`/api/v2/pokemon/bulbasaur/`, `/api/v2/pokemon/bulbasaur/encounters`) reuse the by-id
body file. `pokemon/<id>/encounters` is linked without a trailing slash by the
`location_area_encounters` field; pokebase asks for it with one; both match. Only the ids present in the source
subset are stubbed:

{chr(10).join(id_lines)}

List `results` name every resource, including ones without a stub.
{left}
## Transformation

Bodies are what pokeapi.co sends: compact JSON, raw UTF-8, key order of the
source, no trailing newline. Root-relative links were made absolute with
PokeAPI's deploy regex `(")(/(api|schema)/v2)` -> `"https://pokeapi.co/...`,
so `/api/v2/pokemon/1/` became `https://pokeapi.co/api/v2/pokemon/1/`.
Content-Type is `application/json; charset=utf-8`.

## Pagination

`mappings/<endpoint>/list.json` answers `GET /api/v2/<endpoint>/` and
`GET /api/v2/<endpoint>` (a `urlPathPattern`, `/api/v2/<endpoint>/?`, so
the list is held once) for every `offset` and `limit`, as pokeapi.co's deploy
function (PokeAPI/deploy `functions_v1/src/index.js`) does: `offset` and
`limit` are read as JavaScript's `parseInt` reads them (leading digits;
absent, empty or not a number: `offset` 0, `limit` 20; `limit=0` is 20),
`count` is the total, `results` is the slice `[offset, offset + limit)`,
`next`/`previous` are absolute
`https://pokeapi.co/api/v2/<endpoint>/?offset=O&limit=L` links (offset
first, with the request path as it was sent), the `next` limit is clipped to
what remains, `next` is null on the last page and `previous` null at offset
0. So `/api/v2/pokemon/`, `?offset=10&limit=50`, `?limit=1351` (what
pokebase asks for) and `?offset=1340&limit=11` all answer as pokeapi.co does.

The mapping holds the whole list in `transformerParameters`: `count`, `url`
(`https://pokeapi.co/api/v2/<endpoint>/`), `ids` and, where results have
names, `names` (the same order as `ids`); each result is written back as
`{{"name": names[i], "url": url + ids[i] + "/"}}` (or `{{"url": ...}}` alone,
as `machine` and `evolution-chain` have it). It has
`"transformers": ["response-template"]`; the template
`__files/list-page.hbs` is WireMock 2.35's Handlebars dialect: WireMock
2.35.1 (`--local-response-templating`) serves the same bytes. A negative number (`offset=-5`, which pokeapi.co
passes to JavaScript's `slice` as it is) reads as its default.

For the lists of the seven endpoints with resources by name, the pages a
client reaches by following `next` from the first page (offsets 0, 20, 40,
... with limit 20, then the last page with its clipped limit) and the whole
list (`?limit=<count>`) are plain stubs as well,
`mappings/<endpoint>/list/*.json`, with bodies under
`__files/<endpoint>/list/` and `list-noslash/`: the bytes the template renders
for them (the tests compare every kind), served without rendering. The
templated stubs have priority 10, below the default 5, so these answer first.
A page also answers with `offset` left out when it is 0 and `limit` left out
when it is 20, one mapping per combination and path form sharing the body
file (up to eight in a file): WireMock 2.35.1 refuses to load a file whose
`or` holds `absent`.

## Size budget

The tree must stay within {BUDGET_FILES:,} files and {BUDGET_BYTES:,} bytes
(`du -sb`); the generator fails past either. This one: {files:,} files
({mapping_files:,} mapping files). What a daemon on it costs is measured, not
checked here: see `Benchmarks/README.md` (start to first answer and RSS with
the shipped stubs).
"""


# --------------------------------------------------------------------------
# Output


def write_tree(tree: Tree, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for sub in ("mappings", "__files"):
        target = out / sub
        if target.is_symlink() or target.is_file():
            target.unlink()
        elif target.exists():
            shutil.rmtree(target)
    for rel in sorted(tree.files):
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(tree.files[rel].data)


def du_apparent(path: Path) -> int:
    """Like `du -sb`: apparent sizes of all files and directories."""
    total = path.lstat().st_size
    seen: set[tuple[int, int]] = set()
    for root, dirs, files in os.walk(path):
        for name in dirs + files:
            st = os.lstat(os.path.join(root, name))
            key = (st.st_dev, st.st_ino)
            if key in seen:
                continue
            seen.add(key)
            total += st.st_size
    return total


def print_summary(tree: Tree, out: Path, left_out: list[str]) -> int:
    # per group: mapping files, mapping bytes, body files, body bytes, all files, all bytes
    groups: dict[str, list[int]] = {}
    for f in tree.files.values():
        g = groups.setdefault(f.group, [0] * 6)
        if f.kind == "mapping":
            g[0] += 1
            g[1] += len(f.data)
        elif f.kind == "body":
            g[2] += 1
            g[3] += len(f.data)
        g[4] += 1
        g[5] += len(f.data)
    header = (f"{'group':<26}{'mappings':>9}{'mapping B':>12}{'bodies':>8}{'body B':>13}"
              f"{'files':>7}{'total B':>13}")
    print(header)
    print("-" * len(header))
    tot = [0] * 6
    for name in sorted(groups):
        g = groups[name]
        tot = [a + b for a, b in zip(tot, g)]
        print(f"{name:<26}{g[0]:>9}{g[1]:>12,}{g[2]:>8}{g[3]:>13,}{g[4]:>7}{g[5]:>13,}")
    print("-" * len(header))
    print(f"{'total':<26}{tot[0]:>9}{tot[1]:>12,}{tot[2]:>8}{tot[3]:>13,}{tot[4]:>7}{tot[5]:>13,}")
    du = du_apparent(out)
    print(f"du -sb {out}: {du:,} bytes (files + directories; budget {BUDGET_BYTES:,})")
    if left_out:
        print("left out to stay within budget: " + ", ".join(left_out))
    else:
        print("evolution-chain and pokemon encounters included (within budget)")
    return du


def build(source: Path) -> tuple[Tree, list[str], list[str]]:
    tree = Tree()
    add_root(tree, source)
    add_list_template(tree)
    add_meta(tree, source)
    for ep in NAMED_ENDPOINTS:
        add_resources(tree, source, ep, by_name=True)
    for ep in list_endpoints(source):
        add_lists(tree, source, ep, pages=ep in NAMED_ENDPOINTS)

    included: list[str] = []
    left_out: list[str] = []
    # Reserve room for README.md and LICENSE (small) when checking the budget.
    docs_reserve = 16_384
    for group, adder in (
        (EVOLUTION_CHAIN, lambda: add_resources(tree, source, EVOLUTION_CHAIN, by_name=False)),
        (ENCOUNTERS_GROUP, lambda: add_encounters(tree, source)),
    ):
        adder()
        if tree.estimated_size() + docs_reserve > BUDGET_BYTES:
            remove_group(tree, group)
            left_out.append(group)
        else:
            included.append(group)

    lic = (source / "LICENSE.txt").read_bytes()
    tree.add("LICENSE-pokeapi-data.txt", lic, "docs", "doc")
    tree.add("README.md", readme_text(tree, source, included, left_out).encode("utf-8"), "docs", "doc")
    return tree, included, left_out


def main(argv: list[str] | None = None) -> int:
    repo_root = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, default=repo_root.parent / "shared" / "pokeapi",
                    help="PokeAPI data directory (default: ../shared/pokeapi next to the repo)")
    ap.add_argument("--out", type=Path, default=repo_root / "stubs",
                    help="output directory (default: stubs/ in the repo)")
    ap.add_argument("--quiet", action="store_true", help="do not print the summary")
    args = ap.parse_args(argv)

    try:
        tree, _included, left_out = build(args.source)
        write_tree(tree, args.out)
    except (GenerationError, OSError, ValueError, KeyError) as e:
        print(f"generate-stubs: error: {e}", file=sys.stderr)
        return 1

    if args.quiet:
        du = du_apparent(args.out)
    else:
        du = print_summary(tree, args.out, left_out)
    if du > BUDGET_BYTES:
        print(f"generate-stubs: error: {args.out} is {du:,} bytes, over the {BUDGET_BYTES:,} budget",
              file=sys.stderr)
        return 1
    if len(tree.files) > BUDGET_FILES:
        print(f"generate-stubs: error: {len(tree.files):,} files, over the {BUDGET_FILES:,} budget", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
