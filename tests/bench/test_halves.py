from openapi_rag.bench.halves import half_of


def test_half_is_stable_and_balanced() -> None:
    halves = [half_of("restbench", str(i)) for i in range(2000)]
    assert halves == [half_of("restbench", str(i)) for i in range(2000)]
    assert 900 < halves.count("tune") < 1100
    # The dataset name is part of the key: the same ids split differently in another dataset.
    assert halves != [half_of("socbench-d", str(i)) for i in range(2000)]


def test_select_half_keeps_the_queries_of_one_half(catalog) -> None:
    from openapi_rag.bench.halves import select_half

    tune, report = select_half(catalog, "tune"), select_half(catalog, "report")
    assert select_half(catalog, "all") is catalog
    ids = sorted(q.id for q in tune.queries + report.queries)
    assert ids == sorted(q.id for q in catalog.queries)
    assert all(half_of(catalog.name, q.id) == "tune" for q in tune.queries)
    assert {i.query_id for i in tune.issues} <= {q.id for q in tune.queries}
