"""Words of requests and of schema names, and when two of them name the same thing."""

from __future__ import annotations

import re

_WORD = re.compile(r"\d{4}-\d{2}-\d{2}|[A-Za-z][A-Za-z0-9]*|\d+(?:\.\d+)?")
STOPWORDS = frozenset(
    "a an the of in on at to for from by with and or is are was were be been do does did have has had "
    "i me my mine we our you your it its this that these those there their them they what which who "
    "whom whose how when where please can could would should will shall may might show list give get "
    "find tell return all any each every some many much number count total than more less most least "
    "over under above below between not no only just also as into per out up whether if".split()
)


def split_name(name: str) -> list[str]:
    """`pricePerNight` / `release_date` → ["price", "per", "night"] / ["release", "date"]."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name)
    return [w.lower() for w in re.findall(r"[A-Za-z]+|\d+", spaced)]


def words(text: str) -> list[str]:
    """The request's words, lower case, in order (numbers kept)."""
    out = []
    for token in _WORD.findall(text):
        out.extend(split_name(token) if not token[0].isdigit() else [token])
    return out


def stem(word: str) -> str:
    """Plural endings off (`playlists` → `playlist`, `categories` → `category`)."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and re.search(r"(ss|x|z|ch|sh)es$", word):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _forms(word: str) -> set[str]:
    # "-ies" is "-y" plural (categories) or "-ie" + s (movies, cookies): both forms are kept.
    forms = {stem(word)}
    if len(word) > 4 and word.endswith("ies"):
        forms.add(word[:-1])
    return forms


def same(a: str, b: str) -> bool:
    """Two words name the same thing: equal stems, or one a long prefix of the other
    (popular/popularity, release/released, follow/followers)."""
    if _forms(a) & _forms(b):
        return True
    sa, sb = stem(a), stem(b)
    short, long_ = sorted((sa, sb), key=len)
    return len(short) >= 5 and long_.startswith(short)


def content_words(text: str) -> list[str]:
    return [w for w in words(text) if w not in STOPWORDS]
