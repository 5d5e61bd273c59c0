"""The offline SQL generator: no LLM, the request read against the schema's own words.

The table is the first one the request names (or the one most of its words point at); columns are
named by their words (`release date`, `popular` for `popularity`); values come typed from the
request: quoted text, numbers after a comparison ("more than 50", "at least 3"), years and dates,
enum values, yes/no columns. The shapes it writes are the common ones: projection, equality and
range filters joined by AND, COUNT/SUM/AVG/MAX/MIN, GROUP BY, ORDER BY … LIMIT, and one join over a
foreign key. A request whose words name no table yields no SQL and says so: nothing is invented.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from openapi_rag.generate.sql.schema import Column, DbSchema, Table, quote_ident
from openapi_rag.generate.sql.words import same, split_name, stem, words

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


@dataclass
class Draft:
    """What the generator understood; `sql` renders it."""

    table: Table
    select: list[tuple[Table, Column]] = field(default_factory=list)
    aggregate: str = ""  # COUNT | SUM | AVG | MAX | MIN
    aggregate_column: tuple[Table, Column] | None = None
    where: list[tuple[Table, Column, str, object]] = field(default_factory=list)
    group_by: tuple[Table, Column] | None = None
    order_by: tuple[Table, Column] | None = None
    descending: bool = False
    limit: int | None = None
    join: tuple[Table, Column, Table, Column] | None = None  # left.col = right.col
    having_count: tuple[str, int] | None = None  # "more than 5 albums" per group: COUNT(*) > 5
    order_by_count: bool = False  # "the most albums" per group: ORDER BY COUNT(*)

    def tables(self) -> list[str]:
        return [self.table.name] + ([self.join[2].name] if self.join else [])


def generate_offline(
    request: str, schema: DbSchema, ranked: list[Table] | None = None
) -> tuple[Draft | None, str]:
    """(the draft, "") or (None, why no table answers the request)."""
    text, quoted = _pull_quotes(request)
    tokens = words(text)
    table = _main_table(tokens, schema, ranked)
    if table is None:
        return None, "no table answers this request: its words name no table or column of the schema"
    draft = Draft(table)
    # A neighbour's columns count only when the request names the neighbour ("the album 'X'").
    neighbours = [t for t in _neighbours(table, schema) if _table_positions(tokens, t)]
    used: set[int] = set()  # token positions consumed by filters and ordering
    mentions = _mentions(tokens, [table] + neighbours)
    _quoted_filters(draft, tokens, quoted, neighbours, mentions)
    _number_filters(draft, tokens, mentions, used)
    _enum_and_flag_filters(draft, tokens, [table] + neighbours, used)
    _aggregate(draft, tokens, mentions, used)
    _ordering(draft, tokens, mentions, used)
    _projection(draft, tokens, mentions, used)
    _choose_join(draft, schema)
    return draft, ""


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


# --- filters ---------------------------------------------------------------------------------------


def _pull_quotes(request: str) -> tuple[str, list[tuple[int, str]]]:
    """The request with each quoted value replaced by a marker word, and (marker index, value) pairs."""
    quoted: list[tuple[int, str]] = []

    def keep(match: re.Match[str]) -> str:
        quoted.append((len(quoted), match.group(2)))
        return f" qvalue{chr(97 + len(quoted) - 1)} "  # letters only: a digit would split the word

    text = re.sub(r"(['\"‘“])(.+?)(['\"’”])(?=\W|$)", keep, request)
    return text, quoted


def _quoted_filters(
    draft: Draft,
    tokens: list[str],
    quoted: list[tuple[int, str]],
    neighbours: list[Table],
    mentions: dict[int, Mention],
) -> None:
    for number, value in quoted:
        marker = f"qvalue{chr(97 + number)}"
        if marker not in tokens:
            continue
        at = tokens.index(marker)
        target: tuple[Table, Column] | None = None
        cover = _cover(mentions)
        for back in range(1, 5):  # the column or table named just before the value
            i = at - back
            if i < 0:
                break
            mention = cover.get(i)
            if mention is not None and mention.column.type == "TEXT" and not mention.column.references:
                target = (mention.table, mention.column)
                break
            for table in [draft.table] + neighbours:
                if i in _table_positions(tokens, table) and _name_column(table) is not None:
                    target = (table, _name_column(table))  # type: ignore[assignment]
                    break
            if target:
                break
        if target is None and _name_column(draft.table) is not None:
            target = (draft.table, _name_column(draft.table))  # type: ignore[assignment]
        if target is not None:
            draft.where.append((target[0], target[1], "=", value))


def _cover(mentions: dict[int, Mention]) -> dict[int, Mention]:
    """Per word position, the best mention spanning it (`display name` over `name`)."""
    cover: dict[int, Mention] = {}
    for m in mentions.values():
        for i in range(m.position, m.position + m.width):
            if i not in cover or m.score > cover[i].score:
                cover[i] = m
    return cover


def _comparator_before(tokens: list[str], at: int) -> tuple[str, int]:
    """The comparison said just before position `at`, and where it starts; ("", at) when none."""
    for op, phrases in _COMPARATORS:
        for phrase in phrases:
            parts = phrase.split()
            start = at - len(parts)
            if start >= 0 and tokens[start:at] == parts:
                return op, start
    return "", at


def _number_filters(draft: Draft, tokens: list[str], mentions: dict[int, Mention], used: set[int]) -> None:
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if _DATE.match(tok):
            op, start = _comparator_before(tokens, i)
            target = _column_near(draft, tokens, mentions, i, start, prefer_date=True, used=used)
            if target is None:
                target = next(((draft.table, c) for c in draft.table.columns if _is_date(c)), None)
            if target is not None:
                draft.where.append((target[0], target[1], op if op and op != "=" else "=", tok))
                used.update(range(start, i + 1))
            i += 1
            continue
        if not _NUMBER.match(tok) or _is_limit_number(tokens, i):
            i += 1
            continue
        op, start = _comparator_before(tokens, i)
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        if op and after and draft.table in _tables_named(tokens, i + 1, [draft.table]):
            # "types that have more than 5 albums": a count of the table's rows per group.
            draft.having_count = (op, int(float(tok)))
            used.update(range(start, i + 2))
            i += 1
            continue
        if not op and i > 0:
            named = _id_of_named(draft, tokens, i)
            if named is not None:  # "room 301", "reservation 12": the thing's identifier
                draft.where.append((named[0], named[1], "=", _typed(tok, named[1])))
                used.update({i - 1, i})
                i += 1
                continue
            m = _cover(mentions).get(i - 1)
            if m is not None and m.column.type in ("INTEGER", "REAL") and m.column.format != "boolean":
                draft.where.append((m.table, m.column, "=", _typed(tok, m.column)))  # "season 2"
                used.update(range(m.position, i + 1))
                i += 1
                continue
        between = i >= 1 and tokens[i - 1] == "between" and i + 2 < len(tokens) and tokens[i + 1] == "and"
        if between:
            start = i - 1
        if tokens[i + 1 : i + 3] in (["or", "more"], ["or", "greater"], ["or", "above"]):
            op = ">="
        elif tokens[i + 1 : i + 3] in (["or", "less"], ["or", "fewer"], ["or", "below"]):
            op = "<="
        if not op and not between:
            i += 1
            continue
        is_year = bool(_YEAR.match(tok))
        target = _column_near(draft, tokens, mentions, i, start, prefer_date=is_year and op != "=", used=used)
        if target is None and is_year:
            target = next(((draft.table, c) for c in draft.table.columns if _is_date(c)), None)
        if target is None:
            i += 1
            continue
        table, col = target
        used.update(range(start, i + 1))
        if between and _NUMBER.match(tokens[i + 2]):
            draft.where.append((table, col, "BETWEEN", (_typed(tok, col), _typed(tokens[i + 2], col))))
            used.update({i + 1, i + 2})
            i += 3
            continue
        if is_year and _is_date(col):
            draft.where.append(_year_filter(table, col, op, tok))
        else:
            draft.where.append((table, col, op, _typed(tok, col)))
        i += 1


def _is_limit_number(tokens: list[str], i: int) -> bool:
    before = tokens[i - 1] if i else ""
    after = tokens[i + 1] if i + 1 < len(tokens) else ""
    return (
        before in ("top", "first", "last")
        or after in _DESC + _ASC
        and before not in ("than", "least", "most")
    )


def _column_near(
    draft: Draft,
    tokens: list[str],
    mentions: dict[int, Mention],
    at: int,
    start: int,
    *,
    prefer_date: bool,
    used: set[int] | None = None,
) -> tuple[Table, Column] | None:
    used = used if used is not None else set()

    def fits(m: Mention) -> bool:
        if m.column.format == "boolean":
            return False
        return (m.column.type in ("INTEGER", "REAL") and not prefer_date) or (
            prefer_date and _is_date(m.column)
        )

    for i in range(at + 1, min(at + 4, len(tokens))):  # "more than 50 tracks"
        m = mentions.get(i)
        if m is not None and fits(m):
            used.update(range(m.position, m.position + m.width))
            return m.table, m.column
    cover = _cover(mentions)
    for i in range(start - 1, max(-1, start - 6), -1):  # "popularity above 50", "released after 2020"
        m = cover.get(i)
        if m is not None and fits(m):
            used.update(range(m.position, m.position + m.width))
            return m.table, m.column
    if not prefer_date and at + 1 < len(tokens):
        # "at least 7 days": the unit names the column whose description gives it.
        unit = tokens[at + 1]
        for col in draft.table.columns:
            if col.type in ("INTEGER", "REAL") and any(same(unit, w) for w in words(col.description)):
                return draft.table, col
    return None


def _tables_named(tokens: list[str], at: int, tables: list[Table]) -> list[Table]:
    return [t for t in tables if at in _table_positions(tokens, t)]


def _id_of_named(draft: Draft, tokens: list[str], at: int) -> tuple[Table, Column] | None:
    """`room 301`: the number right after the table's name in the singular is its identifier."""
    word = tokens[at - 1]
    id_column = draft.table.column("id")
    if id_column is None or stem(word) != word:
        return None  # "3 rooms" counts; "room 3" names one
    if same(word, split_name(draft.table.name)[-1]):
        return draft.table, id_column
    return None


def _year_filter(table: Table, col: Column, op: str, year: str) -> tuple[Table, Column, str, object]:
    if op == ">":
        return table, col, ">", f"{year}-12-31"
    if op == ">=":
        return table, col, ">=", f"{year}-01-01"
    if op == "<":
        return table, col, "<", f"{year}-01-01"
    if op == "<=":
        return table, col, "<=", f"{year}-12-31"
    return table, col, "LIKE", f"{year}%"


def _typed(token: str, col: Column) -> object:
    if col.type == "TEXT":
        return token
    number = float(token)
    return int(number) if number.is_integer() and col.type == "INTEGER" else number


def _enum_and_flag_filters(draft: Draft, tokens: list[str], tables: list[Table], used: set[int]) -> None:
    table_words = {stem(w) for t in tables for w in split_name(t.name)}
    taken = {(t.name, c.name) for t, c, _, _ in draft.where}
    for table in tables:
        for col in table.columns:
            if (table.name, col.name) in taken:
                continue
            if len(col.enum) > 1:  # a one-value enum is a constant (`type: user`), never a filter
                for value in col.enum:
                    parts = split_name(str(value))
                    if (
                        not parts
                        or len(str(value)) < 3
                        or (len(parts) == 1 and stem(parts[0]) in table_words)
                    ):
                        continue
                    for i in range(len(tokens) - len(parts) + 1):
                        if i not in used and all(same(tokens[i + j], p) for j, p in enumerate(parts)):
                            draft.where.append((table, col, "=", value))
                            used.update(range(i, i + len(parts)))
                            taken.add((table.name, col.name))
                            break
                    if (table.name, col.name) in taken:
                        break
            elif col.format == "boolean" and not col.enum:
                key = _key_words(col)
                for i in range(len(tokens) - len(key) + 1):
                    if i not in used and all(same(tokens[i + j], k) for j, k in enumerate(key)):
                        negated = any(
                            w in ("not", "non", "no", "never", "isn", "aren")
                            for w in tokens[max(0, i - 2) : i]
                        )
                        draft.where.append((table, col, "=", 0 if negated else 1))
                        used.update(range(i, i + len(key)))
                        taken.add((table.name, col.name))
                        break


# --- aggregates, order, projection -----------------------------------------------------------------


def _numeric_after(
    tokens: list[str], mentions: dict[int, Mention], at: int, used: set[int]
) -> Mention | None:
    for i in range(at + 1, min(at + 6, len(tokens))):
        m = mentions.get(i)
        if m is not None and m.column.type in ("INTEGER", "REAL") and i not in used:
            return m
    return None


def _aggregate(draft: Draft, tokens: list[str], mentions: dict[int, Mention], used: set[int]) -> None:
    joined = " ".join(tokens)
    counted = re.search(r"\bhow many\b|\bnumber of\b|\bcount\b", joined)
    if counted:
        draft.aggregate = "COUNT"
        # "how many followers does ... have": a numeric column, not rows, is what is counted.
        at = len(joined[: counted.end()].split())
        while at < len(tokens) and tokens[at] in ("of", "the", "my", "all", "total"):
            at += 1
        m = mentions.get(at)
        if (
            m is not None
            and m.column.type in ("INTEGER", "REAL")
            and m.column.format != "boolean"
            and not _table_named_at(draft, tokens, at)
        ):
            if re.search(r"\b(total|sum|all|combined|altogether)\b", joined) and not draft.where:
                draft.aggregate, draft.aggregate_column = "SUM", (m.table, m.column)
            else:
                draft.aggregate = ""
            used.update(range(at, at + m.width)) if draft.aggregate else None
    for word, function in (
        ("average", "AVG"),
        ("mean", "AVG"),
        ("sum", "SUM"),
        ("total", "SUM"),
        ("combined", "SUM"),
    ):
        if word in tokens:
            at = tokens.index(word)
            covering = _cover(mentions).get(at)
            if covering is not None and covering.width > 1 or (at and tokens[at - 1] in _DESC + _ASC):
                continue  # "vote average" is a column; "the most total episodes" an order
            m = _numeric_after(tokens, mentions, at, used)
            if m is not None and not (function == "SUM" and draft.aggregate == "COUNT"):
                draft.aggregate, draft.aggregate_column = function, (m.table, m.column)
                used.update(range(m.position, m.position + m.width))
                break
    if not draft.aggregate and re.match(
        r"^(what|tell)\b.*?\b(is|are|was)\b the (highest|maximum|largest|lowest|minimum|smallest|max|min)\b",
        joined,
    ):
        word = re.search(r"\b(highest|maximum|largest|lowest|minimum|smallest|max|min)\b", joined)
        assert word is not None
        at = tokens.index(word.group(1))
        m = _numeric_after(tokens, mentions, at, used)
        if m is not None:
            draft.aggregate = "MAX" if word.group(1) in _DESC else "MIN"
            draft.aggregate_column = (m.table, m.column)
            used.update(range(at, m.position + m.width))
    if draft.aggregate:
        for i, tok in enumerate(tokens):
            if tok in ("per", "each", "by") and i + 1 < len(tokens):
                group = _group_target(draft, tokens, mentions, i + 1)
                if group is not None:
                    draft.group_by = group
                    used.update({i, i + 1})
                    break


def _table_named_at(draft: Draft, tokens: list[str], at: int) -> bool:
    return at in _table_positions(tokens, draft.table)


def _group_target(
    draft: Draft, tokens: list[str], mentions: dict[int, Mention], at: int
) -> tuple[Table, Column] | None:
    for i in (at, at + 1):
        m = mentions.get(i)
        if m is not None and m.table is draft.table:
            return m.table, m.column
    word = tokens[at]
    for col in draft.table.columns:  # "per artist" on albums: the foreign key to artists
        if col.references and same(word, col.references.partition(".")[0]):
            return draft.table, col
    return None


def _ordering(draft: Draft, tokens: list[str], mentions: dict[int, Mention], used: set[int]) -> None:
    if draft.aggregate and not draft.group_by:
        return
    for i, tok in enumerate(tokens):
        if i in used:
            continue
        sorted_by = (
            tok in ("sorted", "ordered", "order", "sort", "rank", "ranked")
            and i + 1 < len(tokens)
            and tokens[i + 1] == "by"
        )
        if not (tok in _DESC or tok in _ASC or sorted_by):
            continue
        if tok in ("top", "first") and not (i + 1 < len(tokens) and _NUMBER.match(tokens[i + 1])):
            continue
        following = tokens[i + 1] if i + 1 < len(tokens) else ""
        if tok in ("most", "least", "fewest") and (
            following in ("common", "frequent", "records", "entries", "rows")
            or draft.table in _tables_named(tokens, i + 1, [draft.table])
        ):
            # "the labels with the most albums": rows counted per group, largest count first.
            draft.order_by_count, draft.descending = True, tok == "most"
            draft.limit = _limit(tokens, i) or 1
            used.update({i, i + 1})
            return
        target = None
        if tok in _DATE_SUPERLATIVES:
            target = next(((draft.table, c) for c in draft.table.columns if _is_date(c)), None)
        if tok in ("longest", "shortest"):
            target = next(
                (
                    (draft.table, c)
                    for c in draft.table.columns
                    if any(w in c.name.lower() for w in _DURATION_WORDS)
                ),
                None,
            )
        start = i + (2 if sorted_by else 1)
        for j in range(start, min(start + 4, len(tokens))):
            m = mentions.get(j)
            if target is None and m is not None and j not in used and m.column.format != "boolean":
                target = (m.table, m.column)
                used.update(range(j, j + m.width))
                break
        if target is None:
            continue
        draft.order_by = target
        rest = tokens[i : i + 8]
        draft.descending = tok in _DESC or "descending" in rest or "desc" in rest
        if tok in _ASC or "ascending" in rest:
            draft.descending = tok in _DESC
        used.add(i)
        limit = _limit(tokens, i)
        if limit is None and not sorted_by:
            limit = 1
        draft.limit = limit
        return
    for i, tok in enumerate(tokens):  # "the first 5 albums"
        if tok in ("first", "top") and i + 1 < len(tokens) and _NUMBER.match(tokens[i + 1]):
            draft.limit = int(float(tokens[i + 1]))


def _limit(tokens: list[str], at: int) -> int | None:
    """The N of "the 5 most popular", "top 3", "the longest 5", or "list the 5 regions with the highest"."""
    for i in range(max(0, at - 3), min(len(tokens), at + 2)):
        if (
            _NUMBER.match(tokens[i])
            and "." not in tokens[i]
            and (i + 1 == at or i == at + 1 or (i > 0 and tokens[i - 1] in ("top", "first")))
        ):
            return int(tokens[i])
    for i in range(1, at):
        if (
            _NUMBER.match(tokens[i])
            and "." not in tokens[i]
            and tokens[i - 1] in ("the", "top", "first", "list", "show", "which", "what")
        ):
            return int(tokens[i])
    return None


def _projection(draft: Draft, tokens: list[str], mentions: dict[int, Mention], used: set[int]) -> None:
    if draft.aggregate:
        return
    filtered = {(t.name, c.name) for t, c, _, _ in draft.where}
    ordered = (draft.order_by[0].name, draft.order_by[1].name) if draft.order_by else None
    chosen: list[tuple[Table, Column]] = []
    for i in sorted(mentions):
        m = mentions[i]
        key = (m.table.name, m.column.name)
        if (
            i in used
            or key in filtered
            or key == ordered
            or m.column.references
            or m.table is not draft.table
        ):
            continue
        if any(range(i, i + m.width).__contains__(u) for u in used):
            continue
        if key not in {(t.name, c.name) for t, c in chosen}:
            chosen.append((m.table, m.column))
    if not chosen and tokens and tokens[0] in _PLACE_OR_TIME:
        wanted = _PLACE_OR_TIME[tokens[0]]
        spot = next((c for c in draft.table.columns if any(w in c.name.lower() for w in wanted)), None)
        if spot is not None:
            chosen.append((draft.table, spot))
    if not chosen and tokens and tokens[0] in ("which", "who", "what"):
        name = _name_column(draft.table)
        if name is not None:
            chosen.append((draft.table, name))
    draft.select = chosen
    if (draft.having_count or draft.order_by_count) and chosen:
        draft.group_by = chosen[0]  # counted per the thing the request asks for
        draft.select = chosen[:1]


def _choose_join(draft: Draft, schema: DbSchema) -> None:
    others = {t.name for t, _, _, _ in draft.where} | {t.name for t, _ in draft.select}
    if draft.order_by:
        others.add(draft.order_by[0].name)
    others.discard(draft.table.name)
    if not others:
        return
    other = schema.table(sorted(others)[0])
    if other is None:
        return
    for col in draft.table.columns:
        if col.references.partition(".")[0].lower() == other.name.lower():
            ref = other.column(col.references.partition(".")[2] or "id")
            if ref is not None:
                draft.join = (draft.table, col, other, ref)
                return
    for col in other.columns:
        if col.references.partition(".")[0].lower() == draft.table.name.lower():
            ref = draft.table.column(col.references.partition(".")[2] or "id")
            if ref is not None:
                draft.join = (draft.table, ref, other, col)
                return


# --- rendering -------------------------------------------------------------------------------------


def render_sql(draft: Draft) -> str:
    qualify = draft.join is not None

    def name(table: Table, col: Column) -> str:
        return f"{quote_ident(table.name)}.{quote_ident(col.name)}" if qualify else quote_ident(col.name)

    def literal(value: object) -> str:
        if isinstance(value, str):
            return "'" + value.replace("'", "''") + "'"
        return repr(value)

    columns = [name(t, c) for t, c in draft.select]
    if draft.aggregate:
        inner = name(*draft.aggregate_column) if draft.aggregate_column else "*"
        columns = ([name(*draft.group_by)] if draft.group_by else []) + [f"{draft.aggregate}({inner})"]
    sql = f"SELECT {', '.join(columns) or '*'} FROM {quote_ident(draft.table.name)}"
    if draft.join:
        left, lcol, right, rcol = draft.join
        sql += f" JOIN {quote_ident(right.name)} ON {name(left, lcol)} = {name(right, rcol)}"
    conditions = []
    for table, col, op, value in draft.where:
        if op == "BETWEEN":
            low, high = value  # type: ignore[misc]
            conditions.append(f"{name(table, col)} BETWEEN {literal(low)} AND {literal(high)}")
        else:
            conditions.append(f"{name(table, col)} {op} {literal(value)}")
    if conditions:
        sql += " WHERE " + " AND ".join(conditions)
    if draft.group_by:
        sql += f" GROUP BY {name(*draft.group_by)}"
        if draft.having_count:
            sql += f" HAVING COUNT(*) {draft.having_count[0]} {draft.having_count[1]}"
    if draft.order_by_count and draft.group_by:
        sql += f" ORDER BY COUNT(*){' DESC' if draft.descending else ''}"
    elif draft.order_by:
        sql += f" ORDER BY {name(*draft.order_by)}{' DESC' if draft.descending else ''}"
    elif draft.aggregate and draft.group_by and draft.limit:
        sql += f" ORDER BY {draft.aggregate}({name(*draft.aggregate_column) if draft.aggregate_column else '*'}) DESC"
    if draft.limit:
        sql += f" LIMIT {draft.limit}"
    return sql
