"""Issue 17's thirty-eighth round: rules written on the second development set (benchmarks/crawl/dev2), never on
the benchmark's 38 specs nor the held-out eleven. An API that answers in XML has its examples drawn in XML
(`<?xml …?><application><sid>string</sid>…</application>`): their elements are the response's fields, as a JSON
example's members are (`samples.parse_xml`). Each on a small fragment of the structure (each fails without its
rule)."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.samples import parse_example, parse_xml

_XML = """&lt;?xml version="1.0" encoding="UTF-8" ?&gt;
&lt;application&gt;
  &lt;account_sid&gt;string&lt;/account_sid&gt;
  &lt;friendly_name&gt;string&lt;/friendly_name&gt;
  &lt;page_size&gt;0&lt;/page_size&gt;
  &lt;sms_url/&gt;
&lt;/application&gt;"""


def test_an_xml_example_is_the_fields_of_its_root() -> None:
    text = '<?xml version="1.0"?><application id="1"><sid>string</sid><tag>a</tag><tag>b</tag><on>true</on></application>'
    assert parse_xml(text) == {"id": 1, "sid": "string", "tag": ["a", "b"], "on": True}
    assert parse_example(text) == parse_xml(text)
    assert parse_example('{"sid": "x"}') == {"sid": "x"}  # JSON first
    # without a declaration: one root holding elements, no HTML snippet
    assert parse_xml("<pet><name>x</name></pet>") == {"name": "x"}
    assert parse_xml("<div><p>Some text</p></div>") is None
    assert parse_xml("<sid>x</sid>") is None and parse_xml("not xml") is None


def test_an_xml_example_expands_no_entity_and_reads_no_dtd() -> None:
    bomb = '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY e "xxxxxxxxxx"><!ENTITY f "&e;&e;&e;&e;">]><a><b>&f;</b></a>'
    assert parse_xml(bomb) == {"b": ""}
    external = '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a><b>&x;</b></a>'
    assert parse_xml(external) == {"b": ""}


def test_a_response_drawn_as_an_xml_example_gives_its_fields(tmp_path: Path) -> None:
    page = tmp_path / "api.html"
    page.write_text(
        "<html><body><h1>Applications API</h1>"
        "<h2>Fetch an application</h2><pre><code>GET /Accounts/{AccountSid}/Applications/{Sid}</code></pre>"
        "<blockquote><p>Example responses</p></blockquote><blockquote><p>200 Response</p></blockquote>"
        f'<pre><code class="language-xml">{_XML}</code></pre>'
        "</body></html>",
        encoding="utf-8",
    )
    document = crawl_pages([page]).document
    operation = document["paths"]["/Accounts/{AccountSid}/Applications/{Sid}"]["get"]
    content = operation["responses"]["200"]["content"]
    schema = next(iter(content.values()))["schema"]
    assert {"account_sid", "friendly_name", "page_size", "sms_url"} <= set(schema["properties"])
    assert schema["properties"]["page_size"]["type"] == "integer"
