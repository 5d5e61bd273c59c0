"""ToolAlpaca, StableToolBench and NESTFUL read as published, on small real slices of ../shared/data/extra."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from openapi_rag.bench import DatasetError, grid, load_dataset, run_eval
from openapi_rag.bench.retrievers import IndexRetrieverFactory
from openapi_rag.bench.tool_datasets import service_from_document
from tests.conftest import shared_data


def _slice(source: Path, target: Path, keep: int) -> Path:
    target.write_text(json.dumps(json.loads(source.read_text(encoding="utf-8"))[:keep]), encoding="utf-8")
    return target


def test_toolalpaca_apis_become_one_catalog_with_gold_from_the_projection(tmp_path) -> None:
    folder = shared_data("extra", "toolalpaca")
    _slice(folder / "eval_real.json", tmp_path / "eval_real.json", 3)
    ds = load_dataset("toolalpaca", tmp_path)
    (group,) = ds.groups
    assert [s.id for s in group.services] == ["nager-date", "airportsapi", "aviationapi"]
    assert ds.domains == ["eval_real"] and not ds.load_failures and not ds.unmatched()
    q = {q.id: q for q in ds.queries}
    first = q["eval_real/nager-date/01"]
    assert first.text == "Can you check if today is a public holiday in China?"
    assert [g.matches for g in first.gold] == [("nager-date GET /api/v3/IsTodayPublicHoliday/{countryCode}",)]
    # AviationAPI's document nests five paths inside another path item (as published): the actions
    # calling them name no operation; they are reported and left out of the gold, not counted as misses.
    missing = {i.entry for i in ds.issues if i.kind == "not-an-operation"}
    assert missing == {"preferred-routes_search_get", "vatsim_pilots_get", "vatsim_controllers_get"} | {
        "weather_metar_get",
        "weather_taf_get",
    }


def test_stabletoolbench_makes_one_operation_per_api_and_a_description_per_tool(tmp_path) -> None:
    folder = shared_data("extra", "stabletoolbench")
    _slice(folder / "G1_instruction.json", tmp_path / "G1_instruction.json", 4)
    ds = load_dataset("stabletoolbench", tmp_path)
    (group,) = ds.groups
    tasks = json.loads((tmp_path / "G1_instruction.json").read_text())
    apis = {(a["tool_name"], a["api_name"]) for t in tasks for a in t["api_list"]}
    assert group.operations == len(apis)
    assert len(group.services) == len({tool for tool, _ in apis})
    assert not ds.unmatched() and len(ds.queries) == 4
    first = ds.queries[0]
    assert first.id == f"G1_instruction/{tasks[0]['query_id']}"
    assert len(first.gold) == len(tasks[0]["relevant APIs"])
    op = next(o for s in group.services for o in s.operations if o.summary == tasks[0]["relevant APIs"][0][1])
    assert op.method in {"GET", "POST"} and op.path.startswith("/")


def test_nestful_gold_is_the_distinct_endpoints_a_task_calls(tmp_path) -> None:
    folder = shared_data("extra", "nestful")
    shutil.copy(folder / "executable-spec.json", tmp_path)
    _slice(folder / "executable-data.json", tmp_path / "executable-data.json", 5)
    ds = load_dataset("nestful", tmp_path)
    assert len(ds.groups[0].services) == 15 and ds.groups[0].operations == 38  # 39 names, one endpoint twice
    first = ds.queries[0]
    assert [g.matches[0] for g in first.gold] == [
        "sky-scrapper GET /api/v1/flights/searchAirport",
        "sky-scrapper GET /api/v2/flights/searchFlightsComplete",
        "tripadvisor16 GET /api/v1/hotels/searchLocation",
        "tripadvisor16 GET /api/v1/hotels/searchHotels",
    ]
    assert not ds.unmatched()


def test_the_real_index_retrieves_over_a_nestful_slice(tmp_path) -> None:
    folder = shared_data("extra", "nestful")
    shutil.copy(folder / "executable-spec.json", tmp_path)
    _slice(folder / "executable-data.json", tmp_path / "executable-data.json", 8)
    ds = load_dataset("nestful", tmp_path)
    result = run_eval(
        ds, grid(["compact"], ["default"], ["hybrid"]), IndexRetrieverFactory(), tmp_path, ks=[10]
    )
    assert result.searched == 8
    recalls = [r.scores.recall for r in result.results]
    assert sum(recalls) / len(recalls) > 0.5  # real retrieval over 38 endpoints, not chance
    assert {r.half for r in result.results} <= {"tune", "report"}


def test_malformed_inputs_name_the_file(tmp_path) -> None:
    (tmp_path / "eval_real.json").write_text(json.dumps([{"Name": "x", "Documentation": "{not json"}]))
    with pytest.raises(DatasetError, match=r"eval_real.json: API 'x': Documentation is not JSON"):
        load_dataset("toolalpaca", tmp_path)
    with pytest.raises(DatasetError, match="executable-spec.json and executable-data.json"):
        load_dataset("nestful", tmp_path)
    (tmp_path / "G1_x.json").write_text(json.dumps({"not": "a list"}))
    with pytest.raises(DatasetError, match=r"G1_x.json: expected a list of objects"):
        load_dataset("stabletoolbench", tmp_path)


def test_an_inline_document_never_reads_files_beside_it(tmp_path) -> None:
    (tmp_path / "secret.json").write_text('{"type": "object", "properties": {"leak": {"type": "string"}}}')
    doc = {
        "openapi": "3.0.0",
        "info": {"title": "t", "version": "1"},
        "paths": {"/x": {"get": {"responses": {"200": {"$ref": "secret.json"}}}}},
    }
    service = service_from_document("t", doc, tmp_path / "bench.json")
    assert "leak" not in json.dumps(service.document)
    assert service.problems  # the unreadable reference is reported
