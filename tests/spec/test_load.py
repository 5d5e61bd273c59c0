"""Loading small hand-written specs: multi-file refs, cycles, Swagger 2, path-level parameters, YAML quirks."""

from __future__ import annotations

from pathlib import Path

import pytest

from openapi_rag.refs.inline import CYCLE, DEPTH_LIMIT, inline_schemas, resolved_operation
from openapi_rag.spec import load_service

FIXTURES = Path(__file__).parent / "fixtures"


def test_multi_file_refs_are_bundled_into_named_schemas():
    service = load_service(FIXTURES / "multi" / "openapi.yaml")
    assert service.format == "oas30"
    assert sorted(op.id for op in service.operations) == [
        "GET /odd",
        "GET /pets",
        "GET /pets/{petId}",
        "POST /pets",
    ]
    # `Pet: {$ref: ./schemas/pet.yaml}` names the external schema Pet instead of aliasing it.
    assert set(service.schemas) == {"Pet", "Error", "Remote", "a/b~c", "owner", "new-pet"}
    assert service.schemas["Pet"].schema["required"] == ["id", "name"]
    assert service.schemas["Pet"].schema["properties"]["owner"] == {"$ref": "#/components/schemas/owner"}
    assert service.schemas["owner"].schema["properties"]["pets"]["items"] == {
        "$ref": "#/components/schemas/Pet"
    }
    # Non-schema refs (path item, parameter, response) are inlined.
    list_pets = service.operation("GET /pets")
    assert list_pets.operation_id == "listPets"
    assert [(p.name, p.location, p.description) for p in list_pets.parameters] == [
        ("limit", "query", "How many items to return")
    ]
    get_pet = service.operation("GET /pets/{petId}")
    assert [p.name for p in get_pet.parameters] == ["petId"]
    assert get_pet.responses["404"]["description"] == "Not found"
    # Refs where the spec allows none (info and tag descriptions) are inlined and reported.
    assert service.description == "A pet store split over several files."
    assert service.tags == [{"name": "pets", "description": "Everything about pets"}]
    assert any(
        "non-standard $ref" in p.message and p.where == "/tags/0/description" for p in service.problems
    )
    # Remote refs are not fetched but reported.
    assert any(
        "remote $ref not fetched: https://example.com/schemas/remote.yaml" in p.message
        for p in service.problems
    )
    assert len(service.files) == 7


def test_escaped_and_percent_encoded_pointer_resolves():
    service = load_service(FIXTURES / "multi" / "openapi.yaml")
    odd = service.operation("GET /odd")
    schema = odd.responses["200"]["content"]["application/json"]["schema"]
    assert schema == {"$ref": "#/components/schemas/Pet"}
    assert odd.parameters[0].schema == {"$ref": "#/components/schemas/a~1b~0c"}
    assert odd.reachable_schemas == ["Pet", "a/b~c", "owner"]


def test_reference_graph_is_transitive_and_inverse():
    service = load_service(FIXTURES / "multi" / "openapi.yaml")
    get_pet = service.operation("GET /pets/{petId}")
    assert get_pet.schema_refs == ["Error", "Pet"]
    assert get_pet.reachable_schemas == ["Error", "Pet", "owner"]
    assert service.operation("POST /pets").reachable_schemas == ["new-pet"]
    assert sorted(service.schemas["owner"].used_by_operations) == [
        "GET /odd",
        "GET /pets",
        "GET /pets/{petId}",
    ]
    assert service.schemas["owner"].used_by_schemas == ["Pet"]
    assert service.schemas["Pet"].used_by_schemas == ["owner"]


def test_cycles_load_and_inline_with_a_marker_naming_the_schema():
    service = load_service(FIXTURES / "cyclic.yaml")
    assert service.format == "oas31"
    props = service.schemas["JSONSchemaProps"]
    assert props.refs == ["JSONSchemaProps", "JSONSchemaPropsOrArray"]
    assert sorted(props.used_by_schemas) == ["JSONSchemaProps", "JSONSchemaPropsOrArray"]
    create = service.operation("POST /props")
    assert create.reachable_schemas == ["JSONSchemaProps", "JSONSchemaPropsOrArray"]
    assert service.schemas["Unused"].used_by_operations == []

    inlined = inline_schemas({"$ref": "#/components/schemas/Node"}, service.schemas, max_depth=5)
    assert inlined["properties"]["children"]["items"] == {CYCLE: "Node"}
    assert inlined["properties"]["parent"]["properties"]["node"] == {CYCLE: "Node"}
    shallow = inline_schemas({"$ref": "#/components/schemas/JSONSchemaProps"}, service.schemas, max_depth=1)
    assert shallow["properties"]["items"] == {DEPTH_LIMIT: "JSONSchemaPropsOrArray"}
    full = resolved_operation(create, service, max_depth=10)
    body = full["requestBody"]["content"]["application/json"]["schema"]
    assert body["properties"]["not"] == {CYCLE: "JSONSchemaProps"}


def test_swagger2_is_converted_to_the_openapi3_model():
    service = load_service(FIXTURES / "swagger2.yaml")
    assert service.format == "swagger2"
    assert service.servers == [{"url": "https://shop.example.com/v1"}, {"url": "http://shop.example.com/v1"}]
    assert set(service.schemas) == {"Order", "Item", "Error"}
    assert service.schemas["Order"].schema["properties"]["coupon"] == {"type": "string", "nullable": True}
    assert service.security_schemes["key"] == {"type": "apiKey", "name": "X-Key", "in": "header"}
    assert (
        service.security_schemes["oauth"]["flows"]["authorizationCode"]["tokenUrl"]
        == "https://a.example.com/token"
    )

    listing = service.operation("GET /orders")
    status = listing.parameters[0]
    assert (status.name, status.location, status.schema) == (
        "status",
        "query",
        {"type": "array", "items": {"type": "string"}},
    )
    assert listing.raw["parameters"][0]["style"] == "form"
    ok = listing.responses["200"]
    assert ok["content"]["application/json"]["schema"]["items"] == {"$ref": "#/components/schemas/Order"}
    assert ok["headers"]["X-Total"] == {"description": "total count", "schema": {"type": "integer"}}

    create = service.operation("POST /orders")
    assert create.parameters == []
    assert create.request_body == {
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Order"}}},
        "description": "the order",
        "required": True,
    }
    get = service.operation("GET /orders/{orderId}")
    assert [(p.name, p.required, p.schema) for p in get.parameters] == [
        ("orderId", True, {"type": "integer", "format": "int64"})
    ]
    assert get.responses["404"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Error"
    }
    assert get.reachable_schemas == ["Error", "Item", "Order"]

    upload = service.operation("POST /orders/{orderId}/receipt")
    form = upload.request_body["content"]["multipart/form-data"]["schema"]
    assert form == {
        "type": "object",
        "properties": {"file": {"type": "string", "format": "binary"}, "note": {"type": "string"}},
        "required": ["file"],
    }


def test_path_level_parameters_merge_and_are_overridden():
    service = load_service(FIXTURES / "pathlevel.json")
    assert service.format == "oas32"
    get = service.operation("GET /users/{id}")
    assert [(p.name, p.description) for p in get.parameters] == [("id", ""), ("verbose", "path-level")]
    delete = service.operation("DELETE /users/{id}")
    assert [(p.name, p.description) for p in delete.parameters] == [
        ("id", ""),
        ("verbose", "operation-level"),
    ]
    assert delete.raw["parameters"][1]["schema"] == {"type": "integer"}
    # OpenAPI 3.2's QUERY method is an operation too.
    assert service.operation("QUERY /users/{id}") is not None


def test_yaml_11_quirks_are_undone():
    service = load_service(FIXTURES / "quirks.yaml")
    put = service.operation("PUT /switch")
    assert set(put.responses) == {"200", "default"}
    schema = put.request_body["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"on", "no"}
    assert schema["example"] == {"on": "yes", "since": "2024-01-02"}
    assert service.version == "1.0"


@pytest.mark.parametrize("name", ["swagger2.yaml", "cyclic.yaml", "multi/openapi.yaml"])
def test_operation_identity_is_method_and_path(name):
    service = load_service(FIXTURES / name)
    for op in service.operations:
        assert op.id == f"{op.method} {op.path}"
        assert op.qualified_id == f"{service.id} {op.method} {op.path}"
        assert op.service == service.id


def test_postman_collections_load_as_services():
    collection = Path(__file__).parents[1] / "convert" / "fixtures" / "petstore_v21.postman_collection.json"
    service = load_service(collection)
    assert service.format == "postman"
    assert service.operations and all(op.id == f"{op.method} {op.path}" for op in service.operations)
