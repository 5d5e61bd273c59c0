from openapi_rag.cli import cli

cli()
