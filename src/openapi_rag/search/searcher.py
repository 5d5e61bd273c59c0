"""Dense, BM25 and hybrid search over a store, aggregated from chunks to operations.

Modes:
    dense   chunks ranked by cosine similarity of their vectors to the query vector.
    bm25    chunks ranked by BM25 over their text (`BM25Index`).
    hybrid  (default) fusion of the two ranked lists (`fusion.py`): a convex combination of their
            min-max normalised scores (`fusion="minmax"`, the default) or reciprocal rank fusion
            (`fusion="rrf"`), each over the first `fusion_depth` chunks of each list whatever k
            is, so the same query gives the same order for any k.

Every switch and constant below is a field of one frozen `SearchSettings` (`settings.py`), given
to the searcher and recorded in the index manifest.

Multi-intent queries (`clauses=True`, the default): the query's intents (`clauses.py`) are searched
too, each like a query of its own, and every chunk keeps its best score over the query and its
clauses. Needs an `embed` function for the clause vectors in modes dense and hybrid (given one,
`search` also embeds the query itself when no vector is passed). From `whole_query_clauses`
clauses on, the whole query is matched by BM25 only and its clauses carry the dense side: the
embedding of a long list of intents matches none of them well, and it is the costliest step of
a search (recall unchanged on RestBench and SOCBench-D, `scripts/ablation_quality.py`).
Sentences that only give context, identifiers or preferences are no intents (`context.py`); a
conversational request is cut within a sentence only before an action (`sentence_units`). With
`focus_intent` (the default) a request naming one intent among such sentences also searches
that intent alone, as a clause, when it names words of its own (`focus_min_words`): "Our savings
account was closed. Could you cancel its bank feed? No statement should come through any more."
reads as much about statements as about feeds until its one intent is searched on its own.

Dependencies (`dependencies=True`, the default): the producer of an identifier that one of the best
operations needs in its path (`GET /search/movie` for `/movie/{movie_id}`) is lifted to just below
it (`dependencies.py`), per query and per clause; the clauses of a plan (`plan_clauses` clauses or
more: "register the product, add a supplier, then retrieve the product by its ID") name the steps
they need, so only the whole query's list is lifted.

Action verbs (`action_verbs=True`, the default): within a clause's list, operations whose HTTP
method the clause's verb rules out ("remove ..." and `GET /materials`) are scaled down where the
list offers an allowed method scoring close to its best (`actions.py`). For a request naming one
action, the first result is settled (`settle_first`): an operation of the best one's API whose
method the verb allows and whose resource the request names goes first when it scores close to
the best (`resources.py`).

`k="auto"`: as many operations as the scores say are relevant: for each clause, those scoring at
least `auto_ratio` of the clause's best score; for a query searched whole, those scoring at least
`auto_ratio_whole` of its best. A clause names about one operation, so its cut is tight; a
one-sentence task often needs a chain of operations that the sentence names only in part, so its
cut is looser. Each kept operation brings the producer it needs (`auto_producers`: an operation is
of little use without the one giving its identifier), at most `auto_max` in all. A relative cut
works because min-max fused scores share one 0..1 scale.

Copies (`fold_duplicates=True`, the default): an operation that another service carries word for
word (one API indexed from both its JSON and its YAML file) is returned once, naming the other
services in `also_in` (`duplicates.py`).

Top-k: chunk lists are fetched deeper than k (`fetch_factor`) and fetched again twice as deep
while fewer than k operations come out, so k operations are returned whenever the store holds them.
What reorders operations after the fusion (verbs, producers, `k="auto"`'s cut) reads each text's
list within its retrievers' first `fusion_depth` chunks only (as deep as a small k fetches): deeper chunks
hold tail scores by position, there or not depending on k, and a producer chosen by one (the
best-scoring search, for a query naming a thing) changed the order with k.

Threshold mode (`threshold=X` instead of top-k) returns every operation with a chunk whose dense
cosine similarity is >= X. In dense mode the score is that similarity. In hybrid mode the cut is the
same (cosine >= X, BM25 scores having no fixed scale), and the surviving chunks keep their fused
scores and order; BM25-only matches do not pass. bm25 mode has no threshold. A threshold search
uses the whole query only: no clauses, no dependency lifting.

Filters (`ChunkFilter`: service, tag, kind) apply inside each retriever, before any cut.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from openapi_rag.model import Chunk
from openapi_rag.search.actions import lead_ins, verb_lexicon, weigh_verb
from openapi_rag.search.aggregate import LINK_KINDS, aggregate_operations, summary_of, with_summaries
from openapi_rag.search.bm25 import JARGON_TEXT, BM25Index
from openapi_rag.search.clauses import conversational, single_intent, split_clauses
from openapi_rag.search.coherence import favour_one_api
from openapi_rag.search.context import core, without_names, without_negations, without_quoted, without_values
from openapi_rag.search.dependencies import (
    DependencyGraph,
    OpKey,
    best_producer,
    gives_identifier,
    names_something,
    propagate,
    speaks_of_own,
)
from openapi_rag.search.duplicates import fold_duplicates
from openapi_rag.search.fusion import minmax_fusion, reciprocal_rank_fusion
from openapi_rag.search.links import expand_links
from openapi_rag.search.providers import api_names, named_services
from openapi_rag.search.resources import settle_first
from openapi_rag.search.results import Hit, OperationHit, SearchResults
from openapi_rag.search.services import ApiEvidence
from openapi_rag.search.settings import DEFAULT_SETTINGS, SearchSettings
from openapi_rag.search.timing import StageTimes
from openapi_rag.search.views import pooled
from openapi_rag.store.base import Ranked, VectorStore, all_heads, catalog_rows, rank, read_heads
from openapi_rag.store.filters import ChunkFilter

if TYPE_CHECKING:
    from openapi_rag.search.views import ViewVectors

EmbedBoth = Callable[[list[str]], "tuple[np.ndarray, np.ndarray] | None"]
"""Texts -> their vectors by the first model and by the second list's, from one run (or None)."""
MODES = ("hybrid", "dense", "bm25")
AUTO = "auto"
_UNTIMED = nullcontext()  # reusable: a stage with no timer attached enters this one
_NO_JARGON = BM25Index.build([], [])  # `_jargon_index`: looked for, none in the index


def check_k(k: int | str) -> None:
    """Refuse a k that is neither a number of results nor "auto" (ValueError)."""
    if k != AUTO and (isinstance(k, str) or int(k) < 0):
        raise ValueError(f"k must be a number of results or {AUTO!r}, not {k!r}")


@dataclass
class _Catalog:
    keys: list[OpKey] = field(default_factory=list)  # every operation of every operation chunk
    op_chunks: dict[OpKey, list[str]] = field(default_factory=dict)  # an operation's own chunks
    titles: set[str] = field(default_factory=set)  # the titles on all chunks
    service_titles: dict[str, str] = field(default_factory=dict)  # each service's first chunk's title
    has_links: bool = False  # any schema, errors or security chunk to attach to results


def flat_words(lexical: Ranked, gap: float) -> bool:
    """Whether a text's words single out no chunk: BM25's best scores less than `gap` of itself
    above the second (no chunk shares a word: flat; one does: not)."""
    if not lexical:
        return True
    if len(lexical) == 1:
        return False
    best, second = lexical[0][1], lexical[1][1]
    return best <= 0 or (best - second) / best < gap


def apart(dense: Ranked, lexical: Ranked) -> bool:
    """Whether the dense and BM25 lists' first chunks belong to different APIs (a chunk id starts
    with its service's id, `Chunker.chunk_id`)."""
    return bool(dense and lexical) and dense[0][0].split(":", 1)[0] != lexical[0][0].split(":", 1)[0]


class Searcher:
    """Answers queries over a vector store and (for bm25/hybrid) a BM25 index of the same chunks.

    Example:
        >>> searcher = Searcher(store, bm25)                                  # doctest: +SKIP
        >>> results = searcher.search("create a playlist", embedder.embed(q), k=5)  # doctest: +SKIP
        >>> [op.qualified_id for op in results.operations]                    # doctest: +SKIP
        ['spotify POST /users/{user_id}/playlists', ...]

    Args:
        store: the chunks and their vectors.
        bm25: BM25 index over the same chunk ids (needed for modes bm25 and hybrid); a ValueError
            says when the two disagree.
        settings: how to rank (`SearchSettings`; the defaults when None).
        embed: texts -> their embeddings (2-D), for the clauses.
        views: vectors of the chunks' short views (same embedder), max-pooled into the dense list.
        static: a second embedder's vectors of the chunks, a third list in hybrid mode.
        embed_both: texts -> their embeddings by `embed`'s model and by `static`'s, where one run
            gives both (`embed/minilm_pair.py`), else None; used for the texts both lists read.
        **changes: fields of `settings` to change (`Searcher(store, bm25, clauses=False)`).
    """

    def __init__(
        self,
        store: VectorStore,
        bm25: BM25Index | None = None,
        *,
        settings: SearchSettings | None = None,
        embed: Callable[[list[str]], np.ndarray] | None = None,
        views: ViewVectors | None = None,
        static: ViewVectors | None = None,
        embed_both: EmbedBoth | None = None,
        **changes: Any,
    ):
        if bm25 is not None and (len(bm25) != len(store) or set(bm25.ids()) != set(store.ids())):
            raise ValueError(
                "the BM25 index and the store hold different chunks: rebuild the BM25 index after "
                "changing the store, e.g. BM25Index.from_chunks(store.chunks())"
            )
        self.store = store
        self.bm25 = bm25
        self.embed = embed
        self.views = views  # short views of the chunks (`views.py`), pooled when view_pool is set
        self.static = static  # a second embedder's view (`views.py`), read when static_weight > 0
        self.embed_both = embed_both
        self.settings = DEFAULT_SETTINGS
        self.configure(settings, **changes)
        self._graph: DependencyGraph | None = None
        self._op_chunks: dict[OpKey, list[str]] = {}  # an operation's own chunks (one per view)
        self._title_words: frozenset[str] = frozenset()  # lower-case words of the APIs' titles
        self._api_names: dict[str, frozenset[str]] | None = None  # name word -> services
        self._catalog: _Catalog | None = None  # one walk over the store's chunks, see `_scan`
        self._jargon: BM25Index | None = None  # the lexicon's words, read when jargon_weight > 0
        self._apis = ApiEvidence()  # which API a request of one intent is for, `services.py`
        self.timer: StageTimes | None = None  # set by `bench search --slowest` (`timing.py`)

    def configure(self, settings: SearchSettings | None = None, **changes: Any) -> SearchSettings:
        """Search with `settings` (or the current ones) with `changes` applied from now on.

        Raises:
            pydantic.ValidationError: an unknown setting or a value out of range.
        """
        new = (settings or self.settings).replace(**changes) if changes else (settings or self.settings)
        if new.generic_producers != self.settings.generic_producers or (
            new.aliases_first != self.settings.aliases_first
        ):
            self._graph = None  # built from these two
        self.settings = new
        return new

    def search(
        self,
        query: str | None = None,
        query_vector: np.ndarray | None = None,
        *,
        mode: str = "hybrid",
        k: int | str = 10,
        threshold: float | None = None,
        filter: ChunkFilter | None = None,
        expand: bool = False,
    ) -> SearchResults:
        """Rank operations for one query.

        Args:
            query: the query text (modes bm25 and hybrid, and clause splitting).
            query_vector: the query's embedding, 1-D (modes dense and hybrid).
            mode: "hybrid", "dense" or "bm25".
            k: operations (and linked hits) to return, or "auto" (see the module docstring);
                ignored when `threshold` is set.
            threshold: return every operation whose best chunk has cosine >= threshold instead
                (the whole query only: no clauses, no dependency lifting).
            filter: restrict to services, tags or chunk kinds.
            expand: attach linked schema/errors/security chunks to each operation (`expand_links`).

        Raises:
            ValueError: unknown mode, a missing input the mode needs, a threshold in bm25 mode, or
                a k that is neither a positive number nor "auto".
        """
        self._check(query, query_vector, mode, threshold)
        check_k(k)
        query = self._read(query)
        auto = k == AUTO
        cfg = self.settings
        limit = cfg.auto_max if auto else int(k)
        allowed = None if filter is None or filter.is_empty else self.store.select(filter)
        texts, vectors = self._texts(query, query_vector, mode, threshold)
        fetch = max(cfg.min_fetch, cfg.fusion_depth, limit * cfg.fetch_factor)
        while True:
            hits, chunks, lists, exhausted = self._chunk_hits(
                texts, vectors, mode, fetch, threshold, filter, allowed
            )
            with self._stage("aggregate"):
                operations, linked = aggregate_operations(hits, chunks, summaries=False)  # see below
            # Folding merges copies of one METHOD /path only: as many distinct ids as wanted are
            # enough without folding, which then runs once, on the final order.
            found = len(operations)
            if cfg.fold_duplicates and len({op.id for op in operations}) < limit:
                with self._stage("fold"):
                    found = len(self._folded(operations, chunks))
            if threshold is not None or found >= limit or exhausted:
                break
            fetch *= 2
        verbs = cfg.action_verbs and (len(texts) > 1 or cfg.verb_single_intent)
        lifted: frozenset[OpKey] = frozenset()  # producers scored above what their own words earned
        with self._stage("rescore"):
            if threshold is None and (
                cfg.dependencies or auto or verbs or cfg.clause_share < 1.0 or cfg.weighs_apis
                or (cfg.focus_whole_share < 1.0 and len(texts) == 2)
            ):
                operations, lifted = self._rescore(
                    operations, texts, lists, chunks, auto=auto, allowed=allowed
                )
            if (
                threshold is None
                and query
                and cfg.other_api_factor < 1.0
                and (filter is None or filter.is_empty)
            ):
                operations = self._favour_named_apis(operations, query)
        if cfg.settle_first and threshold is None and len(texts) <= 2 and texts[-1]:
            # one intent (the query, or its focus): its verb's method and its resource first
            with self._stage("settle"):
                operations = settle_first(
                    operations,
                    texts[-1],
                    share=self._settle_share(query),
                    verbs=self._verbs(),
                    skip=self._lead_ins(),
                    words_of=texts[0] if cfg.settle_words == "request" else None,
                    shape=cfg.settle_item,
                    exclude=lifted if not cfg.settle_lifted and not self._names_thing(query) else frozenset(),
                )
        if cfg.fold_duplicates:
            with self._stage("fold"):
                operations = self._folded(operations, chunks)
        if threshold is None:
            operations, linked = operations[:limit], linked[:limit]
        operations = with_summaries(operations, chunks)  # for those returned only
        if expand:
            with self._stage("expand"):
                operations = self._expand(operations, hits)
        return SearchResults(
            operations=tuple(operations), linked=tuple(linked), chunks=tuple(hits), mode=mode
        )

    def search_chunks(
        self,
        query: str | None = None,
        query_vector: np.ndarray | None = None,
        *,
        mode: str = "hybrid",
        k: int = 10,
        threshold: float | None = None,
        filter: ChunkFilter | None = None,
    ) -> list[Hit]:
        """Rank chunks (not operations) for one query; arguments as in `search`."""
        self._check(query, query_vector, mode, threshold)
        query = self._read(query)
        allowed = None if filter is None or filter.is_empty else self.store.select(filter)
        cfg = self.settings
        fetch = max(cfg.min_fetch, cfg.fusion_depth, k * cfg.fetch_factor)
        texts, vectors = self._texts(query, query_vector, mode, threshold)
        hits, _, _, _ = self._chunk_hits(texts, vectors, mode, fetch, threshold, filter, allowed)
        return hits if threshold is not None else hits[:k]

    # ---- internals -----------------------------------------------------------------------------

    def _stage(self, name: str) -> AbstractContextManager[None]:
        """Times the stage `name` when a timer is attached (`timing.py`)."""
        return _UNTIMED if self.timer is None else self.timer.stage(name)

    def _check(
        self, query: str | None, vector: np.ndarray | None, mode: str, threshold: float | None
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown search mode {mode!r}: use one of {', '.join(MODES)}")
        if mode in ("dense", "hybrid") and vector is None and (self.embed is None or query is None):
            raise ValueError(f"mode {mode!r} needs a query vector (or the query text and an embed function)")
        if mode in ("bm25", "hybrid"):
            if query is None:
                raise ValueError(f"mode {mode!r} needs the query text")
            if self.bm25 is None:
                raise ValueError(f"mode {mode!r} needs a BM25 index: build one with BM25Index.from_chunks")
        if threshold is not None and mode == "bm25":
            raise ValueError("a threshold applies to cosine similarity: use mode 'dense' or 'hybrid'")

    def _dense(
        self, vector: np.ndarray, fetch: int, threshold: float | None, filter: ChunkFilter | None
    ) -> tuple[Ranked, bool]:
        """Dense hits and whether the list is complete (no deeper fetch could add any)."""
        if threshold is None:
            ranked = self.store.search(vector, fetch, filter)[0]
            return ranked, len(ranked) < fetch
        while True:  # deepen until the similarities drop below the threshold
            ranked = self.store.search(vector, fetch, filter)[0]
            if len(ranked) < fetch or ranked[-1][1] < threshold or fetch >= len(self.store):
                return [pair for pair in ranked if pair[1] >= threshold], True
            fetch *= 2

    def _dense_lists(
        self,
        vectors: Sequence[np.ndarray | None],
        mode: str,
        fetch: int,
        threshold: float | None,
        filter: ChunkFilter | None,
    ) -> list[tuple[Ranked, bool]]:
        """`_dense` for each text with a vector (an empty, complete list for the others): one store
        call for all of them when nothing filters, where a flat store reads its vectors once for a
        query's clauses instead of once per clause (`store/screen.py`; the same lists)."""
        out: list[tuple[Ranked, bool]] = [([], True)] * len(vectors)
        wanted = [i for i, vector in enumerate(vectors) if vector is not None] if mode != "bm25" else []
        if threshold is not None or len(wanted) < 2 or not (filter is None or filter.is_empty):
            for i in wanted:
                out[i] = self._dense(vectors[i], fetch, threshold, filter)  # type: ignore[arg-type]
            return out
        ranked_lists = self.store.search(np.stack([vectors[i] for i in wanted]), fetch, filter)
        for i, ranked in zip(wanted, ranked_lists, strict=True):
            out[i] = (ranked, len(ranked) < fetch)
        return out

    def texts_to_embed(
        self, query: str, *, mode: str = "hybrid", threshold: float | None = None
    ) -> list[str]:
        """The texts a search for `query` embeds, in the order it embeds them (see `_texts`), so
        that a caller can embed them ahead, in one batch with other queries' (`serve/batching.py`)."""
        if mode == "bm25" or self.embed is None:
            return []
        query = self._read(query) or query
        texts = self._embed_plan(query, self._clauses(query, threshold), vector_given=False)[1]
        return [self._searched(text) for text in texts]

    def second_texts(self, query: str, *, mode: str = "hybrid", threshold: float | None = None) -> list[str]:
        """Of `texts_to_embed`, those the second list reads as they are embedded: a caller that
        embeds them ahead can have both models embed them in one run (`serve/batching.BothModels`)."""
        if mode == "bm25" or self.embed is None or self.static is None:
            return []
        query = self._read(query) or query
        clauses = self._clauses(query, threshold)
        whole, todo = self._embed_plan(query, clauses, vector_given=False)
        texts = [query, *clauses]
        served = {texts[i] for i in self._second_served(texts, [whole], mode, threshold)}
        return [text for text in dict.fromkeys(todo) if text in served and self._searched(text) == text]

    def _read(self, query: str | None) -> str | None:
        """The request as it is searched: without the actions it says not to take, with
        `drop_negations` (`context.without_negations`)."""
        return without_negations(query) if query and self.settings.drop_negations else query

    def _embed_plan(self, query: str, clauses: list[str], *, vector_given: bool) -> tuple[bool, list[str]]:
        """Whether the whole query has a dense side (fewer than `whole_query_clauses` clauses), and
        the texts to embed: the whole query where it has one and its vector is not given, then the
        clauses."""
        whole = len(clauses) < self.settings.whole_query_clauses
        return whole, ([query] if whole and not vector_given else []) + clauses

    def _clauses(self, query: str | None, threshold: float | None) -> list[str]:
        cfg = self.settings
        if not (cfg.clauses and threshold is None and query):
            return []
        clauses = split_clauses(
            query,
            split_and=cfg.split_and,
            connectives=cfg.connectives,
            intents_only=cfg.intents_only,
            context_rule=cfg.context_rule,
            sentence_units=cfg.sentence_units,
            wish_requirements=cfg.wish_requirements,
            join_details=cfg.join_details,
        )
        if not clauses and cfg.focus_intent:
            focus = self._single_intent(query)
            clauses = [focus] if focus and focus.strip() != query.strip() else []
        return [core(clause) for clause in clauses] if cfg.clause_core else clauses

    def _texts(
        self, query: str | None, vector: np.ndarray | None, mode: str, threshold: float | None
    ) -> tuple[list[str | None], list[np.ndarray | None]]:
        """The query and, when it has several, its clauses, each with its vector where the mode
        needs one (embedded here when not given). A query of `whole_query_clauses` clauses or more
        is represented on the dense side by its clauses alone (its whole-query vector, the mean of
        many intents, is not computed: a long query's embedding is the costliest step). The texts
        go to the model in one call, each distinct text once (the embedder runs them in length
        buckets, `minilm.length_buckets`): a batch gives each the same vector as embedding it alone."""
        with self._stage("clauses"):
            clauses = self._clauses(query, threshold)
        if mode == "bm25":
            return [query, *clauses], [None] * (1 + len(clauses))
        if clauses and self.embed is None:  # no way to embed the clauses: the whole query only
            clauses = []
        whole, todo = self._embed_plan(query or "", clauses, vector_given=vector is not None)
        if todo:
            assert self.embed is not None and query is not None  # checked in _check
            unique = list(dict.fromkeys(todo))  # a clause repeated, or the same as the query: once
            with self._stage("embed"):
                searched = [self._searched(text) for text in unique]
                served = self._second_served(
                    [query, *clauses], [whole or vector is not None], mode, threshold
                )
                both = self._embed_both(searched, {[query, *clauses][i] for i in served})
                found = both if both is not None else np.asarray(self.embed(searched))
                vectors_of = dict(zip(unique, found, strict=True))
            embedded = [vectors_of[text] for text in todo]
            if whole and vector is None:
                vector = embedded.pop(0)
        else:
            embedded = []
        return [query, *clauses], [vector if whole else None, *embedded]

    def _embed_both(self, searched: list[str], second: set[str]) -> np.ndarray | None:
        """The first model's vectors of `searched` from one run of both models (`embed_both`), the
        second model's kept for the second list, where that list reads one of these texts as it is
        searched (`second`: the texts it serves; a text with values masked reads otherwise); else None."""
        if self.embed_both is None or self.static is None or not second.intersection(searched):
            return None
        both = self.embed_both(searched)
        if both is None:
            return None
        first, other = both
        kept = [(text, vector) for text, vector in zip(searched, other, strict=True) if text in second]
        self.static.remember([text for text, _ in kept], [vector for _, vector in kept])
        return np.asarray(first)

    def _searched(self, text: str) -> str:
        """The words of `text` that are searched (`mask_values`: not its identifiers and amounts;
        `mask_quoted`: not the titles and values it quotes)."""
        if self.settings.mask_quoted:
            text = without_quoted(text)
        if self.settings.mask_names:
            self._dependency_graph()  # reads the APIs' titles
            text = without_names(text, self._title_words)
        return without_values(text) if self.settings.mask_values else text

    def _chunk_hits(
        self,
        texts: Sequence[str | None],
        vectors: Sequence[np.ndarray | None],
        mode: str,
        fetch: int,
        threshold: float | None,
        filter: ChunkFilter | None,
        allowed: list[str] | None,
    ) -> tuple[list[Hit], dict[str, Chunk], list[Ranked], bool]:
        """Ranked chunk hits, their chunks by id, the head of each text's ranked list (see
        below), and whether fetching deeper could add hits. A chunk's score is its best over the
        texts.

        The rescoring (`_rescore`) reads each text's list as far as its retrievers' first
        `fusion_depth` chunks only: past them a chunk's score is a tail score by position
        (`fusion.TAIL`), present or not depending on how deep a larger k fetched, and a producer
        chosen or a consumer counted by such a score would make the order depend on k."""
        lists: list[Ranked] = []  # each text's whole list, fetched `fetch` deep
        head_lists: list[Ranked] = []  # the same, its head only (chunks within `fusion_depth`)
        exhausted = True
        dense_scores: dict[str, float] = {}
        bm25_scores: dict[str, float] = {}
        heads: set[str] = set()  # hybrid: chunks within `fusion_depth` of a retriever's list
        second = self._second_served(texts, [v is not None for v in vectors], mode, threshold)
        with self._stage("dense"):
            dense_lists = self._dense_lists(vectors, mode, fetch, threshold, filter)
            if second and self.static is not None and self.static.embedder is not None:
                # the second embedder's query vectors, in one batch (`_extra_lists` reads them)
                self.static.embed_queries([texts[i] for i in sorted(second)])  # type: ignore[misc]
        whole_dense: Ranked = []  # the whole request's dense list, fused into its clauses' lists
        for i, (text, vector) in enumerate(zip(texts, vectors, strict=True)):
            dense: Ranked = []
            lexical: Ranked = []
            view_hits: Ranked | None = None
            with self._stage("dense"):
                if mode != "bm25" and vector is not None:  # None: a many-clause query's whole text
                    # The short views' list, searched once for both its uses (pooled, fused)
                    view_hits = self._view_hits(vector, mode, fetch, threshold, allowed)
                    dense, complete = dense_lists[i]
                    exhausted = exhausted and complete
                    if view_hits is not None and self.settings.view_pool:
                        dense = pooled(dense, view_hits)[:fetch]
            if mode != "dense":
                assert self.bm25 is not None and text is not None
                depth = max(fetch, len(dense))
                with self._stage("bm25"):
                    lexical = self.bm25.search(self._searched(text), depth, allowed=allowed)
                lexical_whole = len(lexical) < depth  # every chunk sharing a word: the rest score 0
                exhausted = exhausted and lexical_whole
            # The per-retriever scores reported with each hit: the whole query's BM25 score and
            # the best cosine over the query and its clauses.
            if i == 0:
                bm25_scores = dict(lexical)
            for chunk_id, score in dense:
                if score > dense_scores.get(chunk_id, float("-inf")):
                    dense_scores[chunk_id] = score
            with self._stage("fusion"):
                extra = self._extra_lists(
                    text,
                    vector,
                    view_hits,
                    mode,
                    max(fetch, len(dense)),
                    threshold,
                    allowed,
                    i in second,
                    whole=i == 0,
                    flat=flat_words(lexical, self.settings.flat_gap)
                    or (self.settings.flat_apart and apart(dense, lexical)),
                )
                if i == 0:
                    whole_dense = dense
                elif mode == "hybrid" and whole_dense and self.settings.whole_dense_weight > 0:
                    extra.append((whole_dense, self.settings.whole_dense_weight))
                floor = 0.0 if mode == "hybrid" and lexical_whole and self.settings.bm25_floor_zero else None
                fused = self._fuse(mode, dense, lexical, extra, lexical_floor=floor)
            lists.append(fused)
            depth = self.settings.fusion_depth
            if mode == "hybrid":
                text_heads = {chunk_id for chunk_id, _ in (*dense[:depth], *lexical[:depth])}
                text_heads.update(chunk_id for ranked, _ in extra for chunk_id, _ in ranked[:depth])
                heads |= text_heads
                head_lists.append([pair for pair in fused if pair[0] in text_heads])
            else:  # one retriever's list: its head is its first `fusion_depth` chunks
                head_lists.append(fused[:depth])
        ranked = lists[0] if len(lists) == 1 else _best_of(lists)
        if threshold is not None:
            ranked = [(i, s) for i, s in ranked if i in dense_scores]
        elif len(ranked) > max(fetch, len(heads)):
            # The union of the lists runs up to (texts x retrievers x fetch) chunks; loading them
            # all costs more than the search. Keep `fetch`, and deepen (the caller's loop) if short;
            # never fewer than the chunks of the lists' heads, whose scores do not depend on k
            # (fused head items rank above all others), so the order does not either.
            ranked, exhausted = ranked[: max(fetch, len(heads))], False
        with self._stage("chunks"):
            chunks = {c.id: c for c in read_heads(self.store, [chunk_id for chunk_id, _ in ranked])}
        hits = [
            Hit.scored(chunks[chunk_id], score, dense_scores.get(chunk_id), bm25_scores.get(chunk_id))
            for chunk_id, score in ranked
        ]
        return hits, chunks, head_lists, exhausted

    def _fuse(
        self,
        mode: str,
        dense: Ranked,
        lexical: Ranked,
        extra: list[tuple[Ranked, float]],
        lexical_floor: float | None = None,
    ) -> Ranked:
        if mode == "dense":
            return dense
        if mode == "bm25":
            return lexical
        cfg = self.settings
        lists = [dense, lexical, *(ranked for ranked, _ in extra)]
        weights = [cfg.dense_weight, cfg.bm25_weight, *(weight for _, weight in extra)]
        if cfg.fusion == "rrf":
            return reciprocal_rank_fusion(lists, weights=weights, k=cfg.rrf_k, depth=cfg.fusion_depth)
        total = sum(weights) or 1.0  # fused scores in [0, 1] whatever the weights
        floors = [None, lexical_floor, *(None for _ in extra)]
        return minmax_fusion(
            lists, weights=[w / total for w in weights], depth=cfg.fusion_depth, floors=floors
        )

    def _view_hits(
        self,
        vector: np.ndarray,
        mode: str,
        fetch: int,
        threshold: float | None,
        allowed: list[str] | None,
    ) -> Ranked | None:
        """The short views' `fetch` best chunks for a text with a dense side (mode dense or hybrid,
        `vector` given: the caller's test), where the settings read them (pooled into the dense
        list, or fused as a list of their own); None otherwise."""
        cfg = self.settings
        wanted = cfg.view_pool or (mode == "hybrid" and cfg.view_weight > 0)
        if self.views is None or threshold is not None or not wanted:
            return None
        return self.views.search(fetch, vector=vector, allowed=allowed)

    def _extra_lists(
        self,
        text: str | None,
        vector: np.ndarray | None,
        view_hits: Ranked | None,
        mode: str,
        fetch: int,
        threshold: float | None,
        allowed: list[str] | None,
        second: bool,
        *,
        whole: bool = False,
        flat: bool = False,
    ) -> list[tuple[Ranked, float]]:
        """More ranked lists for the hybrid fusion, each with its weight: the short views'
        (`view_hits`, searched `fetch` deep) where the index has them and the settings weigh them,
        and the second embedder's where it serves this text (`second`, `_second_served`); like
        the dense list, none for a many-clause query's whole text (`vector` None). A whole request
        whose words are `flat` takes `static_flat_weight` where that is set; one that is not flat
        keeps the named gate (`static_whole_named`), which `_second_served` left open for it."""
        if mode != "hybrid" or threshold is not None or text is None or vector is None:
            return []
        cfg = self.settings
        extra = []
        if view_hits is not None and cfg.view_weight > 0:
            extra.append((view_hits, cfg.view_weight))
        if second and self.static is not None and (weight := self._second_weight(text, whole, flat)) > 0:
            extra.append((self.static.search(fetch, text=text, allowed=allowed), weight))
        jargon_weight = cfg.jargon_weight
        if whole and flat and cfg.jargon_flat_weight is not None:
            jargon_weight = cfg.jargon_flat_weight
        if jargon_weight > 0 and (jargon := self._jargon_index()) is not None:
            extra.append((jargon.search(self._searched(text), fetch, allowed=allowed), jargon_weight))
        return extra

    def _second_weight(self, text: str, whole: bool, flat: bool) -> float:
        """The second list's weight on `text`: `static_flat_weight` where its words are `flat` (a whole
        request; with `flat_pieces` a clause or focused intent too); 0 for a whole request the named gate
        keeps out (`_second_served` left it in for the flat rule to decide); else the whole text's or
        every text's weight."""
        cfg = self.settings
        if flat and cfg.static_flat_weight and (whole or cfg.flat_pieces):
            return cfg.static_flat_weight
        if whole and cfg.static_flat_weight and not cfg.static_whole_named and self._names_thing(text):
            return 0.0  # the named gate, as without the flat rule
        if whole and cfg.static_whole_weight is not None:
            return cfg.static_whole_weight
        return cfg.static_weight

    def _jargon_index(self) -> BM25Index | None:
        """A BM25 over the chunks' lexicon words alone (`compact`'s `jargon_list`), built on first
        use from the store (the store is not changed under a Searcher); None: the index has none."""
        if self._jargon is None:
            chunks = [c for c in self.store.chunks() if c.metadata.get(JARGON_TEXT)]
            texts = [c.metadata[JARGON_TEXT] for c in chunks]
            self._jargon = BM25Index.build([c.id for c in chunks], texts) if chunks else _NO_JARGON
        return None if self._jargon is _NO_JARGON else self._jargon

    def _second_served(
        self,
        texts: Sequence[str | None],
        has_vector: Sequence[bool],
        mode: str,
        threshold: float | None,
    ) -> frozenset[int]:
        """Which of a search's texts (the whole request first, then its clauses or its focused
        intent) the second embedder's list serves: those with a dense side (`has_vector`, the whole
        request's; a clause always has one) in a hybrid search, as far as `static_scope` reaches;
        only these are embedded by the second model."""
        cfg = self.settings
        if self.static is None or cfg.static_weight <= 0 or mode != "hybrid" or threshold is not None:
            return frozenset()
        dense_side = [
            i
            for i, t in enumerate(texts)
            if t is not None and (has_vector[i] if i < len(has_vector) else True)
        ]
        if cfg.static_scope == "whole":
            return frozenset(i for i in dense_side if i == 0)
        # texts[1:]: the clauses, or the focused intent; "sentences" serves a lone text whole (below)
        if cfg.static_scope == "intents" or (cfg.static_scope == "sentences" and len(texts) > 1):
            return frozenset(i for i in dense_side if i > 0)
        if cfg.static_scope == "one_intent" and len(texts) > 2:  # clauses come in twos or more
            return frozenset()
        if (
            cfg.static_scope == "sentences"
            and not cfg.static_whole_named
            and not cfg.static_flat_weight  # else decided once BM25 has read it (`_extra_lists`)
            and self._names_thing(texts[0])
        ):
            return frozenset()
        return frozenset(dense_side)

    def _names_thing(self, text: str | None) -> bool:
        """Whether `text` names a particular thing that is no API of the catalog (`names_something`)."""
        self._dependency_graph()  # reads the APIs' titles
        return names_something(text, known=self._title_words, acronyms=self.settings.acronyms_name)

    def _scan(self) -> _Catalog:
        """What the dependency graph and the API names read from every chunk, in one walk of the
        store (which is not changed under a Searcher); settings do not enter it."""
        if self._catalog is None:
            catalog = _Catalog()
            for row in catalog_rows(self.store):
                catalog.titles.add(row.title)
                catalog.service_titles.setdefault(row.service, row.title)
                if row.kind in LINK_KINDS:
                    catalog.has_links = True
                    continue
                for op_id in row.operations:
                    catalog.keys.append((row.service, op_id))
                if len(row.operations) == 1:
                    catalog.op_chunks.setdefault((row.service, row.operations[0]), []).append(row.id)
            self._catalog = catalog
        return self._catalog

    def _dependency_graph(self) -> DependencyGraph:
        """Built on first use from the store's chunks, with the words of the APIs' titles
        (`names_something`'s known words)."""
        if self._graph is None:
            catalog = self._scan()
            self._op_chunks = catalog.op_chunks
            self._graph = DependencyGraph.of(
                catalog.keys,
                generic=self.settings.generic_producers,
                aliases_first=self.settings.aliases_first,
            )
            self._title_words = frozenset(
                w.lower() for title in catalog.titles for w in re.findall(r"\w+", title)
            )
        return self._graph

    def _rescore(
        self,
        operations: list[OperationHit],
        texts: Sequence[str | None],
        lists: Sequence[Ranked],
        chunks: dict[str, Chunk],
        *,
        auto: bool,
        allowed: list[str] | None,
    ) -> tuple[list[OperationHit], frozenset[OpKey]]:
        """Weigh each clause's verb, lift producers (per text) and, for k="auto", keep what each
        text's scores call relevant. `allowed`: the chunk ids the search's filter lets through
        (None: all). Also returns the lifted producers: operations whose final score is a lift,
        above their best over the texts' own scores."""
        cfg = self.settings
        per_text = [_operation_scores(ranked, chunks) for ranked in lists]
        if cfg.action_verbs:  # texts[0] is the whole query, the rest its clauses
            weigh = dict(
                factor=cfg.verb_mismatch,
                offer_share=cfg.verb_offer_share,
                verbs=self._verbs(),
                skip=self._lead_ins(),
            )
            per_text[1:] = [
                weigh_verb(scores, text, **weigh)
                for scores, text in zip(per_text[1:], texts[1:], strict=True)
            ]
            if cfg.verb_single_intent and len(texts) == 1 and texts[0]:  # no clause, no focus
                per_text[0] = weigh_verb(per_text[0], self._single_intent(texts[0]), **weigh)
        if cfg.focus_whole_share < 1.0 and len(per_text) == 2:  # the whole request and its focus
            per_text[0] = {key: s * cfg.focus_whole_share for key, s in per_text[0].items()}
        if cfg.clause_share < 1.0:
            per_text[1:] = [
                {key: s * cfg.clause_share for key, s in scores.items()} for scores in per_text[1:]
            ]
        # A plan (plan_clauses clauses or more) names its steps: producers are lifted in the whole
        # query's list only, and k="auto" adds none.
        plan = len(per_text) - 1 >= cfg.plan_clauses
        graph = self._dependency_graph() if cfg.dependencies else None
        lifting = graph is not None and not graph.is_empty
        own = cfg.own_first and speaks_of_own(texts[0])
        needs = cfg.lift_identified or not gives_identifier(texts[0])  # else the consumer has its identifier
        # each operation's best before lifting, kept only where a setting reads the lifted ones
        own_best = _best_scores(per_text) if lifting and not cfg.settle_lifted else None
        if graph is not None and lifting:
            per_text = [
                scores
                if plan and i
                else propagate(
                    scores,
                    graph,
                    share=cfg.producer_share,
                    consumers=cfg.consumers,
                    own=own,
                    named=cfg.named_search
                    and names_something(text, known=self._title_words, acronyms=cfg.acronyms_name),
                    search_first=cfg.search_first,
                    needs=needs,
                )
                for i, (scores, text) in enumerate(zip(per_text, texts, strict=True))
            ]
        final = _best_scores(per_text)
        lifted = frozenset(
            () if own_best is None else (key for key, score in final.items() if score > own_best.get(key, 0.0))
        )
        if cfg.api_coherence < 1.0 and 2 < len(per_text) and (not plan or self._one_desk(texts[0])):
            final = favour_one_api(final, per_text[1:], factor=cfg.api_coherence)  # one API for them all
        if cfg.weighs_apis and len(per_text) <= 2 and texts[0]:  # one intent: which API it is for
            final = self._apis.weigh(
                final,
                texts[0],
                cfg,
                lexical={(op.service, op.id): op.bm25_score or 0.0 for op in operations},
                chunks=lambda: all_heads(self.store),
                embed=self.embed,
            )
        by_key = {(op.service, op.id): op for op in operations}
        # A copy only where the score moved: even a cheap copy costs more than the rest of this loop.
        rescored = [
            op if (score := final.get(key, op.score)) == op.score else op.with_score(score)
            for key, op in by_key.items()
        ]
        rescored += self._producer_hits({key: s for key, s in final.items() if key not in by_key}, allowed)
        rescored.sort(key=lambda op: (-op.score, op.service, op.id))
        if not auto:
            return rescored, lifted
        keep = set()
        ratio = cfg.auto_ratio if len(per_text) > 1 else cfg.auto_ratio_whole
        for scores in per_text[1:] if len(per_text) > 1 else per_text:
            best = max(scores.values(), default=0.0)
            kept_here = {key for key, score in scores.items() if score >= ratio * best}
            if cfg.auto_producers and lifting and needs and not plan:
                kept_here |= self._needed_producers(kept_here, scores, own=own)
            keep |= kept_here
        kept = [op for op in rescored if (op.service, op.id) in keep]
        return kept or rescored[:1], lifted

    def _verbs(self) -> Mapping[str, frozenset[str]]:
        """The verb rules the settings read (`actions.py`): with the catalog's and the command verbs or without."""
        return verb_lexicon(catalog=self.settings.catalog_verbs, commands=self.settings.command_verbs)

    def _lead_ins(self) -> frozenset[str]:
        """The words the settings skip before a clause's verb."""
        return lead_ins(contractions=self.settings.verb_contractions)

    def _single_intent(self, query: str) -> str | None:
        """The one piece of `query` that asks for an action, or None (several, or none found)."""
        cfg = self.settings
        return single_intent(
            query,
            min_own_words=cfg.focus_min_words,
            split_and=cfg.split_and,
            connectives=cfg.connectives,
            context_rule=cfg.context_rule,
            sentence_units=cfg.sentence_units,
            wish_requirements=cfg.wish_requirements,
            join_details=cfg.join_details,
        )

    def _settle_share(self, query: str | None) -> float:
        """How close to the best `settle_first` moves an operation first: `settle_share`, or
        `settle_share_conversation` for a request written as a conversation."""
        cfg = self.settings
        if cfg.settle_share_conversation is None or not query:
            return cfg.settle_share
        is_talk = conversational(
            query, context_rule=cfg.context_rule, wish_requirements=cfg.wish_requirements
        )
        return cfg.settle_share_conversation if is_talk else cfg.settle_share

    def _one_desk(self, query: str | None) -> bool:
        """Whether a request of many intents is still addressed to one API: written as a
        conversation (`coherence_conversations`), not as a plan listing its steps."""
        cfg = self.settings
        return (
            bool(query)
            and cfg.coherence_conversations
            and conversational(query, context_rule=cfg.context_rule, wish_requirements=cfg.wish_requirements)
        )

    def _favour_named_apis(self, operations: list[OperationHit], query: str) -> list[OperationHit]:
        """`operations` with those of APIs the query does not name scaled by `other_api_factor`,
        when it names any (`providers.py`)."""
        if self._api_names is None:
            self._api_names = api_names(self._scan().service_titles)
        named = named_services(query, self._api_names)
        if not named:
            return operations
        factor = self.settings.other_api_factor
        scaled = [op if op.service in named else op.with_score(op.score * factor) for op in operations]
        return sorted(scaled, key=lambda op: (-op.score, op.service, op.id))

    def _folded(self, operations: list[OperationHit], chunks: dict[str, Chunk]) -> list[OperationHit]:
        """`operations` with copies from other services folded (`fold_duplicates`; near-copies too
        below `fold_similarity` 1)."""
        missing = [op.chunk_ids[0] for op in operations if op.chunk_ids and op.chunk_ids[0] not in chunks]
        known = {**chunks, **{c.id: c for c in read_heads(self.store, missing)}} if missing else chunks
        return fold_duplicates(
            operations,
            lambda chunk_id: getattr(known.get(chunk_id), "embed_text", None),
            self.settings.fold_similarity,
        )

    def _needed_producers(self, ops: set[OpKey], scores: dict[OpKey, float], *, own: bool) -> set[OpKey]:
        """For each of `ops` and each entity it needs, the producer `propagate` would lift."""
        graph = self._dependency_graph()
        search_first = self.settings.search_first
        return {
            best_producer(group, scores, own=own, search_first=search_first)
            for op in ops
            for group in graph.needs(op)
        }

    def _producer_hits(self, scores: dict[OpKey, float], allowed: list[str] | None) -> list[OperationHit]:
        """Operation hits for lifted producers that no retriever had returned."""
        # The first of the operation's chunks the filter allows: with several views per operation
        # (CRAFT), a producer lifted in one view's search is that view's chunk.
        if not scores:
            return []
        permitted = None if allowed is None else set(allowed)
        ids = {}
        for key in scores:
            chunk_id = next(
                (c for c in self._op_chunks.get(key, ()) if permitted is None or c in permitted), None
            )
            if chunk_id is not None:
                ids[chunk_id] = key
        hits = []
        for chunk in read_heads(self.store, list(ids)):
            service, op_id = ids[chunk.id]
            method, _, path = op_id.partition(" ")
            hits.append(
                OperationHit(
                    service=service,
                    method=method,
                    path=path,
                    id=op_id,
                    score=scores[(service, op_id)],
                    summary=summary_of(chunk, op_id),
                    chunk_ids=(chunk.id,),
                )
            )
        return hits

    def _expand(self, operations: Sequence[OperationHit], hits: Sequence[Hit]) -> list[OperationHit]:
        if not self._scan().has_links:  # a `compact` or `endpoint` index: nothing to attach
            return list(operations)
        by_id = {hit.chunk_id: hit for hit in hits}
        cache: dict[str, Any] = {}
        expanded = []
        missing = [c for op in operations for c in op.chunk_ids if c not in by_id]
        for chunk in read_heads(self.store, missing):  # chunks of lifted producers
            by_id[chunk.id] = Hit.of(chunk, 0.0)
        for op in operations:
            own = [by_id[chunk_id] for chunk_id in op.chunk_ids if chunk_id in by_id]
            linked = expand_links(own, self.store, cache=cache)[len(own) :]
            expanded.append(replace(op, linked=tuple(linked)))
        return expanded


def _best_of(lists: Sequence[Ranked]) -> Ranked:
    """Each id at its best score over the lists, best first."""
    best: dict[str, float] = {}
    for ranked in lists:
        for item_id, score in ranked:
            if score > best.get(item_id, float("-inf")):
                best[item_id] = score
    return rank(best.items())


def _best_scores(per_text: Sequence[dict[OpKey, float]]) -> dict[OpKey, float]:
    """Each operation at its best score over the texts' scores."""
    best: dict[OpKey, float] = {}
    for scores in per_text:
        for key, score in scores.items():
            best[key] = max(best.get(key, score), score)
    return best


def _operation_scores(ranked: Ranked, chunks: dict[str, Chunk]) -> dict[OpKey, float]:
    """Each operation at its best chunk's score in one ranked chunk list."""
    scores: dict[OpKey, float] = {}
    for chunk_id, score in ranked:
        chunk = chunks.get(chunk_id)
        if chunk is None or chunk.kind in LINK_KINDS:
            continue
        for op_id in chunk.operations:
            key = (chunk.service, op_id)
            if score > scores.get(key, float("-inf")):
                scores[key] = score
    return scores
