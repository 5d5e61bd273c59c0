"""Paths to the crawl benchmark committed in the repository (pages rendered from real specs)."""

from __future__ import annotations

from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "crawl"
PAGES = BENCH / "pages"
TRUTH = BENCH / "truth"
