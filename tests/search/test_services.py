"""Which API a request of one intent is for (`search/services.py`): support from the head of the
list, API profiles matched by BM25, and a BM25 pass inside the leading API."""

from __future__ import annotations

import pytest

from openapi_rag.chunking import get_strategy
from openapi_rag.search.services import (
    ServiceProfiles,
    blend_shares,
    favour_supported_apis,
    service_shares,
    within_lead_api,
)
from openapi_rag.search.settings import SearchSettings
from openapi_rag.spec import load_services
from tests.conftest import shared_data

# One strong operation of "chat" against three fair ones of "guilds": the head supports "guilds".
SCORES = {
    ("chat", "POST /kick"): 1.0,
    ("guilds", "DELETE /guilds/{id}/members/{user}"): 0.9,
    ("guilds", "PUT /guilds/{id}/bans/{user}"): 0.85,
    ("guilds", "GET /guilds/{id}/members"): 0.8,
    ("other", "GET /far"): 0.1,
}


def test_support_is_the_sum_of_a_services_best_operations_as_a_share_of_the_best() -> None:
    shares = service_shares(SCORES, head=10, per_service=3)
    assert shares["guilds"] == 1.0
    assert shares["chat"] == 1.0 / (0.9 + 0.85 + 0.8)
    assert list(shares) == ["guilds", "chat", "other"]


def test_only_the_head_counts() -> None:
    """The head is cut by rank: a service below it has no support, whatever k was."""
    assert "other" not in service_shares(SCORES, head=4, per_service=3)


def test_the_supported_api_overtakes_a_lone_strong_operation() -> None:
    out = favour_supported_apis(SCORES, weight=0.5, head=10, per_service=3)
    best = max(out, key=out.__getitem__)
    assert best == ("guilds", "DELETE /guilds/{id}/members/{user}")
    # a service's own order is unchanged
    assert (
        out[("guilds", "DELETE /guilds/{id}/members/{user}")]
        > out[("guilds", "PUT /guilds/{id}/bans/{user}")]
    )


def test_weight_zero_leaves_the_scores() -> None:
    assert favour_supported_apis(SCORES, weight=0.0, head=10, per_service=3) == SCORES
    assert blend_shares(SCORES, {"chat": 0.1}, weight=0.0) == SCORES


def test_the_leading_apis_own_list_reorders_only_its_operations() -> None:
    """ "chat" leads (its one operation scores best): its operations are raised by their BM25 share
    among "chat"'s; "guilds"'s stay as they were, however well BM25 scored them."""
    scores = {**SCORES, ("chat", "GET /calls"): 0.5}
    lexical = {
        ("chat", "GET /calls"): 6.0,
        ("chat", "POST /kick"): 3.0,
        ("guilds", "GET /guilds/{id}/members"): 9.0,
    }
    out = within_lead_api(scores, lexical, weight=0.2)
    assert out[("chat", "GET /calls")] == pytest.approx(0.5 + 0.2)
    assert out[("chat", "POST /kick")] == pytest.approx(1.0 + 0.2 * 0.5)
    assert out[("guilds", "GET /guilds/{id}/members")] == 0.8
    assert within_lead_api(scores, lexical, weight=0.0) == scores


def test_profiles_of_real_specs_tell_the_apis_apart() -> None:
    """Slack's and Discord's real specs, chunked as the index does: a request in Discord's words
    ("guild") points to Discord's profile, one in Slack's ("reminder") to Slack's."""
    realworld = shared_data("realworld")
    services = load_services(
        [
            realworld / "slack" / "web-api" / "slack_web_openapi_v2.json",
            realworld / "discord" / "specs" / "openapi.json",
        ]
    ).services
    chunks = get_strategy("compact").chunk(services)
    profiles = ServiceProfiles.of_chunks(chunks)
    discord = next(s.id for s in services if "discord" in s.title.lower())
    slack = next(s.id for s in services if "slack" in s.title.lower())
    assert sorted(profiles.services) == sorted([discord, slack])
    ban = profiles.shares("ban a member from the guild")
    assert ban[discord] == 1.0 and ban.get(slack, 0.0) < 1.0
    remind = profiles.shares("add a reminder for tomorrow")
    assert remind[slack] == 1.0 and remind.get(discord, 0.0) < 1.0


def test_the_settings_are_off_by_default() -> None:
    """Each was tried on the tuning halves and not kept (README, issue 18 item 8)."""
    settings = SearchSettings()
    assert settings.service_support == 0.0
    assert settings.service_profile == 0.0
    assert settings.lead_api_bm25 == 0.0


def _searcher(**settings: object):  # type: ignore[no-untyped-def]
    """A BM25-only searcher over two small APIs: "chat" has one operation that matches the
    request's rare word, "guilds" three that each match its common one."""
    import numpy as np

    from openapi_rag.model import Chunk
    from openapi_rag.search import BM25Index, Searcher
    from openapi_rag.store import FaissStore

    rows = [
        ("c0", "chat", "POST /eject", "eject"),
        ("c1", "guilds", "DELETE /guilds/{id}/members/{user}", "eject a member from the server"),
        ("c2", "guilds", "PUT /guilds/{id}/bans/{user}", "ban member"),
        ("c3", "guilds", "GET /guilds/{id}/members", "list member"),
        ("c4", "other", "GET /weather", "weather today"),
    ]
    chunks = [
        Chunk(
            id=i,
            kind="endpoint",
            service=s,
            operations=[op],
            embed_text=t,
            content=t,
            metadata={"title": s, "summary": t},
        )
        for i, s, op, t in rows
    ]
    store = FaissStore(len(rows))
    store.add([c.id for c in chunks], np.eye(len(rows), dtype=np.float32), chunks)
    return Searcher(store, BM25Index.from_chunks(chunks), dependencies=False, settle_first=False, **settings)


def _first(**settings: object) -> tuple[str, float]:
    top = _searcher(**settings).search("eject member", mode="bm25", k=4).operations[0]
    return top.service, top.score


def test_the_searcher_reads_the_heads_support() -> None:
    """ "chat" matches the rare word once; "guilds" matches the request three times in its head."""
    assert _first()[0] == "chat"
    assert _first(service_support=0.6)[0] == "guilds"


def test_the_searcher_reads_the_profiles() -> None:
    """ "guilds"'s profile (its summaries) holds both of the request's words, "chat"'s one."""
    assert _first(service_profile=0.5)[0] == "guilds"


def test_the_searcher_reads_the_leading_apis_own_list() -> None:
    """ "chat" leads; its one operation is the best of its own BM25 list: raised by the weight."""
    service, score = _first()
    assert _first(lead_api_bm25=0.5) == (service, score + 0.5)


def test_dense_profiles_of_real_specs_point_to_the_api_a_request_is_for() -> None:
    """The same two real specs, each API's title and tag names embedded by the default model
    (Discord has no tags: its paths' resource words stand in): a request about a guild's members is
    nearest Discord's, one about a workspace's channels nearest Slack's; min-max scaled."""
    import numpy as np

    from openapi_rag.embed import get_embedder

    realworld = shared_data("realworld")
    services = load_services(
        [
            realworld / "slack" / "web-api" / "slack_web_openapi_v2.json",
            realworld / "discord" / "specs" / "openapi.json",
        ]
    ).services
    profiles = ServiceProfiles.of_chunks(get_strategy("compact").chunk(services))
    embedder = get_embedder("minilm")

    def embed(texts: list[str]) -> np.ndarray:
        return np.asarray(embedder.embed_many(texts))

    discord = next(s.id for s in services if "discord" in s.title.lower())
    slack = next(s.id for s in services if "slack" in s.title.lower())
    assert profiles.dense_shares("list the members of my guild and their roles", embed) == {
        discord: 1.0,
        slack: 0.0,
    }
    assert profiles.dense_shares("archive a channel of our Slack workspace", embed) == {
        slack: 1.0,
        discord: 0.0,
    }


def test_the_searcher_reads_the_dense_profiles() -> None:
    """With a scripted embedder that puts the request next to "guilds"'s title and tags."""
    import numpy as np

    def embed(texts: list[str]) -> np.ndarray:
        return np.array([[1.0, 0.0] if "guilds" in t or "member" in t else [0.0, 1.0] for t in texts])

    def search(**settings: object) -> str:
        searcher = _searcher(**settings)
        searcher.embed = embed
        return searcher.search("eject member", mode="bm25", k=4).operations[0].service

    assert search() == "chat"
    assert search(service_dense=0.5) == "guilds"
