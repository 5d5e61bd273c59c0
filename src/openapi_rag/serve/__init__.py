"""Serving an index: the HTTP API (`http_app`, run by `runner`) and the MCP server (`mcp_server`),
both thin layers over one `SearchService` (`service`), with keys, limits and metrics shared
(`security`, `settings`, `metrics`). `load` is the `bench serve` load test; `cli_process` starts
and stops a server command as a subprocess (benchmarks, tests).

Nothing heavy is imported here: FastAPI, uvicorn and the MCP SDK load only with the module that
needs them (extras `server` and `mcp`).
"""
