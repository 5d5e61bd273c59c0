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

from openapi_rag.generate.sql.draft import Draft, render_sql
from openapi_rag.generate.sql.filters import (
    _enum_and_flag_filters,
    _number_filters,
    _pull_quotes,
    _quoted_filters,
)
from openapi_rag.generate.sql.reading import (
    _ASC,
    _DATE_SUPERLATIVES,
    _DESC,
    _DURATION_WORDS,
    _NUMBER,
    _PLACE_OR_TIME,
    Mention,
    _cover,
    _is_date,
    _main_table,
    _mentions,
    _name_column,
    _neighbours,
    _table_positions,
    _tables_named,
)
from openapi_rag.generate.sql.schema import Column, DbSchema, Table
from openapi_rag.generate.sql.words import same, words

__all__ = ["Draft", "generate_offline", "render_sql"]


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
