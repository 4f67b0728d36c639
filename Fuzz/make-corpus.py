#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (Fuzz/corpus/<target>/) from the shipped stubs and the seed lists.

Sources: stubs/mappings (real PokeAPI stubs), Fuzz/seeds/patterns.jsonl (one request pattern per line, covering
every matcher), Fuzz/seeds/requests.txt (one request per line). The output is deterministic, so running this
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


def main():
    patterns = read_patterns()
    requests = read_requests()
    if CORPUS.exists():
        shutil.rmtree(CORPUS)
    stub_loader(patterns)
    matcher(patterns, requests)
    admin(patterns, requests)
    for target in sorted(CORPUS.iterdir()):
        print(f"{target.name}: {len(list(target.iterdir()))} seeds")


if __name__ == "__main__":
    main()
