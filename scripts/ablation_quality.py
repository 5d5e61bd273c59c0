"""Ablation of the search settings on RestBench, SOCBench-D (instance 1) and the realworld task set,
each split into its fixed tuning and reporting halves (`openapi_rag.bench.halves`).

Each row changes `SearchSettings` fields (and, for a few rows, how the index is built) from the
default; nothing else differs between rows. Metrics per query over the expected operations: R@1,
R@5, R@10 and MRR (the rank of the first expected operation found); RestBench is one index over
both APIs, SOCBench-D one index per domain, the realworld tasks one index over the whole realworld
corpus (opened from `--realworld-index`, built beforehand with `openapi-rag index
../shared/data/realworld --index DIR`), and the long conversational single-operation requests
(`long`, `benchmarks/realworld/long_tasks.jsonl`) over that same index.

The rule (issue 18): a change is adopted only when it wins on the tuning halves (mean R@5 + MRR
over the datasets) and loses nowhere on the reporting halves by more than .01 (R@1, R@5, R@10,
MRR of each dataset). The last column says whether the row's change passes it against the
default; for a "without X" row, "no" means X keeps its place.

    python scripts/ablation_quality.py [--data ../shared/data] [--rows default,without]
        [--realworld-index DIR] [--tasks benchmarks/realworld/tasks.jsonl] [--embedder minilm]
        [--long-tasks benchmarks/realworld/long_tasks.jsonl] [--realworld-data ../shared/data/realworld]
        [--more] [--second NAME] [--json OUT] [--base ROW]

Rows that chunk differently (`Row.chunking`) rebuild the realworld index in memory from
`--realworld-data` (loaded with the default cleaning, as `openapi-rag index` does); without it
their realworld cells are not run.

Embeddings go through the on-disk cache, so re-runs only pay for search.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openapi_rag.bench.bootstrap import bootstrap_ci
from openapi_rag.bench.halves import HALVES, half_of
from openapi_rag.chunking import get_strategy
from openapi_rag.clean import DEFAULT_STEPS
from openapi_rag.embed import get_embedder
from openapi_rag.index import Index
from openapi_rag.search import BM25Index
from openapi_rag.search.settings import DEFAULT_SETTINGS, SearchSettings
from openapi_rag.search.tokenize import ApiTokenizer
from openapi_rag.search.views import ViewVectors
from openapi_rag.spec import load_services

METRICS = ("R@1", "R@5", "R@10", "MRR")
HALF_NAMES = {"long": "realworld"}
"""Datasets whose halves are those `openapi-rag eval --dataset realworld --queries FILE` gives."""
DEPTH = 10


@dataclass(frozen=True)
class Row:
    """Search settings changed from the default, and how the index is built."""

    search: dict[str, Any] = field(default_factory=dict)
    strategy: str = "compact"
    chunking: dict[str, Any] = field(default_factory=dict)  # the strategy's parameters changed
    synonyms: bool = True  # the BM25 tokenizer's verb synonyms (index-time)
    static: str | None = None  # a second embedder's view of the chunks (`search/views.py`)


ROWS: dict[str, Row] = {
    # "default": the search settings' defaults, one embedder. A new index directory also holds the
    # second list (`views.DEFAULT_SECOND`), read as in the row "shipped default" below.
    "default": Row(),
    # session 18: the shipped default is "sentences" (whole at .75, not for a request naming a
    # thing); the rows below written against "intents" still name it, as they were measured
    "shipped default (second list on clauses, focused intents and one-sentence requests naming no thing)": Row(
        dict(static_weight=1.25), static="minilm-users"
    ),
    "shipped until session 18 (second list on clauses and focused intents, 1.25)": Row(
        dict(static_weight=1.25, static_scope="intents"), static="minilm-users"
    ),
    # session 14: the second list on a one-sentence request's whole text too (where the realworld
    # tasks' gain is), at its own weight
    **{
        f"second list on one-sentence requests too, whole at {w}": Row(
            dict(static_weight=1.25, static_scope="sentences", static_whole_weight=w), static="minilm-users"
        )
        for w in (0.25, 0.5, 0.75, 1.25)
    },
    # session 18: ... except a request naming a particular thing (`static_whole_named`)
    **{
        f"second list on one-sentence requests naming no thing, whole at {w}": Row(
            dict(
                static_weight=1.25, static_scope="sentences", static_whole_weight=w, static_whole_named=False
            ),
            static="minilm-users",
        )
        for w in (0.5, 0.75, 1.25, 1.5, 1.75, 2.0, 3.0)
    },
    # session 16: what a create or update is sent, named in its text (`compact.TAKES`)
    **{
        f"shipped, with request body fields ({n})": Row(
            dict(static_weight=1.25, static_scope="intents"), static="minilm-users", chunking=dict(takes=n)
        )
        for n in (5, 10)
    },
    **{
        f"near-copies folded ({j}), the shipped default otherwise": Row(
            dict(static_weight=1.25, static_scope="intents", fold_similarity=j), static="minilm-users"
        )
        for j in (0.9, 0.8, 0.7, 0.6, 0.5)
    },
    # session 17: the users' words for the API terms an operation contains, from the lexicon of API
    # jargon (`chunking/jargon.py`), read by BM25, and embedded too
    **{
        f"shipped, with API jargon in BM25 ({n})": Row(
            dict(static_weight=1.25, static_scope="intents"), static="minilm-users", chunking=dict(jargon=n)
        )
        for n in (8, 16)
    },
    "shipped, with API jargon in BM25 and the embedded line (16)": Row(
        dict(static_weight=1.25, static_scope="intents"),
        static="minilm-users",
        chunking=dict(jargon=16, jargon_embed=True),
    ),
    # ... and on a text of their own, searched as a list of its own (their own BM25: the main
    # BM25's word weights stay as they are)
    **{
        f"shipped, with API jargon as a list of its own ({w})": Row(
            dict(static_weight=1.25, static_scope="intents", jargon_weight=w),
            static="minilm-users",
            chunking=dict(jargon=16, jargon_list=True),
        )
        for w in (0.25, 0.35, 0.5, 1.0)
    },
    "without compact text (thin)": Row(strategy="thin"),
    "without min-max fusion (RRF)": Row(dict(fusion="rrf")),
    "with fusion depth 20": Row(dict(fusion_depth=20, min_fetch=20)),
    "with fusion depth 100": Row(dict(fusion_depth=100)),
    "with fusion depth 200": Row(dict(fusion_depth=200)),
    # fusion over the whole catalog (fusion_depth=10**6) takes ~1,000 s on the realworld index; run
    # it with --rows by adding it here (measured: realworld report R@5 .408 against the default's .464)
    "with equal dense and BM25 weights": Row(dict(dense_weight=1.0)),
    "with BM25's floor at 0 where its list is whole": Row(dict(bm25_floor_zero=True)),
    "with BM25 b = 0.75": Row(dict(bm25_b=0.75)),
    "without verb synonyms in BM25": Row(synonyms=False),
    "without clause splitting": Row(dict(clauses=False)),
    "without 'and' cuts": Row(dict(split_and=False)),
    "without 'along with', 'as well as', 'while' cuts": Row(dict(connectives=False)),
    "without dropping context sentences": Row(dict(intents_only=False)),
    "with the earlier context rule (a subject and a copula)": Row(dict(context_rule="subject")),
    "with the statement context rule (no main clauses)": Row(dict(context_rule="statement")),
    "without settling the first result (method and resource)": Row(dict(settle_first=False)),
    "with the first result settled from .85 of the best": Row(dict(settle_share=0.85)),
    "with the first result settled from .9 of the best": Row(dict(settle_share=0.9)),
    "with the resource read in the intent only": Row(dict(settle_words="intent")),
    "with the verbs real APIs use for changes": Row(dict(catalog_verbs=True)),
    "with verb mismatch .7": Row(dict(verb_mismatch=0.7)),
    "as before issue 18 items 5-6 (statement rule, no focus, no settling)": Row(
        dict(context_rule="statement", focus_intent=False, settle_first=False)
    ),
    "without sentences as units (the context rule alone)": Row(dict(sentence_units=False)),
    "without a request's one intent searched on its own": Row(dict(focus_intent=False)),
    "with the one intent searched alone however few words it names": Row(dict(focus_min_words=0)),
    "with the one intent searched alone from 4 words of its own": Row(dict(focus_min_words=4)),
    "with the earlier default (earlier context rule, no sentence units)": Row(
        dict(context_rule="subject", sentence_units=False, focus_intent=False, settle_first=False)
    ),
    "with the verb of a request's one intent weighed": Row(dict(verb_single_intent=True)),
    # issue 18 items 5-6, third pass: verbs read past contractions and commands, an item settled for an
    # identifier, requirement wishes as context (the default; rows "without ..."); the rest off
    "with clauses searched without identifiers and afterthoughts": Row(dict(clause_core=True)),
    "with details joined to their intent": Row(dict(join_details=True)),
    "with one API for a request's intents (others at .9)": Row(dict(api_coherence=0.9)),
    "with one API for a request's intents (others at .7)": Row(dict(api_coherence=0.7)),
    "with one API for a request's intents, conversations of any length (.9)": Row(
        dict(api_coherence=0.9, coherence_conversations=True)
    ),
    # issue 18 item 8: the API a request of one intent is for, read from the head of its list (`services.py`)
    "with API support from the head (.3, best 3 of 30)": Row(dict(service_support=0.3)),
    "with API support from the head (.1, best 2 of 30)": Row(
        dict(service_support=0.1, service_support_ops=2)
    ),
    "with API profiles matched by BM25 (.1)": Row(dict(service_profile=0.1)),
    "with API profiles matched by BM25 (.05)": Row(dict(service_profile=0.05)),
    "with API titles and tags matched by the embedder (.3)": Row(dict(service_dense=0.3)),
    "with API titles and tags matched by the embedder (.6)": Row(dict(service_dense=0.6)),
    "with the leading API's own BM25 list (.05)": Row(dict(lead_api_bm25=0.05)),
    "with the leading API's own BM25 list (.1)": Row(dict(lead_api_bm25=0.1)),
    "with the leading API's own BM25 list (.15)": Row(dict(lead_api_bm25=0.15)),
    "with the leading API's own BM25 list (.2)": Row(dict(lead_api_bm25=0.2)),
    "as before this pass (verbs read as before, no item settled, requirement wishes ask)": Row(
        dict(verb_contractions=False, command_verbs=False, settle_item=False, wish_requirements=False)
    ),
    "without requirement wishes as context": Row(dict(wish_requirements=False)),
    "without verbs read past contractions": Row(dict(verb_contractions=False)),
    "without commands read as changes": Row(dict(command_verbs=False)),
    "without an item settled for an identifier": Row(dict(settle_item=False)),
    # issue 18 items 5-6, fourth pass
    "with the whole request's dense list in its clauses' (weight .5)": Row(dict(whole_dense_weight=0.5)),
    "with the whole request's dense list in its clauses' (weight 1)": Row(dict(whole_dense_weight=1.0)),
    "with values (words holding a digit) not searched": Row(dict(mask_values=True)),
    # session 22: a conversation's whole text weighed below its one intent's
    **{
        f"shipped, with a conversation's whole text at {w} of its intent": Row(
            dict(static_weight=1.25, focus_whole_share=w), static="minilm-users"
        )
        for w in (0.9, 0.8, 0.7)
    },
    # session 22: quoted titles and values ("make a card for "update pricing page"") not searched
    "shipped, with quoted titles and values not searched": Row(
        dict(static_weight=1.25, mask_quoted=True), static="minilm-users"
    ),
    # session 23: the second list at W on a one-sentence request whose BM25 gap is under G (the default:
    # 10 over .05); the shipped default before it, and the other weights and gaps measured
    "shipped until session 22 (no flat-words rule)": Row(
        dict(static_weight=1.25, static_flat_weight=None), static="minilm-users"
    ),
    **{
        f"shipped, with the flat-words rule at {w} over gap {g}": Row(
            dict(static_weight=1.25, static_flat_weight=w, flat_gap=g), static="minilm-users"
        )
        for w, g in ((10, 0.02), (10, 0.1), (10, 0.2), (5, 0.05), (3, 0.1))
    },
    "shipped, with the flat-words rule on clauses and focused intents too": Row(
        dict(static_weight=1.25, flat_pieces=True), static="minilm-users"
    ),
    # session 23: names past a sentence's start ("assign this bug to Priya") not searched
    "shipped, with names not searched": Row(dict(static_weight=1.25, mask_names=True), static="minilm-users"),
    # session 24: the lexicon's list read only where a whole request's words are flat (the
    # flat-words gate of session 23), the base its index with the list unread
    "shipped, with API jargon listed but unread": Row(
        dict(static_weight=1.25), static="minilm-users", chunking=dict(jargon=16, jargon_list=True)
    ),
    **{
        f"shipped, with API jargon read on flat requests ({w})": Row(
            dict(static_weight=1.25, jargon_flat_weight=w),
            static="minilm-users",
            chunking=dict(jargon=16, jargon_list=True),
        )
        for w in (0.5, 1.0, 2.0)
    },
    # session 24: a whole request whose dense and BM25 lists lead with different APIs is flat too
    "shipped, with disagreeing lists read as flat words": Row(
        dict(static_weight=1.25, flat_apart=True), static="minilm-users"
    ),
    # session 24: a lifted producer not moved first where the request names no particular thing
    "shipped, with no lifted producer settled first": Row(
        dict(static_weight=1.25, settle_lifted=False), static="minilm-users"
    ),
    "with the first result settled from .7 of the best": Row(dict(settle_share=0.7)),
    "with the first result settled from .6 of the best": Row(dict(settle_share=0.6)),
    "with the whole request embedded up to 3 clauses": Row(dict(whole_query_clauses=4)),
    "with a conversation's first result settled from .7 of the best": Row(
        dict(settle_share_conversation=0.7)
    ),
    "with a conversation's first result settled from .6 of the best": Row(
        dict(settle_share_conversation=0.6)
    ),
    "with a conversation's first result settled from .5 of the best": Row(
        dict(settle_share_conversation=0.5)
    ),
    "with values not searched and the whole request's dense list (.5)": Row(
        dict(mask_values=True, whole_dense_weight=0.5)
    ),
    "with clauses at .9 of the whole request": Row(dict(clause_share=0.9)),
    "with clauses at .8 of the whole request": Row(dict(clause_share=0.8)),
    "without action verbs": Row(dict(action_verbs=False)),
    "with verbs demoting every other method": Row(dict(verb_offer_share=0.0)),
    "with verbs weighed at offer share .6": Row(dict(verb_offer_share=0.6)),
    "with verbs weighed at offer share .9": Row(dict(verb_offer_share=0.9)),
    "without dependency lifting": Row(dict(dependencies=False)),
    "without generic producers (GET /search, GET /me)": Row(dict(generic_producers=False)),
    "without GET /me first": Row(dict(aliases_first=False)),
    "without a search lifted first": Row(dict(search_first=False)),
    "without the caller's own list first for 'my'": Row(dict(own_first=False)),
    "without a search for a named thing": Row(dict(named_search=False)),
    "with producers lifted in a plan's clauses": Row(dict(plan_clauses=10**6)),
    "with producers of the best 3 operations only": Row(dict(consumers=3)),
    "with producers of the best operation only": Row(dict(consumers=1)),
    "without folding copies": Row(dict(fold_duplicates=False)),
    "without reading a named API (other APIs at 1.0)": Row(dict(other_api_factor=1.0)),
    # index-time text (`chunking/context.py`): realworld rows need --realworld-data to rebuild
    "without the tag's sentence embedded": Row(chunking=dict(embed_context=False)),
    "with the resource's sentence embedded": Row(chunking=dict(embed_resource=True)),
    "with tag and resource descriptions in BM25": Row(chunking=dict(context=True)),
    "without unwrapping envelope responses": Row(chunking=dict(unwrap=False)),
    "without header parameters embedded": Row(chunking=dict(headers=False)),
    "with 10 response fields": Row(chunking=dict(returns=10)),
    "as before issue 18 item 8 (no tag sentence, no unwrapping)": Row(
        chunking=dict(embed_context=False, unwrap=False)
    ),
    "with dense weight 1.5": Row(dict(dense_weight=1.5)),
    "with dense weight 2": Row(dict(dense_weight=2.0)),
    # issue 18 item 8, vocabulary: short views max-pooled (`search/views.py`), a second embedder (the rows
    # measured before `static_scope` existed serve every text, as then)
    "with short views max-pooled": Row(dict(view_pool=True), chunking=dict(views=True)),
    "with short views as a third list (weight .5)": Row(dict(view_weight=0.5), chunking=dict(views=True)),
    "with short views as a third list (weight 1)": Row(dict(view_weight=1.0), chunking=dict(views=True)),
    "with wordllama as a third list (weight .25)": Row(
        dict(static_scope="every", static_weight=0.25), static="wordllama"
    ),
    "with wordllama as a third list (weight .5)": Row(
        dict(static_scope="every", static_weight=0.5), static="wordllama"
    ),
    "with wordllama as a third list (weight 1)": Row(
        dict(static_scope="every", static_weight=1.0), static="wordllama"
    ),
    "with wordllama in place of MiniLM": Row(
        dict(static_scope="every", static_weight=1.25, dense_weight=0.0), static="wordllama"
    ),
    "with wordllama alone": Row(
        dict(static_scope="every", static_weight=1.0, dense_weight=0.0, bm25_weight=0.0), static="wordllama"
    ),
    # issue 18 item 7: the fine-tuned embedder as a second dense list beside the default's
    "with minilm-users as a third list (weight .5)": Row(
        dict(static_scope="every", static_weight=0.5), static="minilm-users"
    ),
    "with minilm-users as a third list (weight 1)": Row(
        dict(static_scope="every", static_weight=1.0), static="minilm-users"
    ),
    "with minilm-users as a third list (weight 1.25)": Row(
        dict(static_scope="every", static_weight=1.25), static="minilm-users"
    ),
    "with minilm-users sharing the dense weight": Row(
        dict(static_scope="every", static_weight=0.625, dense_weight=0.625), static="minilm-users"
    ),
    # issue 18: which texts of a request the second list serves (`SearchSettings.static_scope`)
    "with minilm-users for the whole request only (weight .75)": Row(
        dict(static_weight=0.75, static_scope="whole"), static="minilm-users"
    ),
    "with minilm-users for the whole request only (weight 1)": Row(
        dict(static_weight=1.0, static_scope="whole"), static="minilm-users"
    ),
    "with minilm-users for the whole request only (weight 1.25)": Row(
        dict(static_weight=1.25, static_scope="whole"), static="minilm-users"
    ),
    "with minilm-users for clauses and focused intents only (weight 1)": Row(
        dict(static_weight=1.0, static_scope="intents"), static="minilm-users"
    ),
    "with minilm-users for clauses and focused intents only (weight 1.25)": Row(
        dict(static_weight=1.25, static_scope="intents"), static="minilm-users"
    ),
    "with minilm-users for clauses and focused intents only (weight 1.5)": Row(
        dict(static_weight=1.5, static_scope="intents"), static="minilm-users"
    ),
    "with minilm-users for clauses and focused intents only (weight 2)": Row(
        dict(static_weight=2.0, static_scope="intents"), static="minilm-users"
    ),
    "with minilm-users for requests of one intent (weight .75)": Row(
        dict(static_weight=0.75, static_scope="one_intent"), static="minilm-users"
    ),
    "with minilm-users for requests of one intent (weight 1)": Row(
        dict(static_weight=1.0, static_scope="one_intent"), static="minilm-users"
    ),
    "with minilm-users for requests of one intent (weight 1.25)": Row(
        dict(static_weight=1.25, static_scope="one_intent"), static="minilm-users"
    ),
    # issue 18 item 8: a lifted producer enters only when the task needs its output; a request
    # that gives an identifier ("ord_3321", "account ID 0123") has it (the default since session 19;
    # row names hold no comma: --rows splits on them)
    "shipped default lifting producers for a request giving an identifier (until session 19)": Row(
        dict(static_weight=1.25, lift_identified=True), static="minilm-users"
    ),
    # session 19: a word in capitals ("SSH", "IP", "TV") is a term, not the name of a particular thing
    # (named search; the second list's gate on one-sentence requests naming a thing)
    "shipped default reading acronyms as names (until session 19)": Row(
        dict(static_weight=1.25, acronyms_name=True), static="minilm-users"
    ),
    # session 19: the actions a request says not to take are not searched ("but don't delete it")
    "shipped default searching the actions a request forbids (until session 19)": Row(
        dict(static_weight=1.25, drop_negations=False), static="minilm-users"
    ),
    # session 20: the second list's weight again, with the model retrained on a GPU (its own cosines)
    **{
        f"shipped default with the second list at {w}": Row(dict(static_weight=w), static="minilm-users")
        for w in (1.0, 1.5)
    },
    # session 21: the fine-tuned model first (run with --embedder minilm-users --second minilm): the
    # default MiniLM as the second list, serving every text or the shipped scope, at several weights
    **{
        f"swapped, second list on every text at {w}": Row(
            dict(static_weight=w, static_scope="every", static_whole_weight=None), static="minilm"
        )
        for w in (0.75, 1.25)
    },
    **{
        f"swapped, second list shipped scope, whole at {w}": Row(
            dict(static_weight=1.25, static_whole_weight=w), static="minilm"
        )
        for w in (1.25,)
    },
    # session 21: at the new whole-text weight, requests naming a thing served whole again
    "second list on one-sentence requests naming a thing too, whole at 1.25": Row(
        dict(static_weight=1.25, static_whole_weight=1.25, static_whole_named=True), static="minilm-users"
    ),
    # session 21: the first two lists' weights again, beside the second list at its new weight
    **{
        f"shipped default, lists weighed {name}": Row(dict(static_weight=1.25, **change), static="minilm-users")
        for name, change in (
            ("dense 1.0", dict(dense_weight=1.0)),
            ("bm25 0.75", dict(bm25_weight=0.75)),
            ("bm25 1.25", dict(bm25_weight=1.25)),
        )
    },
    # issue 18 item 8, a general thesaurus: WordNet aliases on a line only BM25 reads (`chunking/aliases.py`)
    "with WordNet aliases in BM25 (16, first sense)": Row(chunking=dict(aliases=16)),
    "with WordNet aliases in BM25 (16, two senses)": Row(chunking=dict(aliases=16, alias_senses=2)),
    "with WordNet aliases in BM25 (32, three senses)": Row(chunking=dict(aliases=32, alias_senses=3)),
    "with WordNet aliases and hypernyms in BM25 (16, first sense)": Row(
        chunking=dict(aliases=16, alias_hypernyms=True)
    ),
    # issue 18 item 8, learned sparse expansion: the words SPLADE-tiny (trained on MS MARCO's user
    # queries) says an operation implies, on a line only BM25 reads (`chunking/expansion.py`)
    "with SPLADE words in BM25 (4, weight 1.5)": Row(chunking=dict(expansion=4, expansion_min_weight=1.5)),
    "with SPLADE words in BM25 (8, weight 1)": Row(chunking=dict(expansion=8, expansion_min_weight=1.0)),
    "with SPLADE words in BM25 (16, weight .5)": Row(chunking=dict(expansion=16, expansion_min_weight=0.5)),
    "with SPLADE words in BM25 (8, weight 1, from the statements)": Row(
        chunking=dict(expansion=8, expansion_min_weight=1.0, expansion_source="statements")
    ),
    # issue 18 item 8, user-phrased views written by the local SmolLM2 at index time
    # (`chunking/llm_views.py`): ~5-7 s per operation on 2 cores, so ~20 h for the realworld corpus
    # the first time (replies are cached); README measures them on a subset catalog instead
    "with SmolLM2's user-phrased views in BM25": Row(chunking=dict(views_llm="local")),
    "with SmolLM2's user-phrased views in BM25 and as a third list (weight .5)": Row(
        dict(view_weight=0.5), chunking=dict(views_llm="local")
    ),
}


@dataclass
class Task:
    id: str
    text: str
    gold: list[set[str]]  # per expected operation: the qualified ids that count as finding it


@dataclass
class Group:
    services: list | None  # None: the realworld index, opened from disk
    tasks: list[Task]


def restbench(data: Path) -> list[Group]:
    services = load_services([data / "restbench" / "specs"]).services
    tasks = []
    for f in sorted((data / "restbench" / "datasets").glob("*.json")):
        for n, q in enumerate(json.loads(f.read_text()), 1):
            tasks.append(Task(f"{f.stem}-{n:03d}", q["query"], [{e} for e in dict.fromkeys(q["solution"])]))
    return [Group(services, tasks)]


def socbench(data: Path) -> list[Group]:
    groups = []
    root = data / "socbench-d" / "socbenchd_1"
    for domain in sorted(root.iterdir()):
        if domain.is_dir():
            queries = json.loads((domain / "queries.json").read_text())["queries"]
            name = f"{root.name}/{domain.name}"
            tasks = [
                Task(f"{name}/q{n:02d}", q["query"], [{e} for e in dict.fromkeys(q["endpoints"])])
                for n, q in enumerate(queries, 1)
            ]
            groups.append(Group(load_services([domain]).services, tasks))
    return groups


def realworld(tasks_file: Path) -> list[Group]:
    tasks = []
    for line in tasks_file.read_text().splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        expected, alternatives = item["expected"], item.get("alternatives", [])
        if len(expected) == 1:
            gold = [{expected[0], *alternatives}]
        else:  # one list of alternatives per expected operation
            per = alternatives if alternatives and isinstance(alternatives[0], list) else [[]] * len(expected)
            gold = [{e, *alts} for e, alts in zip(expected, per, strict=True)]
        tasks.append(Task(item["id"], item["query"], gold))
    return [Group(None, tasks)]


def toolalpaca(data: Path, name: str = "toolalpaca") -> list[Group]:
    """ToolAlpaca's real and simulated evaluation sets as `openapi-rag eval --dataset toolalpaca`
    reads them: one index over its 21 APIs (`name`: another dataset of `../shared/data/extra` read
    the same way, `stabletoolbench` or `nestful`)."""
    from openapi_rag.bench import load_dataset

    groups = []
    for group in load_dataset(name, [data / "extra" / name]).groups:
        tasks = [
            Task(q.id, q.text, [set(e.matches) for e in q.gold if e.matches])
            for q in group.queries
            if any(e.matches for e in q.gold)
        ]
        groups.append(Group(group.services, tasks))
    return groups


def found_ids(hit: Any) -> set[str]:
    """The ids a hit stands for: `METHOD /path` and `service METHOD /path`, its folded copies too."""
    return {hit.id, *(f"{service} {hit.id}" for service in (hit.service, *hit.also_in))}


def score(ranked: list[set[str]], gold: list[set[str]]) -> dict[str, float]:
    ranks = [next((r for r, ids in enumerate(ranked, 1) if ids & entry), None) for entry in gold]
    out = {f"R@{k}": sum(1 for r in ranks if r is not None and r <= k) / len(gold) for k in (1, 5, 10)}
    first = min((r for r in ranks if r is not None), default=None)
    out["MRR"] = 1.0 / first if first else 0.0
    return out


class Runner:
    """Builds each index once per build option and searches it with each row's settings."""

    def __init__(self, embedder: Any, realworld_index: Path | None, realworld_data: Path | None = None):
        self.embedder = embedder
        self.realworld_index = realworld_index
        self.realworld_data = realworld_data
        self._realworld_services: list | None = None
        self._built: dict[tuple, Index] = {}
        self.last_rows: dict[str, list[dict[str, float]]] = {}  # the last evaluation's per-query scores

    def index(self, dataset: str, n: int, group: Group, row: Row, settings: SearchSettings) -> Index:
        # the long tasks search the realworld index too: open it once
        key = (
            dataset if group.services is not None else "realworld",
            n,
            row.strategy,
            tuple(sorted(row.chunking.items())),
            row.synonyms,
            settings.bm25_b,
            row.static,
        )
        if key not in self._built:
            strategy = get_strategy(row.strategy, **row.chunking)
            if group.services is None and not row.chunking:
                assert self.realworld_index is not None
                index = Index.open(self.realworld_index)
            elif group.services is None:  # the realworld corpus chunked another way, loaded as `index` does
                if self._realworld_services is None:
                    assert self.realworld_data is not None
                    loaded = load_services([self.realworld_data], clean=DEFAULT_STEPS)
                    self._realworld_services = loaded.services
                index = Index.build(
                    self._realworld_services, strategy=strategy, embedder=self.embedder, static=None
                )
            else:
                index = Index.build(group.services, strategy=strategy, embedder=self.embedder, static=None)
            if not row.synonyms or settings.bm25_b != index.searcher.settings.bm25_b:
                bm25 = BM25Index.from_chunks(
                    index.store.chunks(), tokenizer=ApiTokenizer(synonyms=row.synonyms), b=settings.bm25_b
                )
                index = Index(
                    manifest=index.manifest,
                    store=index.store,
                    bm25=bm25,
                    embedder=index.embedder,
                    directory=index.directory,
                    views=index.views,
                )
            if row.static:  # through the embedding cache: every row and re-run after the first reads it
                chunks = list(index.store.chunks())
                index.searcher.static = ViewVectors.of_embedder(row.static, chunks, cache=True)
            self._built[key] = index
        index = self._built[key]
        index.searcher.configure(settings)
        return index

    def evaluate(self, dataset: str, groups: list[Group], row: Row) -> dict[str, dict[str, float]]:
        """Mean metrics per half (each query weighs the same)."""
        settings = DEFAULT_SETTINGS.replace(**row.search)
        per_half: dict[str, list[dict[str, float]]] = {half: [] for half in HALVES}
        for n, group in enumerate(groups):
            rebuildable = row.strategy == "compact" and (not row.chunking or self.realworld_data)
            if group.services is None and not rebuildable:  # the realworld index is as built
                return {half: dict.fromkeys(METRICS, float("nan")) for half in HALVES}
            index = self.index(dataset, n, group, row, settings)
            for task in group.tasks:
                hits = index.search(task.text, k=DEPTH, expand=False)
                per_half[half_of(HALF_NAMES.get(dataset, dataset), task.id)].append(
                    score([found_ids(h) for h in hits], task.gold)
                )
        self.last_rows = per_half
        return {
            half: {m: statistics.fmean(r[m] for r in rows) for m in METRICS}
            for half, rows in per_half.items()
            if rows
        }


def adopted(
    row: dict[str, dict[str, dict[str, float]]], base: dict[str, dict[str, dict[str, float]]]
) -> bool:
    """The tuning rule: wins on the tuning halves, loses by no more than .01 on any reporting half."""
    gain = statistics.fmean(
        (row[d]["tune"]["R@5"] + row[d]["tune"]["MRR"]) - (base[d]["tune"]["R@5"] + base[d]["tune"]["MRR"])
        for d in base
    )
    worst = min(row[d]["report"][m] - base[d]["report"][m] for d in base for m in METRICS)
    return gain > 0 and worst >= -0.01  # NaN (a row a dataset cannot run) compares False: not adopted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    repo = Path(__file__).resolve().parents[1]
    parser.add_argument("--data", type=Path, default=repo / ".." / "shared" / "data")
    parser.add_argument("--rows", help="comma-separated row-name prefixes to run (default: all)")
    parser.add_argument("--realworld-index", type=Path, help="index of the whole realworld corpus")
    parser.add_argument("--tasks", type=Path, default=repo / "benchmarks" / "realworld" / "tasks.jsonl")
    parser.add_argument(
        "--realworld-data", type=Path, help="the realworld corpus, for rows that chunk it another way"
    )
    parser.add_argument(
        "--embedder", default="minilm", help="embedder of every index (the realworld one: as it was built)"
    )
    parser.add_argument(
        "--second", help="the second embedder of rows that have one (default: each row's own)"
    )
    parser.add_argument("--json", type=Path, help="also write every row's halves here, for comparing runs")
    parser.add_argument(
        "--base",
        default="default",
        help="prefix of the row the rule compares the others with, run first (default: 'default')",
    )
    parser.add_argument(
        "--long-tasks",
        type=Path,
        default=repo / "benchmarks" / "realworld" / "long_tasks.jsonl",
        help="long conversational single-operation requests over the realworld index (dataset `long`)",
    )
    parser.add_argument(
        "--more",
        action="store_true",
        help="also StableToolBench and NESTFUL (../shared/data/extra; none of the defaults was chosen on them)",
    )
    args = parser.parse_args()
    wanted = [r.strip() for r in args.rows.split(",")] if args.rows else None
    datasets = {"restbench": restbench(args.data), "socbench-d": socbench(args.data)}
    if (args.data / "extra" / "toolalpaca").is_dir():
        datasets["toolalpaca"] = toolalpaca(args.data)
    for name in ("stabletoolbench", "nestful") if args.more else ():
        if (args.data / "extra" / name).is_dir():
            datasets[name] = toolalpaca(args.data, name)
    if args.realworld_index and args.tasks.is_file():
        datasets["realworld"] = realworld(args.tasks)
        if args.long_tasks.is_file():
            datasets["long"] = realworld(args.long_tasks)
    else:
        print("realworld skipped: pass --realworld-index (and --tasks)", file=sys.stderr)
    runner = Runner(get_embedder(args.embedder), args.realworld_index, args.realworld_data)
    header = (
        "| configuration | "
        + " | ".join(f"{d} {h} {m}" for d in datasets for h in HALVES for m in METRICS)
        + " | adopt? |"
    )
    print(header)
    print("|" + "---|" * (2 + len(datasets) * len(HALVES) * len(METRICS)))
    base = None
    results: dict[str, Any] = {}
    intervals: dict[str, dict[str, dict[str, tuple[float, float]]]] = {}  # row -> dataset -> metric
    base_name = next((name for name in ROWS if name.startswith(args.base)), None)
    if base_name is None:
        sys.exit(f"--base {args.base!r}: no row of that name")
    order = [base_name, *(name for name in ROWS if name != base_name)]
    for name, row in ((name, ROWS[name]) for name in order):
        if wanted and name != base_name and not any(name.startswith(w) for w in wanted):
            continue
        if args.second and row.static:
            row = dataclasses.replace(row, static=args.second)
        started = time.time()
        result = {}
        for d, groups in datasets.items():
            result[d] = runner.evaluate(d, groups, row)
            rows = runner.last_rows.get("report", [])  # 95% bootstrap intervals of the reporting halves
            if rows and not any(v != v for v in result[d]["report"].values()):  # NaN: not run
                intervals.setdefault(name, {})[d] = {m: bootstrap_ci([[r[m] for r in rows]]) for m in METRICS}
        base = base or result
        cells = [f"{result[d][h][m]:.3f}" for d in datasets for h in HALVES for m in METRICS]
        verdict = "" if result is base else ("yes" if adopted(result, base) else "no")
        print(f"| {name} | " + " | ".join(cells) + f" | {verdict} |", flush=True)
        print(f"  ({time.time() - started:.0f} s)", file=sys.stderr)
        results[name] = result
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    for name, by_dataset in intervals.items():
        print(f"\n{name}, reporting halves, 95% bootstrap intervals:")
        for d, by_metric in by_dataset.items():
            print(
                f"  {d}: " + ", ".join(f"{m} [{low:.3f}, {high:.3f}]" for m, (low, high) in by_metric.items())
            )


if __name__ == "__main__":
    main()
