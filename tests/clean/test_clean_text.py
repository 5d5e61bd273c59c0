"""The text steps, string by string."""

from __future__ import annotations

import base64

import pytest

from openapi_rag.clean import make_url_cleaner, remove_urls, strip_base64, strip_html, strip_markdown

# 96 bytes of fixed binary data, base64-encoded: 128 characters of the standard alphabet.
PAYLOAD = base64.b64encode(bytes((i * 37 + 11) % 256 for i in range(96))).decode()


# --- base64 ----------------------------------------------------------------------------------------


def test_base64_payload_and_data_uri_become_markers() -> None:
    text = f"Upload the file as {PAYLOAD} or as data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA... here."
    assert strip_base64(text) == "Upload the file as <base64> or as <base64> here."


def test_base64_pem_body_goes_armour_stays() -> None:
    pem = f"-----BEGIN CERTIFICATE-----\n{PAYLOAD[:64]}\n{PAYLOAD[64:]}\n-----END CERTIFICATE-----"
    assert strip_base64(pem) == "-----BEGIN CERTIFICATE-----<base64>-----END CERTIFICATE-----"


@pytest.mark.parametrize(
    "text",
    [
        "2c3b38f1a9b3349afe38829713dcd9722f47dec3ce8906ad93ce803a33f2a8a3",  # sha256 hex digest
        "/components/schemas/ShieldInformationBarrierSegmentRestriction2Mini",  # path, CamelCase
        "IntegrationMappingPartnerItemTeamsCreateRequestWithAVeryLongNameIndeed",
        "-" * 120,
        f"https://example.okta.com/home/app/{PAYLOAD}",  # inside a URL: the urls step's business
        "a short aGVsbG8= payload",
    ],
)
def test_base64_leaves_ids_paths_and_urls(text: str) -> None:
    assert strip_base64(text) is text


def test_base64_url_safe_alphabet() -> None:
    token = base64.urlsafe_b64encode(bytes(range(200, 250)) * 2).decode().rstrip("=")
    assert "-" in token or "_" in token
    assert strip_base64(f"token: {token}") == "token: <base64>"


# --- html ------------------------------------------------------------------------------------------


def test_html_strips_tags_and_unescapes_entities() -> None:
    text = (
        '<p>Returns a <b>list</b> of <a href="https://x.io/u" target="_blank">users</a> &amp; '
        "groups&nbsp;(&lt;= 100).</p><!-- internal --><br/>Use <code>limit</code>.<ul><li>one</li>"
        "<li>two</li></ul>"
    )
    assert strip_html(text) == "Returns a list of users & groups (<= 100).\n\nUse limit.\n\none\n\ntwo"


@pytest.mark.parametrize(
    "text",
    [
        "Use filter[bill_id]=<bill_id> to filter.",
        "Map<string, object> and List<String>",
        "Send the <code> you received",  # unclosed: a placeholder, not markup
        "a=1&notify=2&copy=3",  # entities without `;` are query strings here
        "plain text",
    ],
)
def test_html_keeps_placeholders_and_query_strings(text: str) -> None:
    assert strip_html(text) is text


def test_html_drops_script_and_style_content() -> None:
    text = "Run <script>var a = '<b>x</b>';</script>in Postman<style>.a{color:red}</style>."
    assert strip_html(text) == "Run in Postman."


# --- markdown --------------------------------------------------------------------------------------


def test_markdown_keeps_the_words() -> None:
    text = (
        "# Title\n\n"
        "Some **bold**, *italic*, _under_ and ~~old~~ text with `code` and snake_case_name.\n\n"
        "- one\n- two\n1. first\n\n"
        "> quoted\n\n"
        '![logo](https://x.io/l.png) See [the guide](https://docs.example.com/guide "Guide") or [ref][1].\n\n'
        "[1]: https://docs.example.com/ref\n\n"
        "| Name | Type |\n|------|:----:|\n| id   | string |\n\n"
        '```json\n{"a": "**b**"}\n```\n'
        "---\n"
        "End  \nwildcards */* and 2*3*4"
    )
    assert strip_markdown(text) == (
        "Title\n\n"
        "Some bold, italic, under and old text with code and snake_case_name.\n\n"
        "one\ntwo\n1. first\n\n"
        "quoted\n\n"
        "See the guide or ref.\n\n"
        "Name Type\nid string\n\n"
        '{"a": "**b**"}\n\n'
        "End\nwildcards */* and 2*3*4"
    )


@pytest.mark.parametrize(
    "text",
    [
        "snake_case_identifier and __ and a * b",
        "#hashtag and #/components/schemas/User",
        "*.json and https://x.io/_private_/file",
        "-1 means no limit",
    ],
)
def test_markdown_leaves_non_markup(text: str) -> None:
    assert strip_markdown(text) is text


def test_markdown_code_is_not_read_as_markup() -> None:
    text = "Call `f(**kwargs)`:\n\n```python\n# a comment, not a heading\nf(**kwargs, _x_=1)\n```"
    assert strip_markdown(text) == "Call f(**kwargs):\n\n# a comment, not a heading\nf(**kwargs, _x_=1)"


def test_markdown_nested_emphasis() -> None:
    assert strip_markdown("***very*** and **_both_**") == "very and both"


# --- urls ------------------------------------------------------------------------------------------


def test_urls_default_deny_list() -> None:
    text = (
        "Learn how in Postman https://learning.postman.com/docs/auth/#api-key\n\n"
        "Short link (https://bit.ly/3abc). See [docs](https://goo.gl/x) or <https://t.co/y> and "
        "https://www.getpostman.com/collections/1, but keep https://api.example.com/v1 and f()."
    )
    assert remove_urls(text) == (
        "Learn how in Postman\n\nShort link. See docs or and, but keep https://api.example.com/v1 and f()."
    )


def test_urls_custom_deny_list_with_path_prefix() -> None:
    clean = make_url_cleaner(["example.com/internal"])
    text = "See https://example.com/internal/x and https://example.com/public/y."
    assert clean(text) == "See and https://example.com/public/y."


def test_urls_all() -> None:
    clean = make_url_cleaner("all")
    assert clean("Docs: https://api.example.com/docs, www.example.org.") == "Docs:,."


def test_urls_bad_deny_value() -> None:
    with pytest.raises(ValueError, match='"all"'):
        make_url_cleaner("bit.ly")


def test_urls_subdomains_only_not_lookalikes() -> None:
    text = "https://notpostman.com/x and https://t.company.io/y"
    assert remove_urls(text) is text
