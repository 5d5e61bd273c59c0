"""`openapi-rag index --second-embedder`: another model's list fused beside the first's, kept by
updates, dropped on request, and never a way for an index to reach a remote model unasked."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from click.testing import CliRunner

from openapi_rag.cli import cli
from openapi_rag.errors import RemoteNotConfigured
from openapi_rag.index import Index, build_index
from openapi_rag.search.settings import SearchSettings
from openapi_rag.search.views import SECOND_EMBEDDER_WEIGHT, STATIC_DIR

from .conftest import CATALOG


@pytest.fixture()
def spotify(tmp_path):
    folder = tmp_path / "specs"
    folder.mkdir()
    shutil.copy(CATALOG / "spotify.json", folder)
    return folder


def test_second_list_is_built_recorded_kept_and_dropped(spotify, tmp_path):
    target = tmp_path / "idx"
    runner = CliRunner()
    result = runner.invoke(
        cli, ["index", str(spotify), "-i", str(target), "--second-embedder", "minilm-users"]
    )
    assert result.exit_code == 0, result.output
    index = Index.open(target)
    assert index.static is not None and index.static.embedder.model_id == "all-MiniLM-L6-v2-users-onnx-int8"
    assert sorted(index.static.ids) == sorted(index.store.ids())
    assert index.searcher.settings.static_weight == SECOND_EMBEDDER_WEIGHT  # recorded with the index
    assert index.searcher.settings.static_scope == "sentences"  # the scope that passed rule 3 (session 18)
    # The real fine-tuned model reads users' words: its list differs from the default's.
    first = index.searcher.static.search(5, text="stop following this band")
    assert first[0][0].endswith("DELETE /me/following")

    # The same option again, by another of its names, nothing changed: nothing is written.
    again = runner.invoke(
        cli, ["index", str(spotify), "-i", str(target), "--second-embedder", "minilm-users-int8", "--json"]
    )
    assert again.exit_code == 0 and json.loads(again.output)["written"] is False

    # An update without the option keeps it; a changed spec is re-embedded by both models.
    spec = json.loads((spotify / "spotify.json").read_text("utf-8"))
    spec["paths"].pop(next(iter(spec["paths"])))
    (spotify / "spotify.json").write_text(json.dumps(spec), "utf-8")
    assert runner.invoke(cli, ["index", str(spotify), "-i", str(target)]).exit_code == 0
    updated = Index.open(target)
    assert updated.static is not None and sorted(updated.static.ids) == sorted(updated.store.ids())
    assert len(updated.static) < len(index.static)

    # 'none' drops it, with nothing else changed, and the weight goes back to 0.
    result = runner.invoke(cli, ["index", str(spotify), "-i", str(target), "--second-embedder", "none"])
    assert result.exit_code == 0, result.output
    dropped = Index.open(target)
    assert dropped.static is None and not (target / STATIC_DIR).exists()
    assert dropped.searcher.settings.static_weight == 0


def test_the_scope_is_chosen_recorded_and_changed_without_a_spec_change(spotify, tmp_path):
    target = tmp_path / "idx"
    runner = CliRunner()
    args = ["index", str(spotify), "-i", str(target), "--second-embedder", "minilm-users"]
    result = runner.invoke(cli, [*args, "--second-scope", "every"])
    assert result.exit_code == 0, result.output
    assert Index.open(target).searcher.settings.static_scope == "every"
    # Nothing but the scope changes: the new scope is still written (and the vectors kept).
    again = runner.invoke(
        cli, ["index", str(spotify), "-i", str(target), "--second-scope", "intents", "--json"]
    )
    assert again.exit_code == 0 and json.loads(again.output)["written"] is True
    reopened = Index.open(target)
    assert reopened.searcher.settings.static_scope == "intents" and reopened.static is not None
    # An update that names no scope keeps the recorded one; an unknown scope is refused.
    assert runner.invoke(cli, ["index", str(spotify), "-i", str(target)]).exit_code == 0
    assert Index.open(target).searcher.settings.static_scope == "intents"
    refused = runner.invoke(cli, [*args, "--second-scope", "some"])
    assert refused.exit_code == 2 and "some" in refused.output


def test_a_wrong_name_stops_before_any_work(spotify, tmp_path):
    result = CliRunner().invoke(
        cli, ["index", str(spotify), "-i", str(tmp_path / "idx"), "--second-embedder", "nosuch"]
    )
    assert result.exit_code != 0 and "Unknown embedder 'nosuch'" in result.output
    assert not (tmp_path / "idx").exists()


def test_an_index_naming_a_remote_second_embedder_is_refused(specs, tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAPI_RAG_EMBEDDER", raising=False)
    build_index([specs], tmp_path / "idx", embedder="word-hash", second_embedder="word-hash")
    meta = tmp_path / "idx" / STATIC_DIR / "view.json"
    data = json.loads(meta.read_text("utf-8"))
    data["embedder"] = "openai:text-embedding-3-small"  # a stranger's index pointing at a remote model
    meta.write_text(json.dumps(data), "utf-8")
    with pytest.raises(RemoteNotConfigured, match="openai:text-embedding-3-small"):
        Index.open(tmp_path / "idx")


def test_a_second_list_made_by_other_weights_is_left_out_until_an_update_re_embeds_it(
    specs, tmp_path, caplog
):
    target = tmp_path / "idx"
    build_index([specs], target, embedder="word-hash", second_embedder="word-hash")
    meta = target / STATIC_DIR / "view.json"
    data = json.loads(meta.read_text("utf-8"))
    model_key = data["vectors_of"]  # which weights made the rows: recorded at save
    assert model_key == Index.open(target).static.embedder.cache_key
    vectors = np.load(target / STATIC_DIR / "vectors.npy")
    # As after a package upgrade that retrained the second model: the rows are another model's.
    data["vectors_of"] = "word-hash-older-weights"
    meta.write_text(json.dumps(data), "utf-8")
    np.save(target / STATIC_DIR / "vectors.npy", np.roll(vectors, 1, axis=0))

    opened = Index.open(target)
    assert opened.static is not None and opened.static.stale
    assert opened.searcher.static is None  # never compared with this model's query vectors
    assert "another version of word-hash" in caplog.text and "re-embeds it" in caplog.text
    opened.save(tmp_path / "copy")  # a copy still says which weights made the rows
    assert Index.open(tmp_path / "copy").static.stale
    assert opened.search("list my playlists", k=3)  # the other lists still answer

    # An update with no spec change re-embeds it (the update's "nothing changed" is not taken).
    report = build_index([specs], target)
    assert report.written
    fresh = Index.open(target)
    assert not fresh.static.stale and fresh.searcher.static is fresh.static
    assert json.loads(meta.read_text("utf-8"))["vectors_of"] == model_key
    np.testing.assert_allclose(np.load(target / STATIC_DIR / "vectors.npy"), vectors, atol=1e-6)


def test_an_index_written_before_the_weights_were_recorded_keeps_its_second_list(specs, tmp_path):
    target = tmp_path / "idx"
    build_index([specs], target, embedder="word-hash", second_embedder="word-hash")
    meta = target / STATIC_DIR / "view.json"
    data = json.loads(meta.read_text("utf-8"))
    del data["vectors_of"]
    meta.write_text(json.dumps(data), "utf-8")
    opened = Index.open(target)
    assert not opened.static.stale and opened.searcher.static is opened.static


def test_a_postgresql_collection_refuses_it_before_connecting(specs):
    from openapi_rag.store.pg_target import PgTarget

    nowhere = PgTarget("postgresql://nobody@127.0.0.1:1/none")  # never reached: refused first
    with pytest.raises(ValueError, match="second embedder"):
        build_index([specs], nowhere, embedder="word-hash", second_embedder="minilm-users")


# ---- which texts the second list serves (`SearchSettings.static_scope`) -------------------------

PLAN = "Create a playlist and add the top tracks of an artist to it"  # two clauses
STEPS = "Find an album by name, get its tracks, then save them to my library"  # three: no whole vector
ONE = "Make a new playlist called Summer"  # one intent
FOCUSED = "We just moved to a new flat. Could you pause the music playing on my speaker?"  # one, focused


@pytest.fixture(scope="module")
def demo():
    """The Spotify demo catalog with the default embedder and minilm-users beside it (both real)."""
    from openapi_rag.clean import DEFAULT_STEPS
    from openapi_rag.spec import load_services

    services = load_services([CATALOG / "spotify.json"], clean=DEFAULT_STEPS).services  # as `index` loads
    return Index.build(
        services, cache=False, static="minilm-users", settings=SearchSettings(static_weight=1.25)
    )


@pytest.fixture()
def second_model_reads(demo, monkeypatch):
    """The texts the second model embeds during a search (the real model still embeds them)."""
    model, seen = demo.searcher.static.embedder, []
    real = model.embed_many

    def recorded(texts, *args, **kwargs):
        seen.extend(texts)
        return real(texts, *args, **kwargs)

    monkeypatch.setattr(model, "embed_many", recorded)
    # Each model on its own: one run of both (`embed_both`) would embed the served texts with the first's.
    monkeypatch.setattr(demo.searcher, "embed_both", None)
    yield seen
    demo.searcher.configure(SearchSettings(static_weight=1.25))


def _ranked(demo, query, seen, **settings):
    # the flat-words rule (session 23) off unless a test asks for it: these tests are about the scopes and the gate
    demo.searcher.configure(**{"static_flat_weight": None, **settings})
    demo.searcher.static._queries = {}  # its memo of query vectors: each search embeds afresh
    seen.clear()
    return [(op.id, round(op.score, 6)) for op in demo.search(query, k=10)]


def test_every_scope_serves_the_request_and_each_clause(demo, second_model_reads):
    seen = second_model_reads
    alone = _ranked(demo, PLAN, seen, static_weight=0.0)
    assert seen == []  # no second list: the second model is never called
    every = _ranked(demo, PLAN, seen, static_weight=1.25, static_scope="every")
    assert seen == [PLAN, "Create a playlist", "add the top tracks of an artist to it"]
    assert every != alone  # the clause "Create a playlist" reads the tuned model's list: the create rises
    create = "POST /users/{user_id}/playlists"
    assert dict(every)[create] > dict(alone)[create] + 0.05
    _ranked(demo, STEPS, seen, static_scope="every")
    assert seen == ["Find an album by name", "get its tracks", "save them to my library"]


def test_whole_scope_serves_the_whole_request_only(demo, second_model_reads):
    seen = second_model_reads
    whole = _ranked(demo, PLAN, seen, static_weight=1.25, static_scope="whole")
    assert seen == [PLAN]  # one text embedded by the second model, not three
    every = _ranked(demo, PLAN, seen, static_scope="every")
    alone = _ranked(demo, PLAN, seen, static_weight=0.0)
    assert whole != every and whole != alone
    # Three clauses: the whole request has no dense side, so nothing is served.
    assert _ranked(demo, STEPS, seen, static_weight=1.25, static_scope="whole") == _ranked(
        demo, STEPS, seen, static_weight=0.0
    )
    assert seen == []


def test_one_intent_scope_serves_requests_of_one_intent_only(demo, second_model_reads):
    seen = second_model_reads
    # A request of several intents is ranked as without the second list, which is never called.
    for query in (PLAN, STEPS):
        served = _ranked(demo, query, seen, static_weight=1.25, static_scope="one_intent")
        assert seen == []
        assert served == _ranked(demo, query, seen, static_weight=0.0)
    # A request of one intent is served as by every text: the request, and its focused intent.
    one = _ranked(demo, ONE, seen, static_weight=1.25, static_scope="one_intent")
    assert seen == [ONE]
    assert one == _ranked(demo, ONE, seen, static_scope="every")
    assert one != _ranked(demo, ONE, seen, static_weight=0.0)
    # The tuned model reads "Make a new playlist" as the create (session 19's read "called Summer" as a
    # rename); without it the create is third.
    ops = [op for op, _ in one]
    assert ops.index("POST /users/{user_id}/playlists") < min(2, ops.index("PUT /playlists/{playlist_id}"))
    focused = _ranked(demo, FOCUSED, seen, static_weight=1.25, static_scope="one_intent")
    assert seen == [FOCUSED, "Could you pause the music playing on my speaker?"]
    assert focused == _ranked(demo, FOCUSED, seen, static_scope="every")
    assert focused[0][0] == "PUT /me/player/pause"


def test_intents_scope_serves_the_pieces_that_ask_for_one_action(demo, second_model_reads):
    seen = second_model_reads
    plan = _ranked(demo, PLAN, seen, static_weight=1.25, static_scope="intents")
    assert seen == ["Create a playlist", "add the top tracks of an artist to it"]  # not the whole request
    alone = _ranked(demo, PLAN, seen, static_weight=0.0)
    assert plan not in (alone, _ranked(demo, PLAN, seen, static_weight=1.25, static_scope="whole"))
    focused = _ranked(demo, FOCUSED, seen, static_weight=1.25, static_scope="intents")
    assert seen == ["Could you pause the music playing on my speaker?"]
    assert focused[0][0] == "PUT /me/player/pause"
    # A request of one sentence and one intent is never split: ranked as without the second list.
    assert _ranked(demo, ONE, seen, static_weight=1.25, static_scope="intents") == _ranked(
        demo, ONE, seen, static_weight=0.0
    )
    assert seen == []


def test_sentences_scope_adds_a_one_sentence_request_s_whole_text(demo, second_model_reads):
    seen = second_model_reads
    # One sentence, one intent: served whole (what `intents` leaves to dense and BM25).
    one = _ranked(demo, ONE, seen, static_weight=1.25, static_scope="sentences", static_whole_named=True)
    assert seen == [ONE]
    assert one == _ranked(demo, ONE, seen, static_scope="every")
    # Clauses or a focused intent: served as by `intents`, never the whole request.
    for query in (PLAN, FOCUSED):
        served = _ranked(demo, query, seen, static_weight=1.25, static_scope="sentences")
        pieces = list(seen)
        assert served == _ranked(demo, query, seen, static_scope="intents") and seen == pieces
        assert query not in pieces


def test_the_whole_text_s_own_weight_leaves_the_pieces_alone(demo, second_model_reads):
    seen = second_model_reads
    full = _ranked(demo, ONE, seen, static_weight=1.25, static_scope="sentences", static_whole_named=True)
    half = _ranked(demo, ONE, seen, static_scope="sentences", static_whole_weight=0.5)
    none = _ranked(demo, ONE, seen, static_weight=0.0)
    assert half not in (full, none)  # the whole text's list, read at .5
    assert _ranked(demo, ONE, seen, static_weight=1.25, static_whole_weight=0.0) == none
    # Clauses are read at `static_weight` whatever the whole text's weight is.
    assert _ranked(demo, PLAN, seen, static_scope="sentences", static_whole_weight=0.0) == _ranked(
        demo, PLAN, seen, static_scope="intents"
    )


UNNAMED = "make a new playlist for our road trip"  # one intent, naming no particular thing


def test_sentences_scope_leaves_a_request_naming_a_thing_to_the_two_lists(demo, second_model_reads):
    seen = second_model_reads
    # The default: "called Summer" names a thing, so the whole text is not served ...
    named = _ranked(demo, ONE, seen, static_weight=1.25, static_scope="sentences", static_whole_named=False)
    assert seen == []
    assert named == _ranked(demo, ONE, seen, static_weight=0.0)
    # ... while a request in goal words is, at the whole text's own weight.
    unnamed = _ranked(
        demo, UNNAMED, seen, static_weight=1.25, static_scope="sentences", static_whole_named=False
    )
    assert seen == [UNNAMED]
    assert unnamed != _ranked(demo, UNNAMED, seen, static_weight=0.0)
    assert unnamed == _ranked(demo, UNNAMED, seen, static_weight=1.25, static_whole_named=True)


def test_scope_and_whole_weight_are_recorded_by_index(spotify, tmp_path):
    target = tmp_path / "idx"
    result = CliRunner().invoke(
        cli,
        ["index", str(spotify), "-i", str(target), "--second-embedder", "minilm-users",
         "--second-scope", "sentences", "--second-whole-weight", "0.5"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    settings = Index.open(target).searcher.settings
    assert (settings.static_scope, settings.static_whole_weight, settings.static_weight) == (
        "sentences",
        0.5,
        1.25,
    )


def test_texts_both_lists_read_are_embedded_in_one_run_of_both_models(demo, monkeypatch):
    """The default and minilm-users share their lowest layers: a text both lists read goes through
    one graph of both (`Index._embed_both`), the same vectors, so the same ranking, as two runs."""
    calls: dict[str, list[list[str]]] = {"first": [], "second": []}
    for name, model in (("first", demo.embedder), ("second", demo.searcher.static.embedder)):
        monkeypatch.setattr(
            model,
            "embed_many",
            lambda t, _m=model.embed_many, _n=name, **kw: calls[_n].append(list(t)) or _m(t, **kw),
        )
    query = "Make a new playlist for my summer holiday"  # one sentence naming nothing: both lists
    demo.searcher.configure(static_scope="sentences")
    demo.searcher.static._queries = {}
    paired = [(op.id, op.score) for op in demo.search(query, k=10)]
    assert calls == {"first": [], "second": []}  # neither model alone: the pair ran
    monkeypatch.setattr(demo.searcher, "embed_both", None)
    demo.searcher.static._queries = {}
    assert [(op.id, op.score) for op in demo.search(query, k=10)] == paired  # bit for bit
    assert calls == {"first": [[query]], "second": [[query]]}
    # A text the second list does not read (the whole of a two-clause request: it serves clauses
    # under "sentences") is in the pair's run with the clauses; the second list finds them remembered.
    monkeypatch.undo()
    calls["first"].clear(), calls["second"].clear()
    for name, model in (("first", demo.embedder), ("second", demo.searcher.static.embedder)):
        monkeypatch.setattr(
            model,
            "embed_many",
            lambda t, _m=model.embed_many, _n=name, **kw: calls[_n].append(list(t)) or _m(t, **kw),
        )
    demo.searcher.static._queries = {}
    demo.search(PLAN, k=10)
    assert calls == {"first": [], "second": []}
    assert set(demo.searcher.static._queries) == {
        "Create a playlist",
        "add the top tracks of an artist to it",
    }


def test_flat_words_read_bm25s_first_two() -> None:
    from openapi_rag.search.searcher import flat_words

    assert flat_words([], 0.05)  # no chunk shares a word: nothing singles one out
    assert not flat_words([("a", 3.0)], 0.05)  # one chunk holds the words
    assert flat_words([("a", 3.0), ("b", 2.9)], 0.05)  # within 5% of the best
    assert not flat_words([("a", 3.0), ("b", 2.5)], 0.05)


def test_lists_apart_when_their_first_chunks_are_of_different_apis() -> None:
    """`flat_apart` (measured in session 24, off) reads a request as flat where the two retrievers'
    first chunks belong to different services (a chunk id starts with its service's id)."""
    from openapi_rag.search.searcher import apart

    assert apart([("stripe:compact:POST /v1/refunds", 0.9)], [("adyen:compact:POST /refunds", 7.0)])
    assert not apart([("stripe:compact:POST /v1/refunds", 0.9)], [("stripe:compact:GET /v1/refunds", 7.0)])
    assert not apart([], [("adyen:compact:POST /refunds", 7.0)])


def test_flat_words_give_the_second_list_the_lead_and_clear_ones_keep_the_gate(demo, second_model_reads):
    """The flat-words rule (session 23): on a whole request whose BM25 scores single out no chunk the
    second list reads at `static_flat_weight`, a request naming a thing too; one with a clear BM25
    winner keeps the named gate (not served) and the whole text's own weight."""
    seen = second_model_reads
    searcher = demo.searcher
    flat = "skip this one"  # BM25's first two tie: its words single out no operation
    assert flat_words_of(searcher, flat) and not flat_words_of(searcher, UNNAMED)
    off = _ranked(demo, flat, seen, static_flat_weight=None)
    led = _ranked(demo, flat, seen, static_flat_weight=10.0)
    assert seen == [flat] and led != off
    # A request naming a thing ("called Summer") with a clear BM25 winner: read by the model (the rule
    # is decided once BM25 has read it) but given no list, so ranked as with the gate alone.
    assert not flat_words_of(searcher, ONE)
    gated = _ranked(demo, ONE, seen, static_flat_weight=10.0)
    assert gated == _ranked(demo, ONE, seen, static_flat_weight=None)


def flat_words_of(searcher, text: str) -> bool:
    from openapi_rag.search.searcher import flat_words

    return flat_words(searcher.bm25.search(text, 5), 0.05)


def test_an_index_recorded_before_the_flat_words_rule_answers_without_it() -> None:
    recorded_then = SearchSettings().to_dict()
    recorded_then.pop("static_flat_weight")
    recorded_then.pop("flat_gap")
    assert SearchSettings.from_dict(recorded_then).static_flat_weight is None
    assert SearchSettings.from_dict({}).static_flat_weight == 10.0  # nothing recorded: the defaults
    assert SearchSettings.from_dict(SearchSettings().to_dict()).static_flat_weight == 10.0


def test_flat_pieces_take_the_flat_weight_only_when_asked(demo) -> None:
    """`flat_pieces` (measured in session 23, off): a clause whose words are flat reads the second list at
    `static_flat_weight` instead of `static_weight`."""
    searcher = demo.searcher
    text = "add the top tracks of an artist to it"
    vector = demo.embedder.embed_many([text])[0]

    def second_weight(**settings) -> float:
        searcher.configure(SearchSettings(static_weight=1.25, **settings))
        lists = searcher._extra_lists(text, vector, None, "hybrid", 10, None, None, True, whole=False, flat=True)
        return lists[-1][1]

    try:
        assert second_weight() == 1.25
        assert second_weight(flat_pieces=True) == 10.0
        assert second_weight(flat_pieces=True, static_flat_weight=None) == 1.25
    finally:
        searcher.configure(SearchSettings(static_weight=1.25))
