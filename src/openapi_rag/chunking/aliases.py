"""Index-time aliases: other words for what an operation names, from a general thesaurus (WordNet).

A user names a thing in their own words; an API's authors in theirs. A general thesaurus knows many
pairs of such words without knowing any API: for each word an operation names (the literal
segments of its path, its operationId, its summary), the synonyms of its most frequent sense, and
optionally the words of that sense's first hypernym, are written on an alias line that only BM25
reads (`compact`'s `aliases`; the embedded line is left as it is). Bounded: at most `limit` alias
words per operation, single words only, none the operation already says.

Which part of speech: a path's and the summary's words are looked up as nouns; the first word of the
summary (or of the operationId, when there is no summary) as a verb, since API summaries open with
their action ("Cancel a subscription"). Nothing here names a word of any API or task.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from openapi_rag.chunking.wordnet import WordNet, shared_wordnet
from openapi_rag.search.tokenize import STOPWORDS, split_identifier

_WORD = re.compile(r"[A-Za-z][A-Za-z_-]*")
_VERSION = re.compile(r"^v\d+$", re.IGNORECASE)
MIN_LETTERS = 3


@dataclass(frozen=True)
class AliasSettings:
    """How many alias words, from how many senses, with or without hypernyms."""

    limit: int = 8
    senses: int = 1
    hypernyms: bool = False


def words_of(text: str) -> list[str]:
    """Lower-case content words of `text`, identifiers split (`paymentIntents` → payment, intents)."""
    out = []
    for word in _WORD.findall(text):
        for part in split_identifier(word):
            part = part.lower()
            if len(part) >= MIN_LETTERS and part not in STOPWORDS and not _VERSION.match(part):
                out.append(part)
    return out


def path_words(operation_id: str) -> list[str]:
    """Words of the literal segments of `METHOD /path`, the last segment first (the resource)."""
    _, _, path = operation_id.partition(" ")
    segments = [s for s in path.split("/") if s and not s.startswith("{")]
    return [w for segment in reversed(segments) for w in words_of(segment)]


class AliasWriter:
    """Writes the alias words of operations from a WordNet (by default the process's shared one)."""

    def __init__(self, settings: AliasSettings | None = None, wordnet: WordNet | None = None):
        self.settings = settings or AliasSettings()
        self.wordnet = wordnet or shared_wordnet()

    def _related(self, word: str, pos: str) -> list[str]:
        out: list[str] = []
        for synset in self.wordnet.synsets(word, pos)[: self.settings.senses]:
            out += synset.words
            if self.settings.hypernyms and synset.hypernyms:
                out += self.wordnet.synset(synset.hypernyms[0], pos).words
        return [w.lower() for w in out if " " not in w and "-" not in w]

    def aliases(self, operation: str, summary: str = "", operation_name: str = "") -> list[str]:
        """Alias words for the operation `METHOD /path` with its summary and operationId.

        Args:
            operation: the operation's id, `METHOD /path`.
            summary: its summary (or the statement that stands for one).
            operation_name: its operationId, if any.
        """
        if self.settings.limit <= 0:
            return []
        summary_words, name_words, resource_words = words_of(summary), words_of(operation_name), path_words(operation)
        verb_source = summary_words[:1] or name_words[:1]
        nouns = [*resource_words, *summary_words[1:], *name_words[1:]]
        said = {*summary_words, *name_words, *resource_words}
        # what the operation says, as written and as WordNet's base forms: no alias repeats either
        known = said | {self.wordnet.morphy(w, pos) or w for w in said for pos in ("n", "v")}
        found: list[str] = []
        for word, pos in [*((w, "v") for w in verb_source), *((w, "n") for w in _unique(nouns))]:
            for alias in self._related(word, pos):
                if alias not in known and alias not in found:
                    found.append(alias)
                if len(found) >= self.settings.limit:
                    return found
        return found


def _unique(words: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(words))
