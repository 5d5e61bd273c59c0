"""`catalog_rows`: the fields a walk over the whole catalog reads, SQLite's projection or the heads."""

from __future__ import annotations

from openapi_rag.store.base import CatalogRow, catalog_rows, read_heads
from tests.conftest import shared_data


class HeadsOnly:
    """A store without its own projection (as a PostgreSQL collection): rows come from the heads."""

    def __init__(self, store) -> None:  # type: ignore[no-untyped-def]
        self._store = store

    def ids(self) -> list[str]:
        return self._store.ids()

    def get(self, ids):  # type: ignore[no-untyped-def]
        return self._store.get(ids)


def test_sqlite_projection_gives_what_the_chunk_heads_say_in_id_order() -> None:
    from openapi_rag.index import Index
    from openapi_rag.spec import load_services

    nytimes = shared_data("realworld", "nytimes")
    from tests.index.conftest import WordHashEmbedder  # the vectors do not matter here

    services = load_services([nytimes / "books_api", nytimes / "community.yaml"]).services
    index = Index.build(services, strategy="ref-linked", embedder=WordHashEmbedder(), static=None)
    store = index.store
    rows = list(catalog_rows(store))
    assert [row.id for row in rows] == store.ids()
    heads = read_heads(store, store.ids())
    assert rows == [
        CatalogRow(c.id, c.service, c.kind, tuple(c.operations), str(c.metadata.get("title", "")))
        for c in heads
    ]
    assert {row.kind for row in rows} >= {"endpoint", "security"}  # link chunks are walked too
    assert list(catalog_rows(HeadsOnly(store), batch_size=3)) == rows
