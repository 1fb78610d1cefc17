"""The numeric walk-through of an example, as a readable table, Markdown or JSON.

Pure formatting of an :class:`attention_core.ExampleTrace`: no computation happens here.
"""

from __future__ import annotations

import dataclasses
import json
import math
import unicodedata

import numpy as np

import attention_core as ac
from attention_core import ExampleTrace
from scenes.mobjects.numfmt import DIGITS, fmt


# -- values ---------------------------------------------------------------------------------------
def display_width(s: str) -> int:
    """Terminal columns of ``s``: East Asian wide characters take two."""
    return sum(
        2 if unicodedata.east_asian_width(c) in "WF" else 0 if unicodedata.combining(c) else 1
        for c in s
    )


def _pad(s: str, width: int, right=True) -> str:
    gap = " " * max(0, width - display_width(s))
    return gap + s if right else s + gap


MAX_COLUMNS = 12  # wider tables (d_model 384 from a real model) show their first and last columns
HEAD_COLUMNS, TAIL_COLUMNS = 6, 2
ELIDED = "…"


def shown_columns(matrix, cols) -> tuple[list, list, int]:
    """The columns a table shows: all up to :data:`MAX_COLUMNS`, else the first six, a "…"
    column and the last two. Returns (rows of cell values or None for "…", column labels,
    number of columns elided). ``--json`` always gives every number."""
    rows = [list(r) for r in np.asarray(matrix)]
    if len(cols) <= MAX_COLUMNS:
        return rows, list(cols), 0
    keep = lambda r: list(r[:HEAD_COLUMNS]) + [None] + list(r[-TAIL_COLUMNS:])  # noqa: E731
    return (
        [keep(r) for r in rows],
        keep(cols)[:HEAD_COLUMNS] + [ELIDED] + list(cols[-TAIL_COLUMNS:]),
        len(cols) - HEAD_COLUMNS - TAIL_COLUMNS,
    )


def _elided_note(shape, hidden: int) -> str:
    if not hidden:
        return ""
    first = HEAD_COLUMNS + 1
    return f"; columns {first}–{first + hidden - 1} elided, --json gives every number"


def _cell(v, digits) -> str:
    return ELIDED if v is None else fmt(v, digits)


# -- the steps ------------------------------------------------------------------------------------
def _dims(prefix: str, width: int) -> list[str]:
    return [f"{prefix}{j + 1}" for j in range(width)]


def steps(trace: ExampleTrace):
    """The walk-through as (title, matrix, row labels, column labels) blocks, in order."""
    ex = trace.example
    q_labels, k_labels = list(ex.tokens), list(ex.key_tokens)
    blocks = [
        (
            "X — embeddings" + (" + positional encoding" if trace.pe is not None else ""),
            trace.X,
            q_labels,
            _dims("x", trace.X.shape[1]),
        )
    ]
    if ex.is_cross:
        blocks.append(
            (
                "source — keys and values come from this sequence",
                trace.source,
                k_labels,
                _dims("x", trace.source.shape[1]),
            )
        )
    for h in range(len(trace.heads)):
        blocks += _head_blocks(trace, h, q_labels, k_labels)
    return blocks + _mixing_blocks(trace, q_labels)


def _head_blocks(trace: ExampleTrace, h: int, q_labels: list, k_labels: list) -> list:
    """The blocks of head ``h``: Q, K, V, scores, scaled, masked, weights, output."""
    head, n = trace.heads[h], len(trace.heads)
    tag = f"head {h + 1}: " if n > 1 else ""
    b_q, b_k, b_v = (
        "" if b is None else f" + b_{r}"
        for b, r in zip(trace.example.weights.head_biases(h, n), "qkv")
    )
    scaled = (
        f"{tag}scaled = scores / √d_k (√{head.d_k} = {math.sqrt(head.d_k):.3f})"
        if head.scale != 1.0
        else f"{tag}scaled = scores (unscaled)"
    )
    # with rotary positions Q and K are turned by their positions (RoPE) before the scores
    q_def, k_def = f"X·W_q{b_q}", f"X·W_k{b_k}"
    if getattr(trace.example, "rotary_base", None) is not None:
        q_def, k_def = f"rot(X·W_q{b_q}, position)", f"rot(X·W_k{b_k}, position)"
    blocks = [
        (f"{tag}Q = {q_def}", head.Q, q_labels, _dims("q", head.Q.shape[1])),
        (f"{tag}K = {k_def}", head.K, k_labels, _dims("k", head.K.shape[1])),
        (f"{tag}V = X·W_v{b_v}", head.V, k_labels, _dims("v", head.V.shape[1])),
        (f"{tag}scores = Q·Kᵀ (row: query, column: key)", head.scores, q_labels, k_labels),
        (scaled, head.scaled, q_labels, k_labels),
    ]
    if head.mask is not None:
        blocks.append((f"{tag}masked (−∞ = blocked)", head.masked, q_labels, k_labels))
    weights = f"{tag}weights = softmax(masked) — each row sums to 1"
    return [
        *blocks,
        (weights, head.weights, q_labels, k_labels),
        (f"{tag}output = weights·V", head.output, q_labels, _dims("o", head.output.shape[1])),
    ]


def _mixing_blocks(trace: ExampleTrace, q_labels: list) -> list:
    """Multi-head: the concatenated heads and, with W_o, the mixed output."""
    mh = trace.multihead
    if mh is None:
        return []
    blocks = [("concat = [head 1 … head H]", mh.concat, q_labels, _dims("c", mh.concat.shape[1]))]
    if mh.W_o is not None:
        b_o = "" if trace.example.weights.b_o is None else " + b_o"
        blocks.append(
            (f"output = concat·W_o{b_o}", mh.output, q_labels, _dims("o", mh.output.shape[1]))
        )
    return blocks


def header_lines(trace: ExampleTrace) -> list[str]:
    ex = trace.example
    w = ex.weights
    head = trace.attention
    lines = [
        f"Attention walk-through: {ex.title or ex.name} ({ex.name})",
        "tokens: " + " ".join(ex.tokens),
    ]
    if ex.is_cross:
        lines.append("source tokens: " + " ".join(ex.source_tokens))
    if ex.source:
        lines.append("from: " + ex.source)
    lines.append(
        f"d_model = {ex.d_model}, d_k = {head.d_k}, d_v = {head.V.shape[1]}, "
        f"heads = {len(trace.heads)}"
    )
    if w.form == "identity":
        turned = ex.rotary_base is not None
        lines.append(
            "weights: identity, so " + ("Q = K = X turned, V = X" if turned else "Q = K = V = X")
        )
    elif w.seed is not None:
        lines.append(f"weights: random standard normal, seed = {w.seed} ({w.form} form)")
    else:
        biased = ", with biases" if w.has_bias else ""
        lines.append(f"weights: given ({w.form} form{biased})")
    lines += _decoder_lines(ex)
    if trace.mask is not None:
        lines.append(
            "mask: "
            + (ex.mask if isinstance(ex.mask, str) else "explicit")
            + (" + padding" if ex.padding is not None else "")
        )
    return lines


def _decoder_lines(ex) -> list[str]:
    """Shared key/value heads and rotary positions, when the example has them."""
    lines = []
    if ex.weights.kv_heads is not None:
        lines.append(f"key/value heads: {ex.weights.kv_heads}, each shared by "
                     f"{ex.heads // ex.weights.kv_heads} query heads")  # fmt: skip
    if ex.rotary_base is not None:
        pos = " ".join(str(int(p)) for p in ex.rotary_positions)
        lines.append(f"rotary positions: base {ex.rotary_base:g}, positions {pos}; Q and K "
                     "are turned by their positions before the scores")  # fmt: skip
    return lines


# -- text -----------------------------------------------------------------------------------------
def as_text(trace: ExampleTrace, digits: int = DIGITS) -> str:
    out = header_lines(trace)
    for title, matrix, rows, all_cols in steps(trace):
        values, cols, hidden = shown_columns(matrix, all_cols)
        cells = [[_cell(v, digits) for v in row] for row in values]
        label_w = max(display_width(r) for r in rows)
        col_w = max([display_width(c) for c in cols] + [len(c) for r in cells for c in r])
        out += [
            "",
            f"{title}  ({matrix.shape[0]} × {matrix.shape[1]}{_elided_note(matrix.shape, hidden)})",
            " " * label_w + "  " + "  ".join(_pad(c, col_w) for c in cols),
        ]
        for label, row in zip(rows, cells):
            out.append(
                _pad(label, label_w, right=False) + "  " + "  ".join(_pad(c, col_w) for c in row)
            )
    return "\n".join(out) + "\n"


# -- markdown -------------------------------------------------------------------------------------
_MD_SPECIAL = set("\\`*_[]|~")


def md_escape(s: str) -> str:
    """Escape a user string for a Markdown table cell: pipes, emphasis, HTML all inert."""
    out = []
    for c in s:
        if c in "<>&\"'":
            out.append({"<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&#39;"}[c])
        elif c in _MD_SPECIAL:
            out.append("\\" + c)
        else:
            out.append(c)
    return "".join(out)


def as_markdown(trace: ExampleTrace, digits: int = DIGITS) -> str:
    head, *rest = header_lines(trace)
    out = [f"# {md_escape(head)}", ""] + [f"- {md_escape(line)}" for line in rest]
    for title, matrix, rows, all_cols in steps(trace):
        values, cols, hidden = shown_columns(matrix, all_cols)
        note = f" ({matrix.shape[0]} × {matrix.shape[1]}{_elided_note(matrix.shape, hidden)})"
        out += [
            "",
            f"## {md_escape(title)}" + (md_escape(note) if hidden else ""),
            "",
            "| | " + " | ".join(md_escape(c) for c in cols) + " |",
            "|---|" + "---:|" * len(cols),
        ]
        for label, row in zip(rows, values):
            out.append(
                f"| {md_escape(label)} | " + " | ".join(_cell(v, digits) for v in row) + " |"
            )
    return "\n".join(out) + "\n"


# -- html -----------------------------------------------------------------------------------------
def html_values(trace: ExampleTrace, digits: int = DIGITS, say=None) -> dict:
    """What templates/numbers.html shows: the header lines and each step's table, as text (the
    template escapes every one). ``say`` (optional) rewrites each header line and title, e.g.
    in Chinese (:mod:`.numbers_zh`)."""
    say = say or (lambda text: text)
    head, *rest = (say(line) for line in header_lines(trace))
    tables = []
    for title, matrix, rows, all_cols in steps(trace):
        values, cols, hidden = shown_columns(matrix, all_cols)
        note = f" ({matrix.shape[0]} × {matrix.shape[1]}{_elided_note(matrix.shape, hidden)})"
        tables.append(
            {
                "title": say(title + (note if hidden else "")),
                "cols": cols,
                "rows": [
                    (label, [_cell(v, digits) for v in row]) for label, row in zip(rows, values)
                ],
            }
        )
    return {"head": head, "lines": rest, "tables": tables}


def as_html(trace: ExampleTrace, digits: int = DIGITS, say=None) -> str:
    """The walk-through as HTML tables (a fragment; every user string escaped by the template)."""
    from scenes.outputs import html

    return html.render("numbers.html", numbers=html_values(trace, digits, say))


# -- json -----------------------------------------------------------------------------------------
def _floats(a) -> list:
    return np.asarray(a, dtype=np.float64).tolist()


def _masked(a) -> list:
    """−inf (blocked) becomes null: JSON has no infinity."""
    return [[None if math.isinf(v) else float(v) for v in row] for row in np.asarray(a)]


def _reading(head, tokens, scores=None) -> dict | None:
    """A self-attention head's reading (attention_core.read_head: the one classifier), by its
    model-level ``scores`` where the example carries them."""
    from attention_core import read_head

    if head.weights.shape[0] != head.weights.shape[1] or len(tokens) != head.weights.shape[0]:
        return None
    r = read_head(head.weights, tokens, scores)
    out = {"pattern": r.pattern, "mass": r.mass, "text": r.text}
    if scores is not None:
        out["scores"] = dataclasses.asdict(scores)
    if r.key is not None:
        out["key"], out["token"] = r.key, r.token
    return out


def _head_dict(head, tokens=(), scores=None) -> dict:
    return {
        "reading": _reading(head, tokens, scores),
        "Q": _floats(head.Q),
        "K": _floats(head.K),
        "V": _floats(head.V),
        "scores": _floats(head.scores),
        "scaled": _floats(head.scaled),
        "masked": _masked(head.masked),
        "weights": _floats(head.weights),
        "output": _floats(head.output),
        "d_k": head.d_k,
    }


def as_dict(trace: ExampleTrace) -> dict:
    """The walk-through as one JSON-ready object (full float precision).

    With several heads the top-level ``scores``/``scaled``/``masked``/``weights`` are the average
    over heads (as PyTorch's ``average_attn_weights=True``), Q/K/V the heads side by side, and each
    head's own numbers are under ``heads``.
    """
    ex = trace.example
    w = ex.weights
    out: dict = {"example": ex.name, "title": ex.title, "tokens": list(ex.tokens)}
    if ex.source:
        out["source"] = ex.source
    if ex.is_cross:
        out["source_tokens"] = list(ex.source_tokens)
        out["source"] = _floats(trace.source)
    out["X"] = _floats(trace.X)
    if trace.pe is not None:
        out["positional_encoding"] = _floats(trace.pe[: ex.n])
    if w.seed is not None:
        out["seed"] = w.seed
    out["weights_form"] = w.form
    out["W_q"], out["W_k"], out["W_v"] = _floats(w.W_q), _floats(w.W_k), _floats(w.W_v)
    if w.W_o is not None:
        out["W_o"] = _floats(w.W_o)
    for b in ("b_q", "b_k", "b_v", "b_o"):
        if getattr(w, b) is not None:
            out[b] = _floats(getattr(w, b))
    out["mask"] = None if trace.mask is None else trace.mask.tolist()
    heads = trace.heads
    if len(heads) == 1 and trace.multihead is None:
        scores = ac.example_head_scores(ex, 0)
        out.update(_head_dict(heads[0], () if ex.is_cross else ex.tokens, scores))
    else:
        out["Q"] = _floats(np.concatenate([h.Q for h in heads], axis=1))
        out["K"] = _floats(np.concatenate([h.K for h in heads], axis=1))
        out["V"] = _floats(np.concatenate([h.V for h in heads], axis=1))
        for key in ("scores", "scaled", "weights"):
            out[key] = _floats(np.mean([getattr(h, key) for h in heads], axis=0))
        out["masked"] = _masked(np.mean([h.masked for h in heads], axis=0))
        out["output"] = _floats(trace.output)
        out["d_k"] = heads[0].d_k
        tokens = () if ex.is_cross else ex.tokens
        out["heads"] = [_head_dict(h, tokens, ac.example_head_scores(ex, i))
                        for i, h in enumerate(heads)]  # fmt: skip
        out["concat"] = _floats(trace.multihead.concat)
    out["followed"] = _followed(trace)
    out["moved"] = _moved(trace)
    return out


def _followed(trace: ExampleTrace) -> dict:
    """The query and key an explanation follows (attention_core.followed_pair), the head
    (counted from 1) whose pair it is (the example's ``head``, else the first), the key's
    pieces (a key word cut into pieces: ``key_pieces``; else the key alone), the pair's
    weight (summed over the pieces), and what it moves (attention_core.readings.moved):
    ``moved`` = ‖Σ α · v · W_Oʰ‖ over the pieces (‖Σ α · v‖ without W_O) and ``moved_share``,
    its share of the row's Σⱼ ‖αⱼ · vⱼ · W_Oʰ‖."""
    from attention_core import followed_pair
    from attention_core.readings.moved import trace_moved

    pair = followed_pair(trace)
    h = trace.example.head_index
    out = {"query": pair.query, "key": pair.key, "kind": pair.kind, "head": h + 1}
    out["key_pieces"] = list(pair.pieces)
    out["weight"] = pair.weight(trace.heads[h].weights)
    moved = trace_moved(trace, h, pair.query, pair.pieces)
    out["moved"], out["moved_share"] = moved.size, moved.share
    return out


def _moved(trace: ExampleTrace) -> dict:
    """What the followed head moved into the followed query (attention_core.moved_vector): E, ΔE
    (= Σⱼ αᵢⱼ · vⱼ · W_Oʰ), E + ΔE (null where the widths differ), each key's ‖term‖, and for a
    SmolLM2 file the readout in words (null otherwise): the top 5 tokens of E and of E + ΔE with
    their probabilities, what ΔE pushes up with its logit change, the followed key's token and
    ``says_little`` (null, "fragments" or "unchanged": then the readout supports no claim)."""
    from attention_core import moved_vector

    mv = moved_vector(trace)
    out = {"query": mv.query, "key": mv.key, "head": mv.head + 1, "E_is": mv.source}
    out["E"], out["delta"] = _floats(mv.E), _floats(mv.delta)
    out["after"] = None if mv.after is None else _floats(mv.after)
    out["terms"] = [{"key": j, "norm": float(x)} for j, x in enumerate(mv.norms)]
    r = mv.readout
    out["readout"] = None
    if r is not None:
        out["readout"] = {
            "before": [[t, p] for t, p in r.before],
            "after": [[t, p] for t, p in r.after],
            "pushed": [[t, x] for t, x in r.pushed],
            "key": {
                "token": r.key_label,
                "rank_before": r.key_rank_before,
                "rank_after": r.key_rank_after,
                "change": r.key_change,
                "pushed": r.key_pushed,
            },
            "says_little": r.says_little,
        }
    return out


def as_json(trace: ExampleTrace) -> str:
    return json.dumps(as_dict(trace), ensure_ascii=False, indent=1, allow_nan=False) + "\n"
