"""Requests that name an API of the catalog: "mark me as away in Slack", "publish my Netlify site".

About a tenth of what users ask names the provider, and on a catalog of many APIs that name is the
strongest evidence there is: "kick someone out of my Discord server" should not answer with Slack's
`conversations.kick`. An API's name is the first word of a short title ("Slack Web API", "Discord
HTTP API", "Xero Accounting API": at most `MAX_TITLE_WORDS` words that are not generic like "API"
or "Platform"); a long title describes rather than names ("IT Inventory Management Service API"),
and a word in many titles names none. A request names an API when it holds that word written as a
name: capitalised inside the sentence ("my Netlify site", "in Slack"; a sentence's first word may
be a verb: "Box the items"). Lower-case words are not read: "send it to user 12" names no "User
API". The operations of
other APIs then score `SearchSettings.other_api_factor` of what they would; nothing is removed,
so a request that names an API by mistake still finds the others.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

GENERIC_TITLE_WORDS = frozenset(
    """api apis http https rest web service services platform public preview documentation docs
    reference spec specification openapi swagger unofficial beta v1 v2 v3 the of for and s""".split()
)
"""Title words that name no particular API."""
MAX_TITLE_WORDS = 2
"""A title of more words (generic ones aside) describes an API rather than names it."""
MAX_SHARE = 0.25
"""A title word shared by more than this share of the catalog's APIs names none of them."""
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]+")


def api_names(titles: Mapping[str, str]) -> dict[str, frozenset[str]]:
    """Lower-case name word -> the services whose title holds it.

    Example:
        >>> names = api_names({"slack-web-api": "Slack Web API", "box": "Box Platform API",
        ...                    "it": "IT Inventory Management Service API"})
        >>> sorted(names), sorted(names["slack"])
        (['box', 'slack'], ['slack-web-api'])
    """
    by_word: dict[str, set[str]] = {}
    for service, title in titles.items():
        words = [w.lower() for w in _WORD.findall(title or "") if w.lower() not in GENERIC_TITLE_WORDS]
        if 0 < len(words) <= MAX_TITLE_WORDS:
            by_word.setdefault(words[0], set()).add(service)
    most = max(1, int(MAX_SHARE * len(titles)))
    return {word: frozenset(s) for word, s in by_word.items() if len(s) <= most}


def named_services(query: str, names: Mapping[str, frozenset[str]]) -> frozenset[str]:
    """The services a request names (see the module docstring).

    Example:
        >>> names = api_names({"slack-web-api": "Slack Web API", "box": "Box Platform API"})
        >>> sorted(named_services("mark me as away in Slack", names))
        ['slack-web-api']
        >>> sorted(named_services("Box the items and ship them", names))  # sentence start: a verb
        []
    """
    found: set[str] = set()
    for match in _WORD.finditer(query):
        word = match.group()
        services = names.get(word.lower())
        if services and word[0].isupper():
            before = query[: match.start()].rstrip()
            if before and before[-1] not in ".!?:":  # not a sentence's first word
                found |= services
    return frozenset(found)
