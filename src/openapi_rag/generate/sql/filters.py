"""WHERE conditions read from a request: quoted text, numbers after comparisons, dates, enums, yes/no."""

from __future__ import annotations

import re

from openapi_rag.generate.sql.draft import Draft
from openapi_rag.generate.sql.reading import (
    _ASC,
    _COMPARATORS,
    _DATE,
    _DESC,
    _NUMBER,
    _YEAR,
    Mention,
    _cover,
    _is_date,
    _key_words,
    _name_column,
    _table_positions,
    _tables_named,
)
from openapi_rag.generate.sql.schema import Column, Table
from openapi_rag.generate.sql.words import same, split_name, stem, words

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
