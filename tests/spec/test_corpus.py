"""Corpus-level checks on the real descriptions in ../shared/data (skipped where it is absent)."""

from __future__ import annotations

import csv
from collections import Counter

import pytest

from openapi_rag.spec import load_services
from tests.conftest import shared_data


@pytest.fixture(scope="module")
def realworld():
    root = shared_data("realworld")
    return root, load_services([root])


def test_every_realworld_document_loads_or_is_reported(realworld):
    root, result = realworld
    manifest = list(csv.DictReader((root / "MANIFEST.tsv").open(encoding="utf-8"), delimiter="\t"))
    entries = {str(root / row["provider"] / row["path"]): row for row in manifest}
    loaded = {s.file: s for s in result.services}
    failed = {f.file: f for f in result.failed}
    assert set(loaded) | set(failed) == set(entries)
    assert not set(loaded) & set(failed)
    for file, failure in failed.items():
        assert failure.error and failure.where, file  # a reason and a place
    mismatches = {
        file: (int(entries[file]["n_operations"]), len(service.operations))
        for file, service in loaded.items()
        if entries[file]["openapi_spec_validator_0.9.0"] == "valid"
        and int(entries[file]["n_operations"]) != len(service.operations)
    }
    assert mismatches == {}
    # Invalid-but-published documents load too, with the provider's operation count.
    assert all(int(entries[f]["n_operations"]) == len(s.operations) for f, s in loaded.items())
    assert len({s.id for s in result.services}) == len(result.services)


def test_multi_file_and_cyclic_providers(realworld):
    _, result = realworld
    by_file = {s.file.split("realworld/")[1]: s for s in result.services}
    digitalocean = by_file["digitalocean/specification/DigitalOcean-public.v2.yaml"]
    assert len(digitalocean.files) > 1000
    assert len(digitalocean.operations) == 659
    kubernetes = by_file["kubernetes/kubernetes/swagger.json"]
    props = kubernetes.schemas["v1beta1.JSONSchemaProps"]
    assert props.name in props.refs  # the cycle is kept as a reference, not expanded
    assert props.name in props.used_by_schemas


def test_restbench_and_socbench_operation_counts():
    restbench = load_services([shared_data("restbench", "specs")])
    assert sorted(len(s.operations) for s in restbench.services) == [40, 54]
    socbench = load_services([shared_data("socbench-d")])
    assert not socbench.failed
    assert len(socbench.services) == 55
    assert Counter(len(s.operations) for s in socbench.services) == {10: 55}
