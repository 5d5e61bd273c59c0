"""How a request's words name the schema: tables, columns, and the vocabulary of comparisons and order."""

from __future__ import annotations

import re
from dataclasses import dataclass

from openapi_rag.generate.sql.schema import Column, DbSchema, Table
from openapi_rag.generate.sql.words import same, split_name, stem

# Words that say little about which column is meant: `total_tracks` is named by "tracks".
_GENERIC = {
    "total",
    "count",
    "number",
    "num",
    "date",
    "time",
    "at",
    "is",
    "has",
    "of",
    "per",
    "amount",
    "value",
}
_COMPARATORS = [
    (">=", ("at least", "no less than", "not less than", "minimum of", "since")),
    ("<=", ("at most", "no more than", "not more than", "maximum of", "up to")),
    (
        ">",
        (
            "more than",
            "greater than",
            "higher than",
            "larger than",
            "bigger than",
            "longer than",
            "over",
            "above",
            "exceeding",
            "exceeds",
            "after",
            "later than",
            "newer than",
        ),
    ),
    (
        "<",
        (
            "less than",
            "fewer than",
            "lower than",
            "smaller than",
            "shorter than",
            "under",
            "below",
            "before",
            "earlier than",
            "older than",
        ),
    ),
    ("=", ("exactly", "equal to", "equals", "with", "of", "is", "in")),
]
_DESC = (
    "most",
    "highest",
    "largest",
    "biggest",
    "greatest",
    "top",
    "best",
    "longest",
    "newest",
    "latest",
    "recent",
    "descending",
    "desc",
    "maximum",
    "max",
    "expensive",
)
_ASC = (
    "least",
    "lowest",
    "smallest",
    "fewest",
    "shortest",
    "oldest",
    "earliest",
    "ascending",
    "asc",
    "minimum",
    "min",
    "cheapest",
    "worst",
)
_DATE_SUPERLATIVES = {"newest", "latest", "recent", "oldest", "earliest"}
# An imperative that opens a request is a verb even where a table has its name ("Show ...", "List ...").
_OPENING_VERBS = {
    "show",
    "list",
    "find",
    "get",
    "search",
    "count",
    "select",
    "give",
    "tell",
    "display",
    "return",
}
_NUMBER = re.compile(r"^\d+(?:\.\d+)?$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# "Where ...?" asks for a place, "When ...?" for a date: the first column named like one answers.
_PLACE_OR_TIME = {
    "where": ("location", "place", "address", "city", "headquarters", "destination", "country", "region"),
    "when": ("date", "time", "_at", "day"),
}
_DURATION_WORDS = ("duration", "length", "runtime", "_ms")
_YEAR = re.compile(r"^(19|20)\d\d$")


# --- the table -------------------------------------------------------------------------------------


def _table_positions(tokens: list[str], table: Table) -> list[int]:
    name = split_name(table.name)
    last = name[-1]
    hits = []
    for i, tok in enumerate(tokens):
        if same(tok, last) and (
            len(name) == 1
            or all(
                i - len(name) + 1 + j >= 0 and same(tokens[i - len(name) + 1 + j], part)
                for j, part in enumerate(name[:-1])
            )
        ):
            hits.append(i - len(name) + 1)
    return hits


def _main_table(tokens: list[str], schema: DbSchema, ranked: list[Table] | None) -> Table | None:
    candidates = ranked if ranked is not None else schema.tables
    named = []
    for order, table in enumerate(candidates):
        positions = _table_positions(tokens, table)
        if positions:
            # A table named right after a number is a count ("more than 50 tracks"), not the subject.
            subject = [
                p
                for p in positions
                if not (p > 0 and _NUMBER.match(tokens[p - 1]))
                and not (p == 0 and tokens[0] in _OPENING_VERBS)
            ]
            if subject:
                named.append((subject[0], -len(split_name(table.name)), order, table))
    if named:
        return min(named, key=lambda item: item[:3])[3]
    best, best_score = None, 0
    for table in candidates:
        score = len(_mentions(tokens, [table]))
        if score > best_score:
            best, best_score = table, score
    return best


def _neighbours(table: Table, schema: DbSchema) -> list[Table]:
    """Tables one foreign key away, in either direction."""
    out = []
    for col in table.columns:
        parent = schema.table(col.references.partition(".")[0]) if col.references else None
        if parent is not None and parent is not table and parent not in out:
            out.append(parent)
    for other in schema.tables:
        if (
            other is not table
            and other not in out
            and any(c.references.partition(".")[0].lower() == table.name.lower() for c in other.columns)
        ):
            out.append(other)
    return out


# --- columns ---------------------------------------------------------------------------------------


@dataclass
class Mention:
    table: Table
    column: Column
    position: int  # of the first word naming it
    width: int  # words it spans
    score: float


def _key_words(column: Column, table: Table | None = None) -> list[str]:
    parts = split_name(column.name)
    key = [p for p in parts if p not in _GENERIC and p != "id"]
    if table is not None and key == [stem(split_name(table.name)[-1])] and len(parts) > 1:
        return parts  # `track_number` in tracks: "tracks" names the table, the column needs "number" too
    return key or parts


def _mentions(tokens: list[str], tables: list[Table]) -> dict[int, Mention]:
    """Per word position, the column the words starting there name best (main table first on ties)."""
    found: dict[int, Mention] = {}
    for rank, table in enumerate(tables):
        for col in table.columns:
            if col.references and not col.name.lower().endswith("id"):
                continue
            key = _key_words(col, table)
            parts = split_name(col.name)
            for i in range(len(tokens)):
                if not same(tokens[i], key[0]):
                    continue
                window = tokens[max(0, i - 2) : i + len(key) + 2]
                if not all(any(same(w, k) for w in window) for k in key):
                    continue
                extra = sum(1 for p in parts if p not in key and any(same(w, p) for w in window))
                score = len(key) + 0.5 * extra - 0.3 * (len(parts) - len(key) - extra) - 0.01 * rank
                if col.references:
                    score -= 1  # `album_id` is named by "album" only when nothing better is
                current = found.get(i)
                if current is None or score > current.score:
                    found[i] = Mention(table, col, i, len(key), score)
    return found


def _name_column(table: Table) -> Column | None:
    for wanted in ("name", "title", "display_name", "label"):
        col = table.column(wanted)
        if col is not None:
            return col
    return next((c for c in table.columns if c.type == "TEXT" and "name" in c.name.lower()), None)


def _is_date(col: Column) -> bool:
    name = col.name.lower()
    return col.format in ("date", "date-time") or name.endswith(("date", "_at", "time")) or "date" in name


def _cover(mentions: dict[int, Mention]) -> dict[int, Mention]:
    """Per word position, the best mention spanning it (`display name` over `name`)."""
    cover: dict[int, Mention] = {}
    for m in mentions.values():
        for i in range(m.position, m.position + m.width):
            if i not in cover or m.score > cover[i].score:
                cover[i] = m
    return cover


def _tables_named(tokens: list[str], at: int, tables: list[Table]) -> list[Table]:
    return [t for t in tables if at in _table_positions(tokens, t)]
