"""A scripted LLM world for the benchmark generator: realistic replies, some of them wrong.

Every reply is a pure function of the conversation, so a resumed run meets the same world:
- t_s gives one service too few until told the count is wrong;
- t_e gives distinct endpoints whose descriptions each hold one noun;
- t_o writes a valid document, except that the domain's first service first gets one without `info`;
- the judge rejects the second service's first document (it does not say what the service does);
- t_q names each expected endpoint by its noun, but leaves one out of a first draft of 3 or more;
- t_f and t_n answer from the nouns in the task (t_f adds one unneeded endpoint, which t_n refuses).
"""

from __future__ import annotations

import hashlib
import json
import re

import numpy as np

from openapi_rag.embed import Embedder

NOUNS = (
    "meters tariffs outages invoices sensors turbines pipelines permits audits forecasts crews "
    "substations batteries contracts readings alarms vehicles routes depots parcels shipments "
    "warehouses suppliers orders tickets refunds payments accounts reports budgets"
).split()


def _listing(text: str) -> list[tuple[str, str]]:
    return re.findall(r"^- ([A-Z]+ /\S*): (.*)$", text, flags=re.M)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z]+", "-", text.lower()).strip("-")


def world_reply(messages: list[dict]) -> str:
    first = messages[1]["content"]
    turns = len(messages)
    if "web services that companies" in first:
        n = int(re.search(r"exactly (\d+)", first).group(1))
        domain = re.search(r"in the (.+?) domain", first).group(1)
        count = n - 1 if turns == 2 else n
        names = [f"{domain.title()} Service {chr(65 + i)}" for i in range(count)]
        return json.dumps({"services": [{"name": x, "description": f"Runs {x.lower()}."} for x in names]})
    if "REST endpoints it offers" in first:
        n = int(re.search(r"exactly (\d+)", first).group(1))
        service = re.search(r'service "(.+?)"', first).group(1)
        offset = (ord(service[-1]) - 65) * n
        eps = [
            {
                "verb": ("GET", "POST", "PUT", "DELETE")[i % 4],
                "path": f"/{_slug(service)}/{NOUNS[offset + i]}",
                "description": f"Handles the {NOUNS[offset + i]}.",
            }
            for i in range(n)
        ]
        return json.dumps({"endpoints": eps})
    if "Write the OpenAPI 3.0.3 document" in first:
        service = re.search(r'service "(.+?)"', first).group(1)
        paths: dict = {}
        for eid, desc in _listing(first):
            verb, path = eid.split(" ", 1)
            paths.setdefault(path, {})[verb.lower()] = {
                "summary": desc,
                "responses": {"200": {"description": "OK"}},
            }
        info = {"title": service, "version": "1.0", "description": f"The {service}."}
        if service.endswith("Service B") and turns == 2:
            del info["description"]  # valid OpenAPI, but the judge wants to know what it does
        doc = {"openapi": "3.0.3", "info": info, "paths": paths}
        if service.endswith("Service A") and turns == 2:
            del doc["info"]  # invalid OpenAPI: repaired on the next turn
        return json.dumps(doc)
    if "meant to describe" in first:
        document = json.loads(re.search(r"\):\n(\{.*\})\n", first, flags=re.S).group(1))
        if "description" not in document["info"]:
            return json.dumps({"ok": False, "problems": "the document does not say what the service does"})
        return json.dumps({"ok": True, "problems": ""})
    if "Write one task" in first:
        nouns = [re.search(r"the (\w+)\.", desc).group(1) for _, desc in _listing(first)]
        rewritten = any("does not match" in str(m.get("content")) for m in messages)
        if len(nouns) >= 3 and not rewritten:
            nouns = nouns[:-1]
        return json.dumps({"query": "Please take care of the " + ", the ".join(nouns) + "."})
    if "Which endpoints of this list" in first:
        query = re.search(r'Task: "(.*)"', first).group(1)
        words = set(re.findall(r"\w+", query))
        listed = _listing(first)
        needed = [eid for eid, desc in listed if re.search(r"the (\w+)\.", desc).group(1) in words]
        unneeded = [eid for eid, _ in listed if eid not in needed][:1]
        return json.dumps({"endpoints": needed + unneeded})
    if "Is this endpoint necessary" in first:
        query = re.search(r'Task: "(.*)"', first).group(1)
        noun = re.search(r"the (\w+)\.\n", first + "\n").group(1)
        return json.dumps({"answer": "Yes" if noun in set(re.findall(r"\w+", query)) else "No"})
    raise AssertionError(f"unexpected prompt: {first[:80]}")


class HashEmbedder(Embedder):
    """Distinct texts get nearly orthogonal vectors; the same text the same vector."""

    model_id = "test-hash"
    dimensions = 256

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        rows = []
        for text in texts:
            rng = np.random.default_rng(int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big"))
            v = rng.normal(size=self.dimensions)
            rows.append(v / np.linalg.norm(v))
        return np.array(rows, dtype=np.float32)
