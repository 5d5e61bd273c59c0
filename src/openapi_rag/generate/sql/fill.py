"""Synthetic rows for a schema: types, formats, enums and foreign keys respected, the same for a seed.

Values are drawn from Python's seeded `random.Random`, so one seed gives one database on every
machine. A column's values come, in order of preference, from its enum, its format (date,
date-time, email, uri, uuid, boolean), its name (`popularity` 0–100, `*_count` counts, `rating`
0–10, `price`, `year`, `country`, `language`, names and titles), then its SQLite type. Foreign keys
point at rows of the parent table, which is filled first. Faker would give prettier strings, but
the rules that matter here (enum, format, key) are the schema's, and they are these few lines.
"""

from __future__ import annotations

import datetime as dt
import random
import sqlite3
from pathlib import Path
from typing import Any

from openapi_rag.generate.sql.schema import Column, DbSchema, SqlError, Table, quote_ident

MAX_ROWS = 100_000
WORDS = (
    "amber blue bright calm crimson dawn echo ember forest golden harbor hidden iron jade lunar maple "
    "midnight northern ocean paper quiet river silver solar stone summer swift velvet wild winter "
    "garden signal canyon meadow falcon lantern orchard prairie thunder willow coral cedar glacier"
).split()
COUNTRIES = ("US", "GB", "DE", "FR", "ES", "IT", "JP", "BR", "CA", "SE", "IN", "AU")
LANGUAGES = ("en", "de", "fr", "es", "it", "ja", "pt", "sv")


def fill_database(schema: DbSchema, out: str | Path, *, rows: int = 20, seed: int = 0) -> dict[str, int]:
    """Create `out` (a new SQLite file) with the schema's tables and `rows` rows in each.

    Returns the number of rows written per table.
    """
    if not 1 <= rows <= MAX_ROWS:
        raise SqlError(f"--rows must be between 1 and {MAX_ROWS}")
    out = Path(out)
    if out.exists():
        out.unlink()
    connection = sqlite3.connect(out)
    try:
        connection.executescript(schema.to_ddl())
        counts = insert_rows(connection, schema, rows=rows, seed=seed)
        connection.commit()
    except sqlite3.Error as exc:
        raise SqlError(f"{out}: cannot fill the database ({exc})") from exc
    finally:
        connection.close()
    return counts


def insert_rows(connection: sqlite3.Connection, schema: DbSchema, *, rows: int, seed: int) -> dict[str, int]:
    """Insert `rows` synthetic rows per table into an open database that has the tables."""
    rng = random.Random(seed)
    keys: dict[str, list[Any]] = {}
    counts = {}
    for table in schema.tables:  # parents first: `derive` and `introspect` keep creation order
        generated = [row_values(table, i, rng, keys) for i in range(rows)]
        names = ", ".join(quote_ident(c.name) for c in table.columns)
        marks = ", ".join("?" for _ in table.columns)
        connection.executemany(f"INSERT INTO {quote_ident(table.name)} ({names}) VALUES ({marks})", generated)
        for col in table.columns:
            if col.primary_key or col.name.lower() == "id":
                index = table.columns.index(col)
                keys[f"{table.name.lower()}.{col.name.lower()}"] = [row[index] for row in generated]
        counts[table.name] = rows
    return counts


def row_values(table: Table, number: int, rng: random.Random, keys: dict[str, list[Any]]) -> list[Any]:
    return [column_value(table, col, number, rng, keys) for col in table.columns]


def column_value(
    table: Table, col: Column, number: int, rng: random.Random, keys: dict[str, list[Any]]
) -> Any:
    """One synthetic value for `col` in the `number`-th row."""
    name = col.name.lower()
    if col.primary_key or name == "id":
        return number + 1 if col.type == "INTEGER" else f"{table.name[:3]}{number + 1:04d}"
    if col.references:
        parents = keys.get(col.references.lower())
        return rng.choice(parents) if parents else None
    if col.enum:
        return _typed(rng.choice(col.enum), col.type)
    fmt = col.format.lower()
    if fmt == "boolean":
        return rng.randint(0, 1)
    if fmt in ("date", "date-time") or name.endswith(("_date", "_at", "date")):
        day = dt.date(1990, 1, 1) + dt.timedelta(days=rng.randrange(365 * 35))
        if fmt == "date-time" or name.endswith("_at"):
            return f"{day.isoformat()}T{rng.randrange(24):02d}:{rng.randrange(60):02d}:00Z"
        return day.isoformat()
    if fmt == "email" or "email" in name:
        return f"{rng.choice(WORDS)}.{rng.choice(WORDS)}{number}@example.com"
    if fmt in ("uri", "url") or name.endswith(("url", "uri", "href")):
        return f"https://example.com/{table.name}/{number + 1}"
    if fmt == "uuid":
        return str(_uuid(rng))
    return _by_name(name, col.type, number, rng)


def _by_name(name: str, kind: str, number: int, rng: random.Random) -> Any:
    if kind == "INTEGER":
        if "popularity" in name or "percent" in name:
            return rng.randint(0, 100)
        if "year" in name:
            return rng.randint(1970, 2025)
        if name.startswith(("is_", "has_")):
            return rng.randint(0, 1)
        if any(w in name for w in ("count", "total", "number", "followers", "_ms", "duration")):
            return rng.randint(0, 5000) if "_ms" not in name else rng.randint(60_000, 600_000)
        return rng.randint(1, 1000)
    if kind == "REAL":
        if any(w in name for w in ("rating", "vote_average", "score")):
            return round(rng.uniform(0, 10), 1)
        if any(w in name for w in ("lat",)):
            return round(rng.uniform(-90, 90), 4)
        if any(w in name for w in ("lon", "lng")):
            return round(rng.uniform(-180, 180), 4)
        return round(rng.uniform(1, 1000), 2)
    if "country" in name or "market" in name:
        return rng.choice(COUNTRIES)
    if "language" in name or name in ("locale", "lang"):
        return rng.choice(LANGUAGES)
    if any(w in name for w in ("name", "title", "label")):
        return f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()}"
    if "description" in name or "overview" in name or "text" in name:
        return " ".join(rng.choice(WORDS) for _ in range(8)).capitalize() + "."
    return f"{rng.choice(WORDS)}-{number + 1}"


def _typed(value: Any, kind: str) -> Any:
    if kind == "INTEGER":
        try:
            return int(value)
        except (TypeError, ValueError):
            return value
    if kind == "REAL":
        try:
            return float(value)
        except (TypeError, ValueError):
            return value
    return str(value)


def _uuid(rng: random.Random) -> str:
    import uuid

    return str(uuid.UUID(int=rng.getrandbits(128), version=4))
