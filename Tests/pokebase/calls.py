"""Runs a handful of pokebase calls against pokestub and prints their results as canonical JSON.

Usage: python calls.py BASE_URL CACHE_DIR

BASE_URL is pokestub's base URL (http://127.0.0.1:PORT); pokebase's module constant BASE_URL is pointed
at BASE_URL + "/api/v2" as shared/pokeapi/README.md explains. CACHE_DIR must be fresh: pokebase's shelve
cache is keyed without the host and would answer without any HTTP request otherwise. The daemon's base
URL is replaced by "<base>" in the output, so runs on different ports compare equal.
"""
import json
import sys

import pokebase as pb
import pokebase.cache
import pokebase.common
from pokebase.interface import APIMetadata, APIResource

BASE = sys.argv[1].rstrip("/")
pokebase.common.BASE_URL = BASE + "/api/v2"
pokebase.cache.set_cache(sys.argv[2])

CALLS = [
    ("pb.pokemon(1)", lambda: pb.pokemon(1)),
    ("pb.pokemon('bulbasaur')", lambda: pb.pokemon("bulbasaur")),
    ("pb.pokemon_species(669)", lambda: pb.pokemon_species(669)),
    ("pb.type_(1)", lambda: pb.type_(1)),
    ("pb.berry(1)", lambda: pb.berry(1)),
    ("pb.pokemon('pikachu')", lambda: pb.pokemon("pikachu")),
    ("pb.pokemon_species('mr-mime')", lambda: pb.pokemon_species("mr-mime")),
    ("pb.ability(1)", lambda: pb.ability(1)),
    ("pb.move(1)", lambda: pb.move(1)),
    ("pb.generation(1)", lambda: pb.generation(1)),
    ("pb.evolution_chain(1)", lambda: pb.evolution_chain(1)),
]


def plain(value):
    """The value as plain JSON: nested resources as their repr (<type-normal>), metadata as objects."""
    if isinstance(value, APIResource):
        return repr(value)
    if isinstance(value, APIMetadata):
        return {key: plain(item) for key, item in sorted(vars(value).items()) if not key.startswith("_")}
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in sorted(value.items())}
    if isinstance(value, str):
        return value.replace(BASE, "<base>")
    return value


def main():
    results = {}
    for label, call in CALLS:
        resource = call()
        fields = {key: plain(item) for key, item in sorted(vars(resource).items()) if not key.startswith("_")}
        results[label] = fields
    print(json.dumps(results, sort_keys=True, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
