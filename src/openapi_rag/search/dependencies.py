"""Producer → consumer links between operations, from path templates alone.

Many tasks need an operation that produces an identifier another one consumes: the poster of an
episode of "Band of Brothers" needs `GET /search/tv` for the `tv_id` of
`GET /tv/{tv_id}/season/{season_number}/episode/{episode_number}/images`. A query names the
consumer's subject, rarely the producer, so search ranks producers low.

The graph: a path parameter names an entity, `{movie_id}` → movie (the name without an `id`,
`ids`, `key`, `name` or `number` suffix), and a bare `{id}` takes the path segment before it
(`/albums/{id}` → album). A producer of that entity is a `GET` operation of the same service whose
path has no parameter and whose last segment is the entity (`GET /search/movie`, `GET /albums`),
compared after the BM25 tokenizer's light stemming. `Searcher` then lifts one producer of each top
consumer to `PRODUCER_SHARE` of the consumer's score (`propagate`), so it ranks just below the
operation that needs it unless it already ranks higher. The producer chosen (`best_producer`) is
the caller's own list when the task says "my" (`GET /me/playlists` for "my playlist"), else a
search where the entity has one (`GET /search/tv` rather than `GET /discover/tv`), else the one
scoring best for the query.

The rules' switches are fields of `SearchSettings` (`generic_producers`, `aliases_first`,
`search_first`, `own_first`, `named_search`, `producer_share`, `consumers`):

- generic producers: a service's generic search (`GET /search`, `GET /find`, `GET /lookup`, with
  nothing but an API prefix such as `/api/2` before it) produces every entity, and `GET /me`
  produces the user (alone where it exists: aliases first).
- search first: of an entity's producers, lift a search before the others: a task names what it
  acts on ("the third episode of Band of Brothers"), and a search is how an API turns a name into
  an identifier, while a list (popular, latest, discover) rarely holds the one named (RestBench
  R@10 +.010, R@20 +.020; SOCBench-D unchanged).
- own first: when the task speaks of the caller's own things ("my playlist", `speaks_of_own`),
  lift a producer under `/me/` (`GET /me/playlists`) before a search (RestBench R@5 +.012).
- named search: when a task names a particular thing ("Follow Taylor Swift", `names_something`),
  the best operation's service's search is lifted too, even when that operation takes the thing's
  identifier outside its path (`PUT /me/following?ids=...`) (RestBench R@5 +.020; SOCBench-D,
  whose tasks name no things, unchanged).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from itertools import pairwise

from openapi_rag.search.tokenize import split_identifier, stem

PRODUCER_SHARE = 0.9
"""A producer's score relative to the consumer that needs it (`SearchSettings.producer_share`)."""
CONSUMERS = 20
"""How many of the best operations have their producers lifted (`SearchSettings.consumers`)."""
_OWN_WORDS = re.compile(r"\b(?:my|mine|our)\b", re.IGNORECASE)
_QUOTED = re.compile(r"'[^']{2,}'|\"[^\"]{2,}\"|“[^”]{2,}”")

_ID_WORDS = re.compile(r"(?<![\w$])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9][\w-]*[A-Za-z0-9]")
"""A word of letters and digits both (with `_` or `-` inside): an identifier, or a unit (below)."""
_UNIT = re.compile(r"\d+(?:[.,]\d+)?(?:st|nd|rd|th|am|pm|[kmgt]b|ms|s|m|h|d|x|k|px|%)|v?\d+(?:\.\d+)*", re.I)
"""An amount with its unit, an ordinal, a time or a version ("10GB", "3rd", "9am", "v2"): no identifier."""
_NUMBER_AFTER_ID = re.compile(r"(?:\b(?:id|ids|no\.?|number)\s*(?:is|was|:)?\s*#?|#)\d", re.I)
_NOT_NAMES = frozenset({"I", "I'm", "I'd", "I'll", "I've"})
_ACRONYM = re.compile(r"[A-Z]{2,5}s?")
"""A word in capitals ("SSH", "IP", "TV", "PDFs"): a term, unless `names_something` reads acronyms as names."""
SEARCH_WORDS = ("search", "find", "lookup")
ENTITY_ALIASES = {"user": ("me",)}

_API_PREFIX = re.compile(r"^(?:api|rest|v?\d+(?:\.\d+)*)$", re.IGNORECASE)  # /api/2, /v3, /rest
_ID_SUFFIXES = frozenset({"id", "ids", "key", "name", "number"})
_PARAM = re.compile(r"^\{([^{}]+)\}$")

OpKey = tuple[str, str]
"""(service id, `METHOD /path`)."""


def _word(text: str) -> str:
    return stem("".join(part.lower() for part in split_identifier(text)))


def path_entities(path: str) -> list[str]:
    """The entities named by a path's parameters, in order.

    Example:
        >>> path_entities("/tv/{tv_id}/season/{season_number}")
        ['tv', 'season']
        >>> path_entities("/albums/{id}/tracks")
        ['album']
    """
    segments = [s for s in path.split("/") if s]
    entities = []
    for i, segment in enumerate(segments):
        match = _PARAM.match(segment)
        if not match:
            continue
        parts = [p.lower() for p in split_identifier(match.group(1))]
        if len(parts) > 1 and parts[-1] in _ID_SUFFIXES:
            entities.append(stem("".join(parts[:-1])))
        elif i > 0 and not _PARAM.match(segments[i - 1]):
            entities.append(_word(segments[i - 1]))
    return entities


def producer_entity(op_id: str) -> str | None:
    """The entity a `GET` operation without path parameters lists or finds, else None.

    A search under an entity finds that entity (`/users/search` → user, `/api/2/user/search` →
    user); only one with nothing but an API prefix before it is a generic search (`/search`,
    `/api/2/search` → search). Jira alone has five searches, four of them for users.

    Example:
        >>> [producer_entity(f"GET {p}") for p in ("/albums", "/api/2/search", "/businesses/search")]
        ['album', 'search', 'business']
    """
    method, _, path = op_id.partition(" ")
    if method != "GET" or "{" in path:
        return None
    segments = [s for s in path.split("/") if s]
    if not segments:
        return None
    if segments[-1].lower() in SEARCH_WORDS:
        subject = [s for s in segments[:-1] if not _API_PREFIX.match(s)]
        return _word(subject[-1]) if subject else _word(segments[-1])
    return _word(segments[-1])


class DependencyGraph:
    """For each operation, per entity its path parameters name, the operations that produce it.

    The producers are indexed when the graph is made; what one operation needs is worked out
    the first time it is asked for, and kept. A search asks about its top few operations only.
    Working it out for all 9,532 operations of the realworld index took a quarter of a second,
    paid by every process's first search (`openapi-rag search` through the CLI).

    Example:
        >>> graph = DependencyGraph.of([("tmdb", "GET /search/movie"), ("tmdb", "GET /movie/{movie_id}")])
        >>> graph.needs(("tmdb", "GET /movie/{movie_id}"))
        [[('tmdb', 'GET /search/movie')]]
    """

    def __init__(
        self,
        operations: Iterable[OpKey],
        producers: Mapping[tuple[str, str], list[OpKey]],
        searches: Mapping[str, list[OpKey]],
        *,
        generic: bool = True,
        aliases_first: bool = True,
    ):
        self._operations = frozenset(operations)
        self._producers = dict(producers)  # (service, entity) -> its producers
        self._searches = dict(searches)
        self._generic = generic
        self._aliases_first = aliases_first
        self._needs: dict[OpKey, list[list[OpKey]]] = {}  # filled on demand (`_needs_of`)

    @classmethod
    def of(
        cls, operations: Iterable[OpKey], *, generic: bool = True, aliases_first: bool = True
    ) -> DependencyGraph:
        """The graph over `(service, METHOD /path)` pairs; `generic`: count generic searches and
        `GET /me` as producers; `aliases_first`: where `GET /me` exists it alone produces the user."""
        operations = list(dict.fromkeys(operations))
        by_entity: dict[tuple[str, str], list[OpKey]] = {}
        searches_of: dict[str, list[OpKey]] = {}
        for service, op_id in operations:
            entity = producer_entity(op_id)
            if entity:
                by_entity.setdefault((service, entity), []).append((service, op_id))
                if _is_search(op_id.partition(" ")[2]):
                    searches_of.setdefault(service, []).append((service, op_id))
        return cls(operations, by_entity, searches_of, generic=generic, aliases_first=aliases_first)

    def _needs_of(self, op: OpKey) -> list[list[OpKey]]:
        found_before = self._needs.get(op)
        if found_before is not None:
            return found_before
        groups: list[list[OpKey]] = []
        service, op_id = op
        if op in self._operations:
            for entity in dict.fromkeys(path_entities(op_id.partition(" ")[2])):
                found = list(self._producers.get((service, entity), []))
                if self._generic:
                    aliases = [
                        p
                        for a in ENTITY_ALIASES.get(entity, ())
                        for p in self._producers.get((service, a), [])
                    ]
                    # `GET /me` is *the* producer of the caller's user id where a service has it; a
                    # generic search that happens to score higher for the query is not.
                    searches = [p for w in SEARCH_WORDS for p in self._producers.get((service, w), [])]
                    found = aliases if aliases and self._aliases_first else found + searches + aliases
                found = [p for p in dict.fromkeys(found) if p != op]
                if found:
                    groups.append(found)
        self._needs[op] = groups  # a race computes the same list twice: harmless
        return groups

    def needs(self, op: OpKey) -> list[list[OpKey]]:
        """For each entity `op` needs, the operations producing it."""
        return [list(group) for group in self._needs_of(op)]

    def producers(self, op: OpKey) -> list[OpKey]:
        """Every operation producing something `op` needs."""
        return list(dict.fromkeys(p for group in self._needs_of(op) for p in group))

    def searches(self, service: str) -> list[OpKey]:
        """The service's searches (`GET` operations without path parameters under a search word)."""
        return list(self._searches.get(service, []))

    @property
    def is_empty(self) -> bool:
        """Whether nothing can be lifted: no operation produces anything and no service searches.
        (A graph whose producers no operation needs is not empty here, and lifts nothing.)"""
        return not self._producers and not self._searches

    def __len__(self) -> int:
        """How many operations need a producer (works every one of them out)."""
        return sum(1 for op in self._operations if self._needs_of(op))


def propagate(
    scores: Mapping[OpKey, float],
    graph: DependencyGraph,
    *,
    share: float = PRODUCER_SHARE,
    consumers: int = CONSUMERS,
    own: bool = False,
    named: bool = False,
    search_first: bool = True,
    needs: bool = True,
) -> dict[OpKey, float]:
    """Operation scores with producers lifted to `share` of their best consumer's score.

    For each of the `consumers` best operations and each entity it needs, one producer
    (`best_producer`; `own`: the task says "my") is lifted; the others are left alone, so
    `GET /search/movie` rather than every movie list is added for "the cast of Titanic".
    `named` (the task names a thing, `names_something`): a search of the best operation's service
    is lifted too, its generic search where it has one, else its best-scoring one. `needs` False:
    no producer of what the consumers need is lifted (the task gives the identifier itself).
    """
    out = dict(scores)
    top = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:consumers]
    for op, score in top if needs else ():
        for group in graph.needs(op):
            best = best_producer(group, scores, own=own, search_first=search_first)
            out[best] = max(out.get(best, 0.0), share * score)
    if named and top:
        (service, _), score = top[0]
        found = graph.searches(service)
        if found:  # the service's generic search where it has one, else the best-scoring search
            search = max(found, key=lambda c: (producer_entity(c[1]) in SEARCH_WORDS, scores.get(c, 0.0), c))
            out[search] = max(out.get(search, 0.0), share * score)
    return out


def names_something(text: str | None, *, known: frozenset[str] = frozenset(), acronyms: bool = True) -> bool:
    """Whether a task names a particular thing (named search): a quoted title, or a capitalised
    word that does not start a sentence and is not in `known` (lower-case words of the catalog's
    API titles: "in Jira" names the API, not a thing in it; "I" names nothing); with `acronyms`
    False, a word in capitals ("SSH", "IP", "TV") is a term and names nothing either.

    Example:
        >>> names_something("Follow Taylor Swift"), names_something("Who is my favorite artist?")
        (True, False)
        >>> names_something("list my issues in Jira", known=frozenset({"jira"}))
        False
    """
    if not text:
        return False
    if _QUOTED.search(text):
        return True
    return any(names_a_thing(before, word, known, acronyms=acronyms) for before, word in pairwise(text.split()))


def names_a_thing(before: str, token: str, known: frozenset[str] = frozenset(), *, acronyms: bool = True) -> bool:
    """Whether `token`, after the token `before`, is a particular thing's name (`names_something`):
    capitalised, not a sentence's first word, not "I", not in `known`, and (with `acronyms` False)
    not a word in capitals."""
    word = token.strip(".,;:!?'\"()")
    return (
        before[-1:] not in ".!?:"
        and word[:1].isupper()
        and word not in _NOT_NAMES
        and word.lower() not in known
        and (acronyms or not _ACRONYM.fullmatch(word))
    )


def gives_identifier(text: str | None) -> bool:
    """Whether a task gives an identifier an operation would take: a word mixing letters and three
    digits or more ("ord_3321", "SM8812", "INV-0310", "E-204"), or a number right after "ID", "#" or
    "number" ("account ID is 0123"). Amounts, dates, times, sizes and names are not ("$200",
    "10 July", "80%", "5pm", "10GB", "mp3", "top-10").

    Example:
        >>> gives_identifier("Please mark order ord_3321 as paid"), gives_identifier("refund $200 of it")
        (True, False)
        >>> gives_identifier("My account ID is 0123."), gives_identifier("book leave from 10 July at 9am")
        (True, False)
    """
    if not text:
        return False
    for word in _ID_WORDS.findall(text):
        # three digits at least: "mp3", "k8s", "top-10" and "EC2" are names, not identifiers
        if sum(c.isdigit() for c in word) >= 3 and not _UNIT.fullmatch(word):
            return True
    return _NUMBER_AFTER_ID.search(text) is not None


def speaks_of_own(text: str | None) -> bool:
    """Whether a task speaks of the caller's own things ("my", "mine", "our"; own first)."""
    return bool(text) and _OWN_WORDS.search(text or "") is not None


def best_producer(
    group: Iterable[OpKey], scores: Mapping[OpKey, float], *, own: bool = False, search_first: bool = True
) -> OpKey:
    """The producer to lift of one entity's producers: with `own`, one under `/me/` first; then,
    with `search_first`, a search; then the one scoring best for the query (absent ones count as 0)."""

    def rank(c: OpKey) -> tuple[bool, bool, float, OpKey]:
        path = c[1].partition(" ")[2]
        return (own and path.startswith("/me/"), search_first and _is_search(path), scores.get(c, 0.0), c)

    return max(group, key=rank)


def _is_search(path: str) -> bool:
    return any(word in path.lower().split("/") for word in SEARCH_WORDS)
