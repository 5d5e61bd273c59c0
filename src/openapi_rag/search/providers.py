"""Requests that name an API of the catalog: "mark me as away in Slack", "publish my Netlify site".

About a tenth of what users ask names the provider, and on a catalog of many APIs that name is the
strongest evidence there is: "kick someone out of my Discord server" should not answer with Slack's
`conversations.kick`. A request names an API when it holds a word of that API's title that is not
generic ("API", "Platform", a word in many titles), written as a name: capitalised inside the
sentence ("my Netlify site") or after a preposition ("in slack", "via twilio"). The operations of
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
PREPOSITIONS = frozenset("in on via using with from through into to at".split())
"""Words after which a lower-case title word is read as a name ("in slack")."""
MAX_SHARE = 0.1
"""A title word shared by more than this share of the catalog's APIs names none of them."""
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]+")


def api_names(titles: Mapping[str, str]) -> dict[str, frozenset[str]]:
    """Lower-case name word -> the services whose title holds it.

    Example:
        >>> names = api_names({"slack-web-api": "Slack Web API", "box": "Box Platform API"})
        >>> sorted(names), sorted(names["slack"])
        (['box', 'slack'], ['slack-web-api'])
    """
    by_word: dict[str, set[str]] = {}
    for service, title in titles.items():
        for word in {w.lower() for w in _WORD.findall(title or "")}:
            if word not in GENERIC_TITLE_WORDS:
                by_word.setdefault(word, set()).add(service)
    most = max(1, int(MAX_SHARE * len(titles)))
    return {word: frozenset(s) for word, s in by_word.items() if len(s) <= most}


def named_services(query: str, names: Mapping[str, frozenset[str]]) -> frozenset[str]:
    """The services a request names (see the module docstring).

    Example:
        >>> names = api_names({"slack-web-api": "Slack Web API", "box": "Box Platform API"})
        >>> sorted(named_services("mark me as away in slack", names))
        ['slack-web-api']
        >>> sorted(named_services("Box the items and ship them", names))  # sentence start: a verb
        []
    """
    found: set[str] = set()
    previous = ""
    for match in _WORD.finditer(query):
        word = match.group()
        services = names.get(word.lower())
        if services:
            start = query[: match.start()].rstrip()
            sentence_start = not start or start[-1] in ".!?:"
            if (word[0].isupper() and not sentence_start) or previous in PREPOSITIONS:
                found |= services
        previous = word.lower()
    return frozenset(found)
