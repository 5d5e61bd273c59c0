"""Exact output of every strategy on a small hand-written spec."""

from __future__ import annotations

import json
import re

import pytest

from openapi_rag.chunking import chunk_services, list_strategies
from openapi_rag.model import Service

GET_ONE = "GET /campaigns/{id}"


def by_id(chunks):
    return {c.id: c for c in chunks}


def test_endpoint_is_method_path_and_operation_json(campaigns: Service) -> None:
    chunks = chunk_services([campaigns], "endpoint")
    assert [c.id for c in chunks] == [
        "campaigns-api:endpoint:GET /campaigns",
        "campaigns-api:endpoint:POST /campaigns",
        "campaigns-api:endpoint:GET /campaigns/{id}",
    ]
    one = chunks[2]
    assert one.kind == "endpoint" and one.operations == [GET_ONE] and one.service == "campaigns-api"
    assert one.embed_text == one.content
    header, body = one.embed_text.split("\n", 1)
    assert header == GET_ONE
    assert json.loads(body) == campaigns.operation(GET_ONE).raw  # $refs left unresolved, like the paper
    assert '"$ref": "#/components/schemas/Campaign"' in body
    assert one.file == campaigns.file
    assert one.metadata == {
        "strategy": "endpoint",
        "title": "Campaigns API",
        "tags": ["campaigns"],
        "summary": "Get a campaign",
        "schemas": ["Campaign", "Error"],
    }


def test_thin_drops_request_body_and_examples(campaigns: Service) -> None:
    post = by_id(chunk_services([campaigns], "thin"))["campaigns-api:thin:POST /campaigns"]
    assert post.embed_text == (
        "POST /campaigns\n"
        '{"tags": ["campaigns"], "summary": "Create a campaign", "description": "Creates a campaign. '
        'It starts on its start date.", "responses": {"201": {"description": "Created.", "content": '
        '{"application/json": {"schema": {"$ref": "#/components/schemas/Campaign"}}}}, "400": '
        '{"description": "Bad request.", "content": {"application/json": {"schema": {"$ref": '
        '"#/components/schemas/Error"}}}}}}'
    )
    assert "requestBody" in campaigns.operation("POST /campaigns").raw  # the loaded service is untouched


def test_fields_embeds_descriptions_and_returns_the_endpoint(campaigns: Service) -> None:
    post = by_id(chunk_services([campaigns], "fields"))["campaigns-api:fields:POST /campaigns"]
    assert post.embed_text == (
        "Endpoint: POST /campaigns\n"
        "Title: Campaigns API\n"
        "Service description: Plan and run marketing campaigns.\n"
        "Endpoint summary: Create a campaign\n"
        "Endpoint description: Creates a campaign. It starts on its start date."
    )
    assert post.content.startswith('POST /campaigns\n{"tags": ["campaigns"], "summary": "Create a campaign"')
    assert '"example"' in post.content


def test_endpoint_json_flattens_the_operation(campaigns: Service) -> None:
    one = by_id(chunk_services([campaigns], "endpoint-json"))[
        "campaigns-api:endpoint-json:GET /campaigns/{id}"
    ]
    assert one.embed_text == "\n".join(
        [
            "GET /campaigns/{id}",
            "tags.0: campaigns",
            "summary: Get a campaign",
            "security: []",
            "parameters.0.name: id",
            "parameters.0.in: path",
            "parameters.0.required: true",
            "parameters.0.schema.type: string",
            "responses.200.description: The campaign.",
            "responses.200.content.application/json.schema.$ref: #/components/schemas/Campaign",
            "responses.404.description: Not found.",
            "responses.404.content.application/json.schema.$ref: #/components/schemas/Error",
        ]
    )


def test_ref_inline_expands_two_levels_and_marks_cycles(campaigns: Service) -> None:
    chunks = by_id(chunk_services([campaigns], "ref-inline"))
    post = chunks["campaigns-api:ref-inline:POST /campaigns"]
    assert post.embed_text == "\n".join(
        [
            "Campaigns API – campaigns – POST /campaigns: Create a campaign",
            "Creates a campaign. It starts on its start date.",
            "requestBody: CreateCampaignRequest (object) — campaign: Campaign (object) {id: string (uuid), "
            "name: string, owner: User (see schema), required: id, name}, startDate: string (date), "
            "required: campaign, startDate",
            "response 201 (Created): Campaign (object) — id: string (uuid), name: string, "
            "owner: User (object) {email: string (email), manager: User (recursive), "
            "campaigns: array of Campaign (recursive)}, "
            "required: id, name",
            "errors: 400 Bad request",
        ]
    )
    assert post.content == post.embed_text
    listing = chunks["campaigns-api:ref-inline:GET /campaigns"]
    assert listing.embed_text.splitlines()[1:] == [
        "parameters: status (query, string [draft | active]): Only campaigns in this state.",
        "response 200 (The campaigns): array of Campaign (object) — id: string (uuid), name: string, "
        "owner: User (object) {email: string (email), manager: User (recursive), campaigns: array of "
        "Campaign (recursive)}, required: id, name",
        "errors: 400 Bad request",
    ]


def test_ref_inline_depth_one_reads_like_the_issue(campaigns: Service) -> None:
    post = by_id(chunk_services([campaigns], "ref-inline", depth=1))[
        "campaigns-api:ref-inline:POST /campaigns"
    ]
    assert (
        "requestBody: CreateCampaignRequest (object) — campaign: Campaign (see schema), "
        "startDate: string (date), required: campaign, startDate"
    ) in post.embed_text.splitlines()


def test_ref_linked_names_schemas_and_adds_schema_error_security_chunks(campaigns: Service) -> None:
    chunks = chunk_services([campaigns], "ref-linked")
    assert [(c.id.split(":", 2)[2], c.kind, c.operations) for c in chunks] == [
        ("GET /campaigns", "endpoint", ["GET /campaigns"]),
        ("POST /campaigns", "endpoint", ["POST /campaigns"]),
        ("GET /campaigns/{id}", "endpoint", [GET_ONE]),
        ("schema:Campaign", "schema", []),
        ("schema:User", "schema", []),
        ("schema:CreateCampaignRequest", "schema", []),
        ("schema:Error", "schema", []),
        ("errors", "errors", []),
        ("security", "security", []),
    ]
    c = by_id(chunks)
    post = c["campaigns-api:ref-linked:POST /campaigns"]
    assert post.embed_text == "\n".join(
        [
            "Campaigns API – campaigns – POST /campaigns: Create a campaign",
            "Creates a campaign. It starts on its start date.",
            "requestBody: CreateCampaignRequest (see schema)",
            "response 201 (Created): Campaign (see schema)",
            "errors: 400 Bad request",
        ]
    )
    assert post.metadata["schemas"] == ["Campaign", "CreateCampaignRequest", "Error"]

    campaign = c["campaigns-api:ref-linked:schema:Campaign"]
    assert campaign.embed_text == "\n".join(
        [
            "Campaigns API – schema Campaign (object)",
            "A marketing campaign.",
            "- id: string (uuid), required — Unique id.",
            "- name: string, required",
            "- owner: User (see schema)",
            "used in: GET /campaigns, POST /campaigns, GET /campaigns/{id}",
            "used by schemas: User, CreateCampaignRequest",
        ]
    )
    assert campaign.metadata == {
        "strategy": "ref-linked",
        "title": "Campaigns API",
        "schema": "Campaign",
        "refs": ["User"],
        "used_by_operations": ["GET /campaigns", "POST /campaigns", GET_ONE],
        "used_by_schemas": ["User", "CreateCampaignRequest"],
    }
    assert c["campaigns-api:ref-linked:errors"].embed_text == "\n".join(
        [
            "Campaigns API – error responses",
            # shared by two operations; the 404 of GET /campaigns/{id} is only in its own chunk
            "- 400 Bad request: Error (see schema) — in GET /campaigns, POST /campaigns",
        ]
    )
    assert c["campaigns-api:ref-linked:errors"].metadata == {
        "strategy": "ref-linked",
        "title": "Campaigns API",
        "schemas": ["Error"],
        "codes": ["400"],
        "used_by_operations": ["GET /campaigns", "POST /campaigns"],
    }
    assert c["campaigns-api:ref-linked:GET /campaigns/{id}"].embed_text == "\n".join(
        [
            "Campaigns API – campaigns – GET /campaigns/{id}: Get a campaign",
            "parameters: id (path, string, required)",
            "response 200 (The campaign): Campaign (see schema)",
            "errors: 404 Not found",
            "security: no authentication",  # differs from the service's default (apiKey)
        ]
    )
    security = c["campaigns-api:ref-linked:security"]
    assert security.embed_text == "\n".join(
        [
            "Campaigns API – authentication and security",
            "- apiKey: API key in header `X-API-Key`",
            "- oauth: OAuth 2 (clientCredentials flow)",
            "- scope campaigns:write: Create and change campaigns",
            "- default requirement: apiKey",
            "- no authentication for: GET /campaigns/{id}",
        ]
    )
    assert security.metadata["used_by_operations"] == ["GET /campaigns", "POST /campaigns"]


@pytest.mark.parametrize("name", ["whole", "json"])
def test_document_windows_list_the_paths_they_contain(campaigns: Service, name: str) -> None:
    chunks = chunk_services([campaigns], name, size=40, overlap=10)
    assert len(chunks) > 5
    assert all(c.kind == "document" and c.tokens <= 40 for c in chunks)
    assert [c.id for c in chunks] == [f"campaigns-api:{name}:document#{i}" for i in range(1, len(chunks) + 1)]
    assert {c.metadata["parts"] for c in chunks} == {len(chunks)}
    for c in chunks:
        # Independent check: a path counts where it is not glued to a longer path.
        expected = [
            op.id
            for op in campaigns.operations
            if re.search(r"(?<![\w/{}~%-])" + re.escape(op.path) + r"(?![\w/{}~%-])", c.embed_text)
        ]
        assert c.operations == expected, c.embed_text
        assert set(c.metadata["summaries"]) == set(c.operations)
    # Every operation's path is a key of the document, so some window shows it (overlap 10).
    assert {op for c in chunks for op in c.operations} == {op.id for op in campaigns.operations}


def test_whole_with_one_window_is_the_indented_document(campaigns: Service) -> None:
    (chunk,) = chunk_services([campaigns], "whole", size=2000)
    assert json.loads(chunk.embed_text) == campaigns.document
    assert chunk.embed_text.startswith('{\n  "openapi": "3.0.3",\n  "info": {')
    assert chunk.operations == ["GET /campaigns", "POST /campaigns", GET_ONE]


def test_json_flattens_the_document_one_leaf_per_line(campaigns: Service) -> None:
    (chunk,) = chunk_services([campaigns], "json", size=3000)
    lines = chunk.embed_text.splitlines()
    assert lines[:3] == ["openapi: 3.0.3", "info.title: Campaigns API", "info.version: 1.0"]
    assert "paths./campaigns/{id}.get.parameters.0.required: true" in lines
    assert lines[-1] == "security.0.apiKey: []"


@pytest.mark.parametrize("name", list_strategies())
def test_ids_are_stable_unique_and_tokens_are_counted(campaigns: Service, name: str, tok) -> None:
    first = chunk_services([campaigns], name)
    again = chunk_services([campaigns], name)
    assert [c.to_dict() for c in first] == [c.to_dict() for c in again]
    assert len({c.id for c in first}) == len(first)
    assert all(c.id.startswith(f"campaigns-api:{name}:") for c in first)
    assert [c.tokens for c in first] == tok.count_many([c.embed_text for c in first])
    assert all(c.metadata["strategy"] == name and c.metadata["title"] == "Campaigns API" for c in first)
