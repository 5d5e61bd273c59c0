"""Borrowed context of an operation: its tag's sentence and its resource schema's description."""

from __future__ import annotations

import textwrap
from pathlib import Path

from openapi_rag.chunking import get_strategy
from openapi_rag.chunking.compact import compact_text, lexical_text
from openapi_rag.chunking.context import MAX_SENTENCE, operation_context, tag_sentence
from openapi_rag.model import Operation, Parameter, Service
from openapi_rag.search.bm25 import BM25_TEXT
from openapi_rag.spec import load_service, load_services
from tests.conftest import shared_data

SPEC = """
openapi: 3.0.3
info: {title: Guilds API, version: "1"}
tags:
  - name: members
    description: "Members are the people in a guild, the server a community meets in. More text."
  - name: bare
paths:
  /guilds/{guild_id}/members/{user_id}:
    delete:
      tags: [members]
      summary: delete guild member
      responses: {"204": {description: gone}}
  /guilds/{guild_id}/members:
    get:
      tags: [bare, members]
      summary: list guild members
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: "#/components/schemas/GuildMember"}}
    post:
      tags: [bare]
      summary: add guild member
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/AddMemberRequest"}
      responses:
        "201":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/GuildMember"}
  /loops:
    get:
      summary: a cycle
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Loop"}
components:
  schemas:
    GuildMember:
      description: "A person who joined a server. Long details."
      type: object
      properties: {nick: {type: string}}
    AddMemberRequest:
      allOf: [{$ref: "#/components/schemas/Invite"}]
    Invite:
      description: An invitation to join.
      type: object
    Loop:
      allOf: [{$ref: "#/components/schemas/Loop"}]
"""


def service(tmp_path: Path, text: str = SPEC) -> Service:
    path = tmp_path / "guilds.yaml"
    path.write_text(textwrap.dedent(text))
    return load_service(path)


def test_the_tag_sentence_is_the_first_described_tag_s_first_sentence(tmp_path: Path) -> None:
    guilds = service(tmp_path)
    delete = guilds.operation("DELETE /guilds/{guild_id}/members/{user_id}")
    listing = guilds.operation("GET /guilds/{guild_id}/members")
    post = guilds.operation("POST /guilds/{guild_id}/members")
    assert delete and listing and post
    expected = "Members are the people in a guild, the server a community meets in."
    assert tag_sentence(guilds, delete) == expected
    assert tag_sentence(guilds, listing) == expected  # `bare` has no description: the next tag's
    assert tag_sentence(guilds, post) == ""


def test_the_resource_is_the_request_body_s_schema_else_the_response_s_items(tmp_path: Path) -> None:
    guilds = service(tmp_path)
    post = operation_context(guilds, guilds.operation("POST /guilds/{guild_id}/members"))  # type: ignore[arg-type]
    assert (post.resource_name, post.resource) == ("add member request", "An invitation to join.")
    listing = operation_context(guilds, guilds.operation("GET /guilds/{guild_id}/members"))  # type: ignore[arg-type]
    assert (listing.resource_name, listing.resource) == ("guild member", "A person who joined a server.")
    gone = operation_context(guilds, guilds.operation("DELETE /guilds/{guild_id}/members/{user_id}"))  # type: ignore[arg-type]
    assert (gone.resource_name, gone.resource) == ("", "")


def test_a_cyclic_schema_ends_without_a_description(tmp_path: Path) -> None:
    guilds = service(tmp_path)
    loop = operation_context(guilds, guilds.operation("GET /loops"))  # type: ignore[arg-type]
    assert (loop.resource_name, loop.resource) == ("loop", "")


def test_a_long_sentence_is_cut(tmp_path: Path) -> None:
    long_tag = SPEC.replace("Members are the people", "Members " + "very " * 100 + "are the people")
    guilds = service(tmp_path, long_tag)
    sentence = tag_sentence(guilds, guilds.operation("DELETE /guilds/{guild_id}/members/{user_id}"))  # type: ignore[arg-type]
    assert len(sentence) == MAX_SENTENCE and sentence.endswith("…")


def test_compact_embeds_the_tag_sentence_and_on_request_the_resource_s(
    tmp_path: Path,
) -> None:
    guilds = service(tmp_path)
    delete = guilds.operation("DELETE /guilds/{guild_id}/members/{user_id}")
    listing = guilds.operation("GET /guilds/{guild_id}/members")
    assert delete and listing
    assert compact_text(guilds, delete) == (
        "Guilds API – members – DELETE /guilds/{guild_id}/members/{user_id}: delete guild member. "
        "Members are the people in a guild, the server a community meets in."
    )
    assert "A person who joined a server." not in compact_text(guilds, listing)  # off by default
    assert "A person who joined a server." in compact_text(guilds, listing, embed_resource=True)
    plain = compact_text(guilds, listing, embed_context=False, embed_resource=False)
    assert "server" not in plain
    assert "guild member A person who joined a server." in lexical_text(guilds, listing, context=True)
    assert "person" not in lexical_text(guilds, listing, context=False)


def test_the_strategy_records_its_context_parameters(tmp_path: Path) -> None:
    strategy = get_strategy("compact", embed_context=False, context=True)
    recorded = {name: strategy.params[name] for name in ("context", "embed_context", "embed_resource")}
    assert recorded == {"context": True, "embed_context": False, "embed_resource": False}
    chunks = strategy.chunk_service(service(tmp_path))
    by_op = {c.operations[0]: c for c in chunks}
    assert (
        "the server a community meets in"
        not in by_op["DELETE /guilds/{guild_id}/members/{user_id}"].embed_text
    )
    assert (
        "the server a community meets in"
        in by_op["DELETE /guilds/{guild_id}/members/{user_id}"].metadata[BM25_TEXT]
    )


def test_real_specs_lend_their_operations_words(tmp_path: Path) -> None:
    """Box describes its tags and schemas in plain words; most of its operations borrow some."""
    box = load_services([shared_data("realworld", "box", "openapi", "openapi-v2025.0.json")]).services[0]
    contexts = [operation_context(box, op) for op in box.operations]
    assert sum(1 for c in contexts if c.tag) > len(contexts) / 2
    assert sum(1 for c in contexts if c.resource) > len(contexts) / 4
    assert all(len(c.tag) <= MAX_SENTENCE and len(c.resource) <= MAX_SENTENCE for c in contexts)


def test_the_embedded_line_can_leave_header_parameters_to_bm25() -> None:

    bare = Service(id="x", title="", version="1", file="x.json", format="oas30")
    operation = Operation(
        service="x",
        method="GET",
        path="/deals/{id}",
        summary="Get deal",
        parameters=[Parameter("id", "path", True), Parameter("x-consumer-id", "header", True)],
    )
    assert compact_text(bare, operation, headers=False) == "GET /deals/{id}: Get deal Parameters: id."
    assert compact_text(bare, operation).endswith("Parameters: id, x-consumer-id.")  # the default
    assert "x-consumer-id" in lexical_text(bare, operation)


def test_a_real_unified_api_names_its_payloads_fields_not_its_envelope() -> None:
    """Apideck wraps every response in `{status_code, status, service, ..., data}`."""
    sms = load_services([shared_data("realworld", "apideck", "sms.yml")]).services[0]
    lines = [compact_text(sms, op) for op in sms.operations]
    wrapped = [compact_text(sms, op, unwrap=False) for op in sms.operations]
    envelope = "Returns: status_code, status, service, resource, operation, data"
    assert all(envelope in line for line in wrapped if "Returns:" in line)
    assert sum(envelope in line for line in wrapped) > len(lines) / 2
    assert not any(envelope in line for line in lines)
    assert not any("x-apideck-consumer-id" in compact_text(sms, op, headers=False) for op in sms.operations)
