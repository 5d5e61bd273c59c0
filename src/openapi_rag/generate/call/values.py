"""Values a request states: identifiers, numbers, amounts with currency, dates, quoted and named text.

Each value keeps the words written around it (`before`, `after`), because that is how a request
says which field it belongs to ("playlist 3cEY…", "limit to 5", "€30 deposit"). Spans never overlap:
patterns are tried from the most specific (quoted text, e-mails, URIs, dates, amounts) to the least
(bare numbers), and a later pattern skips text an earlier one took. Regular expressions are written
here rather than borrowed: no well-kept library extracts typed values *with their context* from
English requests, and dates/amounts only need the few forms people type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = ["Value", "extract_values", "words"]

MONTHS = {
    name: i + 1
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ]
    )
    for name in names
}
CURRENCY_SIGNS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR"}
CURRENCY_WORDS = {
    "dollar": "USD", "dollars": "USD", "usd": "USD", "euro": "EUR", "euros": "EUR", "eur": "EUR",
    "pound": "GBP", "pounds": "GBP", "gbp": "GBP", "yen": "JPY", "jpy": "JPY", "chf": "CHF",
    "francs": "CHF", "cad": "CAD", "aud": "AUD", "inr": "INR", "rupees": "INR", "cny": "CNY",
}  # fmt: skip
NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "fifty": 50,
    "hundred": 100, "a dozen": 12,
}  # fmt: skip
SCALE = {"k": 1_000, "thousand": 1_000, "m": 1_000_000, "million": 1_000_000}
# Words that name free text: "named X", "titled X", "with the description X", "saying X".
TEXT_TRIGGERS = {
    "named": "name", "called": "name", "titled": "title", "entitled": "title",
    "description": "description", "described as": "description", "saying": "message",
    "message": "message", "reason": "reason", "because": "reason", "note": "note", "comment": "comment",
    "search for": "query", "searching for": "query", "look up": "query", "looking for": "query",
    "matching": "query", "about": "query", "address": "address",
}  # fmt: skip
_STOP = {
    "the", "a", "an", "my", "our", "your", "of", "for", "with", "and", "in", "on", "at", "by", "is",
    "be", "it", "this", "that", "as", "me", "i", "please", "all", "its", "their", "his",
    "her", "using", "via", "into", "new", "under", "number", "no", "identifier",
}  # fmt: skip
# Upper-case words that are not codes a field could want.
_NOT_CODES = {
    "I",
    "ID",
    "IDS",
    "API",
    "URL",
    "URI",
    "OK",
    "A",
    "AM",
    "PM",
    "JSON",
    "HTTP",
    "PDF",
    "CSV",
    "UTC",
}
_ID_WORDS = {"id", "ids", "identifier", "number", "no", "code", "#", "key", "ref", "reference"}


@dataclass(frozen=True)
class Value:
    """One value stated in a request.

    Attributes:
        text: as written.
        value: typed (int, float, str; dates as ISO strings).
        kind: id | number | amount | percent | date | datetime | text | uri | url | email | code.
        start, end: its span in the request.
        before, after: the content words just before and after it, nearest first.
        currency: ISO code, for amounts.
        trigger: for text: the field word its trigger names ("named" → name).
    """

    text: str
    value: Any
    kind: str
    start: int
    end: int
    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    currency: str | None = None
    trigger: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


def words(text: str) -> list[str]:
    """Lower-case word tokens; camelCase and snake_case split."""
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    return [w for w in re.split(r"[^a-zA-Z0-9]+", text.lower()) if w]


def _num(text: str) -> float:
    return float(text.replace(",", ""))


def _number_value(number: float) -> int | float:
    return int(number) if float(number).is_integer() else number


def _iso_date(year: int, month: int, day: int) -> str | None:
    if not (1 <= month <= 12 and 1 <= day <= 31 and 1000 <= year <= 9999):
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"


_MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
_CURRENCY_WORD_RE = "|".join(sorted(CURRENCY_WORDS, key=len, reverse=True))
_TRIGGER_RE = "|".join(sorted((re.escape(t) for t in TEXT_TRIGGERS), key=len, reverse=True))
_TIME = r"(?:\s*(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*(am|pm|AM|PM)|\s*(?:at\s+)?(\d{1,2}):(\d{2}))?"
_TEXT_END = (
    r"(?=\s*(?:[,;.!?](?:\s|$)|\band\b|\bwith\b|\bto\b|\bfor\b|\bfrom\b|\bon\b|\bin\b|\bat\b|\bthat\b|\bwhich\b"
    r"|\bwho\b|\bborn\b|\bbut\b|\bof\s+type\b|\bwhose\b|$))"
)

PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("quoted", re.compile(r"\"([^\"]{1,300})\"|“([^”]{1,300})”|(?<![\w])'([^']{1,300})'(?![\w])")),
    ("email", re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")),
    ("url", re.compile(r"https?://[^\s,;\"']+[^\s,;.\"')]")),
    ("uri", re.compile(r"\b[a-z][a-z0-9]*:[a-z]+:[A-Za-z0-9]+\b")),
    (
        "isodate",
        re.compile(r"\b(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:?\d{2})?)?\b"),
    ),
    (
        "mdy",
        re.compile(
            rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b{_TIME}", re.IGNORECASE
        ),
    ),
    (
        "dmy",
        re.compile(
            rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE})\.?,?\s+(\d{{4}})\b{_TIME}",
            re.IGNORECASE,
        ),
    ),
    ("slashdate", re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")),
    (
        "amount",
        re.compile(
            rf"([$€£¥₹])\s?(\d[\d,]*(?:\.\d+)?)\s?(k|m|thousand|million)?\b"
            rf"|\b(\d[\d,]*(?:\.\d+)?)\s?(k|thousand|million)?\s?({_CURRENCY_WORD_RE})\b",
            re.IGNORECASE,
        ),
    ),
    ("percent", re.compile(r"\b(\d+(?:\.\d+)?)\s?(%|percent\b)")),
    (
        "text",
        re.compile(rf"\b({_TRIGGER_RE})\s+(?:(?:is|as|of|to|the|a|an)\s+)?(.{{1,120}}?){_TEXT_END}", re.I),
    ),
    # A capitalised place after a preposition ("in Lisbon", "to Kyoto"); the lookbehinds are one per
    # preposition because Python's lookbehind must have a fixed width.
    ("place", re.compile(r"(?:(?<=\bin )|(?<=\bto )|(?<=\bat )|(?<=\bnear ))[A-Z][a-z]+(?: [A-Z][a-z]+)?\b")),
    ("filepath", re.compile(r"(?<![\w/])/[\w.-]+(?:/[\w.-]+)+")),
    (
        "id",
        re.compile(
            r"(?<![\w:/@.-])(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9_-]*\b"
        ),
    ),
    ("number", re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?(?![\w])")),
    ("code", re.compile(r"\b[A-Z][A-Z0-9]{1,9}\b")),
    ("numword", re.compile(r"\b(" + "|".join(NUMBER_WORDS) + r")\b", re.IGNORECASE)),
]


def _time_suffix(groups: tuple[str | None, ...]) -> str | None:
    hour, minute, meridiem, hour24, minute24 = groups
    if hour24 is not None:
        return f"{int(hour24):02d}:{int(minute24 or 0):02d}:00"
    if hour is None:
        return None
    h = int(hour) % 12 + (12 if (meridiem or "").lower() == "pm" else 0)
    return f"{h:02d}:{int(minute or 0):02d}:00"


def _typed(kind: str, match: re.Match[str]) -> tuple[str, Any, dict[str, Any]] | None:
    """(kind, typed value, extras) for a pattern match, or None when it is not a value after all."""
    g = match.groups()
    if kind == "quoted":
        return "text", next(x for x in g if x is not None).strip(), {"quoted": True}
    if kind in ("email", "url", "uri"):
        return kind, match.group(0), {}
    if kind == "isodate":
        date = _iso_date(int(g[0]), int(g[1]), int(g[2]))
        if date is None:
            return None
        if g[3] is None:
            return "date", date, {}
        return "datetime", f"{date}T{g[3]}:{g[4]}:{g[5] or '00'}{g[6] or 'Z'}", {}
    if kind in ("mdy", "dmy"):
        month_word, day = (g[0], g[1]) if kind == "mdy" else (g[1], g[0])
        date = _iso_date(int(g[2]), MONTHS[month_word.lower().rstrip(".")], int(day))
        if date is None:
            return None
        time = _time_suffix(g[3:8])
        return ("datetime", f"{date}T{time}Z", {"date": date}) if time else ("date", date, {})
    if kind == "slashdate":
        date = _iso_date(int(g[2]), int(g[0]), int(g[1]))  # US order: what English requests mean
        return ("date", date, {}) if date else None
    if kind == "amount":
        if g[0]:
            number, scale, currency = _num(g[1]), g[2], CURRENCY_SIGNS[g[0]]
        else:
            number, scale, currency = _num(g[3]), g[4], CURRENCY_WORDS[g[5].lower()]
        number *= SCALE.get((scale or "").lower(), 1)
        return "amount", _number_value(number), {"currency": currency}
    if kind == "percent":
        return "percent", _number_value(float(g[0])), {}
    if kind == "text":
        text = g[1].strip().strip("\"'“”")
        if not text or text.lower() in _STOP:
            return None
        return "text", text, {"trigger": TEXT_TRIGGERS[" ".join(g[0].lower().split())]}
    if kind == "id":
        return "id", match.group(0), {}
    if kind == "place":
        return "text", match.group(0), {"trigger": "location"}
    if kind == "filepath":
        return "text", match.group(0), {"quoted": True}
    if kind == "number":
        return "number", _number_value(_num(match.group(0))), {}
    if kind == "code":
        text = match.group(0)
        return None if text in _NOT_CODES else ("code", text, {})
    if kind == "numword":
        return "number", NUMBER_WORDS[match.group(0).lower()], {"word": True}
    return None


# "set/change/update the NOUN ... to VALUE": the value is for NOUN even with words between.
_SET_NOUN = re.compile(
    r"\b(?:set|change|update|adjust|rename|move|modify)\s+(?:the\s+|its\s+|my\s+)?([a-z_]+)(?:\s+\S+){0,4}?\s+to\s+$",
    re.IGNORECASE,
)


def _context(request: str, lo: int, start: int, end: int, hi: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Content words before and after a span, never reaching into the neighbouring values."""
    before = [w for w in words(request[max(lo, start - 60) : start]) if w not in _STOP][-4:]
    after = [w for w in words(request[end : min(hi, end + 40)]) if w not in _STOP][:2]
    return tuple(reversed(before)), tuple(after)


def extract_values(request: str) -> list[Value]:
    """The values `request` states, in reading order, spans never overlapping."""
    taken: list[tuple[int, int]] = []
    found: list[Value] = []
    for kind, pattern in PATTERNS:
        for match in pattern.finditer(request):
            start, end = match.span()
            if kind == "text":
                start, end = match.span(2)
            if any(s < end and start < e for s, e in taken):
                continue
            typed = _typed(kind, match)
            if typed is None:
                continue
            value_kind, value, extras = typed
            if value_kind == "text" and isinstance(value, str):
                # Text never swallows a value a more specific pattern would read ("named 2024 plan").
                end = start + len(match.group(2).rstrip()) if kind == "text" else end
            found.append(
                Value(
                    text=request[start:end],
                    value=value,
                    kind=value_kind,
                    start=start,
                    end=end,
                    extra={**extras, "span": (match.start(), match.end())},
                    currency=extras.pop("currency", None),
                    trigger=extras.pop("trigger", None),
                )
            )
            taken.append((match.start(), match.end()) if kind != "text" else (start, end))
    found.sort(key=lambda v: v.start)
    spans = [v.extra["span"] for v in found]
    out = []
    for i, v in enumerate(found):
        lo = spans[i - 1][1] if i else 0
        hi = spans[i + 1][0] if i + 1 < len(spans) else len(request)
        start, end = spans[i]
        before, after = _context(request, lo, start, end, hi)
        trigger = v.trigger
        setting = _SET_NOUN.search(request[:start])
        if (
            setting
            and request[setting.end() : start].strip() == ""
            and "to" in request[setting.start() : start]
        ):
            before = (*before, *words(setting.group(1)))  # "set the status of claim CL-88 to approved"
        if v.kind == "text" and trigger is None and before and before[0] in TEXT_TRIGGERS:
            trigger = TEXT_TRIGGERS[before[0]]  # 'called "Late Night Jazz"' names a name as much as unquoted
        out.append(replace(v, before=before, after=after, trigger=trigger))
    return out
