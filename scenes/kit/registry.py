"""The scenes, in teaching order: names, modules and one line each. Importing this is cheap."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from manim import Scene

    from attention_core import Example


def _needs_heads(ex) -> str | None:
    if ex.heads >= 2 or ex.weights.form == "independent":
        return None
    return "needs several heads (heads ≥ 2, or per-head weights)"


def _needs_heads_self(ex) -> str | None:
    return _needs_heads(ex) or (
        "is about self-attention; this example is cross-attention" if ex.is_cross else None
    )


def _needs_source(ex) -> str | None:
    return None if ex.is_cross else "needs a second sequence (source_tokens)"


def _needs_mask(ex) -> str | None:
    return None if ex.mask_matrix is not None else "needs a mask (mask or padding)"


def _needs_self_attention(ex) -> str | None:
    if ex.is_cross:
        return "is about self-attention; this example is cross-attention"
    if ex.n < 2:
        return "needs at least two tokens"
    return None


def _needs_rotary(ex) -> str | None:
    if getattr(ex, "rotary_base", None) is None:
        return "needs rotary positions (rotary_base)"
    return None


def _needs_plain_embeddings(ex) -> str | None:
    """PositionalEncoding adds positions to embeddings that carry none: a trained model's hidden
    states (an example with a `source` note) already carry the model's own; an example with
    rotary positions encodes them by rotation."""
    if getattr(ex, "rotary_base", None) is not None:
        return "this example encodes positions by rotation (rotary_base), not by adding waves"
    if getattr(ex, "rotary_base", None) is not None:
        return "needs an example without rotary positions (RoPE rotates q and k instead)"
    if ex.source:
        return (
            "needs embeddings without positions; a trained model's hidden states already carry "
            "its learned positions"
        )
    return _needs_self_attention(ex)


def _needs_wide_model(ex) -> str | None:
    if getattr(ex, "rotary_base", None) is not None:
        if ex.source:  # a trained decoder's (SmolLM2, a Llama): its block is another block
            return (
                "this example is a decoder layer (pre-norm, RMSNorm, SwiGLU): not an encoder block"
            )
        return "is an encoder block (LayerNorm, ReLU); this example is a decoder's (rotary_base)"
    if ex.is_cross:
        return "is about self-attention; this example is cross-attention"
    if ex.d_model < 4:
        return (
            f"needs d_model ≥ 4 (here {ex.d_model}: LayerNorm of a {ex.d_model}-D token "
            "leaves too little to show)"
        )
    return _needs_own_w_o(ex)


def _needs_own_w_o(ex) -> str | None:
    """The block's attention is the example's own: its W_O back to d_model (or heads that already
    give d_model) and, for a trained layer, the layer's output bias — never a made-up W_O."""
    import attention_core as ac

    weights, seeded = ac.encoder_weights(ex)
    if seeded["W_o"]:
        width = weights["W_v"].shape[1]
        hint = "`attn-explain from-model --all-heads`" if ex.source else "W_o in [weights]"
        return (
            f"needs the attention's own W_O back to d_model (the heads give {width} "
            f"dimensions, d_model is {ex.d_model}; give it with {hint})"
        )
    w = ex.weights
    has_biases = any(b is not None for b in (w.b_q, w.b_k, w.b_v))
    if ex.source and has_biases and w.b_o is None:
        return "needs the layer's own output bias b_o (`attn-explain from-model --all-heads`)"
    return None


def _needs_same_width(ex) -> str | None:
    """HeadMoved adds the head's output ΔE to the token's own vector E: a SmolLM2 file's (the
    model's residual stream and W_O), or an example whose ΔE has E's width."""
    import attention_core as ac
    from attention_core.models.model_residual import decoder_request

    if decoder_request(ex) is not None:
        return None
    if ex.is_cross:
        return "is about a token's own vector; this example is cross-attention"
    tr = ac.trace_example(ex)
    mv = ac.moved_vector(tr)
    if mv.after is None and (ex.source or "").startswith("HuggingFaceTB/SmolLM2"):
        return (
            "needs the text the model read (model_text) to run it again for E: write the file "
            "again with `attn-explain from-model`"
        )
    if mv.after is None:
        return (
            f"needs the head's output in the token's own width (ΔE has {mv.delta.shape[0]} "
            f"dimensions, E {mv.E.shape[0]}; a W_o back to d_model, or a SmolLM2 file from "
            "`attn-explain from-model`)"
        )
    return None


@dataclass(frozen=True)
class SceneInfo:
    name: str
    module: str
    summary: str
    showcase: str = "zao-shang-hao"  # the preset its README still and frame test use
    requires: Callable | None = None  # example -> None when the scene applies, else why not

    def why_not(self, example: Example) -> str | None:
        """None when the scene applies to ``example``, else the reason it does not."""
        return None if self.requires is None else self.requires(example)

    def load(self) -> type[Scene]:
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
        "query, key, value; Q = X·Wq, K = X·Wk, V = X·Wv as maps of the plane",
    ),
    SceneInfo(
        "DotProducts",
        "dot_products",
        "q·k as |q|·|k|·cos θ: the key's shadow on the query, cell by cell",
    ),
    SceneInfo("Scaling", "scaling", "÷√dₖ, and why: the variance of q·k grows with d"),
    SceneInfo("Softmax", "softmax_scene", "exp, then shares of one whole; sharper scores saturate"),
    SceneInfo(
        "WeightedSum",
        "weighted_sum",
        "the output as value vectors shrunk by their weights, tip to tail",
    ),
    SceneInfo(
        "HeadMoved",
        "head_moved",
        "E + ΔE: what one head moved into a token, term by term, read back in words",
        requires=_needs_same_width,
    ),
    SceneInfo(
        "AttentionMatrix",
        "attention_matrix",
        "the weights as a heatmap, read honestly, and the n² cost",
    ),
    SceneInfo("Overview", "overview", "softmax(QKᵀ/√dₖ)·V, each part lit in turn: one video"),
    SceneInfo(
        "MultiHeadSplit",
        "multi_head",
        "heads as subspaces side by side: their own vectors and patterns, concat, WO",
        "two-heads",
        requires=_needs_heads,
    ),
    SceneInfo(
        "HeadGallery",
        "head_gallery",
        "every head of a layer as a small heatmap, each with a reading of what it attends to",
        "two-heads",
        requires=_needs_heads_self,
    ),
    SceneInfo(
        "CausalMask",
        "causal_mask",
        "blocked scores become −∞, their weights exactly 0 (causal or padding mask)",
        "causal",
        requires=_needs_mask,
    ),
    SceneInfo(
        "PositionalEncoding",
        "positional",
        "sinusoidal waves, PE added as vectors, and why: order matters only with PE",
        requires=_needs_plain_embeddings,
    ),
    SceneInfo(
        "RotaryPositions",
        "rotary_positions",
        "RoPE: q and k of one pair of dimensions turned by their positions; move both, the "
        "score stays",
        "rotary",
        requires=_needs_rotary,
    ),
    SceneInfo(
        "EncoderBlock",
        "encoder_block",
        "attention inside the block: residual + LayerNorm, feed-forward, again",
        "two-heads",
        requires=_needs_wide_model,
    ),
    SceneInfo(
        "CrossAttention",
        "cross_attention",
        "queries from one sequence, keys and values from another: a rectangular matrix",
        "cross-zh-en",
        requires=_needs_source,
    ),
)

BY_NAME = {s.name: s for s in SCENES}


def applicable(example: Example) -> list[SceneInfo]:
    """The scenes that apply to ``example``, in teaching order (what `render` does by default)."""
    return [s for s in SCENES if s.why_not(example) is None]


def find(name: str) -> SceneInfo:
    """The scene called ``name`` (case-insensitive), or ValueError listing the known ones."""
    for s in SCENES:
        if s.name.lower() == name.lower():
            return s
    import difflib

    close = difflib.get_close_matches(name, list(BY_NAME), n=1, cutoff=0.5)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise ValueError(f"--scene: unknown scene {name!r}; {hint}known scenes: " + ", ".join(BY_NAME))
