"""The scenes, in teaching order: names, modules and one line each. Importing this is cheap."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module


@dataclass(frozen=True)
class SceneInfo:
    name: str
    module: str
    summary: str
    showcase: str = "zao-shang-hao"  # the preset its README still and frame test use

    def load(self):
        """The Manim Scene class (imports Manim)."""
        return getattr(import_module(f"scenes.{self.module}"), self.name)

    @property
    def path(self) -> str:
        return f"scenes/{self.module}.py"


SCENES: tuple[SceneInfo, ...] = (
    SceneInfo("Embeddings", "embeddings", "the tokens as arrows on a coordinate plane"),
    SceneInfo(
        "Projections",
        "projections",
        "query, key, value; Q = X·W_q, K = X·W_k, V = X·W_v as maps of the plane",
    ),
    SceneInfo(
        "DotProducts",
        "dot_products",
        "q·k as |q|·|k|·cos θ: the key's shadow on the query, cell by cell",
    ),
    SceneInfo("Scaling", "scaling", "÷√d_k, and why: the variance of q·k grows with d"),
    SceneInfo("Softmax", "softmax_scene", "exp, then shares of one whole; sharper scores saturate"),
    SceneInfo(
        "WeightedSum",
        "weighted_sum",
        "the output as value vectors shrunk by their weights, tip to tail",
    ),
    SceneInfo(
        "AttentionMatrix",
        "attention_matrix",
        "the weights as a heatmap, read honestly, and the n² cost",
    ),
    SceneInfo("Overview", "overview", "softmax(QKᵀ/√d_k)·V, each part lit in turn: one video"),
    SceneInfo(
        "MultiHeadSplit",
        "multi_head",
        "heads as subspaces side by side: their own vectors and patterns, concat, W_O",
        "two-heads",
    ),
    SceneInfo(
        "CausalMask",
        "causal_mask",
        "blocked scores become −∞, their weights exactly 0 (causal or padding mask)",
        "causal",
    ),
    SceneInfo(
        "PositionalEncoding",
        "positional",
        "sinusoidal waves, PE added as vectors, and why: order matters only with PE",
    ),
    SceneInfo(
        "EncoderBlock",
        "encoder_block",
        "attention inside the block: residual + LayerNorm, feed-forward, again",
        "two-heads",
    ),
    SceneInfo(
        "CrossAttention",
        "cross_attention",
        "queries from one sequence, keys and values from another: a rectangular matrix",
        "cross-zh-en",
    ),
)

BY_NAME = {s.name: s for s in SCENES}


def find(name: str) -> SceneInfo:
    """The scene called ``name`` (case-insensitive), or ValueError listing the known ones."""
    for s in SCENES:
        if s.name.lower() == name.lower():
            return s
    import difflib

    close = difflib.get_close_matches(name, list(BY_NAME), n=1, cutoff=0.5)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise ValueError(f"--scene: unknown scene {name!r}; {hint}known scenes: " + ", ".join(BY_NAME))
