"""Matching gold endpoints to operations: shapes, qualification, ambiguity, duplicates."""

from __future__ import annotations

import pytest

from openapi_rag.bench.gold import (
    GoldResolver,
    normalize_path,
    parse_endpoint,
    path_shape,
    resolve_query_gold,
)
from openapi_rag.model import Operation, Service


def _service(sid: str, paths: list[tuple[str, str]], file: str = "", servers: list[str] = ()) -> Service:
    return Service(
        id=sid,
        title=sid.title(),
        version="1",
        file=file,
        format="oas30",
        servers=[{"url": u} for u in servers],
        operations=[Operation(service=sid, method=m, path=p) for m, p in paths],
    )


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("/tv/{tv_id}", "/tv/{}"),
        ("/tv/{id}/", "/tv/{}"),
        ("tv/:id?lang=en", "/tv/{}"),
        ("https://api.example.com//tv/{x}#frag", "/tv/{}"),
        ("/", "/"),
    ],
)
def test_path_shape(raw, expected):
    assert path_shape(raw) == expected


def test_parse_and_normalize():
    assert parse_endpoint("get /a") == (None, "GET", "/a")
    assert parse_endpoint("svc POST /a/b") == ("svc", "POST", "/a/b")
    assert parse_endpoint("nonsense") is None
    assert normalize_path("/a/b/?q=1") == "/a/b"


def test_tiers_exact_shape_case_base_path_and_unmatched():
    svc = _service(
        "tmdb",
        [("GET", "/tv/{tv_id}"), ("GET", "/Movie/{id}"), ("POST", "/users")],
        servers=["https://api.example.com/v3"],
    )
    r = GoldResolver([svc])
    entry, issues = r.resolve("GET /tv/{tv_id}")
    assert (entry.matches, entry.how, issues) == (("tmdb GET /tv/{tv_id}",), "exact", [])
    entry, issues = r.resolve("get /tv/{id}/")
    assert entry.how == "shape" and entry.matches == ("tmdb GET /tv/{tv_id}",)
    assert [i[0] for i in issues] == ["shape"]
    entry, _ = r.resolve("GET /movie/{movie_id}")
    assert entry.how == "case"
    entry, _ = r.resolve("POST /v3/users")  # server base path written into the gold path
    assert entry.matches == ("tmdb POST /users",)
    entry, issues = r.resolve("DELETE /users")
    assert not entry.matched and issues == [("unmatched", "no operation of the index matches it", "warning")]


def test_qualified_entries_pick_one_service_and_bare_ones_match_all():
    a = _service("alpha-api", [("GET", "/items")], file="/x/alpha/openapi.json")
    b = _service("beta", [("GET", "/items")], file="/x/beta.yaml")
    r = GoldResolver([a, b])
    entry, issues = r.resolve("GET /items")
    assert entry.matches == ("alpha-api GET /items", "beta GET /items")
    assert [i[0] for i in issues] == ["ambiguous"]
    # By id, by folder name of an openapi.json, by file stem.
    assert r.resolve("alpha-api GET /items")[0].matches == ("alpha-api GET /items",)
    assert r.resolve("alpha GET /items")[0].matches == ("alpha-api GET /items",)
    assert r.resolve("BETA GET /items")[0].matches == ("beta GET /items",)
    entry, issues = r.resolve("gamma GET /items")
    assert not entry.matched and issues[0][0] == "unknown-service"


def test_duplicates_are_reported_and_counted_once():
    r = GoldResolver([_service("s", [("GET", "/a/{id}")])])
    gold, issues = resolve_query_gold("q1", ["GET /a/{id}", "GET /a/{x}", "PUT /zz", "PUT /zz"], r)
    assert [g.raw for g in gold] == ["GET /a/{id}", "PUT /zz"]
    kinds = sorted(i.kind for i in issues)
    assert kinds == ["duplicate", "duplicate", "unmatched"]
    assert all(i.query_id == "q1" for i in issues)
