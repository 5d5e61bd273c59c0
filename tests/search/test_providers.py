"""Requests that name an API of the catalog favour that API's operations."""

from __future__ import annotations

import pytest

from openapi_rag.index import Index
from openapi_rag.search.providers import api_names, named_services
from openapi_rag.search.settings import DEFAULT_SETTINGS
from openapi_rag.spec import load_services
from tests.conftest import shared_data

TITLES = {
    "slack-web-api": "Slack Web API",
    "discord": "Discord HTTP API (Preview)",
    "crm": "CRM API",
    "ats": "ATS API",
    "hris": "HRIS API",
}


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("mark me as away in Slack", {"slack-web-api"}),
        ("post a message via slack", set()),  # lower case: not read as a name
        ("kick someone out of my Discord server", {"discord"}),
        ("log a call with a prospect in the CRM", {"crm"}),
        ("send the report to user 12 in the HRIS", {"hris"}),
        ("Slack off and list my open pull requests", set()),  # a sentence's first word: not a name
        ("list the web services of the company", set()),  # generic title words name nothing
        ("Create a playlist", set()),
    ],
)
def test_named_services(query: str, named: set[str]) -> None:
    assert named_services(query, api_names(TITLES)) == named


def test_a_word_in_many_titles_names_no_api() -> None:
    titles = {f"svc-{i}": f"Acme {name} API" for i, name in enumerate("abcdefghijkl")}
    assert "acme" not in api_names(titles)


def test_naming_the_api_ranks_its_operations_first_on_real_specs() -> None:
    """Slack and Discord indexed together: "kick" is Slack's word, but the user said Discord."""
    realworld = shared_data("realworld")
    services = load_services(
        [
            realworld / "slack" / "web-api" / "slack_web_openapi_v2.json",
            realworld / "discord" / "specs" / "openapi.json",
        ]
    ).services
    index = Index.build(services)
    query = "kick someone out of my Discord server"
    on = index.search(query, k=5, expand=False)
    assert {h.service for h in on} == {s.id for s in services if "discord" in s.title.lower()}
    index.searcher.configure(other_api_factor=1.0)
    off = index.search(query, k=5, expand=False)
    assert any("slack" in h.service for h in off)
    index.searcher.configure(DEFAULT_SETTINGS)
