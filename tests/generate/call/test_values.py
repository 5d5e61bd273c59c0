"""Values stated in requests: kinds, typed forms, and the words around them."""

from __future__ import annotations

from openapi_rag.generate.call.values import extract_values


def kinds(text: str) -> list[tuple[str, object]]:
    return [(v.kind, v.value) for v in extract_values(text)]


def test_identifiers_keep_the_noun_before_them() -> None:
    values = extract_values("add the track 4iV5W9uYEdYUVa79Axb7Rh to my playlist 3cEYpjA9oz9GiPac4AsH4n")
    assert [(v.kind, v.value, v.before[0]) for v in values] == [
        ("id", "4iV5W9uYEdYUVa79Axb7Rh", "track"),
        ("id", "3cEYpjA9oz9GiPac4AsH4n", "playlist"),
    ]


def test_amounts_with_currency_in_every_written_form() -> None:
    assert kinds("pay $1,499.99") == [("amount", 1499.99)]
    assert extract_values("move 1,200.50 euros")[0].currency == "EUR"
    assert kinds("a budget of 2.5 million dollars") == [("amount", 2500000)]
    assert extract_values("deposit £500")[0].currency == "GBP"


def test_dates_are_read_into_iso_form() -> None:
    assert kinds("between March 1st, 2023 and 2023-03-31") == [("date", "2023-03-01"), ("date", "2023-03-31")]
    assert kinds("on 15 July 2024 at 10:30") == [("datetime", "2024-07-15T10:30:00Z")]
    assert kinds("from January 5, 2024 at 9am") == [("datetime", "2024-01-05T09:00:00Z")]


def test_quoted_and_named_text_percent_codes_and_numbers() -> None:
    assert kinds('rename it to "Morning Run"') == [("text", "Morning Run")]
    named = extract_values("a playlist named Road Trip for user smedjan")[0]
    assert (named.kind, named.value, named.trigger) == ("text", "Road Trip", "name")
    assert kinds("volume to 40 percent") == [("percent", 40)]
    assert kinds("prices for AAPL and TSLA, limit 5") == [("code", "AAPL"), ("code", "TSLA"), ("number", 5)]


def test_context_never_reaches_into_a_neighbouring_value() -> None:
    transfer = extract_values("transfer $250 from account 1234 to account 5678")
    assert [v.before[:2] for v in transfer[1:]] == [("account", "from"), ("account", "to")]
