"""Benchmark generation: the SOCBench-D creation algorithms (Pesl et al.) for any domains and sizes."""

from openapi_rag.bench.generate.run import GICS_SECTORS, GenerationSettings, generate_benchmark

__all__ = ["GICS_SECTORS", "GenerationSettings", "generate_benchmark"]
