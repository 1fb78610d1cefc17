"""The two examples a lecturer brings that issue 20 is measured on, shared by the layout,
contrast and OCR tests:

- ``at-the-limits``: ``examples/at-the-limits.toml`` (12 tokens, a 12-character label, a
  repeated label, 4 heads, a causal mask);
- ``minilm-layer1``: a trained layer with all 12 heads, ``examples/minilm-cat-layer1.toml`` (and
  its 6.6 MB sidecar of 4 × 384 × 384 attention weights and the layer's own feed-forward,
  384 × 1536 and back, and LayerNorms), exactly what
  ``attn-explain from-model "the cat sat on the mat" --layer 1 --all-heads`` writes
  (tests/test_model.py checks that it still is).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import attention_core as ac
from scenes.kit.registry import SCENES

ROOT = Path(__file__).resolve().parent.parent
LIMITS = ROOT / "examples" / "at-the-limits.toml"
LAYER = ROOT / "examples" / "minilm-cat-layer1.toml"
LAYER_TEXT = "the cat sat on the mat"
# 24 tokens, a real sentence through SmolLM2 (layer 14, head 9, causal, RoPE): it₁ → trophy
TROPHY = ROOT / "examples" / "smollm2-trophy.toml"
NAMES = ("at-the-limits", "minilm-layer1")
ASPECTS = ("16:9", "4:3", "1:1")


@cache
def load(name: str) -> ac.Example:
    if name == "at-the-limits":
        return ac.load_example(LIMITS)
    if name == "minilm-layer1":
        return ac.load_example(LAYER)
    if name == "trophy-24":
        return ac.load_example(TROPHY)
    raise KeyError(name)


def applicable(name: str) -> list:
    """The scenes that apply to the example (the others say why not, as `scenes` does)."""
    ex = load(name)
    return [s for s in SCENES if s.why_not(ex) is None]


def cases(names=NAMES) -> list:
    """pytest params (example name, scene) for every applicable scene of each example."""
    import pytest

    return [
        pytest.param(name, scene, id=f"{name}-{scene.name}")
        for name in names
        for scene in applicable(name)
    ]
