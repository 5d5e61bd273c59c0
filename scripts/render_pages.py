"""Build the crawl benchmark: HTML documentation pages rendered from real specs by real renderers.

Each spec listed in benchmarks/crawl/specs.tsv (paths relative to the shared data folder) is
rendered by two documentation renderers pinned in benchmarks/crawl/renderers/package.json:

- `widdershins`: widdershins 4.0.1 (OpenAPI → Slate-style Markdown with cURL/HTTP/Python samples,
  parameter and response-schema tables), turned into HTML by marked 18.2.1;
- `redoc`: redoc-cli 0.13.21 (`redoc-cli build`, server-side rendered ReDoc 2 page).

The source spec is copied to benchmarks/crawl/truth/ID.(json|yaml) as the ground truth.
ReDoc pages carry the whole spec in an inline `__redoc_state` script plus a 1 MB JS bundle;
both are dropped, since a crawler reads what a reader sees (and the embedded spec would be the
answer). Rendering is deterministic: same specs and renderer versions, same pages.

    cd benchmarks/crawl/renderers && npm ci     # once (node + npm; offline afterwards)
    python scripts/render_pages.py --data ../shared/data
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "crawl"
RENDERERS = BENCH / "renderers"
BIN = RENDERERS / "node_modules" / ".bin"

_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>", re.S | re.I)
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{title}</title></head>
<body>
{body}
</body></html>
"""


def read_specs(path: Path) -> list[tuple[str, str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        if line.strip():
            spec_id, source = line.split("\t")
            rows.append((spec_id, source))
    return rows


def render_widdershins(spec: Path, out: Path, work: Path) -> None:
    markdown = work / "page.md"
    subprocess.run(
        [
            str(BIN / "widdershins"),
            str(spec),
            "-o",
            str(markdown),
            "--language_tabs",
            "shell:Shell",
            "http:HTTP",
            "python:Python",
        ],
        check=True,
        capture_output=True,
    )
    text = _FRONT_MATTER.sub("", markdown.read_text(encoding="utf-8"))
    markdown.write_text(text, encoding="utf-8")
    html = work / "page.html"
    subprocess.run(
        [str(BIN / "marked"), "--gfm", "-i", str(markdown), "-o", str(html)], check=True, capture_output=True
    )
    title = re.search(r"<h1[^>]*>(.*?)</h1>", text)
    out.write_text(
        _PAGE.format(title=title.group(1) if title else spec.stem, body=html.read_text(encoding="utf-8")),
        encoding="utf-8",
    )


def render_redoc(spec: Path, out: Path, work: Path) -> None:
    html = work / "redoc.html"
    subprocess.run(
        [str(BIN / "redoc-cli"), "build", str(spec), "-o", str(html)], check=True, capture_output=True
    )
    out.write_text(_SCRIPT.sub("", html.read_text(encoding="utf-8")), encoding="utf-8")


RENDER = {"widdershins": render_widdershins, "redoc": render_redoc}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=BENCH)
    parser.add_argument("--renderer", choices=sorted(RENDER), action="append")
    args = parser.parse_args(argv)
    if shutil.which("node") is None or not BIN.is_dir():
        print(
            "render_pages: needs node and the pinned renderers: cd benchmarks/crawl/renderers && npm ci",
            file=sys.stderr,
        )
        return 2
    renderers = args.renderer or sorted(RENDER)
    failures = 0
    for spec_id, source in read_specs(BENCH / "specs.tsv"):
        spec = args.data / source
        truth = args.out / "truth" / f"{spec_id}{spec.suffix}"
        truth.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(spec, truth)
        for name in renderers:
            page = args.out / "pages" / name / f"{spec_id}.html"
            page.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory() as work:
                try:
                    RENDER[name](spec, page, Path(work))
                except subprocess.CalledProcessError as exc:
                    failures += 1
                    print(f"{spec_id}: {name} failed: {exc.stderr.decode()[-300:]}", file=sys.stderr)
                    continue
            print(
                f"{name}: {page.relative_to(args.out)} ({page.stat().st_size // 1024} KiB)", file=sys.stderr
            )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
