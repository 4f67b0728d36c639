#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (Fuzz/corpus/<target>/) from the shipped stubs and the seed lists.

Sources: stubs/mappings (real PokeAPI stubs), Fuzz/seeds/patterns.jsonl (one request pattern per line, covering
every matcher), Fuzz/seeds/requests.txt (one request per line); the wire seeds (raw HTTP/1.1, the hostile
framings of issue 18 included), the odd recording names, the templates (one per helper, the shipped list
page, the template attacks of issue 27) and the XML and JSON bodies (the matching attacks of issue 27, in
small sizes) are written out below. The output is deterministic, so running this
again only changes the corpus when its sources change. libFuzzer adds what it finds to a separate working
folder (see run.sh), never to these seeds.
"""
import json
import pathlib
import shutil

FUZZ = pathlib.Path(__file__).resolve().parent
ROOT = FUZZ.parent
CORPUS = FUZZ / "corpus"


def read_patterns():
    lines = (FUZZ / "seeds" / "patterns.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def read_requests():
    requests = []
    for line in (FUZZ / "seeds" / "requests.txt").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split(" || ")
        headers, body = [], ""
        for field in fields[1:]:
            if field.startswith("body="):
                body = field[len("body="):].replace("\\n", "\n").replace("\\t", "\t")
            else:
                headers.append(field)
        requests.append((fields[0], headers, body))
    return requests


def request_text(request_line, headers, body):
    return "\n".join([request_line] + headers) + "\n\n" + body


def shipped_mapping_files():
    """A spread of the shipped files: the first two of each folder, list pages included."""
    chosen = []
    for folder in sorted(p for p in (ROOT / "stubs" / "mappings").rglob("*") if p.is_dir()):
        chosen += sorted(folder.glob("*.json"))[:2]
    chosen += sorted((ROOT / "stubs" / "mappings").glob("*.json"))
    return chosen[:24]


RESPONSES = [
    {"status": 200, "jsonBody": {"name": "pikachu", "id": 25, "types": ["electric"], "weight": 6.0}},
    {"status": 201, "body": "created\n", "headers": {"Set-Cookie": ["a=1", "b=2"], "X-Count": 3}},
    {"status": 200, "base64Body": "eyJpZCI6MjV9\n", "headers": {"Content-Type": "application/json"}},
    {"status": 200, "bodyFileName": "pokemon/1.json", "fixedDelayMilliseconds": 10},
    {"fault": "CONNECTION_RESET_BY_PEER"},
    {"status": 404},
]


def write(target, name, data):
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))


def stub_loader(patterns):
    for number, path in enumerate(shipped_mapping_files()):
        write("stub-loader", f"shipped-{number:02}-{path.stem}.json", path.read_bytes())
    for number, pattern in enumerate(patterns):
        mapping = {"request": pattern, "response": RESPONSES[number % len(RESPONSES)]}
        if number % 3 == 0:
            mapping.update({"id": f"00000000-0000-4000-8000-{number:012}", "name": f"seed {number}"})
        if number % 4 == 1:
            mapping.update({"priority": 1 + number % 7, "metadata": {"team": "fuzz", "n": number}, "persistent": True})
        write("stub-loader", f"pattern-{number:02}.json", json.dumps(mapping, indent=2, ensure_ascii=False))
    listed = {"mappings": [{"request": p, "response": RESPONSES[0]} for p in patterns[:4]]}
    write("stub-loader", "list.json", json.dumps(listed, indent=2))


def matcher(patterns, requests):
    for number, (line, headers, body) in enumerate(requests):
        if number % 4 == 0:
            headers = headers + ["X-Fuzz-JsonPath: $..name", "X-Fuzz-JsonPath: $.results[?(@.name != 'x')].url"]
        sections = [request_text(line, headers, body)]
        sections += [json.dumps(patterns[(number + k) % len(patterns)], ensure_ascii=False) for k in (0, 7)]
        write("matcher", f"request-{number:02}.txt", "\n@@pattern@@\n".join(sections))


def admin(patterns, requests):
    shipped = json.loads(shipped_mapping_files()[0].read_text())
    first = shipped["mappings"][0] if "mappings" in shipped else shipped
    first = dict(first, response={"status": 200, "jsonBody": {"name": "bulbasaur"}})
    stub_id = "00000000-0000-4000-8000-000000000001"
    sequences = [
        [("POST /__admin/mappings", json.dumps(first)), ("GET " + first["request"]["urlPath"], ""),
         ("GET /__admin/mappings?offset=0&limit=5", ""), ("GET /__admin/requests?limit=1&unmatched=false", "")],
        [("POST /__admin/mappings", json.dumps({"id": stub_id, "request": patterns[7], "response": RESPONSES[1]})),
         ("GET /__admin/mappings/" + stub_id, ""),
         ("PUT /__admin/mappings/" + stub_id, json.dumps({"request": {"urlPath": "/x"}, "response": {"status": 204}})),
         ("DELETE /__admin/mappings/" + stub_id, ""), ("GET /__admin/mappings/" + stub_id, "")],
        [("GET /nothing/here", ""), ("GET /__admin/requests/unmatched", ""),
         ("GET /__admin/requests/unmatched/near-misses", ""), ("DELETE /__admin/requests", "")],
        [("GET /api/v2/pokemon/?limit=20", ""), ("POST /__admin/requests/count", json.dumps(patterns[7])),
         ("POST /__admin/requests/find", json.dumps({"method": "GET"})),
         ("POST /__admin/requests/remove", json.dumps({"urlPathPattern": "/api/.*"}))],
        [("GET /__admin/health", ""), ("GET /__admin/version", ""), ("POST /__admin/mappings/reset", ""),
         ("POST /__admin/reset", ""), ("DELETE /__admin/mappings", "")],
        [("GET /__admin/requests?since=2024-01-01T00:00:00Z&matchingStub=" + stub_id, ""),
         ("GET /__admin/requests/" + stub_id, ""), ("DELETE /__admin/requests/" + stub_id, ""),
         ("GET /__admin/requests?since=yesterday&limit=-1", "")],
        [("POST /__admin/mappings", '{"request": {"urlPath": "/x"}, "response": {"status": 200},}'),
         ("POST /__admin/mappings", "[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]"),
         ("POST /__admin/mappings", '{"request": {"urlPattern": "(a+)+$"}}'), ("GET aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", ""),
         ("PATCH /__admin/mappings", "{}"), ("GET /__admin/nope", "")],
    ]
    for number, pattern in enumerate(patterns):
        line, headers, body = requests[number % len(requests)]
        sequences.append([
            ("POST /__admin/mappings", json.dumps({"request": pattern, "response": RESPONSES[number % len(RESPONSES)]})),
            (line, body),
            ("POST /__admin/requests/count", json.dumps(pattern)),
        ])
    for number, sequence in enumerate(sequences):
        text = "\n@@next@@\n".join(request_text(line, [], body) for line, body in sequence)
        write("admin", f"sequence-{number:02}.txt", text)


def shipped_paths():
    """The urlPath (or url) of a spread of shipped stubs, for requests that match one."""
    paths = []
    for path in shipped_mapping_files():
        data = json.loads(path.read_text())
        for mapping in data.get("mappings", [data]):
            request = mapping.get("request", {})
            target = request.get("urlPath") or request.get("url")
            if target and target not in paths:
                paths.append(target)
    return paths[:12]


def crlf(*lines, body=b""):
    """A raw request: the lines joined with CRLF, an empty line, then the body."""
    head = "".join(line + "\r\n" for line in lines) + "\r\n"
    return head.encode("utf-8") + (body if isinstance(body, bytes) else body.encode("utf-8"))


def wire():
    host = "Host: 127.0.0.1"
    seeds = {}
    for number, path in enumerate(shipped_paths()):
        seeds[f"get-{number:02}"] = crlf(f"GET {path} HTTP/1.1", host, "Accept: application/json")
    json_body = '{"id": 25, "name": "pikachu"}'
    stub = '{"request": {"urlPath": "/x"}, "response": {"status": 201}}'
    seeds.update({
        "http10": crlf("GET /api/v2/pokemon/1/ HTTP/1.0"),
        "head": crlf("HEAD /api/v2/pokemon/1/ HTTP/1.1", host),
        "miss-404": crlf("GET /api/v2/pokemon/9999/ HTTP/1.1", host, "Accept: */*"),
        "post-json": crlf("POST /favorites HTTP/1.1", host, "Content-Type: application/json",
                          f"Content-Length: {len(json_body)}", body=json_body),
        "put-text": crlf("PUT /api/v2/pokemon/25/ HTTP/1.1", host, "Content-Type: text/plain", "Content-Length: 5",
                         body="hello"),
        "chunked": crlf("POST /favorites HTTP/1.1", host, "Transfer-Encoding: chunked",
                        body="7\r\n{\"id\": \r\n3\r\n25}\r\n0\r\n\r\n"),
        "chunked-trailer": crlf("POST /x HTTP/1.1", host, "Transfer-Encoding: chunked", "Trailer: X-T",
                                body="5;ext=1\r\nhello\r\n0\r\nX-T: 1\r\n\r\n"),
        "pipelined": crlf("GET /api/v2/pokemon/1/ HTTP/1.1", host) + crlf("HEAD /api/v2/type/1/ HTTP/1.1", host)
        + crlf("POST /favorites HTTP/1.1", host, "Content-Length: 2", body="{}")
        + crlf("GET /__admin/health HTTP/1.1", host, "Connection: close"),
        "expect-continue": crlf("POST /favorites HTTP/1.1", host, "Expect: 100-continue", "Content-Length: 2",
                                body="{}"),
        "absolute-form": crlf("GET http://127.0.0.1/api/v2/pokemon/1/?x=1 HTTP/1.1", host),
        "asterisk": crlf("OPTIONS * HTTP/1.1", host),
        "percent": crlf("GET /api/v2/pokemon-species/flab%C3%A9b%C3%A9/?q=%2F%00%ZZ&a+b=%20 HTTP/1.1", host),
        "admin-mappings": crlf("GET /__admin/mappings?limit=2 HTTP/1.1", host),
        "admin-post": crlf("POST /__admin/mappings HTTP/1.1", host, "Content-Type: application/json",
                           f"Content-Length: {len(stub)}", body=stub),
        "admin-requests": crlf("GET /__admin/requests?limit=5 HTTP/1.1", host),
        # The hostile cases of issue 18.
        "smuggle-cl-te": crlf("POST /favorites HTTP/1.1", host, "Content-Length: 4", "Transfer-Encoding: chunked",
                              body="0\r\n\r\nGET /__admin/mappings HTTP/1.1\r\n\r\n"),
        "smuggle-two-cl": crlf("POST /favorites HTTP/1.1", host, "Content-Length: 2", "Content-Length: 40",
                               body="{}GET /api/v2/pokemon/1/ HTTP/1.1\r\n\r\n"),
        "smuggle-te-space": crlf("POST /favorites HTTP/1.1", host, "Transfer-Encoding : chunked",
                                 "Content-Length: 3", body="0\r\n\r\n"),
        "host-space": crlf("GET /__admin/mappings HTTP/1.1", "Host : evil.example"),
        "space-in-path": crlf("GET /sp ace HTTP/1.1", host),
        "many-query": crlf("GET /hello?" + "&".join(["a"] * 500) + " HTTP/1.1", host),
        "huge-header": crlf("GET /api/v2/pokemon/1/ HTTP/1.1", host, "X-Big: " + "x" * 33000),
        "control-header": crlf("GET /api/v2/pokemon/1/ HTTP/1.1", host, "X-A: a\rb", "X-B: a\x00b", "X-C: a\nb"),
        "method-traversal": crlf("GET/../../x /api/v2/pokemon/1/ HTTP/1.1", host),
        "huge-expect": crlf("POST /favorites HTTP/1.1", host, "Expect: 100-continue", "Content-Length: 10000000000"),
        "version-2": crlf("GET / HTTP/2.0", host),
        "bare-lf": b"GET /api/v2/pokemon/1/ HTTP/1.1\nHost: 127.0.0.1\n\n",
        "partial": b"GET /api/v2/pokemon/1/ HTTP/1.1\r\nHost: 127.0",
        "obs-fold": crlf("GET /api/v2/pokemon/1/ HTTP/1.1", host, "X-Fold: a", " b"),
        "te-unknown": crlf("POST /favorites HTTP/1.1", host, "Transfer-Encoding: gzip, chunked", body="0\r\n\r\n"),
    })
    for name, data in seeds.items():
        write("wire", f"{name}.http", data)


ODD_NAMES = [
    "GET /" + "/".join(f"segment-{n}" for n in range(20)),
    "GET /" + "a" * 300 + "/" + "%C3%A9" * 80,
    "GET /api/v2/pokemon-species/flabébé/",
    "GET /api/v2/%F0%9F%98%80/🙂/",
    "GET /a%2Fb/..%2F..%2Fetc%2Fpasswd",
    "GET /../../etc/passwd",
    "GET /./x/./.hidden/..",
    "GET //a///b//",
    "GET /con/nul.txt/COM1/Aux",
    "GET /a\\b\\..\\c",
    "GET /x?token=secret&api_key=k&password=p&page=2",
    "GET /x?access_token=abc#frag",
    "GET /trailing./.leading/..dots..",
    "GET /%00/%0A/%7F/%FF",
    "GET/../../x /api/v2/pokemon/1/",
    "DELETE /api/v2/items/?ids=1,2,3",
    "get /lower/method",
    "M\u00e9THOD /unicode/method",
    "GET *",
    "GET http://pokeapi.co:443/api/v2/pokemon/1/?b=2&a=1",
]

UPSTREAM_RESPONSES = [
    "200\nContent-Type: application/json\n\n" + json.dumps({"id": 1, "name": "bulbasaur"}),
    "404\nContent-Type: text/plain\nX-Request-Id: 1\n\nnot found",
    "200\nContent-Type: image/png\n\n\u0089PNG\r\n\u001a\n",
    "301\nLocation: /elsewhere\nSet-Cookie: a=1\n\n",
    "200\nContent-Type: application/json\n\n" + json.dumps({"results": ["x" * 100] * 700}),
]


def recording_names(requests):
    entries = [request_text(line, headers, body) for line, headers, body in requests]
    entries += [name + "\n\n" for name in ODD_NAMES]
    for number, text in enumerate(entries):
        if number % 2 == 1:
            text += "\n@@response@@\n" + UPSTREAM_RESPONSES[number // 2 % len(UPSTREAM_RESPONSES)]
        write("recording-names", f"request-{number:02}.txt", text)


def templated_list_stubs():
    """The shipped stubs whose response is a template: (mapping, its list page request path)."""
    found = []
    for path in sorted((ROOT / "stubs" / "mappings").rglob("*.json")):
        data = json.loads(path.read_text())
        for mapping in data.get("mappings", [data]):
            response = mapping.get("response", {})
            if "response-template" in response.get("transformers", []):
                found.append(mapping)
    return found


# One template per helper and block form, in WireMock 2.35's syntax.
HELPER_TEMPLATES = [
    '{"id": "{{request.id}}", "path": "{{request.path}}", "url": "{{{request.url}}}", "method": "{{request.method}}"}',
    "{{request.pathSegments.[3]}} {{request.query.limit}} {{request.query.ids.[1]}} {{request.headers.Accept}}",
    "{{request.cookies.session}} {{request.baseUrl}} {{request.host}}:{{request.port}} {{request.scheme}}",
    "{{request.requestLine.path}} {{request.requestLine.query}} {{request.clientIp}} {{request.bodyAsBase64}}",
    "{{jsonPath request.body '$.name'}} {{jsonPath request.body '$.results[*].name'}} {{jsonPath request.body '$..id' default='none'}}",
    "{{#each (jsonPath request.body '$.results') as |item|}}{{@index}}={{item.name}}{{#unless @last}},{{/unless}}{{/each}}",
    "{{now}} {{now format='yyyy-MM-dd'}} {{now offset='3 days' format='epoch'}} {{now timezone='Europe/Paris' format='HH:mm:ss Z'}}",
    "{{date (parseDate '2024-02-29T12:00:00Z') offset='-1 years' format='yyyy-MM-dd'}} {{parseDate '1700000000' format='unix'}}",
    "{{randomValue length=8 type='ALPHANUMERIC'}} {{randomValue type='UUID'}} {{randomValue length=5 type='NUMERIC' uppercase=true}}",
    "{{randomInt lower=1 upper=10}} {{pickRandom 'a' 'b' 'c'}} {{pickRandom request.query.ids}}",
    "{{math 1 '+' 2}} {{math '7.50' '*' 3}} {{math 10 '/' 4}} {{math 10 '%' 3}} {{math 1 '-' request.query.limit}}",
    "{{size request.body}} {{size request.query.ids}} {{size (jsonPath request.body '$.results')}}",
    "{{upper request.path}} {{lower 'ABC'}} {{capitalize 'a b c'}} {{capitalizeFirst 'élan'}} {{trim '  x  '}}",
    "{{replace request.body 'a' 'b'}} {{regexExtract request.body '[0-9]+'}} {{regexExtract request.path '/([a-z]+)/([0-9]+)' 'parts'}}{{parts.0}}-{{parts.1}}",
    "{{base64 request.body}} {{base64 'aGk=' decode=true}} {{base64 'x' padding=false}} {{urlEncode 'a b&c'}} {{urlEncode 'a+b%20c' decode=true}}",
    "{{#if (eq request.method 'GET')}}get{{else if (gt (size request.body) 0)}}body{{else}}other{{/if}}",
    "{{#unless (or (neq 1 2) (and true false) (not false))}}never{{/unless}} {{lt 1 2}} {{gte 'b' 'a'}} {{lte 2 2}}",
    "{{#contains request.body 'pika'}}has pika{{/contains}} {{contains request.query.ids '2'}} {{#matches request.path '/api/.*'}}api{{/matches}}",
    "{{lookup request.headers 'Accept'}} {{join request.query.ids '-'}} {{join 'a' 'b' 'c' ', '}}",
    "{{defaultIfEmpty request.query.missing 'none'}} {{substring 'pikachu' 1 4}} {{abbreviate 'pikachu is yellow' 8}} {{stripTags '<b>bold</b>'}}",
    "{{#with request.query}}{{limit}}{{/with}}{{#each request.headers}}{{@key}}: {{this}}\n{{/each}}",
    "{{#assign 'x'}}{{request.path}}{{/assign}}{{x}} {{#trim}}  spaced  {{/trim}} {{!-- a comment --}}{{! another }}",
    "{{#each parameters.results}}{{#if @first}}[{{/if}}{{name}}{{#if @last}}]{{else}},{{/if}}{{/each}}",
    "{{#request.query.ids}}<{{.}}>{{/request.query.ids}}{{^request.query.none}}no none{{/request.query.none}} \\{{escaped}}",
    "{{{request.body}}} {{request.body}} {{#each request.pathSegments}}{{this}}/{{/each}} {{../request.path}}",
]

# The template attacks of issue 27, in small sizes: each must stop at its budget, as an error value.
HOSTILE_TEMPLATES = [
    ("{{randomValue length=3000000000}}", "GET /"),
    ("{{randomValue length=2147483647 type='ALPHANUMERIC_AND_SYMBOLS'}}", "GET /"),
    ("{{replace request.body 'a' request.body}}", "POST /x\n\n" + "a" * 4000),
    ("{{replace (replace request.body 'a' request.body) 'a' request.body}}", "POST /x\n\n" + "a" * 300),
    ("{{#each parameters.results}}{{#each parameters.results}}{{#each parameters.results}}{{name}}{{/each}}{{/each}}{{/each}}", "GET /"),
    ("{{#each (jsonPath request.body '$')}}{{#each (jsonPath request.body '$')}}{{math @index '*' 2}}{{/each}}{{/each}}",
     "POST /x\n\n" + json.dumps(list(range(1500)))),
    ("{{regexExtract request.body '(a+)+$'}}", "POST /x\n\n" + "a" * 3000 + "!"),
    ("{{#matches request.body '(a|aa)+$'}}y{{/matches}}", "POST /x\n\n" + "a" * 3000 + "!"),
    ("{{#each (jsonPath request.body '$..*')}}{{this}}{{/each}}", "POST /x\n\n" + "[" * 200 + "]" * 200),
    ("{{#each parameters.results}}{{request.body}}{{/each}}", "POST /x\n\n" + "<&>\"'`=" * 1000),
    ("{{#each parameters.results}}{{#assign 'x'}}{{x}}{{x}}{{/assign}}{{/each}}{{x}}", "GET /"),
    ("{{#each parameters.results}}{{jsonPath request.body (join '$.a' @index '')}}{{/each}}",
     "POST /x\n\n" + json.dumps({"a": "x" * 6000})),
    ("{{regexExtract request.body '((((((((((.*))))))))))' 'g'}}{{g}}", "POST /x\n\n" + "x" * 4000),
    ("{{upper (replace request.body 'a' 'ßßßß')}}", "POST /x\n\n" + "a" * 4000),
    ("{{#each parameters.results}}{{urlEncode request.body}}{{base64 request.body}}{{/each}}", "POST /x\n\n" + "é" * 2000),
    ("{{#each parameters.results}}{{stripTags request.body}}{{/each}}", "POST /x\n\n" + "<" * 4000),
    ("{{#each parameters.results}}{{contains request.body (replace request.body 'a' 'b')}}{{/each}}",
     "POST /x\n\n" + "a" * 4000),
    ("{{math 1.00000000000000000000001 '*' 1.0000000000000000000001}}", "GET /"),
    ("{{now format='yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy'}}", "GET /"),
    ("{{substring request.body 0 1000000000}} {{abbreviate request.body -1}} {{math 1 '/' 0}}", "POST /x\n\nabc"),
]


def template(body, request, headers=(), file=None, parameters=None):
    """A template seed: the body template, its sections, then the request."""
    parts = [body]
    parts += ["\n@@header@@\n" + header for header in headers]
    if file is not None:
        parts.append("\n@@file@@\n" + file)
    if parameters is not None:
        parts.append("\n@@parameters@@\n" + json.dumps(parameters, ensure_ascii=False))
    parts.append("\n@@request@@\n" + request)
    return "".join(parts)


def templates(requests):
    page = (ROOT / "stubs" / "__files" / "list-page.hbs").read_text()
    seeds = {}
    for number, mapping in enumerate(templated_list_stubs()):
        path = mapping["request"].get("urlPath") or mapping["request"].get("url", "/")
        parameters = dict(mapping["response"].get("transformerParameters", {}))
        parameters["results"] = parameters.get("results", [])[:20]
        queries = ["", "?offset=20&limit=20", "?limit=5&offset=1349", "?offset=-3&limit=0x10", "?limit=100000"]
        query = queries[number % len(queries)]
        seeds[f"shipped-{number:02}-file"] = template(
            "", f"GET {path}{query}\nAccept: application/json", file=mapping["response"]["bodyFileName"],
            parameters=parameters)
        seeds[f"shipped-{number:02}-inline"] = template(page, f"GET {path}{query}", parameters=parameters)
    for number, body in enumerate(HELPER_TEMPLATES):
        line, headers, request_body = requests[number % len(requests)]
        if number % 3 == 0:
            request_body = json.dumps({"name": "pikachu", "id": 25, "results": [{"name": "bulbasaur", "id": 1}]})
        headers = headers + ["Cookie: session=abc; theme=dark", "Host: localhost:8080"]
        if "?" not in line:
            line += "?ids=1&ids=2&limit=20"
        field = ["X-Path: {{request.path}}", "Content-Type: {{#if request.body}}application/json{{else}}text/plain{{/if}}",
                 "X-Bad: {{request.body}}"][number % 3]
        seeds[f"helper-{number:02}"] = template(body, request_text(line, headers, request_body), headers=[field])
    seeds["file-templated-name"] = template(
        "", "GET /api/v2/pokemon/1/", file="{{request.pathSegments.[2]}}/{{request.pathSegments.[3]}}.json")
    seeds["file-traversal-name"] = template("", "GET /../../etc/passwd", file="{{request.path}}")
    for number, (body, request) in enumerate(HOSTILE_TEMPLATES):
        seeds[f"hostile-{number:02}"] = template(body, request)
    for name, text in seeds.items():
        write("template", f"{name}.txt", text)


XML_SEEDS = [
    ("<order><id>7</id><item sku=\"a\"/></order>",
     [{"equalToXml": "<order><item sku=\"a\"/><id>7</id></order>"}, {"matchesXPath": "//order[id='7']/item/@sku"}]),
    ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<m:order xmlns:m=\"urn:m\"><m:id>42</m:id><when>now</when></m:order>",
     [{"equalToXml": "<m:order xmlns:m=\"urn:m\"><m:id>${xmlunit.isNumber}</m:id><when>${xmlunit.ignore}</when></m:order>",
       "enablePlaceholders": True},
      {"matchesXPath": {"expression": "//m:id/text()", "matches": "[0-9]+"}, "xPathNamespaces": {"m": "urn:m"}}]),
    ("<a><![CDATA[x < y]]><!-- c --><?pi data?></a>",
     [{"equalToXml": "<a>x &lt; y<?pi data?></a>", "exemptedComparisons": ["CHILD_NODELIST_LENGTH"]},
      {"matchesXPath": {"expression": "/a/text()", "contains": "<"}}]),
    ("<r><p n=\"1\">a</p><p n=\"2\">b</p><q/></r>",
     [{"matchesXPath": "//p[@n > 1 and contains(., 'b')] | //q"},
      {"matchesXPath": {"expression": "count(//p)", "equalTo": "2"}},
      {"equalToXml": "<r><p n=\"[[n]]\">a</p></r>", "enablePlaceholders": True,
       "placeholderOpeningDelimiterRegex": "\\[\\[", "placeholderClosingDelimiterRegex": "]]"}]),
]


def body_patterns(patterns, requests):
    seeds = {}
    for number, pattern in enumerate(patterns):
        for item in pattern.get("bodyPatterns", []):
            line, headers, body = requests[number % len(requests)]
            if "equalToJson" in item:
                expected = item["equalToJson"]
                body = expected if isinstance(expected, str) else json.dumps(expected)
            elif "matchesJsonPath" in item:
                body = json.dumps({"name": "pikachu", "results": [{"name": "bulbasaur", "url": "u"}],
                                   "items": [{"price": 12}], "key with space": [1, 2],
                                   "stats": [{"base_stat": 45}]})
            elif "equalToXml" in item:
                body = item["equalToXml"].replace("${xmlunit.isNumber}", "7").replace("${xmlunit.ignore}", "x")
            elif "matchesXPath" in item:
                body = "<order><id>7</id><item sku=\"a\"/></order>"
            seeds[f"pattern-{number:02}-{len(seeds):02}"] = body + "".join(
                "\n@@pattern@@\n" + json.dumps(p, ensure_ascii=False) for p in pattern["bodyPatterns"])
    for number, (body, items) in enumerate(XML_SEEDS):
        seeds[f"xml-{number:02}"] = body + "".join("\n@@pattern@@\n" + json.dumps(p) for p in items)
    # The matching attacks of issue 27, in small sizes.
    entity = "x" * 100
    nested = "<a>" * 200 + "</a>" * 200
    wide = "<r>" + "<a><b><c/></b></a>" * 250 + "</r>"
    hostile = {
        "entity-expansion": ("<!DOCTYPE a [<!ENTITY e \"" + entity + "\">]><a>" + "&e;" * 100 + "</a>",
                             [{"equalToXml": "<a>" + entity * 100 + "</a>"}, {"matchesXPath": "/a"}]),
        "entity-laughs": ("<?xml version=\"1.0\"?><!DOCTYPE l [<!ENTITY a \"aaaaaaaaaa\">"
                          + "".join(f"<!ENTITY {chr(98 + n)} \"{('&' + chr(97 + n) + ';') * 10}\">" for n in range(6))
                          + "]><l>&g;</l>", [{"equalToXml": "<l>x</l>"}, {"matchesXPath": "//l"}]),
        "entity-parameter": ("<!DOCTYPE a [<!ENTITY % p \"<!ENTITY e 'x'>\"> %p;]><a>&e;</a>",
                             [{"equalToXml": "<a>x</a>"}]),
        "entity-external": ("<!DOCTYPE a [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><a>&e;</a>",
                            [{"equalToXml": "<a>root</a>"}, {"matchesXPath": {"expression": "/a", "contains": "root"}}]),
        "xpath-nested-descendants": (wide, [{"matchesXPath": "//*[.//*[.//*] and .//*[.//*]]"},
                                            {"matchesXPath": "//*[count(.//*) > count(//*[.//*])]"}]),
        "xpath-deep": (nested, [{"matchesXPath": "//a[ancestor::a[ancestor::a[following::*]]]"},
                                {"equalToXml": nested}]),
        "xpath-regex": ("<a>" + "a" * 3000 + "!</a>",
                        [{"matchesXPath": {"expression": "/a/text()", "matches": "(a+)+$"}}]),
        "json-regex": (json.dumps({"a": "a" * 3000 + "!"}),
                       [{"matchesJsonPath": {"expression": "$.a", "matches": "(a+)+$"}}]),
        "json-deep": ("[" * 2000 + "]" * 2000, [{"equalToJson": "[" * 2000 + "]" * 2000},
                                                 {"matchesJsonPath": "$..*..*..*"}]),
        "json-wide-unordered": (json.dumps([[n] for n in range(900)]),
                                [{"equalToJson": json.dumps([[n] for n in reversed(range(900))]),
                                  "ignoreArrayOrder": True}]),
        "json-filters": (json.dumps({"items": [{"price": n, "name": "x" * (n % 7)} for n in range(400)]}),
                         [{"matchesJsonPath": "$..items[?(@.price > 10 && @.name =~ /x+/)]..price"}]),
    }
    for name, (body, items) in hostile.items():
        seeds[f"hostile-{name}"] = body + "".join("\n@@pattern@@\n" + json.dumps(p) for p in items)
    for name, text in seeds.items():
        write("body-patterns", f"{name}.txt", text)


def main():
    patterns = read_patterns()
    requests = read_requests()
    if CORPUS.exists():
        shutil.rmtree(CORPUS)
    stub_loader(patterns)
    matcher(patterns, requests)
    admin(patterns, requests)
    wire()
    recording_names(requests)
    templates(requests)
    body_patterns(patterns, requests)
    for target in sorted(CORPUS.iterdir()):
        print(f"{target.name}: {len(list(target.iterdir()))} seeds")


if __name__ == "__main__":
    main()
