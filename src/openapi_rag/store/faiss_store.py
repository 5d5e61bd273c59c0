"""The default vector store: FAISS in a directory, chunks in SQLite beside it.

Layout of a saved store (all plain files, written atomically, see `atomic.py`):

    store.json      format version, dimensions, count, options
    ids.json        chunk ids in row order (row i of vectors.npy is ids[i])
    vectors.npy     float32 (count, dimensions), normalised when `normalize` is on
    chunks.sqlite   chunk texts and metadata (see `chunk_table.py`)
    index.faiss     the HNSW graph (HNSW stores only; a flat index is rebuilt from vectors.npy,
                    which is a memory copy, so it is not written twice)

Removal: FAISS HNSW cannot delete points, so removing chunks drops their rows from `vectors.npy`
and marks the FAISS index stale; it is rebuilt from the kept vectors (never re-embedded) at the next
search or save. For a flat index the rebuild is a copy; for HNSW it is a full graph build, so batch
removals (the `Index` removes a changed spec's chunks and adds the new ones before searching).
Additions go into the live index incrementally for both types.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, Self

import faiss
import numpy as np

from openapi_rag import __version__
from openapi_rag.errors import IndexDamaged, IndexMismatch
from openapi_rag.model import Chunk
from openapi_rag.store.atomic import atomic_dir, resolve_dir
from openapi_rag.store.base import CatalogRow, Ranked, as_matrix, normalized, rank
from openapi_rag.store.chunk_table import ChunkTable
from openapi_rag.store.filters import ChunkFilter, Postings
from openapi_rag.store.integrity import check_chunk_table, load_vectors, read_json, require_fields
from openapi_rag.store.products import inner_products
from openapi_rag.store.screen import Screen, screened_top

logger = logging.getLogger(__name__)

FORMAT = "openapi-rag-faiss-store"
FORMAT_VERSION = 1
INDEX_TYPES = ("flat", "hnsw")

STORE_JSON = "store.json"
IDS_JSON = "ids.json"
VECTORS_NPY = "vectors.npy"
CHUNKS_DB = "chunks.sqlite"
INDEX_FAISS = "index.faiss"

# Filtered search. Up to SUBSET_SEARCH_LIMIT passing rows: exact, numpy over just those rows (fastest
# when few pass). Up to EXACT_FILTER_LIMIT: exact, a FAISS flat scan that skips rows outside the
# filter (for HNSW stores, over the graph's own flat storage), because HNSW's filtered traversal loses
# recall when few points pass. Beyond that: the index itself with FAISS's ID selector (approximate for
# HNSW). Measured at 200k x 384: numpy 0.03 ms for 400 rows, 3.4 ms for 10k; flat scan 3 ms for 10k.
SUBSET_SEARCH_LIMIT = 4_096
EXACT_FILTER_LIMIT = 20_000
# Several queries at once (a request's clauses) are screened by one product (`screen.py`) in a flat
# store of up to this many rows; the product's copy of the vectors costs their size again in memory.
SCREEN_LIMIT = 100_000
# Up to this many queries (a request's clauses) that no screen answers (HNSW, a filter, a large flat
# store) go to FAISS one at a time, as the searcher sent them before it sent them together: a call with
# several runs FAISS's OpenMP pool, whose barrier waited milliseconds on a busy machine for a thread
# the scheduler had put off (the README's "one FAISS call for all of a query's vectors").
FEW_QUERIES = 16
# Extra results fetched beyond k so that ties at the cut can be ordered by id.
_TIE_SLACK = 8
# Most chunk heads kept decoded (`FaissStore.heads`): the whole realworld index (9.5k chunks, ~25 MB);
# past it the cache starts over rather than growing with a 200k-chunk index.
HEADS_CACHE_LIMIT = 50_000


@dataclass(frozen=True)
class FaissOptions:
    """How the FAISS index is built.

    Attributes:
        index_type: "flat" (exact inner product, IndexFlatIP) or "hnsw" (IndexHNSWFlat with
            METRIC_INNER_PRODUCT, approximate, for large corpora).
        hnsw_m: HNSW graph degree (memory and recall grow with it).
        ef_construction: HNSW candidate list size while building (build time grows with it).
        ef_search: HNSW candidate list size while searching (raised to k when k is larger).
        normalize: L2-normalise stored and query vectors, so scores are cosine similarities.
    """

    index_type: str = "flat"
    hnsw_m: int = 32
    ef_construction: int = 100
    ef_search: int = 128
    normalize: bool = True

    def __post_init__(self) -> None:
        if self.index_type not in INDEX_TYPES:
            raise ValueError(f"index_type must be one of {', '.join(INDEX_TYPES)}, not {self.index_type!r}")
        for name in ("hnsw_m", "ef_construction", "ef_search"):
            if int(getattr(self, name)) < 1:
                raise ValueError(f"{name} must be a positive integer")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FaissOptions:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(
                f"unknown FAISS store options: {', '.join(unknown)} (known: {', '.join(sorted(known))})"
            )
        return cls(**data)


class FaissStore:
    """Chunks and their vectors, searchable by inner product with FAISS.

    Example:
        >>> store = FaissStore(384, index_type="hnsw")          # doctest: +SKIP
        >>> store.add([c.id for c in chunks], vectors, chunks)  # doctest: +SKIP
        >>> store.search(query_vector, k=10, filter=ChunkFilter.of(services="spotify"))  # doctest: +SKIP
        [[('spotify:GET /me/playlists', 0.83), ...]]
        >>> store.save("my-index/store")                         # doctest: +SKIP
        >>> FaissStore.load("my-index/store")                    # doctest: +SKIP

    Args:
        dimensions: length of every vector.
        index_type, hnsw_m, ef_construction, ef_search, normalize: see `FaissOptions`.
    """

    def __init__(
        self,
        dimensions: int,
        *,
        index_type: str = "flat",
        hnsw_m: int = 32,
        ef_construction: int = 100,
        ef_search: int = 128,
        normalize: bool = True,
    ):
        if dimensions < 1:
            raise ValueError("dimensions must be a positive integer")
        self._dimensions = int(dimensions)
        self.options = FaissOptions(
            index_type=index_type,
            hnsw_m=hnsw_m,
            ef_construction=ef_construction,
            ef_search=ef_search,
            normalize=normalize,
        )
        self._ids: list[str] = []
        self._row: dict[str, int] = {}
        self._vectors = np.zeros((0, self._dimensions), dtype=np.float32)
        self._index: Any = None  # None: stale, rebuilt from _vectors on next use
        self._table = ChunkTable()
        self._postings: Postings | None = None
        self._heads: dict[str, Chunk] = {}  # decoded once, see `heads`
        # (the vectors it was built over, their float32 C-contiguous rows, the screen, their
        # largest norm), see `_screen`
        self._screening: tuple[np.ndarray | None, np.ndarray | None, Screen | None, float] = (
            None,
            None,
            None,
            0.0,
        )

    # ---- basic facts -------------------------------------------------------------------------

    @property
    def dimensions(self) -> int:
        return self._dimensions

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, chunk_id: object) -> bool:
        return chunk_id in self._row

    def __repr__(self) -> str:
        kind = self.options.index_type
        return f"FaissStore(dimensions={self._dimensions}, count={len(self)}, index_type={kind!r})"

    def ids(self) -> list[str]:
        return list(self._ids)

    def set_ef_search(self, ef_search: int) -> None:
        """Change the HNSW search breadth (recall against speed) without rebuilding."""
        self.options = replace(self.options, ef_search=ef_search)
        if self._index is not None and self.options.index_type == "hnsw":
            self._index.hnsw.efSearch = ef_search

    # ---- the FAISS index -----------------------------------------------------------------------

    def _new_index(self) -> Any:
        if self.options.index_type == "hnsw":
            index = faiss.IndexHNSWFlat(self._dimensions, self.options.hnsw_m, faiss.METRIC_INNER_PRODUCT)
            index.hnsw.efConstruction = self.options.ef_construction
            index.hnsw.efSearch = self.options.ef_search
            return index
        return faiss.IndexFlatIP(self._dimensions)

    def _faiss(self) -> Any:
        if self._index is None:
            index = self._new_index()
            if len(self._vectors):
                index.add(np.ascontiguousarray(self._vectors, dtype=np.float32))
            self._index = index
        return self._index

    def warm(self) -> None:
        """Build now what a request's first multi-clause search would build (the screen, ~70 ms),
        so that a server's first such request does not pay for it."""
        self._screen()

    def _screen(self) -> tuple[np.ndarray | None, Screen | None, float]:
        """The stored vectors (float32, C-contiguous), the product of several queries with them
        (`screen.py`) and their largest norm, built on first use and again after the vectors
        change; no screen for HNSW, past `SCREEN_LIMIT` rows, or without the `onnx` package."""
        if self.options.index_type != "flat" or len(self._ids) > SCREEN_LIMIT:
            return None, None, 0.0
        screening = self._screening  # one tuple, so that a reader never mixes two versions
        if screening[0] is not self._vectors:
            vectors = np.ascontiguousarray(self._vectors, dtype=np.float32)
            norm = float(np.linalg.norm(vectors, axis=1).max(initial=0.0))
            screening = self._screening = (self._vectors, vectors, Screen.of(vectors), norm)
        return screening[1:]

    def _filter_mask(self, flt: ChunkFilter | None) -> np.ndarray | None:
        if flt is None or flt.is_empty:
            return None
        if self._postings is None:
            fields_by_id = self._table.filter_fields()
            self._postings = Postings(fields_by_id[chunk_id] for chunk_id in self._ids)
        return self._postings.mask(flt)

    # ---- mutation ------------------------------------------------------------------------------

    def add(self, ids: Sequence[str], vectors: np.ndarray, chunks: Sequence[Chunk]) -> None:
        """Add new chunks with their vectors.

        Raises:
            ValueError: lengths or shapes disagree, `ids[i] != chunks[i].id`, or an id is already stored.
        """
        ids = list(ids)
        matrix = as_matrix(vectors, self._dimensions, "vectors")
        if not (len(ids) == matrix.shape[0] == len(chunks)):
            raise ValueError(f"got {len(ids)} ids, {matrix.shape[0]} vectors and {len(chunks)} chunks")
        mismatched = [(i, c.id) for i, c in zip(ids, chunks, strict=True) if i != c.id]
        if mismatched:
            raise ValueError(
                f"ids and chunks disagree, e.g. {mismatched[0][0]!r} vs chunk {mismatched[0][1]!r}"
            )
        repeated = {i for i, count in Counter(ids).items() if count > 1}
        duplicates = sorted({i for i in ids if i in self._row} | repeated)
        if duplicates:
            raise ValueError(
                f"chunk ids already stored or repeated: {', '.join(duplicates[:5])}; remove them first"
            )
        if not ids:
            return
        # Both branches copy, so the caller's array can change later without touching the store.
        matrix = normalized(matrix) if self.options.normalize else matrix.copy()
        try:
            self._table.insert(chunks)
        except sqlite3.IntegrityError as exc:  # pragma: no cover - guarded by the duplicate check
            raise ValueError(f"duplicate chunk id: {exc}") from exc
        start = len(self._ids)
        self._ids.extend(ids)
        self._row.update((chunk_id, start + offset) for offset, chunk_id in enumerate(ids))
        self._vectors = np.concatenate([self._vectors, matrix]) if start else matrix
        if self._index is not None:
            self._index.add(matrix)
        self._postings = None
        self._heads = {}

    def remove(self, ids: Iterable[str]) -> int:
        """Remove chunks by id; unknown ids are ignored. Returns how many were removed.

        The FAISS index is rebuilt from the kept vectors at the next search or save (see module notes).
        """
        doomed = sorted({self._row[i] for i in ids if i in self._row})
        if not doomed:
            return 0
        keep = np.ones(len(self._ids), dtype=bool)
        keep[doomed] = False
        removed_ids = [self._ids[row] for row in doomed]
        self._table.delete(removed_ids)
        self._vectors = np.ascontiguousarray(self._vectors[keep])
        self._ids = [chunk_id for chunk_id, kept in zip(self._ids, keep, strict=True) if kept]
        self._row = {chunk_id: row for row, chunk_id in enumerate(self._ids)}
        self._index = None
        self._postings = None
        self._heads = {}
        return len(doomed)

    # ---- reading -------------------------------------------------------------------------------

    def get(self, chunk_ids: Sequence[str]) -> list[Chunk]:
        """The chunks, in the order asked.

        Raises:
            KeyError: some ids are not stored (the first few are named).
        """
        found = self._table.get(chunk_ids)
        missing = [i for i in chunk_ids if i not in found]
        if missing:
            raise KeyError(f"unknown chunk ids: {', '.join(missing[:5])}")
        return [found[i] for i in chunk_ids]

    def catalog_rows(self) -> Iterator[CatalogRow]:
        """Every chunk's id, service, kind, operations and title, in id order (`catalog_rows`)."""
        fields = self._table.catalog_fields()
        return (CatalogRow(chunk_id, *fields[chunk_id]) for chunk_id in self._ids)

    def heads(self, chunk_ids: Sequence[str]) -> list[Chunk]:
        """The chunks in the order asked, without `content`, `file` or BM25 text (empty): all a
        search reads. Each is decoded once and kept, so the same object comes back every time:
        treat it as read-only. A query touches ~250 chunks; decoding them whole took most of a
        search's time.

        Raises:
            KeyError: some ids are not stored (the first few are named).
        """
        cache = self._heads
        missing = [i for i in chunk_ids if i not in cache]
        if not missing:
            return [cache[i] for i in chunk_ids]
        found = self._table.heads(missing)
        unknown = [i for i in missing if i not in found]
        if unknown:
            raise KeyError(f"unknown chunk ids: {', '.join(unknown[:5])}")
        if len(cache) + len(found) > HEADS_CACHE_LIMIT:
            self._heads = {}  # start over rather than grow with the index
        self._heads.update(found)
        return [found[i] if i in found else cache[i] for i in chunk_ids]

    def get_vectors(self, chunk_ids: Sequence[str]) -> np.ndarray:
        """Stored vectors (normalised when `normalize` is on), one row per id, as a new array."""
        missing = [i for i in chunk_ids if i not in self._row]
        if missing:
            raise KeyError(f"unknown chunk ids: {', '.join(missing[:5])}")
        rows = [self._row[i] for i in chunk_ids]
        return np.array(self._vectors[rows], dtype=np.float32)

    def chunks(self, batch_size: int = 1000) -> Iterator[Chunk]:
        """Every chunk, in row order."""
        for start in range(0, len(self._ids), batch_size):
            yield from self.get(self._ids[start : start + batch_size])

    def select(self, filter: ChunkFilter) -> list[str]:
        """Ids of the chunks passing `filter`, in row order."""
        mask = self._filter_mask(filter)
        if mask is None:
            return list(self._ids)
        return [self._ids[row] for row in np.flatnonzero(mask)]

    # ---- search --------------------------------------------------------------------------------

    def search(self, query_vectors: np.ndarray, k: int, filter: ChunkFilter | None = None) -> list[Ranked]:
        """The `k` best chunks for each query row by inner product (cosine when normalised).

        Args:
            query_vectors: shape (q, dimensions), or one vector of shape (dimensions,).
            k: results per query (fewer when fewer chunks pass the filter).
            filter: applied before the top-k cut.

        Returns:
            One ranked list of `(chunk_id, score)` per query row: score descending, then chunk id.
        """
        queries = as_matrix(query_vectors, self._dimensions, "query vectors")
        if self.options.normalize:
            queries = normalized(queries)
        mask = self._filter_mask(filter)
        allowed = None if mask is None else np.flatnonzero(mask)
        available = len(self._ids) if allowed is None else len(allowed)
        if k <= 0 or available == 0:
            return [[] for _ in range(len(queries))]
        fetch = min(available, k + _TIE_SLACK)
        scores, rows = self._top(queries, fetch, mask, allowed)
        results = []
        for qi in range(len(queries)):
            ranked, complete = self._ranked(scores[qi], rows[qi], k, fetch, available)
            wider = fetch
            while not complete:  # ties reach past what was fetched: fetch more until they end
                wider = min(available, wider * 2)
                more_scores, more_rows = self._top(queries[qi : qi + 1], wider, mask, allowed)
                ranked, complete = self._ranked(more_scores[0], more_rows[0], k, wider, available)
            results.append(ranked)
        return results

    def _ranked(
        self, scores: np.ndarray, rows: np.ndarray, k: int, fetched: int, available: int
    ) -> tuple[Ranked, bool]:
        ranked = rank(
            (self._ids[row], float(score)) for score, row in zip(scores, rows, strict=True) if row >= 0
        )
        complete = fetched >= available or len(ranked) <= k or ranked[k - 1][1] != ranked[-1][1]
        return ranked[:k], complete

    def _top(
        self, queries: np.ndarray, m: int, mask: np.ndarray | None, allowed: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Top-m (scores, rows) per query; rows are -1 where nothing was found."""
        if allowed is not None and len(allowed) <= SUBSET_SEARCH_LIMIT:
            return self._exact_subset(queries, m, allowed)
        if mask is None and len(queries) > 1 and m < len(self._ids):
            vectors, screen, norm = self._screen()
            if screen is not None:  # a query's clauses: one product for all, FAISS's scores (`screen.py`)
                return screened_top(queries, vectors, m, screen=screen, largest_norm=norm)
        index = self._faiss()
        hnsw = self.options.index_type == "hnsw"
        bits = selector = params = None
        if mask is not None and allowed is not None:
            bits = np.packbits(mask, bitorder="little")  # must outlive the search: FAISS keeps a raw pointer
            selector = faiss.IDSelectorBitmap(len(mask), faiss.swig_ptr(bits))
            if hnsw and len(allowed) <= EXACT_FILTER_LIMIT:
                index, hnsw = faiss.downcast_index(index.storage), False
        if hnsw:
            params = faiss.SearchParametersHNSW(efSearch=max(self.options.ef_search, m))
            if selector is not None:
                params.sel = selector
        elif selector is not None:
            params = faiss.SearchParameters(sel=selector)
        if 1 < len(queries) <= FEW_QUERIES:  # one at a time, each in this thread (same results)
            found = [index.search(queries[i : i + 1], m, params=params) for i in range(len(queries))]
            scores, rows = np.vstack([f[0] for f in found]), np.vstack([f[1] for f in found])
        else:
            scores, rows = index.search(queries, m, params=params)
        del bits, selector
        return scores, rows

    def _exact_subset(
        self, queries: np.ndarray, m: int, allowed: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        subset = np.asarray(self._vectors[allowed], dtype=np.float32)
        sims = np.stack([inner_products(query, subset) for query in queries])  # (q, len(allowed))
        if m < sims.shape[1]:
            top = np.argpartition(-sims, m - 1, axis=1)[:, :m]
        else:
            top = np.broadcast_to(np.arange(sims.shape[1]), (len(queries), sims.shape[1]))
        return np.take_along_axis(sims, top, axis=1), allowed[top]

    # ---- persistence ---------------------------------------------------------------------------

    def save(self, directory: str | Path, *, atomic: bool = True) -> None:
        """Write the store to `directory`.

        Args:
            directory: where to write; replaced as a whole.
            atomic: write into a temporary sibling and swap it in (see `atomic.py`). Pass False only
                when `directory` is itself inside an `atomic_dir` block (an `Index` saving several parts).
        """
        if atomic:
            with atomic_dir(directory) as tmp:
                self._write(tmp)
        else:
            Path(directory).mkdir(parents=True, exist_ok=True)
            self._write(Path(directory))

    def _write(self, directory: Path) -> None:
        meta = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "library_version": __version__,
            "dimensions": self._dimensions,
            "count": len(self._ids),
            "options": asdict(self.options),
        }
        np.save(directory / VECTORS_NPY, np.ascontiguousarray(self._vectors, dtype=np.float32))
        (directory / IDS_JSON).write_text(json.dumps(self._ids, ensure_ascii=False), encoding="utf-8")
        self._table.write(directory / CHUNKS_DB)
        if self.options.index_type == "hnsw":
            faiss.write_index(self._faiss(), str(directory / INDEX_FAISS))
        # Written last: a directory without store.json is never mistaken for a complete store.
        (directory / STORE_JSON).write_text(json.dumps(meta, indent=2), encoding="utf-8")

    @classmethod
    def load(cls, directory: str | Path, *, mmap: bool = False, ef_search: int | None = None) -> Self:
        """Open a store written by `save`.

        Args:
            directory: the store directory.
            mmap: memory-map vectors.npy instead of reading it (saves memory for HNSW stores, whose
                graph holds its own copy of the vectors).
            ef_search: override the saved HNSW search breadth.

        Raises:
            IndexNotFound: no complete store in `directory`.
            IndexMismatch: written by a newer format version.
            IndexDamaged: a file is cut, garbage, disagrees with the others or holds NaN vectors.
        """
        path = resolve_dir(directory, required=(STORE_JSON, IDS_JSON, VECTORS_NPY, CHUNKS_DB))
        index_dir = path.parent  # where a rebuild must write (the store is `<index>/store`)
        meta = read_json(path / STORE_JSON, dict, directory=index_dir)
        if (
            meta.get("format") != FORMAT
            or not isinstance(meta.get("format_version", 0), int)
            or int(meta.get("format_version", 0)) > FORMAT_VERSION
        ):
            raise IndexMismatch(
                f"{path} holds a store of format {meta.get('format')!r} "
                f"version {meta.get('format_version')}; "
                f"this openapi-rag ({__version__}) reads {FORMAT!r} up to version {FORMAT_VERSION}: "
                "upgrade openapi-rag or rebuild the index with `openapi-rag index`"
            )
        require_fields(
            path / STORE_JSON, meta, {"dimensions": int, "count": int, "options": dict}, directory=index_dir
        )
        try:
            options = FaissOptions.from_dict(meta["options"])
            if ef_search is not None:
                options = replace(options, ef_search=ef_search)
            store = cls(meta["dimensions"], **asdict(options))
        except (TypeError, ValueError) as exc:
            raise IndexDamaged(
                path / STORE_JSON, f"has invalid options ({exc})", directory=index_dir
            ) from exc
        ids = read_json(path / IDS_JSON, list, directory=index_dir)
        if not all(isinstance(i, str) for i in ids) or len(set(ids)) != len(ids):
            raise IndexDamaged(path / IDS_JSON, "holds ids that are not unique strings", directory=index_dir)
        if len(ids) != meta["count"]:
            raise IndexDamaged(
                path / IDS_JSON,
                f"lists {len(ids)} ids, where store.json counts {meta['count']}",
                directory=index_dir,
            )
        store._ids = ids
        store._row = {chunk_id: row for row, chunk_id in enumerate(ids)}
        store._vectors = load_vectors(
            path / VECTORS_NPY, rows=len(ids), dimensions=store._dimensions, mmap=mmap, directory=index_dir
        )
        try:
            store._table = ChunkTable.open(path / CHUNKS_DB)
        except sqlite3.Error as exc:
            raise IndexDamaged(path / CHUNKS_DB, f"cannot be opened ({exc})", directory=index_dir) from exc
        check_chunk_table(path / CHUNKS_DB, store._table._conn, rows=len(ids), directory=index_dir)
        if options.index_type == "hnsw" and (path / INDEX_FAISS).exists():
            try:
                store._index = faiss.read_index(str(path / INDEX_FAISS))
            except RuntimeError as exc:  # FAISS reports a cut or foreign file as a RuntimeError
                raise IndexDamaged(
                    path / INDEX_FAISS, "is not a readable FAISS index", directory=index_dir
                ) from exc
            if store._index.ntotal != len(ids) or store._index.d != store._dimensions:
                raise IndexDamaged(
                    path / INDEX_FAISS,
                    f"holds {store._index.ntotal} vectors of {store._index.d} dimensions, "
                    f"where the store lists {len(ids)} of {store._dimensions}",
                    directory=index_dir,
                )
            store._index.hnsw.efSearch = options.ef_search
        return store
