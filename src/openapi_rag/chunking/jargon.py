"""Index-time aliases from a lexicon of API jargon: the words users say for what APIs name otherwise.

A Discord "server" is a `guild`, a "chargeback" a `dispute`, "money back" a `refund`, a "card
reader" a `terminal`. A general thesaurus does not hold such pairs (WordNet gives a guild "club" and
"lodge", `aliases.py`); they are product vocabulary, shared by the APIs of a domain. The lexicon
(`data/lexicon/api_jargon.tsv`, its README says who wrote it and how) maps an API term (a word or
a short phrase as paths, summaries and operationIds write it) to the words users say for it. For
each operation whose own words contain a term, those user words are written on a line that only BM25
reads (`compact`'s `jargon`; the embedded line is left as it is, unless `jargon_embed`). Bounded:
at most `limit` words per operation, none the operation already says.

Terms and an operation's words are compared after the BM25 tokenizer's light stemming, so
`disputes`, `Dispute` and `listDisputes` all contain `dispute`. A term of several words matches
only as consecutive words of one field.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from openapi_rag.chunking.render import collapse, humanise, leading_sentence
from openapi_rag.model import Operation
from openapi_rag.search.tokenize import STOPWORDS, stem

LEXICON = "api_jargon.tsv"
MAX_TERM_WORDS = 3


def stems(text: str) -> tuple[str, ...]:
    """`text` as stemmed lower-case words, identifiers split (`listDisputes` → list, disput)."""
    return tuple(stem(word) for word in humanise(text).split())


@dataclass(frozen=True)
class Lexicon:
    """API term (stemmed words) → the user's words for it, in the lexicon's order, and the domains
    (`# domain: NAME` headers) whose lines name the term."""

    entries: dict[tuple[str, ...], tuple[str, ...]]
    digest: str
    domains: dict[tuple[str, ...], frozenset[str]] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> Lexicon:
        """Reads `term<TAB>user words, comma-separated` lines; `#` starts a comment, `# domain: NAME`
        names the domain of the lines below it. A term listed twice keeps the user words of both."""
        entries: dict[tuple[str, ...], list[str]] = {}
        domains: dict[tuple[str, ...], set[str]] = {}
        domain = ""
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if line.startswith("#"):
                name = line.lstrip("#").strip()
                if name.lower().startswith("domain:"):
                    domain = name.split(":", 1)[1].strip()
                continue
            if not line:
                continue
            term, sep, said = line.partition("\t")
            key = stems(term)
            if not sep or not key or len(key) > MAX_TERM_WORDS:
                raise ValueError(
                    f"lexicon line {number}: expected 'term<TAB>words' (term of 1-3 words): {raw!r}"
                )
            domains.setdefault(key, set()).add(domain)
            phrases = entries.setdefault(key, [])
            for phrase in said.split(","):
                phrase = " ".join(phrase.lower().split())
                if phrase and phrase not in phrases:
                    phrases.append(phrase)
        digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        return cls(
            {key: tuple(value) for key, value in entries.items()},
            digest,
            {key: frozenset(value) for key, value in domains.items()},
        )

    def open_domains(self, fields_of_operations: Iterable[Sequence[str]], least: int) -> frozenset[str]:
        """The domains an API belongs to: those of which its operations name at least `least`
        distinct terms. A term is read in every API that uses it, and many words mean one thing in
        one domain and another elsewhere (a music API's `player` is not a gamer, its `release` no
        software version): an API that names one term of a domain is not of that domain."""
        seen: dict[str, set[tuple[str, ...]]] = {}
        for fields in fields_of_operations:
            for key in _terms_in([stems(f) for f in fields], self.entries):
                for domain in self.domains.get(key, ()):
                    seen.setdefault(domain, set()).add(key)
        return frozenset(domain for domain, keys in seen.items() if len(keys) >= least)


@cache
def shipped_lexicon() -> Lexicon:
    """The lexicon shipped in the package, read once per process."""
    data = resources.files("openapi_rag.data").joinpath("lexicon", LEXICON).read_text(encoding="utf-8")
    return Lexicon.parse(data)


def operation_fields(op: Operation) -> list[str]:
    """The operation's own words, most telling first: its path's literal segments (the resource
    last-first), summary, operationId, tags and the first sentence of its description."""
    _, _, path = op.id.partition(" ")
    segments = [s for s in path.split("/") if s and not s.startswith("{")]
    return [
        *reversed(segments),
        collapse(op.summary),
        op.operation_id or "",
        *op.tags,
        leading_sentence(op.description),
    ]


DOMAIN_TERMS = 3
"""Distinct terms of a domain an API must name before the domain's words are written for it."""


class JargonWriter:
    """Writes the user's words for the API terms an operation contains, from the domains its API
    belongs to (`Lexicon.open_domains`; all domains until `for_service` says which)."""

    def __init__(
        self,
        limit: int,
        lexicon: Lexicon | None = None,
        domain_terms: int = DOMAIN_TERMS,
        domains: frozenset[str] | None = None,
    ):
        self.limit = limit
        self.lexicon = lexicon or shipped_lexicon()
        self.domain_terms = domain_terms
        self.domains = domains  # None: every domain

    def for_service(self, operations: Sequence[Operation]) -> JargonWriter:
        """This writer, limited to the domains of the API made of `operations`."""
        if self.domain_terms <= 0:
            return self
        domains = self.lexicon.open_domains(map(operation_fields, operations), self.domain_terms)
        return JargonWriter(self.limit, self.lexicon, self.domain_terms, domains)

    def _usable(self, key: tuple[str, ...]) -> bool:
        return self.domains is None or not self.domains.isdisjoint(self.lexicon.domains.get(key, {""}))

    def phrases(self, fields: Sequence[str]) -> tuple[list[str], list[str]]:
        """The user phrases for the terms in `fields` that add a word not said there, and those new
        words: at most `limit` words."""
        if self.limit <= 0:
            return [], []
        field_stems = [stems(field) for field in fields]
        said = {word for words in field_stems for word in words}
        phrases: list[str] = []
        new: list[str] = []
        for key in _terms_in(field_stems, self.lexicon.entries):
            if not self._usable(key):
                continue
            for phrase in self.lexicon.entries[key]:
                adds = [
                    w for w in phrase.split() if w not in STOPWORDS and stem(w) not in said and w not in new
                ]
                if not adds:
                    continue
                phrases.append(phrase)
                new += adds[: self.limit - len(new)]
                if len(new) >= self.limit:
                    return phrases, new
        return phrases, new

    def words(self, fields: Sequence[str]) -> list[str]:
        """At most `limit` user words for the terms in `fields`, none already said there."""
        return self.phrases(fields)[1]

    def operation_phrases(self, op: Operation) -> tuple[list[str], list[str]]:
        return self.phrases(operation_fields(op))


def _terms_in(
    field_stems: Iterable[tuple[str, ...]], entries: dict[tuple[str, ...], object]
) -> list[tuple[str, ...]]:
    """The lexicon's terms found in the fields, in order of first occurrence. The longest term at a
    place wins and its words are not read again: "trial balance" is an accounting report, not a
    "trial"; "terminal reader" is a card reader, and not also a "terminal"."""
    found: list[tuple[str, ...]] = []
    for words in field_stems:
        start = 0
        while start < len(words):
            for size in range(min(MAX_TERM_WORDS, len(words) - start), 0, -1):
                key = words[start : start + size]
                if key in entries:
                    if key not in found:
                        found.append(key)
                    start += size
                    break
            else:
                start += 1
    return found
