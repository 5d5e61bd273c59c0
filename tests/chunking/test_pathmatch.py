"""Which path templates a text contains."""

from __future__ import annotations

from openapi_rag.chunking.pathmatch import PathIndex, paths_in

PATHS = ["/", "/users", "/users/{id}", "/users.json", "/v1/users"]


def test_whole_paths_only() -> None:
    assert paths_in('"/users/{id}": {', PATHS) == {"/users/{id}"}
    assert paths_in('"/users": {', PATHS) == {"/users"}
    assert paths_in("paths./users.get.summary: List", PATHS) == {"/users"}
    assert paths_in("paths./users.json.get.summary: List", PATHS) == {"/users.json"}  # the longer path wins
    assert paths_in('"/v1/users": {', PATHS) == {"/v1/users"}
    assert paths_in("application/json and/or https://x.com/a", PATHS) == set()
    assert paths_in('"/": {"get"', PATHS) == {"/"}


def test_edges_of_a_slice_are_boundaries() -> None:
    text = 'xx "/users/{id}": {'
    index = PathIndex(text, PATHS)
    assert index.paths_in(0, len(text)) == {"/users/{id}"}
    cut = text.index("/{id}")
    assert index.paths_in(0, cut) == {"/users"}  # the window ends right after /users
    assert index.paths_in(cut, len(text)) == set()  # "/{id}" alone is no path here
