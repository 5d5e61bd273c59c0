"""`openapi-rag convert ...`: turn other API descriptions into OpenAPI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import err, handle_errors
from openapi_rag.errors import ConvertError

if TYPE_CHECKING:  # imported where used: yaml and the spec package would slow every command's start
    from openapi_rag.spec.limits import ReadLimits

_FORMATS = {".json": "json", ".yaml": "yaml", ".yml": "yaml"}


@cli.group("convert")
def convert_group() -> None:
    """Convert other API descriptions (Postman collections) to OpenAPI 3."""


@convert_group.command("postman")
@click.argument("collection", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the OpenAPI document here (.yaml/.yml or .json); default: YAML on stdout.",
)
@click.option(
    "-f",
    "--format",
    "format_",
    type=click.Choice(["yaml", "json"]),
    help="Output format, when the extension of -o does not say it.",
)
@handle_errors
def postman_cmd(collection: Path, output: Path | None, format_: str | None) -> None:
    """Convert a Postman Collection (v2.0 or v2.1) to OpenAPI 3.0.3.

    The result is checked with openapi-spec-validator; findings go to stderr and make the
    command exit with status 1 (the document is still written, to help fixing the collection).

    \b
    Examples:
      openapi-rag convert postman api.postman_collection.json -o openapi.yaml
      openapi-rag convert postman api.postman_collection.json -f json > openapi.json
    """
    from openapi_rag.convert import is_postman_collection, postman_to_openapi
    from openapi_rag.model import Problem
    from openapi_rag.spec.limits import ReadLimits

    if format_ is None and output is not None:
        format_ = _FORMATS.get(output.suffix.lower())
        if format_ is None:
            raise click.UsageError(
                f"cannot tell the format of {output.name!r}: use .yaml or .json, or --format"
            )
    limits = ReadLimits.from_env()
    data = _read_json(collection, limits)
    if not is_postman_collection(data):
        raise ConvertError(
            f"{collection}: not a Postman collection (no `info` and `item`); export it as v2.1"
        )
    problems: list[Problem] = []
    document = postman_to_openapi(data, source=str(collection), problems=problems, limits=limits)
    for problem in problems:
        err(f"warning: {problem}")
    text = _dump(document, format_ or "yaml")
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")
        operations = sum(len([k for k in item if k != "servers"]) for item in document["paths"].values())
        err(f"Wrote {output}: {len(document['paths'])} paths, {operations} operations")
    findings = validation_findings(document)
    for finding in findings:
        err(f"invalid: {finding}")
    if findings:
        raise click.ClickException(f"the converted document is not valid OpenAPI ({len(findings)} findings)")


def _read_json(path: Path, limits: ReadLimits) -> Any:
    from openapi_rag.spec.parse import read_bytes

    # The bounded reader: a regular file under the size limit, never a FIFO or /dev/zero.
    data = read_bytes(path, limits)
    try:
        return json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise ConvertError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise ConvertError(
            f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"
        ) from exc


def validation_findings(document: dict[str, Any]) -> list[str]:
    """Every openapi-spec-validator finding, as `where: message` lines (empty when valid)."""
    from openapi_spec_validator import OpenAPIV30SpecValidator

    findings = []
    for error in OpenAPIV30SpecValidator(document).iter_errors():
        where = "/".join(str(part) for part in getattr(error, "path", ()))
        findings.append(f"{where}: {error.message}" if where else str(error.message))
    return findings


def _dump(document: dict[str, Any], format_: str) -> str:
    if format_ == "json":
        return json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    import yaml

    class NoAliasDumper(yaml.SafeDumper):
        """Write repeated objects out in full: `&id001` anchors confuse people and some tools."""

        def ignore_aliases(self, data: Any) -> bool:
            return True

    text: str = yaml.dump(document, Dumper=NoAliasDumper, sort_keys=False, allow_unicode=True, width=100)
    return text
