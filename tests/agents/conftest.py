"""The LLM tests' fixtures (scripted OpenAI-compatible server, clean LLM environment) for the agent tests."""

from tests.llm.conftest import no_llm_env, server  # noqa: F401 - fixtures, found by name
