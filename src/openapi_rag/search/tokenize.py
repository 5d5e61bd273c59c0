"""API-aware tokenisation for BM25.

API text mixes prose with identifiers: `/playlists/{playlist_id}/tracks`, `getUserByID`,
`X-Rate-Limit`. The tokenizer, applied alike to chunks and queries:

1. cuts the text into words at anything that is not a letter, digit, `_` or `-` (so path slashes,
   braces, dots and spaces separate words);
2. splits each word into parts at `_`, `-` and camelCase boundaries (`HTTPResponse` → HTTP,
   Response; digits stay with the letters before them: `oauth2`, `v1`), and when a word has several
   parts also keeps the parts joined (`playlistId` → playlist, id, playlistid), so `playlist_id`,
   `playlist-id` and `playlistId` all meet on `playlistid`;
3. lower-cases, drops stopwords (checked on the unstemmed part; the joined form is always kept)
   and single letters (digits stay: 404 matters);
4. stems lightly (`stem`): strip a plural `s` (not after s, u, i or a: address, status, analysis,
   alias), then a final `e`, then turns a final `y` into `i`, on words longer than 3 letters, so
   categories/category → categori, movies/movie → movi, changes/change → chang. It never touches
   -ing/-ed; the synonym table covers the common verbs. (A plural-only cousin of Porter's step 1,
   M. F. Porter, "An algorithm for suffix stripping", 1980.)
5. maps verbs with the same API meaning to one token (`synonyms`, on by default): fetch,
   retrieve, list, ... → get; add, insert, ... → create; and so on (`VERB_SYNONYMS`). Tasks say
   "retrieve", "fetch" or "access" where specs say "get" (SOCBench-D R@5 +.013, RestBench R@10
   +.008; ablation in the README). Indexes saved without it keep their setting.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

STOPWORDS: frozenset[str] = frozenset(
    """a an the and or but nor of to in into on onto at by for from with without about as
    is are was were be been being am do does did has have had having can could should would will may
    might must shall this that these those it its i me my we our us you your he she they them their
    what which who whom whose when where why how there here than then so such very too also just
    only any some each other all both more most if else not no yes""".split()
)
"""A small list of English function words; HTTP verbs and API words (get, new, list, id) are kept."""

VERB_SYNONYMS: Mapping[str, tuple[str, ...]] = {
    "get": ("get", "fetch", "retrieve", "obtain", "read", "list", "show"),
    "search": ("search", "find", "lookup"),
    "create": ("create", "add", "insert", "make", "register", "submit"),
    "update": ("update", "modify", "edit", "change", "patch", "replace", "rename"),
    "delete": ("delete", "remove", "destroy", "erase", "purge", "unregister"),
}
"""Canonical verb -> verbs normalised to it when `synonyms=True`. Words that are often nouns in
APIs (post, put, set, new, query, filter, view) are left out on purpose: `GET /posts` must not
become "get create"."""

_WORD = re.compile(r"[\w-]+")
_PLURAL_KEEP = ("ss", "us", "is", "as")


def stem(word: str) -> str:
    """Light stemming of one lower-case word (see the module docstring, step 4)."""
    if len(word) <= 3 or not word[-1].isalpha():
        return word
    if word.endswith("s") and not word.endswith(_PLURAL_KEEP):
        word = word[:-1]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    if len(word) > 3 and word.endswith("y"):
        word = word[:-1] + "i"
    return word


def split_identifier(word: str) -> list[str]:
    """Split one word at `_`, `-` and camelCase boundaries, keeping the original case."""
    parts: list[str] = []
    for piece in re.split(r"[_-]+", word):
        start = 0
        for i in range(1, len(piece)):
            prev, cur = piece[i - 1], piece[i]
            nxt = piece[i + 1] if i + 1 < len(piece) else ""
            # playlistId | v2Users: lower or digit before upper; HTTPResponse: the last capital of
            # an acronym starts the next word.
            if cur.isupper() and (prev.islower() or prev.isdigit() or (prev.isupper() and nxt.islower())):
                parts.append(piece[start:i])
                start = i
        if piece[start:]:
            parts.append(piece[start:])
    return parts


@dataclass(frozen=True)
class ApiTokenizer:
    """Turns API text into BM25 tokens; the same instance must tokenise corpus and queries.

    Example:
        >>> ApiTokenizer()("GET /playlists/{playlistId}/tracks")
        ['get', 'playlist', 'playlist', 'id', 'playlistid', 'track']

    Attributes:
        stopwords: words dropped (before stemming).
        stem: apply the light stemmer.
        synonyms: map verbs to a canonical one (`VERB_SYNONYMS`).
    """

    stopwords: frozenset[str] = STOPWORDS
    stem: bool = True
    synonyms: bool = True
    _verb_map: dict[str, str] = field(init=False, repr=False, compare=False)
    _word_tokens: Any = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        verb_map: dict[str, str] = {}
        if self.synonyms:
            for canonical, verbs in VERB_SYNONYMS.items():
                for verb in verbs:
                    verb_map[self._normalize(verb)] = self._normalize(canonical)
        object.__setattr__(self, "_verb_map", verb_map)
        # A per-instance cache: identifiers repeat endlessly across a corpus.
        object.__setattr__(self, "_word_tokens", lru_cache(maxsize=200_000)(self._tokens_of_word))

    def _normalize(self, part: str) -> str:
        return stem(part) if self.stem else part

    def _token(self, part: str) -> str:
        token = self._normalize(part)
        return self._verb_map.get(token, token)

    def _tokens_of_word(self, word: str) -> tuple[str, ...]:
        parts = [p.lower() for p in split_identifier(word)]
        tokens = [self._token(p) for p in parts if p not in self.stopwords and (len(p) > 1 or p.isdigit())]
        if len(parts) > 1:
            tokens.append(self._normalize("".join(parts)))
        return tuple(tokens)

    def __call__(self, text: str) -> list[str]:
        """Tokens of `text`, in order, duplicates kept (BM25 counts them)."""
        tokens: list[str] = []
        for word in _WORD.findall(text):
            tokens.extend(self._word_tokens(word))
        return tokens

    def tokenize_many(self, texts: Iterable[str]) -> list[list[str]]:
        return [self(text) for text in texts]

    def to_dict(self) -> dict[str, Any]:
        """Settings to save beside a BM25 index (stopwords only when not the default list)."""
        data: dict[str, Any] = {"stem": self.stem, "synonyms": self.synonyms}
        if self.stopwords != STOPWORDS:
            data["stopwords"] = sorted(self.stopwords)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ApiTokenizer:
        known = {"stem", "synonyms", "stopwords"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(
                f"unknown tokenizer settings: {', '.join(unknown)} (known: stem, stopwords, synonyms)"
            )
        return cls(
            stopwords=frozenset(data["stopwords"]) if "stopwords" in data else STOPWORDS,
            stem=bool(data.get("stem", True)),
            synonyms=bool(data.get("synonyms", False)),
        )
