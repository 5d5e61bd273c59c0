"""Every switch and constant of the search pipeline, as one frozen, recorded object.

An index is built and answered with one `SearchSettings`: `Index.build` saves it in the index
manifest, `Index.open` reads it back, so an index answers with the settings it was built with
unless the caller passes others. Ablations (`scripts/ablation_quality.py`) vary these fields, never
module globals. A field's docstring says what it does and why its default was kept; a default is
kept only when it wins on the tuning halves and loses nowhere on the reporting halves by more than
.01 (`openapi_rag.bench.halves`).

    >>> SearchSettings().dense_weight
    1.25
    >>> SearchSettings().replace(clauses=False).clauses
    False
    >>> SearchSettings(clauzes=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 1 validation error for SearchSettings...
"""

from __future__ import annotations

import logging
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

logger = logging.getLogger(__name__)


class SearchSettings(BaseModel):
    """How `Searcher` ranks operations (frozen: change one with `replace`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # ---- fusion --------------------------------------------------------------------------------
    fusion: Literal["minmax", "rrf"] = "minmax"
    """Hybrid fusion: a convex combination of min-max normalised scores, or reciprocal rank fusion."""
    dense_weight: float = Field(1.25, ge=0)
    """Weight of the dense list in hybrid mode (RestBench R@10 .815 → .824 over equal weights;
    SOCBench-D within ±.003)."""
    bm25_weight: float = Field(1.0, ge=0)
    """Weight of the BM25 list in hybrid mode."""
    static_weight: float = Field(0.0, ge=0)
    """Weight of a second embedder's list (`views.py`: an index built with `index --second-embedder
    NAME`, which sets 1.25) as a third list in hybrid mode; 0: not read. Off by default: wordllama won
    no realworld tuning half; minilm-users wins every tuning half but loses RestBench's reporting
    half by .01 or more at .5, 1 and 1.25 (README "The fine-tuned embedder as a second list")."""
    static_scope: Literal["every", "whole", "one_intent", "intents", "sentences"] = "sentences"
    """Which texts of a request the second embedder's list serves (with `static_weight` > 0), the
    others fused from dense and BM25 alone; only the texts it serves are embedded by the second
    model. "every": every text with a dense side (the whole request and each clause); "whole": the
    whole request's text only (none for a request of `whole_query_clauses` clauses or more, whose
    whole text has no dense side); "one_intent": every text of a request naming one intent (no
    clauses, its focused intent included) and none of a request naming several; "intents": the
    pieces that each ask for one action only (clauses, a focused intent), never a whole request,
    which may need several operations (the second model was trained on one operation's requests).
    The scope of every second list (with `static_weight` 0, the default index's, it changes
    nothing). Under rule 3 against no second list, "intents" passes at 1, 1.25, 1.5 and 2 (tuning halves'
    mean R@5 + MRR +.014 at 1.25; worst reporting change −.004; long requests' R@5 .757 → .892);
    "every", "whole" and "one_intent" fail at every weight tried: RestBench's losses are
    one-sentence requests needing several operations, which they serve (reporting R@1 −.010, R@10
    −.013 to −.023). "sentences" (session 14): as "intents", and the whole text of a request of
    one sentence and one intent (no clause, no focus) too, where realworld's gain is; with
    `static_whole_weight` .5 realworld reporting R@5 .488 → .547, MRR .379 → .414 and 40 fresh
    one-sentence requests MRR +.029 [+.008, +.059], but RestBench's reporting R@1 .365 → .355 (one
    request, `tmdb-034`, whose first place came from a tie) fails the rule by .0004. Session 18,
    with `static_whole_named` False (a request naming a particular thing is not served whole) and
    the whole text at .75, it passes: the default since (docs/discovery.md "Session 18"). "intents"
    was the default before. README "The fine-tuned embedder as a second list"."""
    static_whole_weight: float | None = Field(1.25, ge=0)
    """Weight of the second embedder's list on a whole request's text where `static_scope` serves
    it ("every", "whole", "one_intent", "sentences"); None: `static_weight`. With "sentences",
    .25 / .5 / .75 / 1.25 gave realworld reporting R@5 .516 / .547 / .575 / .598 (.488 without)
    and RestBench reporting R@10 .874 / .877 / .874 / .864 (.887 without); with
    `static_whole_named` False (session 18), .5 / .75 / 1.25 passed / passed / failed rule 3 (tuning
    halves +.0010 / +.0022 / +.0096, worst reporting change RestBench R@10 −.006 / −.006 / −.012):
    .75 was the default from then to session 20. With session 20's retrained model (session 21,
    rule 3 again): .5 / 1.25 / 1.5 / 1.75 / 2 / 3 gave tuning halves −.0077 / +.0161 / +.0180 /
    +.0190 / +.0180 / +.0232 and worst reporting changes realworld R@10 −.028 / RestBench R@10
    −.006 / −.0100 at 1.5, 1.75 and 2 (one request, just past the rule's .01) / RestBench MRR −.018;
    1.25, the largest that passes, is
    the default (realworld reporting R@5 .612 → .678, MRR .463 → .503; docs/discovery.md
    "Session 21"). It was None (`static_weight`) before session 14."""
    static_whole_named: bool = False
    """With `static_scope` "sentences": whether a one-sentence request that names a particular thing
    (`dependencies.names_something`: a quoted title, or a capitalised word that is no API's name:
    "the first movie of Star Wars collection") is served whole too. False (the default, session 18)
    leaves such a request to the two lists and the named-search rules fitted for it; the second
    model was trained on requests in goal words, which name an API at most. True is "sentences"
    as session 14 measured it (fails rule 3 on RestBench R@1 by .0004)."""
    static_flat_weight: float | None = Field(10.0, ge=0)
    """Weight of the second embedder's list on a whole request's text whose words single out no
    operation (`flat_gap`), where `static_scope` "sentences" serves it, a request naming a
    particular thing too; None or 0: off (the whole text at `static_whole_weight`, as gated). A
    request in an API's own words has a clear BM25 winner ("Get a playlist's tracks"); one in a
    user's words ("kick someone out of my server") spreads its BM25 scores over many operations,
    and there the model fine-tuned on users' words should lead. Session 23, rule 3 against the
    shipped default (weight @ gap): 10 @ .02 / .05 / .1 / .2, 5 @ .05, 3 @ .1 gave tuning halves
    +.0203 / +.0248 / +.0260 / +.0226 / +.0206 / +.0173, worst reporting change RestBench R@10
    −.006 / R@10 −.006 / R@5 −.020 / R@5 −.030 / MRR −.008 / R@5 −.007: 10 @ .05, the best that
    passes, is the default (realworld reporting R@1 .341 → .438, R@5 .678 → .721, R@10 .757 →
    .813, MRR .503 → .582; 40 fresh one-sentence requests MRR +.078 [+.003, +.163]; on the APIs
    held out of the second model's training, 47 tasks, MRR .626 → .634; docs/discovery.md
    "Session 23"). An index recorded before it has none (`RECORDED_BEFORE`)."""
    flat_gap: float = Field(0.05, ge=0, le=1)
    """With `static_flat_weight`: a whole request's words are flat when BM25's best chunk scores
    less than this share above its second, (s1 - s2) / s1 (no chunk: flat; one: not)."""
    flat_apart: bool = False
    """With `static_flat_weight`: a whole request whose dense and BM25 lists put chunks of different
    APIs first counts as flat too (the two retrievers disagree on which API it is for). Off: under
    rule 3 (session 24) tuning halves +.0049 (realworld tuning R@1 +.029, MRR +.037), worst reporting
    change ToolAlpaca R@1 and R@5 −.010 (one request of 100: at the rule's edge); on the realworld tasks
    of the APIs held out of the second model's training nothing moves (47 tasks), so the gain is the
    model's own domain, and the one set outside it (ToolAlpaca) loses."""
    flat_pieces: bool = False
    """With `static_flat_weight`: a clause or a focused intent whose words are flat takes the second
    list at that weight too (not only a one-sentence request's whole text). Off: under rule 3
    (session 23) tuning halves +.0112, realworld reporting R@1 +.014, MRR +.021, ToolAlpaca R@5 +.020,
    but RestBench's reporting MRR −.011 and StableToolBench's R@5 −.010."""
    view_weight: float = Field(0.0, ge=0)
    """Weight of the short views' list (`views.py`, each chunk at its best view; an index built
    with `compact`'s `views=True`) as a third list in hybrid mode; 0: not read. Off: at .5 it won
    realworld's reporting R@5 (.478 → .509) but lost R@1 there (.262 → .243) and on the long
    requests (.514 → .378), and RestBench's tuning MRR (.730 → .694)."""
    jargon_weight: float = Field(0.0, ge=0)
    """Weight of the lexicon's user words as a list of their own in hybrid mode (a BM25 over the
    chunks' `jargon_text` alone, an index built with `compact`'s `jargon_list`; `chunking/jargon.py`);
    0: not read. Their own index keeps the main BM25's word weights as they are."""
    jargon_flat_weight: float | None = Field(None, ge=0)
    """The lexicon's list's weight on a whole request whose words are flat (`flat_gap`: no operation
    holds them, the request is in a user's words), where the bridge from the user's words is wanted
    and BM25's own list says little; None: `jargon_weight` there too. Off: under rule 3 (session
    24, against the same index with the list unread) at 1 tuning halves +.0097 (one long request),
    worst reporting change −.002, realworld's tuning half level (R@10 −.005, MRR +.001); the
    confirmation sets do not move (one-sentence MRR +.010 [+.001, +.021], long R@5 −.033)."""
    view_pool: bool = False
    """A chunk's dense score is its best over its own vector and its short views' (`views.py`;
    an index built with `compact`'s `views=True`). Off, with the views: they failed the rule
    (`chunking/compact.py` VIEWS)."""
    rrf_k: int = Field(60, ge=0)
    """The RRF rank constant (Cormack et al. 2009)."""
    fusion_depth: int = Field(50, ge=1)
    """How many chunks of each retriever's list the fusion reads: the min-max floor is the score at
    this rank (deeper chunks count as missing), and RRF counts ranks up to it. Fixed, so a query's
    order does not depend on k (a floor taken at the end of a list fetched deeper for a larger k
    would move every fused score)."""
    bm25_floor_zero: bool = False
    """Min-max fusion: when BM25's list holds every chunk sharing a word with the query (fewer than
    were fetched), the chunks it lacks score 0, so its normalisation starts at 0 rather than at its
    last item. Otherwise three near-equal scores of a rare word (1.226, 1.196, 1.196 for
    "following") become 1, 0 and 0, and the first outranks a dense first place ("stop following
    this band": `GET /me/following` before `DELETE /me/following`). Off: it wins the tuning halves
    by .002 only, and loses RestBench's reporting MRR (−.013) and R@1 (−.010) and ToolAlpaca's R@5
    (−.010); large catalogs' BM25 lists are rarely short, so realworld and long hardly move."""
    bm25_b: float = Field(0.9, ge=0, le=1)
    """BM25's length normalisation b, applied when the index is built (RestBench R@10 .832 → .842,
    P@5 .302 → .307 over .75; SOCBench-D within +.002)."""

    # ---- depth ---------------------------------------------------------------------------------
    fetch_factor: int = Field(5, ge=1)
    """Chunks fetched per retriever for k operations: max(min_fetch, k * fetch_factor), doubled
    while fewer than k operations come out."""
    min_fetch: int = Field(50, ge=1)
    """At least this many chunks per retriever (never fewer than `fusion_depth` are read)."""

    # ---- clauses -------------------------------------------------------------------------------
    clauses: bool = True
    """Also search the clauses of a request that names several actions (`clauses.py`)."""
    split_and: bool = True
    """Cut at "and" between two clauses."""
    connectives: bool = True
    """Cut at "along with", "as well as" and "while"."""
    intents_only: bool = True
    """Only sentences that ask for an action are intents: a sentence that only gives an
    identifier, a preference or context ("My account ID is 0123.", "Please make sure it is quick.")
    is not searched on its own (`context.py`)."""
    sentence_units: bool = True
    """A conversational request (several sentences, one of them context) is cut within a
    sentence only before a piece that opens with an action of its own (`clauses.intents`): there
    commas and "and" join dates, lists and names; a request that only lists its steps is cut as
    before. Kept on the tuning halves (ToolAlpaca R@5 .931 → .954; SOCBench-D R@5 .856 → .847);
    reporting halves lose nowhere by more than .01 (ToolAlpaca R@5 .890 → .915)."""
    context_rule: Literal["statement", "subject", "main_clause"] = "main_clause"
    """Which pieces give context (`context.is_context`): "main_clause", "statement" that also
    reads a main clause after a subordinate one ("Before I approve it, I need to know ..." asks),
    an indefinite subject ("One of our clients overpaid") and a verb after an adverb ("A table at
    our restaurant just paid"), and cuts before "so please ..."; "statement", any piece that asks
    for nothing (a statement, a subordinate clause, a courtesy); or "subject", the earlier rule (a
    subject word then a copula, or a courtesy). "statement" with `sentence_units`: tuning halves
    ToolAlpaca R@5 .904 → .954; reporting halves long requests R@5 .676 → .757, realworld R@1 .271
    → .262 (README, issue 18). "main_clause" over "statement", with `settle_first`: long requests'
    tuning half R@1 .533 → .600, MRR .661 → .688, nothing else moves; alone it costs the long
    tuning half MRR .644 → .638 (the intent it finds is read better only when the first result is
    settled)."""
    wish_requirements: bool = True
    """A wish that only asks for a requirement ("I want to make sure it's fully removed", "we need
    to ensure nothing is lost") gives context, like "please make sure ..." (`context.is_context`).
    Kept: tuning halves ToolAlpaca R@1 .734 → .743, MRR .865 → .872; nothing else moves on any half."""
    join_details: bool = False
    """A piece that only adds a detail to the intent before it ("Create a build hook for site
    blog-main. Call it cms-publish and point it at the main branch.", "... I'd like to know its
    name and genus.") is joined to that intent rather than searched as one of its own
    (`context.is_detail`). Off: tuning halves ToolAlpaca R@1 .743 → .752, realworld R@1 .345 →
    .350, but SOCBench-D R@5 .851 → .844; reporting halves long requests R@1 .595 → .541, SOCBench-D
    R@5 .814 → .805."""
    whole_query_clauses: int = Field(3, ge=1)
    """From this many clauses on, the dense side searches the clauses only (speed; recall unchanged)."""
    plan_clauses: int = Field(3, ge=1)
    """A query of this many clauses or more is a plan naming its steps: its clauses' lists get no
    lifted producers and `k="auto"` adds none."""

    focus_intent: bool = True
    """A request with one intent among sentences of context also searches that intent alone, like
    a clause (verb weighed, best score kept over it and the whole request): its words are not
    diluted by the context's in the embedding. Kept (with `focus_min_words` 3): tuning halves long
    requests R@1 .400 → .500, R@5 .800 → .867, MRR .562 → .644, ToolAlpaca unchanged; reporting
    halves lose nowhere (long requests R@1 .514 → .595, ToolAlpaca R@1 .620 → .630). Measured off
    in an earlier state of the code, it lost one long request of 37 at R@1."""
    focus_min_words: int = Field(3, ge=0)
    """The one intent is searched on its own (`focus_intent`) only when it names at least this many
    words of its own (`context.own_words`): "Can you fetch the list for me?" names nothing the
    context did not, and searched alone it ranks whatever lists anything first. 3 against 0: the
    ToolAlpaca tuning half R@5 .945 → .954, MRR .843 → .851 (back to no focus), long requests
    unchanged."""
    focus_whole_share: float = Field(1.0, ge=0, le=1)
    """For a request whose one intent is searched alone (`focus_intent`: one intent among sentences
    of context), the whole request's scores count at this share against the intent's: below 1, an
    operation the context pulls up ("He has enough balance" beside "Please book that leave") must
    beat the intent's best by the gap. Off (session 22): .9 passes rule 3 narrowly (tuning halves
    +.0039: long requests' R@5 +.033, one request; no reporting half loses: ToolAlpaca R@1 +.020,
    MRR +.013), .8 and .7 fail it (long requests' reporting R@1 −.027); on the fresh confirmation
    sets .9 changes nothing (long MRR +.002 [.000, +.006], short −.002 [−.013, +.006]), a gain below
    any interval, so the default keeps one rule fewer."""
    clause_core: bool = False
    """A clause (and the one intent of `focus_intent`) is searched without its identifiers and
    without an afterthought on what it should lead to (`context.core`: "Take site promo-2024
    offline so it stops serving pages" is searched as "Take site offline"); the whole request
    is searched as written. Off: tuning halves ToolAlpaca R@1 .743 → .748, R@5 .954 → .959, long
    requests R@5 .867 → .833; reporting half long requests R@1 .595 → .568."""
    clause_share: float = Field(1.0, ge=0, le=1)
    """A clause's scores count at this share against the whole request's: below 1, an operation
    that only one clause matches must beat the whole request's best by the gap (a safety net for
    a request split where it names one action in several sentences)."""

    # ---- action verbs --------------------------------------------------------------------------
    action_verbs: bool = True
    """Weigh a clause's action verb against the operation's method (`actions.py`)."""
    verb_mismatch: float = Field(0.9, ge=0, le=1)
    """Factor on a clause's score for an operation whose method its verb rules out."""
    catalog_verbs: bool = False
    """Also read the verbs real APIs use for changes (`actions.CATALOG_VERBS`: "set", "assign",
    "activate", ...) as a clause's verb."""
    command_verbs: bool = True
    """Also read commands that change something without saying how (`actions.COMMAND_VERBS`: "mark
    order 3321 as paid", "move the opportunity to closed-won") as a clause's verb: each rules out
    a plain read only. Kept (with `verb_contractions` and `settle_item`): tuning halves long requests
    R@1 .600 → .667, MRR .688 → .737, SOCBench-D R@10 .973 → .977; no reporting half moves. Each of the
    three alone off loses a long request's first place on the tuning half."""
    verb_contractions: bool = True
    """Skip what is left of "I'd", "we'll", "I'm" before a clause's verb (`actions.CONTRACTIONS`), so
    that "I'd like to record that payment" is read as "record" (kept with `command_verbs`)."""
    verb_single_intent: bool = False
    """A request with one intent among sentences of context ("We closed that account. Please
    cancel its feed.") has that intent's verb weighed against the whole request's list, as a
    clause's verb is against the clause's."""
    verb_offer_share: float = Field(0.8, ge=0, le=1)
    """The verb is weighed against what the catalog offers: other methods give way only when an
    operation with an allowed method scores at least this share of the clause's best (0: always,
    the verb as a rule that demotes every other method)."""

    settle_first: bool = True
    """For a request naming one action (one sentence, or one intent among context), the first
    result is an operation of the best one's API whose method the verb allows and whose resource
    the request names, when one scores at least `settle_share` of the best
    (`resources.settle_first`). Kept: tuning halves RestBench R@1 .292 → .329, MRR .730 → .776;
    ToolAlpaca R@1 .711 → .734; realworld R@1 .335 → .345; long requests R@1 .500 → .600 (with
    `context_rule` "main_clause"); reporting halves lose nowhere by more than .01 (RestBench R@1
    .343 → .365, MRR .805 → .829; realworld R@1 .262 → .252). Without the same-API condition it
    lost a long request's first place on the reporting half (R@1 .595 → .568)."""
    settle_share: float = Field(0.8, ge=0, le=1)
    """How close to the best an operation must score to be moved first by `settle_first` (.8
    against .85 and .9 on the tuning halves: long requests R@1 .600 against .567 and .567)."""
    settle_item: bool = True
    """With `settle_first`: a request naming one thing by its identifier ("opportunity opp_4410",
    "order #1234") with a verb that changes what exists (not a read, not only a create) settles on
    an operation on one item
    (`PATCH /opportunities/{id}` before `POST /opportunities`), where the head holds one
    (`resources.names_identifier`, `resources.is_item_path`). Kept with `command_verbs`; read for
    every verb but a create, it lost a long request's first place on the reporting half (R@1 .595
    → .541): a read names a parent or a filter as often as the thing itself."""
    settle_lifted: bool = True
    """With `settle_first`: a lifted producer (an operation scored as the input of a better one,
    `dependencies.propagate`, above anything its own words earned) may be moved first. False: not
    for a request that names no particular thing, where it is there because another operation needs
    its output and, moved first, stands where the request's own action belongs ("go back to the
    previous version of my app": `GET /v2/apps` before `POST /v2/apps/{app_id}/rollback`); a request
    naming a thing ("the birthday of the director of The Shawshank Redemption") starts with the search
    that turns the name into an identifier. Off: under rule 3 (session 24) no tuning half moves (gain
    0: it fails the rule's first half); reporting realworld R@1 +.009, long requests' R@1 +.027 and MRR
    +.014, nothing else. Read for every request, RestBench's reporting MRR fell .833 → .799."""
    settle_words: Literal["intent", "request"] = "request"
    """Where `settle_first` looks for the resource's words: the whole request (the context names
    the object as often as the intent does), or the intent alone (tuning halves ToolAlpaca R@1
    .734 → .725, MRR .865 → .860)."""

    # ---- query understanding, issue 18 items 5-6 (fourth pass) --------------------------------
    whole_dense_weight: float = Field(0.0, ge=0)
    """Weight of the whole request's dense list fused into each of its clauses' lists (0: off).
    Min-max fusion gives a clause's best a full score however poorly the clause matches; beside
    the whole request's meaning, an operation its intent and the request agree on rises. Only for
    a request whose whole text has a vector (fewer than `whole_query_clauses` clauses)."""
    mask_values: bool = False
    """Words holding a digit (identifiers, amounts, dates, versions: "INV-0310", "ord_3321",
    "200", "2023") are left out of the texts searched (embedded and BM25), not out of the texts
    read for verbs, resources and identifiers (`context.without_values`)."""
    mask_quoted: bool = False
    """Titles and values in quotes ("make a card for "update pricing page"", "the movie "Titanic"")
    are left out of the texts searched (embedded and BM25), not out of the texts read for verbs,
    resources and names (`context.without_quoted`). Off: under rule 3 (session 22) tuning halves
    +.0007, RestBench's reporting MRR −.012 and R@1 −.010 (two Spotify requests naming a playlist:
    "Play my playlist 'My Rock'", searched as "Play my playlist", puts the playlist's update
    first); long requests' R@5 +.027."""
    mask_names: bool = False
    """Particular things named by a capitalised word past a sentence's start ("assign this bug to
    Priya", "by Friday"), other than the catalog's API names and words in capitals, are left out of
    the texts searched (embedded and BM25), not out of the texts read for verbs, resources and names
    (`context.without_names`). Off: under rule 3 (session 23) tuning halves −.0031, RestBench's
    reporting MRR −.028 (its requests name films, people and playlists: "Who directed Inception?",
    searched as "Who directed?") and StableToolBench's R@5 −.022; realworld +.009–.010, long requests'
    R@5 +.027."""
    settle_share_conversation: float | None = Field(None, ge=0, le=1)
    """`settle_share` for a request written as a conversation (`clauses.conversational`: several
    sentences, one of them context); None: `settle_share`. There the whole request's scores are
    diluted by its context, so the gap between its best and the operation its one intent names
    says less than in a request of one sentence. Off: at .6 it passes the tuning rule (long
    requests' tuning R@1 .667 → .700, R@5 .867 → .900, nothing else moves) but a create of the
    named resource then comes first for a cancel ("cancel its bank feed connection": `POST
    /FeedConnections` before `POST /FeedConnections/DeleteRequests`, `tests/search/test_context.py`)."""

    # ---- dependencies --------------------------------------------------------------------------
    dependencies: bool = True
    """Lift the producer of an identifier one of the best operations needs (`dependencies.py`)."""
    generic_producers: bool = True
    """Count a service's `GET /search` and `GET /me` as producers too."""
    aliases_first: bool = True
    """Where `GET /me` exists, it alone produces the user."""
    search_first: bool = True
    """Of an entity's producers, lift a search first."""
    own_first: bool = True
    """For "my ...", lift a producer under `/me/` first."""
    named_search: bool = True
    """A task naming a thing lifts its best operation's service's search."""
    drop_negations: bool = True
    """Search a request without the actions it says not to take ("..., but don't delete it", "Don't
    kick them.", "without deleting its schedule": `context.without_negations`); a subject's own
    negation ("we don't want more invoices") stays. On by default since session 19: rule 3 passes
    (tuning halves +.0024: long requests' tuning R@1 +.033, "take site promo-2024 offline ..., but
    don't delete it" no longer puts `DELETE /sites/{site_id}` first; no reporting half moves);
    the confirmation sets, paired: one-sentence R@10 +.025 [0, +.075], long R@10 -.033 [-.100, 0]
    (one request at 9th place falls to 11th), MRR +.003 / -.002."""
    acronyms_name: bool = False
    """Read a word in capitals ("SSH", "IP", "TV") as naming a particular thing, as a capitalised
    word does (`dependencies.names_something`: named search, and the second list's whole-text gate);
    False (the default since session 19): it is a term, as in "only let SSH in from our office IP".
    Rule 3 (`scripts/ablation_quality.py --base "shipped default ("`): tuning halves +.0010 (RestBench
    tuning R@5 +.007); reporting halves realworld R@5 +.008, R@10 +.014, MRR +.006, RestBench R@1
    +.004, MRR +.008, R@5 -.006, R@10 -.008; the others unchanged."""
    lift_identified: bool = False
    """Lift producers for a request that gives an identifier (`dependencies.gives_identifier`:
    "ord_3321", "account ID 0123"); False (the default since session 19): none there, its consumer
    has the identifier at hand (issue 18: "a lifted producer enters only when the task needs its
    output"). Rule 3 passes by a hair: tuning halves +.0008 (long requests' tuning MRR +.006), no
    reporting half moves (`scripts/ablation_quality.py --base "shipped default ("`)."""
    producer_share: float = Field(0.9, ge=0, le=1)
    """A lifted producer's score relative to the consumer that needs it."""
    consumers: int = Field(20, ge=0)
    """How many of the best operations have their producers lifted."""

    # ---- named APIs ----------------------------------------------------------------------------
    other_api_factor: float = Field(0.7, ge=0, le=1)
    """When a request names an API of the catalog ("in Slack", `providers.py`), the operations of
    other APIs score this share of what they would (1: the name is not read). Chosen on the realworld
    tuning half (R@5 .510 → .524, MRR .404 → .420; .9: .515/.408, .5: .534/.418)."""

    api_coherence: float = Field(1.0, ge=0, le=1)
    """For a request of a few intents (two, up to a plan's `plan_clauses`), the operations of every
    API but the one that answers all of its intents best score this share of what they would
    (`coherence.py`; 1: off). A plan naming its steps often spans several services: not read (read
    there, SOCBench-D's reporting R@5 fell .814 → .799). Off: at .9 the tuning halves gain little
    (RestBench R@5 .681 → .688, ToolAlpaca MRR .872 → .874) and lose a realworld task (R@5 .549 →
    .544)."""
    coherence_conversations: bool = False
    """`api_coherence` also for a request of many intents written as a conversation (several
    sentences, one of them context: `clauses.conversational`), which a support desk reads as
    addressed to one API, unlike a plan listing its steps."""

    service_support: float = Field(0.0, ge=0, le=1)
    """For a request of one intent (no clause, or one focused intent), each operation's score is
    blended with its API's support in the head of the list (`services.py`): score × (1 − w + w ×
    share), share = the API's best `service_support_ops` scores among the `service_support_head`
    best operations, over the best-supported API's (0: off). Off: it lost R@1 on the realworld
    tuning half at every weight tried (.345 → .316 at .3) and long requests' reporting R@1 (.595 →
    .541)."""
    service_profile: float = Field(0.0, ge=0, le=1)
    """For a request of one intent, each operation's score is blended with how well its API's
    profile (title, tag names, operation summaries: `services.ServiceProfiles`) matches the
    request by BM25, as a share of the best API's: score × (1 − w + w × share) (0: off). Off: at
    .1 realworld's tuning R@5 .549 → .558, but ToolAlpaca's reporting R@1 .640 → .630."""
    service_profile_summaries: bool = True
    """An API's profile holds its operations' summaries as well as its title and tag names."""
    service_dense: float = Field(0.0, ge=0, le=1)
    """For a request of one intent, each operation's score is blended with its API's cosine to
    the request (the API's title and tag names, or its paths' resource words where it has no tag,
    embedded once per searcher), min-max scaled over the APIs: score × (1 − w + w × share)
    (`services.ServiceProfiles.dense_shares`; 0: off). Off: at .3 realworld's tuning R@1 .345 →
    .354, MRR .437 → .444, but ToolAlpaca's tuning MRR .872 → .857 and reporting R@5 .915 → .905."""
    lead_api_bm25: float = Field(0.0, ge=0, le=1)
    """For a request of one intent, the operations of the leading API (its best operation's) get
    this weight times their BM25 score over that API's operations alone, as a share of the best
    there, added to their score (`services.within_lead_api`; 0: off): inside one API the words
    that name its resources tell its operations apart, which a catalog-wide fusion flattens. The
    scores are the first BM25 pass's (no second pass). Off: it passes the rule at .05 by one or two
    queries (RestBench tuning MRR .776 → .785) while realworld's tuning half loses (R@1 .345 →
    .335, MRR .437 → .429); README "Which API, then which operation"."""
    service_support_ops: int = Field(3, ge=1)
    """How many of an API's best operations count towards its support (`service_support`)."""
    service_support_head: int = Field(30, ge=1)
    """How many of the best operations the support is read from (`service_support`): a fixed
    rank, so that the order does not depend on k."""

    # ---- k="auto" ------------------------------------------------------------------------------
    auto_ratio: float = Field(0.85, ge=0, le=1)
    """`k="auto"` keeps, per clause, operations scoring at least this share of the clause's best."""
    auto_ratio_whole: float = Field(0.6, ge=0, le=1)
    """`k="auto"` keeps, for a query searched whole, operations scoring at least this share of its best."""
    auto_producers: bool = True
    """`k="auto"` adds the producers its operations need."""
    auto_max: int = Field(20, ge=1)
    """`k="auto"` never returns more operations than this."""

    # ---- results -------------------------------------------------------------------------------
    fold_duplicates: bool = True
    """Return an operation that another service carries word for word once (`duplicates.py`)."""
    fold_similarity: float = Field(0.7, gt=0, le=1)
    """With `fold_duplicates`, also fold near-copies: the same `METHOD /path` whose words after it
    overlap a better-ranked one's by at least this share (Jaccard); 1: word-for-word copies only,
    as before session 16. .9, .8 and .7 all won on the tuning halves and lost nowhere
    (StableToolBench reporting R@5 .729 → .743, realworld tuning R@5 .563 → .573); .7 won most
    (one more long request in the first 10), and it is the one that folds Twilio's Chat into its
    older name, IP Messaging, where one copy adds a sentence the other lacks (overlap .77)."""

    @property
    def weighs_apis(self) -> bool:
        """Whether a request of one intent has its APIs weighed (`services.py`)."""
        return (
            self.service_support > 0
            or self.service_profile > 0
            or self.service_dense > 0
            or self.lead_api_bm25 > 0
        )

    def replace(self, **changes: Any) -> SearchSettings:
        """A copy with `changes` applied and checked (unknown names and bad values refused)."""
        return SearchSettings.model_validate({**self.model_dump(), **changes})

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump()

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> SearchSettings:
        """Settings read back from a manifest; None (an index written before settings were
        recorded) gives the defaults. A setting this version does not know (written by another
        version) is dropped with a warning rather than making the index unreadable."""
        data = dict(data or {})
        if data:  # recorded before a setting existed: it answers as it did then
            data = {**{k: v for k, v in RECORDED_BEFORE.items() if k not in data}, **data}
        unknown = sorted(set(data) - set(cls.model_fields))
        if unknown:
            logger.warning("ignoring search settings this version does not know: %s", ", ".join(unknown))
        return cls.model_validate({k: v for k, v in data.items() if k in cls.model_fields})


RECORDED_BEFORE: dict[str, Any] = {"static_flat_weight": None}
"""Settings whose default changed after indexes recorded their settings without them: a manifest
that records settings but not these answers with these values (the behaviour it was built with)."""

DEFAULT_SETTINGS = SearchSettings()
