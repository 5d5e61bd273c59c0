"""Bundle a description that may span many files into one self-contained document.

Every schema the description reaches gets a name in the schema section (`components/schemas`, or
`definitions` for Swagger 2) and every `$ref` to a schema becomes `#/<section>/<name>`: external
files (`models/droplet.yml`) are pulled in under a name derived from the file or pointer. All other
`$ref`s (parameters, responses, path items, and non-standard ones such as a tag description) are
inlined. Because schemas are referenced by name rather than copied, recursive schemas (Kubernetes
`JSONSchemaProps`, Xero `Contact`) stay finite; expanding them for display is done later, with a depth
limit, by `refs.inline`.

The work is a queue of schemas to rewrite, not recursion through references, so long chains of
schemas cannot exhaust the stack. Remote references (any URI scheme) are never fetched, and local
ones are read only inside the folders `ReadLimits.roots` allows (the folders given on the command line);
both are reported with the pointer where they stand. Inlining is bounded by `max_bundle_nodes`, so
references that fan out (each response naming the next twice) fail with a message instead of a hang.
"""

from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openapi_rag.errors import LimitExceeded, SpecError
from openapi_rag.model import Problem
from openapi_rag.refs import pointer as jp
from openapi_rag.spec.limits import DEFAULT_LIMITS, ReadLimits
from openapi_rag.spec.parse import load_file

# Inlined (non-schema) references nest this deep at most; real documents need a handful.
MAX_INLINE_DEPTH = 32
# Pointer tokens that say nothing about what a schema is, so a name needs more context.
_GENERIC_TOKENS = {"schema", "items", "properties", "content", "application/json", "additionalProperties"}

Key = tuple[str, str]  # (absolute file, JSON pointer)


@dataclass
class Bundle:
    document: dict[str, Any]
    files: list[str]
    problems: list[Problem] = field(default_factory=list)


def bundle(
    entry: Path, document: dict[str, Any], section: tuple[str, ...], limits: ReadLimits = DEFAULT_LIMITS
) -> Bundle:
    """Bundle `document` (already parsed from `entry`) with schemas gathered under `section`.

    Raises:
        LimitExceeded: inlining references would build more than `limits.max_bundle_nodes` nodes.
    """
    return _Bundler(entry, document, section, limits).run()


class _Bundler:
    def __init__(
        self, entry: Path, document: dict[str, Any], section: tuple[str, ...], limits: ReadLimits
    ):
        self.entry = os.path.abspath(entry)
        self.limits = limits
        self.nodes = 0  # containers built so far, against limits.max_bundle_nodes
        self.docs: dict[str, Any] = {self.entry: document}
        self.failed_files: dict[str, str] = {}  # file -> why it cannot be read
        self.section = section
        self.prefix = "#/" + "/".join(section) + "/"
        self.names: dict[Key, str] = {}
        self.used_names: set[str] = set()
        self.bodies: dict[str, Any] = {}
        self.queue: deque[tuple[str, Any, str]] = deque()
        self.problems: list[Problem] = []
        self.reported: set[str] = set()
        self.path: list[str | int] = []  # where we are in the output, for messages
        self.stack: list[Key] = []  # inlined references being expanded, for cycle detection

    # ---- problems -------------------------------------------------------------------------
    def report(self, message: str, *, once: str | None = None, file: str | None = None) -> None:
        if once is not None:
            if once in self.reported:
                return
            self.reported.add(once)
        where = "/" + "/".join(jp.escape(str(p)) for p in self.path)
        self.problems.append(Problem(message, where=where, file=self._rel(file or self.entry)))

    def _rel(self, file: str) -> str:
        return file if file == self.entry else os.path.relpath(file, os.path.dirname(self.entry))

    # ---- documents ------------------------------------------------------------------------
    def doc(self, file: str) -> Any:
        if file in self.docs:
            return self.docs[file]
        if file in self.failed_files:
            return None
        found: list[Problem] = []
        try:
            data = load_file(Path(file), found, self.limits)
        except LimitExceeded:
            raise  # a fragment past a bound makes the whole description past it
        except SpecError as exc:
            self.failed_files[file] = exc.reason + (f" at {exc.where}" if exc.where else "")
            return None
        for problem in found:
            problem.file = self._rel(file)
        self.problems += found
        self.docs[file] = data
        return data

    def lookup(self, ref: str, base: str) -> tuple[Key, Any] | None:
        """Resolve `ref` relative to the file `base`; None (and a problem) when impossible."""
        file_part, pointer = jp.split_ref(ref)
        if jp.is_remote(file_part):
            self.report(f"remote $ref not fetched: {ref}", once="remote:" + ref)
            return None
        if "\0" in file_part:  # no file can have that name (found by fuzzing)
            self.report(f"dangling $ref {ref!r}: a file name cannot hold a NUL byte", once="nul:" + ref)
            return None
        file = os.path.normpath(os.path.join(os.path.dirname(base), file_part)) if file_part else base
        if file_part and not self.limits.allows(file, self.entry):
            self.report(
                f"$ref {ref!r} points outside the allowed folders; not read "
                "(allow a folder with --allow-refs DIR)",
                once=f"outside:{ref}",
                file=base,
            )
            return None
        doc = self.doc(file)
        if doc is None:
            why = self.failed_files.get(file, "cannot be read")
            self.report(f"dangling $ref {ref!r}: file {self._rel(file)}: {why}", once=f"dangling:{file}")
            return None
        try:
            return (file, pointer), jp.resolve(doc, pointer)
        except jp.PointerError as exc:
            self.report(
                f"dangling $ref {ref!r}: nothing at {exc.where} in {self._rel(file)}",
                once=f"dangling:{file}#{pointer}",
                file=base,
            )
            return None

    # ---- naming ---------------------------------------------------------------------------
    def is_schema_target(self, key: Key) -> bool:
        tokens = key[1].lstrip("/").split("/")
        return (len(tokens) == len(self.section) + 1 and tuple(tokens[:-1]) == self.section) or (
            "schemas" in tokens or "definitions" in tokens
        )

    def name_for(self, key: Key, body: Any) -> str:
        name = self.names.get(key)
        if name is not None:
            return name
        key, body = self.skip_aliases(key, body)
        name = self.names.get(key)
        if name is not None:
            return name
        tokens = [jp.unescape(t) for t in key[1].lstrip("/").split("/") if t]
        if not tokens:
            name = Path(key[0]).stem
        elif tokens[-1] in _GENERIC_TOKENS or tokens[-1].isdigit():
            name = "_".join(t.replace("/", "_") for t in tokens[-3:])
        else:
            name = tokens[-1]
        base, n = name, 2
        while name in self.used_names:
            name, n = f"{base}_{n}", n + 1
        self.names[key] = name
        self.used_names.add(name)
        self.queue.append((name, body, key[0]))
        return name

    def skip_aliases(self, key: Key, body: Any) -> tuple[Key, Any]:
        """Follow `{$ref: ...}`-only nodes to the schema they stand for (an unnamed alias needs no name)."""
        seen = {key}
        while isinstance(body, dict) and set(body) == {"$ref"} and isinstance(body["$ref"], str):
            if key in self.names or jp.is_remote(jp.split_ref(body["$ref"])[0]):
                break
            found = self.lookup(body["$ref"], key[0])
            if found is None or found[0] in seen:
                break
            key, body = found
            seen.add(key)
        return key, body

    # ---- rewriting ------------------------------------------------------------------------
    def rewrite(self, node: Any, base: str, in_schema: bool, depth: int) -> Any:
        if isinstance(node, (dict, list)):
            self.count_node()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                return self.rewrite_ref(node, ref, base, in_schema, depth)
            out: dict[str, Any] = {}
            path = self.path
            for k, v in node.items():
                if isinstance(v, (dict, list)):
                    path.append(k)
                    out[k] = self.rewrite(v, base, in_schema or k == "schema", depth)
                    path.pop()
                else:
                    out[k] = v
            return out
        if isinstance(node, list):
            items = []
            for i, v in enumerate(node):
                if isinstance(v, (dict, list)):
                    self.path.append(i)
                    items.append(self.rewrite(v, base, in_schema, depth))
                    self.path.pop()
                else:
                    items.append(v)
            return items
        return node

    def rewrite_ref(self, node: dict[str, Any], ref: str, base: str, in_schema: bool, depth: int) -> Any:
        siblings = {k: v for k, v in node.items() if k != "$ref"}
        found = self.lookup(ref, base)
        if found is None:
            marker = {"$ref": ref} if jp.is_remote(jp.split_ref(ref)[0]) else {"x-dangling-ref": ref}
            return {**marker, **self.rewrite(siblings, base, in_schema, depth)}
        key, target = found
        if in_schema or self.is_schema_target(key):
            name = self.name_for(key, target)
            out = {"$ref": self.prefix + jp.escape(name)}
            if siblings:
                out.update(self.rewrite(siblings, base, True, depth))
            return out
        if key in self.stack or depth >= MAX_INLINE_DEPTH:
            why = "cyclic" if key in self.stack else "too deeply nested"
            self.report(f"{why} $ref {ref!r} not expanded", once=f"cycle:{key}")
            return {"x-cycle": ref, **siblings}
        if not isinstance(target, (dict, list)):
            # OpenAPI allows $ref only where an object is expected; providers put it in tag
            # descriptions and summaries anyway (DigitalOcean, Vonage). Inline the value and say so.
            self.report(f"non-standard $ref {ref!r} to a {type(target).__name__} inlined", once=f"odd:{ref}")
            return target
        self.stack.append(key)
        try:
            result = self.rewrite(target, key[0], False, depth + 1)
        finally:
            self.stack.pop()
        if siblings and isinstance(result, dict):
            result = {**result, **self.rewrite(siblings, base, False, depth)}
        return result

    def count_node(self) -> None:
        self.nodes += 1
        if self.nodes > self.limits.max_bundle_nodes:
            where = "/" + "/".join(jp.escape(str(p)) for p in self.path)
            raise self.limits.exceeded(
                "max_bundle_nodes",
                "inlining $refs builds a document too large (references that fan out?)",
                file=self.entry,
                where=where,
            )

    # ---- driver ---------------------------------------------------------------------------
    def schema_section(self, root: dict[str, Any]) -> tuple[dict[str, Any], Key]:
        """The schema map and where it lives (it may itself be a `$ref` to another file, SendGrid)."""
        node: Any = root
        for token in self.section:
            node = node.get(token) if isinstance(node, dict) else None
        key: Key = (self.entry, "/" + "/".join(self.section))
        self.path = list(self.section)
        if isinstance(node, dict) and isinstance(node.get("$ref"), str):
            found = self.lookup(node["$ref"], self.entry)
            node, key = (found[1], found[0]) if found else ({}, key)
        if not isinstance(node, dict):
            if node is not None:
                self.report(f"{'/'.join(self.section)} is not a mapping; ignored")
            return {}, key
        return node, key

    def run(self) -> Bundle:
        root = self.docs[self.entry]
        schemas, (section_file, section_ptr) = self.schema_section(root)
        for name in schemas:
            self.names[(section_file, jp.join(section_ptr, name))] = name
            self.used_names.add(name)
        for name, body in schemas.items():
            self.queue.append(self.follow_alias(name, body, (section_file, jp.join(section_ptr, name))))

        out = self.rewrite_root(root)
        while self.queue:
            name, body, file = self.queue.popleft()
            self.path = [*self.section, name]
            self.bodies[name] = self.rewrite(body, file, True, 0)
        self.path = []
        holder = out
        for token in self.section[:-1]:
            inner = holder.get(token)
            if not isinstance(inner, dict):  # `components: "x"` (found by fuzzing)
                if inner is not None:
                    self.path = [token]
                    self.report(f"`{token}` is not a mapping; ignored")
                inner = holder[token] = {}
            holder = inner
        holder[self.section[-1]] = self.bodies
        files = sorted(self._rel(f) for f in self.docs)
        return Bundle(out, files, self.problems)

    def follow_alias(self, name: str, body: Any, key: Key) -> tuple[str, Any, str]:
        """`Droplet: {$ref: models/droplet.yml}` names the file's schema `Droplet` instead of aliasing."""
        file = key[0]
        seen = {key}
        while isinstance(body, dict) and set(body) == {"$ref"} and isinstance(body["$ref"], str):
            found = self.lookup(body["$ref"], file)
            if found is None or found[0] in self.names or found[0] in seen:
                break
            (file, _), body = found
            seen.add(found[0])
            self.names[found[0]] = name
        return name, body, file

    def rewrite_root(self, root: dict[str, Any]) -> dict[str, Any]:
        skip = self.section[0] if len(self.section) == 1 else None
        out: dict[str, Any] = {}
        for k, v in root.items():
            if k == skip:
                continue
            self.path = [k]
            if len(self.section) == 2 and k == self.section[0] and isinstance(v, dict):
                inner = {ck: cv for ck, cv in v.items() if ck != self.section[1]}
                out[k] = self.rewrite(inner, self.entry, False, 0)
            else:
                out[k] = self.rewrite(v, self.entry, False, 0) if isinstance(v, (dict, list)) else v
        return out
