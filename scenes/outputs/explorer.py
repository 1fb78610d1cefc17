"""The lecture page's explorable, for examples with 2-D embeddings: each token's vector a
draggable handle on a plane, and beside it, recomputed live, q, k, v, the scores, the softmax
shares and the chosen token's output built tip to tail.

The page computes in JavaScript (``explorer.js``, a small readable module inlined into the page
and allowed by its hash in the Content-Security-Policy); this module writes what it needs: the
example's weights, mask, scale, positional encodings and rotary positions (:data:`FIELDS` says,
for every field of an example, how the page models it or why such an example gets no
explorable, which the page then explains), the videos' colours (the light theme
and the fixed 0–1 weight scale), the words in the page's language and the example as TOML
around its embeddings (``copy as example``). The tests check its numbers against
:mod:`attention_core` on the same input.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import attention_core as ac
from attention_core.example.file_format import toml_string as toml_string  # the one writer
from attention_core.example.file_format import toml_value
from attention_core.example.model import MAX_ABS
from scenes.outputs import html

SCRIPT = (Path(__file__).with_name("explorer.js")).read_text(encoding="utf-8").strip()

WORDS = {
    "title": ("动手试试：拖动向量", "Explore: move the vectors"),
    "hint": (
        "拖动词向量的箭头尖，或按 Tab 选中一个词元、用方向键移动它（按住 Shift 步子更大）。"
        "每个数都随之重新计算，和视频里的计算完全相同。",
        "Drag a token's arrowhead, or press Tab to reach one and move it with the arrow keys "
        "(Shift: bigger steps). Every number is recomputed as you move, exactly as in the videos.",
    ),
    "plane": ("词向量 x（可拖动）", "The embeddings x (drag them)"),
    "keys_hint": ("方向键移动", "arrow keys move it"),
    "vectors": ("每个词元的 x，以及经过本例权重得到的 q、k、v", "Each token's x, and its q, k, v"),
    "vectors_rotary": (
        "每个词元的 x，以及经过本例权重得到的 q、k、v（q 和 k 按位置旋转，即 RoPE）",
        "Each token's x, and its q, k, v (q and k turned by their positions: RoPE)",
    ),
    "skip": ("跳到动手试试", "Skip to the explorable"),
    "none": ("本例没有可拖动的演示：{why}。", "This example has no explorable: {why}."),
    "scores": ("分数 q·k（softmax 前除以 √dₖ = {f}）", "Scores q·k (÷ √dₖ = {f} before softmax)"),
    "scores_unscaled": ("分数 q·k（不缩放）", "Scores q·k (not scaled)"),
    "weights": (
        "注意力权重：每一行把 1 分给各个键（固定的 0–1 色标）",
        "Attention weights: each row shares out 1 (the fixed 0–1 colour scale)",
    ),
    "shares": ("{q} 的份额", "{q}'s shares"),
    "output": ("输出：各个值向量按份额首尾相接", "The output: the values, weighted, tip to tail"),
    "reset": ("复原", "Reset"),
    "copy": ("复制为示例", "Copy as example"),
    "copied": (
        "已复制：存成 .toml 文件，再用 attn-explain render 生成视频。",
        "Copied: save it as a .toml file and run attn-explain render on it.",
    ),
    "copy_failed": (
        "无法访问剪贴板：示例在下面，选中后复制。",
        "The clipboard is not available: the example is below, select and copy it.",
    ),
}


def word(key: str, lang: str) -> str:
    return WORDS[key][0 if lang == "zh" else 1]


# Every field of an Example: (what of it the explorable models, or None; the WHY entry for the
# values it does not model, or None). An example with such a value gets no explorable, and the
# page says why instead. tests/test_lecture_explorer.py checks that this lists exactly the
# Example's fields, that the page agrees with the core on each modelled one, and that each
# refused value is refused.
FIELDS = {
    "tokens": ("the labels of the handles, tables and bars", None),
    "embeddings": ("the handles on the plane", "d_model"),  # 2-D only
    "name": ("nothing to compute (the page's folder)", None),
    "title": ("kept in 'copy as example'", None),
    "heads": ("one head", "heads"),
    "weights": ("W_q, W_k, W_v and their biases", "heads"),  # W_o: a multi-head output map
    "seed": ("the weights it draws, which the page gets", None),
    "d_k": ("the width of the weights the page gets", None),
    "d_v": ("the width of the weights the page gets (o drawn in the plane when 2)", None),
    "head_form": ("one head: both forms give the same head", None),
    "mask": ("blocked cells (−∞ before softmax)", None),
    "padding": ("part of the same mask", None),
    "positional_encoding": ("added to the embeddings before the projections", None),
    "source_tokens": (None, "cross"),
    "source_embeddings": (None, "cross"),
    "scale": ("÷ √d_k or not", None),
    "source": ("a note, kept in 'copy as example'", None),
    "kv_heads": ("with one head it is 1: the same head", None),
    "rotary_base": ("q and k turned by position (RoPE) before the scores", None),
    "positions": ("the positions RoPE turns q and k by", None),
    "query": ("nothing to compute: which query the scenes follow", None),
    "key": ("nothing to compute: which key the scenes follow", None),
    "key_pieces": ("nothing to compute: the pieces of the key word the scenes follow", None),
    "head": ("nothing to compute: which head the single-head scenes explain", None),
    "block": ("not part of attention: the encoder block's own feed-forward", None),
    "model_text": ("a note: the text a model read (from-model)", None),
    "head_scores": ("nothing to compute: each head's model-level scores (from-model)", None),
}

WHY = {
    "d_model": (
        "拖动的是平面上的二维词向量，而本例的 d_model 是 {d}",
        "its handles are 2-D vectors on a plane, and this example's d_model is {d}",
    ),
    "cross": (
        "它演示自注意力，而本例是交叉注意力（有 source_tokens）",
        "it shows self-attention, and this example is cross-attention (it has source_tokens)",
    ),
    "heads": (
        "它一次演示一个头，而本例有 {h} 个头或输出映射 W_o",
        "it shows one head, and this example has {h} heads or an output map W_o",
    ),
}


def why_not(example: ac.Example, lang: str = "en") -> str | None:
    """None when the page can carry the explorable for ``example``, else why not (in ``lang``)."""
    if example.d_model != 2:
        key = "d_model"
    elif example.is_cross:
        key = "cross"
    elif example.heads != 1 or example.weights.W_o is not None:
        key = "heads"
    else:
        return None
    text = WHY[key][0 if lang == "zh" else 1]
    return text.format(d=example.d_model, h=example.heads)


# -- the example as TOML ------------------------------------------------------------------------
def toml_parts(example: ac.Example) -> tuple[str, str]:
    """The example's TOML before and after its embeddings (which the page writes)."""
    d = example.to_dict()
    head = [
        "# An Attention Explainer example, from the lecture page's explorable.",
        "# Render it with: attn-explain render THIS_FILE",
        f"title = {toml_value(d.pop('title'))}",
        f"tokens = {toml_value(d.pop('tokens'))}",
    ]
    d.pop("embeddings")
    tables = {key: d.pop(key) for key in ("weights", "block") if key in d}  # [weights], [block]
    tail = [f"{key} = {toml_value(value)}" for key, value in d.items()]
    for key, table in tables.items():
        tail += ["", f"[{key}]", *(f"{k} = {toml_value(v)}" for k, v in table.items())]
    return "\n".join(head) + "\n", "\n".join(tail) + "\n"


# -- the page's data ----------------------------------------------------------------------------
def _colors() -> dict:
    from scenes.mobjects import theme

    light = theme.LIGHT
    return {
        "heat": theme._VIRIDIS.tolist(),
        "diverging": theme._DIVERGING.tolist(),
        "tokens": [c.to_hex() for c in light.tokens],
        "output": light.output.to_hex(),
        "accent": light.accent.to_hex(),
    }


def _or_none(a):
    return None if a is None else np.asarray(a, dtype=float).tolist()


def data(example: ac.Example, lang: str) -> dict:
    """Everything explorer.js needs (JSON-able)."""
    trace = ac.trace_example(example)
    W_q, W_k, W_v = example.weights.head(0, 1)
    b_q, b_k, b_v = example.weights.head_biases(0, 1)
    head, tail = toml_parts(example)
    words = {key: word(key, lang) for key in WORDS}
    if not example.scale:
        words["scores"] = words["scores_unscaled"]
    return {
        "tokens": list(example.tokens),
        "token_comments": [toml_string(t) for t in example.tokens],
        "embeddings": example.embeddings.tolist(),
        "W_q": _or_none(W_q),
        "W_k": _or_none(W_k),
        "W_v": _or_none(W_v),
        "b_q": _or_none(b_q),
        "b_k": _or_none(b_k),
        "b_v": _or_none(b_v),
        "mask": None if trace.mask is None else np.asarray(trace.mask, dtype=bool).tolist(),
        "scale": bool(example.scale),
        "pe": None if trace.pe is None else trace.pe[: example.n].tolist(),
        "rotary_base": example.rotary_base,
        "positions": _or_none(example.rotary_positions),
        "limit": MAX_ABS,
        "query": int(ac.informative_row(trace.attention.weights)),
        "colors": _colors(),
        "words": words,
        "toml_head": head,
        "toml_tail": tail,
    }


def _json_for_html(value) -> str:
    """JSON that cannot end its <script> element or open a comment: <, > and & as \\u escapes."""
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def data_json(example: ac.Example, lang: str) -> str:
    """The explorable's data as JSON safe inside its ``<script type="application/json">``."""
    return _json_for_html(data(example, lang))


def words(lang: str, example: ac.Example) -> dict:
    """The words of the explorable's HTML (templates/explorer*.html) in ``lang``: the link to
    it, its title, hint and buttons, or why ``example`` has none."""
    out = {key: word(key, lang) for key in ("skip", "title", "hint", "plane", "reset", "copy")}
    why = why_not(example, lang)
    out["none"] = word("none", lang).format(why=why) if why is not None else ""
    return out


def unavailable(example: ac.Example, lang: str) -> str:
    """Where the explorable would be, why this example has none (no script, no data)."""
    return html.render("explorer_none.html", words=words(lang, example))


def section(example: ac.Example, lang: str) -> str:
    """The explorable's HTML (its data inside as JSON; explorer.js draws the rest)."""
    return html.render(
        "explorer.html",
        words=words(lang, example),
        data_json=html.trusted(data_json(example, lang)),
    )


STYLE = """
.explorer { padding: 0.2rem 1.2rem 0.8rem; margin: 1.5rem 0; border: 1px solid #D5DAE1;
            border-radius: 8px; background: #FAFBFC; }
.explorer .hint { color: #4A5260; }
.ex-grid { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; }
.explorer:focus { outline: none; }
.skip { position: absolute; left: -100vw; }
.skip:focus { position: static; display: inline-block; margin: 0.5rem 0; }
.ex-plane-box { margin: 0; flex: 0 1 22rem; min-width: 0; }
.ex-plane-box figcaption { color: #4A5260; font-size: 0.9rem; text-align: center; }
#ex-plane { display: block; box-sizing: border-box; width: 100%; max-width: 22rem; height: auto;
            aspect-ratio: 1 / 1; background: #fff; border: 1px solid #D5DAE1;
            touch-action: none; user-select: none; }
#ex-plane .line { stroke: #E3E7EC; stroke-width: 1; }
#ex-plane .axis { stroke: #5A6270; stroke-width: 1.5; }
#ex-plane .tick { fill: #4A5260; font-size: 11px; font-variant-numeric: tabular-nums; }
#ex-plane .vlabel { font-size: 15px; font-weight: 600; paint-order: stroke;
                    stroke: #fff; stroke-width: 4px; stroke-linejoin: round; }
#ex-plane .handle { cursor: grab; }
#ex-plane .handle .dot { stroke: #fff; stroke-width: 2.5; }
#ex-plane .handle:focus { outline: none; }
#ex-plane .handle:focus .dot { stroke: #111; stroke-width: 3.5; }
#ex-plane .handle:focus .hit { stroke: #111; stroke-width: 1; stroke-dasharray: 3 3; }
#ex-side { flex: 1 1 18rem; min-width: 0; max-width: 100%; overflow-x: auto; }
#ex-side h3 { font-size: 1rem; margin: 0.8rem 0 0.3rem; }
#ex-side table { margin: 0.2rem 0 0.4rem; }
#ex-side td, #ex-side th { padding: 0.15rem 0.45rem; }
.ex-matrix td { min-width: 3.6rem; }
.ex-matrix tr.chosen th:first-child { text-decoration: underline; }
.ex-matrix td.blocked { background: repeating-linear-gradient(45deg, #eee 0 4px, #ddd 4px 8px);
                        color: #777; }
.ex-bars .bar-row { display: flex; align-items: center; gap: 0.5rem; margin: 0.15rem 0; }
.ex-bars .bar-name { width: 4rem; text-align: right; font-weight: 600; overflow: hidden; }
.ex-bars .bar-track { flex: 1; height: 1rem; background: #F1F3F6; border: 1px solid #D5DAE1; }
.ex-bars .bar { display: block; height: 100%; }
.ex-bars .num { width: 4rem; font-variant-numeric: tabular-nums; }
.heat-scale { display: flex; align-items: center; gap: 0.4rem; margin: 0.3rem 0 0 4.5rem;
              color: #4A5260; font-size: 0.85rem; }
.heat-bar { flex: 0 0 12rem; height: 0.6rem; }
.ex-label { margin: 0.5rem 0 0.2rem; }
.ex-output { font-variant-numeric: tabular-nums; }
.ex-buttons button { font: inherit; padding: 0.3rem 0.9rem; margin-right: 0.4rem; }
#ex-status { color: #2E7D32; }
#ex-toml { width: 100%; font-family: monospace; }
.num { font-variant-numeric: tabular-nums; }
.m, #ex-plane .vlabel.m { font-family: "STIX Two Text", "Latin Modern Roman", "Noto Serif",
                          "DejaVu Serif", serif; font-style: italic; }
#ex-side th { font-weight: 600; }
""".strip()

if "</script" in SCRIPT.lower() or "<!--" in SCRIPT:  # it is inlined into the page as is
    raise RuntimeError("explorer.js must not contain '</script' or '<!--'")
