#!/usr/bin/env python3
"""A Strapi-shaped content server for development, demos and tests.

Serves the embedded content (content/<lang>/..., and content/collections/...
for a collection the same in every language) the way Strapi's REST API
would: single types at /api/<key>, collections at /api/<collection> (sorted,
paged, filtered with `filters[<field>][$eq]`), items at /api/<collection>/<id>. Asked for
`localizations` (explicitly, or with a deep-populate plugin's `populate=deep`/`pLevel`), an
item lists its version in the other language: the item of the same id, which shares its
`documentId` in the v5 shape. Answers in
the v4 shape as stored, or flattened as Strapi 5 does (--shape v5). Content is read
from disk on every request, so an edited file is served at once. With --posts FILE,
the form collections take entries (`POST /api/business-community-leads`,
`/api/foundation-applications`), each appended to FILE as a JSON line; a second
entry with the same `reference` is refused as Strapi refuses a unique attribute.
With --media DIR, any other path is a file of DIR (`/uploads/photo.jpg`), as
Strapi's media library serves its uploads. With --edition-every SECS, a newsroom
that never stops publishing: every title in every answer names the edition, a
new one every SECS seconds, so every page and list changes that often.
With --stories N, a newsroom at scale: N generated stories per language in
`news-updates` beside the embedded ones (`tools/newsroom.py`), held in memory.
With --without COLLECTION (repeatable), that type is answered 404, as Strapi
answers a type it does not have. Every request is counted by kind (single,
list, item, index, other), and `GET /__requests` answers the counts as JSON.

    python3 tools/strapi_fixture.py --port 1337 [--shape v5] [--content DIR] [--media DIR]
                                    [--stories N] [--without locations]
    CMS_URL=http://127.0.0.1:1337 make run

Standard library only. Prints "listening on <url>" once ready.
"""
import argparse
import collections
import json
import mimetypes
import pathlib
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import newsroom


def flatten_v5(value):
    """Strapi 5 drops `attributes` and the `data` wrappers of relations. An
    item stored with a `documentId` (the generated newsroom's, one for both
    languages of a story) keeps it; any other is given one from its id."""
    if isinstance(value, list):
        return [flatten_v5(v) for v in value]
    if isinstance(value, dict):
        if set(value) <= {"data", "meta"} and "data" in value:
            return flatten_v5(value["data"])
        if set(value) <= {"id", "documentId", "attributes"} and isinstance(value.get("attributes"), dict):
            flat = {"id": value.get("id"), "documentId": value.get("documentId", f"doc{value.get('id')}")}
            flat.update({k: flatten_v5(v) for k, v in value["attributes"].items()})
            return flat
        return {k: flatten_v5(v) for k, v in value.items()}
    return value


def field_value(item, field):
    """A field of a stored (v4-shaped) item, as Strapi filters see it."""
    if field == "id":
        return item["id"]
    if field == "documentId":
        return item.get("documentId", f"doc{item['id']}")
    return item["attributes"].get(field)


def asks_localizations(query):
    """Whether a request asks for an item's other-language versions: explicitly
    (`populate[localizations]...`), or by the deep-populate plugins' own
    parameters, which populate them of themselves."""
    return any(key.startswith("populate[localizations]") for key in query) or \
        query.get("populate", "").startswith("deep") or "pLevel" in query


def where(items, field, wanted):
    """The items whose `field` is `wanted`: looked up where the list keeps an index of it."""
    found = items.where(field, wanted) if isinstance(items, newsroom.Stories) else None
    return [i for i in items if str(field_value(i, field)) == wanted] if found is None else found


def ordered(items, field, direction):
    """The items sorted by `field`: as kept where the list keeps that order."""
    found = items.ordered(field, direction) if isinstance(items, newsroom.Stories) else None
    if found is not None:
        return found
    key = (lambda i: i["id"]) if field == "id" else (lambda i: i["attributes"].get(field) or "")
    return sorted(items, key=key, reverse=direction != "asc")


def with_fields(items, query):
    """The items with only the attributes `fields[n]` names, and the media
    `populate[<field>][fields][n]` asks for with only those of theirs, as
    Strapi answers them; all of each where no field is named."""
    fields = {value for key, value in query.items() if key.startswith("fields[")}
    if not fields:
        return items
    media = collections.defaultdict(set)
    for key, value in query.items():
        if asked := re.fullmatch(r"populate\[([^\]]+)\]\[fields\]\[\d+\]", key):
            media[asked[1]].add(value)

    def only(item):
        attributes = {k: v for k, v in item["attributes"].items() if k in fields}
        for name, kept in media.items():
            data = (item["attributes"].get(name) or {}).get("data")
            if data:
                attributes[name] = {"data": {"id": data["id"], "attributes": {k: v for k, v in data["attributes"].items() if k in kept}}}
        return {**item, "attributes": attributes}

    return [only(item) for item in items]


def kind_of(parts, query):
    """What a request asks for, by its shape: a single type, a list page, an
    item (a filter by id, documentId or slug, or an id in the path), an
    index (a read of `fields[n]`), or anything else."""
    if len(parts) < 2 or parts[0] != "api":
        return "other"
    if len(parts) == 3 or any(f"filters[{field}][$eq]" in query for field in ("id", "documentId", "slug")):
        return "item"
    if any(key.startswith("fields[") for key in query):
        return "index"
    if any(key.startswith(("pagination[", "sort", "filters[")) for key in query):
        return "list"
    return "single" if len(parts) == 2 else "other"


FORM_COLLECTIONS = {"business-community-leads", "foundation-applications"}


class Handler(BaseHTTPRequestHandler):
    content: pathlib.Path
    shape: str
    posts: pathlib.Path | None = None
    media: pathlib.Path | None = None
    edition_every: float = 0
    lock = threading.Lock()
    # Collections held in memory (the generated newsroom's), by language and name.
    held: dict = {}
    without: set = set()
    requests = collections.Counter()

    def log_message(self, *args):
        pass

    def answer(self, status, body):
        payload = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json; charset=utf-8")
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def not_found(self):
        self.answer(404, {"data": None, "error": {"status": 404, "name": "NotFoundError", "message": "Not Found"}})

    def load(self, lang, *parts):
        if (lang, *parts) in self.held:
            return self.held[(lang, *parts)]
        path = self.content.joinpath(lang, *parts)
        return json.loads(path.read_text()) if path.is_file() else None

    def do_GET(self):
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        lang = query.get("locale", "en")
        parts = url.path.strip("/").split("/")
        if url.path == "/__requests":
            with self.lock:
                counts = dict(self.requests, total=sum(self.requests.values()))
            return self.answer(200, counts)
        with self.lock:
            self.requests[kind_of(parts, query)] += 1
        if parts[0] != "api" and self.media is not None:
            return self.media_file(parts)
        if len(parts) < 2 or parts[0] != "api":
            return self.not_found()
        name = parts[1]
        if name in self.without:
            return self.not_found()
        collection = self.load(lang, "collections", f"{name}.json")
        if collection is None:
            # Not localized: one answer whatever the locale.
            collection = self.load("", "collections", f"{name}.json")
        if collection is not None:
            items = collection["data"]
            localized = (lambda listed: self.with_localizations(listed, name, lang)) if asks_localizations(query) else list
            if len(parts) == 3:
                item = next(iter(localized(where(items, "id", parts[2]))), None)
                return self.respond({"data": item, "meta": {}}) if item else self.not_found()
            for key, wanted in query.items():
                if key.startswith("filters[") and key.endswith("][$eq]"):
                    items = where(items, key[len("filters["):-len("][$eq]")], wanted)
            field, _, direction = query.get("sort", query.get("sort[0]", "publishDate:desc")).partition(":")
            items = ordered(items, field, direction)
            size = int(query.get("pagination[pageSize]", 25))
            page = int(query.get("pagination[page]", 1))
            total = len(items)
            return self.respond({
                "data": with_fields(localized(items[(page - 1) * size: page * size]), query),
                "meta": {"pagination": {"page": page, "pageSize": size, "pageCount": -(-total // size), "total": total}},
            })
        single = self.load(lang, f"{name}.json")
        return self.respond(single) if single is not None and len(parts) == 2 else self.not_found()

    def with_localizations(self, items, name, lang):
        """`items` each with its versions in the other language (`localizations`),
        as Strapi links them: by their `documentId` (the embedded files' items by
        their id, the one `documentId` of both languages' versions)."""
        other = "sw" if lang == "en" else "en"
        theirs = (self.load(other, "collections", f"{name}.json") or {"data": []})["data"]
        def linked(item):
            version = next(iter(where(theirs, "documentId", str(field_value(item, "documentId")))), None)
            listed = [] if version is None else [{"id": version["id"], "attributes": {
                "slug": version["attributes"].get("slug"), "locale": other,
                "publishedAt": version["attributes"].get("publishedAt") or "2024-01-01T00:00:00.000Z"}}]
            return {**item, "attributes": {**item["attributes"], "localizations": {"data": listed}}}
        return [linked(item) for item in items]

    def do_POST(self):
        parts = urlsplit(self.path).path.strip("/").split("/")
        with self.lock:
            self.requests["other"] += 1
        if self.posts is None or len(parts) != 2 or parts[0] != "api" or parts[1] not in FORM_COLLECTIONS:
            return self.not_found()
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        reference = body.get("data", {}).get("reference")
        with self.lock:
            seen = [json.loads(line) for line in self.posts.read_text().splitlines()] if self.posts.is_file() else []
            if any(entry["reference"] == reference for entry in seen):
                error = {"path": ["reference"], "message": "This attribute must be unique", "name": "ValidationError"}
                return self.answer(400, {"data": None, "error": {"status": 400, "name": "ValidationError",
                                                                 "message": "This attribute must be unique",
                                                                 "details": {"errors": [error]}}})
            with self.posts.open("a") as file:
                file.write(json.dumps({"collection": parts[1], "reference": reference}) + "\n")
        self.answer(201, {"data": {"id": len(seen) + 1, "reference": reference}, "meta": {}})

    def media_file(self, parts):
        if any(part in ("", ".", "..") for part in parts):
            return self.not_found()
        path = self.media.joinpath(*parts)
        if not path.is_file():
            return self.not_found()
        payload = path.read_bytes()
        self.send_response(200)
        self.send_header("content-type", mimetypes.guess_type(path.name)[0] or "application/octet-stream")
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def respond(self, body):
        if self.edition_every:
            body = with_edition(body, int(time.time() // self.edition_every))
        if self.shape == "v5":
            body = {"data": flatten_v5(body["data"]), "meta": body.get("meta", {})}
        self.answer(200, body)


class Server(ThreadingHTTPServer):
    # Connections waiting to be accepted: Node's default (Strapi's), not
    # Python's 5, past which a burst of the site's requests would wait a
    # second for the kernel to retry.
    request_queue_size = 511


def with_edition(value, edition):
    """`value` with every `title` naming `edition`."""
    if isinstance(value, dict):
        return {k: (f"{v} · {edition}" if k == "title" and isinstance(v, str) else with_edition(v, edition)) for k, v in value.items()}
    if isinstance(value, list):
        return [with_edition(v, edition) for v in value]
    return value


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=1337)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--shape", choices=["v4", "v5"], default="v4")
    parser.add_argument("--content", default=str(pathlib.Path(__file__).resolve().parent.parent / "content"))
    parser.add_argument("--posts", help="take form entries, appending each to this file")
    parser.add_argument("--media", help="serve the files of this directory as the media library (/uploads/...)")
    parser.add_argument("--edition-every", type=float, default=0, help="a new edition of every title every so many seconds")
    parser.add_argument("--stories", type=int, default=0, help="so many generated stories per language in news-updates")
    parser.add_argument("--without", action="append", default=[], help="answer 404 for this collection, as Strapi for a type it lacks")
    args = parser.parse_args()
    Handler.without = set(args.without)
    Handler.edition_every = args.edition_every
    Handler.media = pathlib.Path(args.media) if args.media else None
    Handler.content = pathlib.Path(args.content)
    Handler.posts = pathlib.Path(args.posts) if args.posts else None
    Handler.shape = args.shape
    if args.stories:
        name = ("collections", "news-updates.json")
        embedded = {lang: json.loads(Handler.content.joinpath(lang, *name).read_text())["data"] for lang in ("en", "sw")}
        stories = newsroom.generate(args.stories, embedded, field_value)
        Handler.held = {(lang, *name): {"data": items} for lang, items in stories.items()}
    server = Server((args.host, args.port), Handler)
    print(f"listening on http://{args.host}:{server.server_port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
