from openapi_rag.bench.halves import half_of


def test_half_is_stable_and_balanced() -> None:
    halves = [half_of("restbench", str(i)) for i in range(2000)]
    assert halves == [half_of("restbench", str(i)) for i in range(2000)]
    assert 900 < halves.count("tune") < 1100
    # The dataset name is part of the key: the same ids split differently in another dataset.
    assert halves != [half_of("socbench-d", str(i)) for i in range(2000)]
