"""Speaker notes: for every step, its caption in the lecture language, the same caption in the
other language, and the numbers the step shows — each looked up in the core by its role.

A render records in each step's record the roles of the numbers on screen at its end and the
caption in the other language (:mod:`scenes.pipeline.step_notes`); the notes text is made here
from those roles with :func:`scenes.kit.roles.resolve`, so every number in a note is the core's,
never a typed one. The slide deck carries the notes (manim-slides' ``notes``: reveal.js's
speaker view, key S, and PowerPoint's notes pane); the lecture page lists them under each step.
"""

from __future__ import annotations

import dataclasses
import re

import attention_core as ac
from scenes.kit import captions
from scenes.mobjects.numfmt import fmt
from scenes.mobjects.token_text import Token
from scenes.pipeline.step_notes import complete, other_lang

__all__ = ["as_markdown", "complete", "from_markdown", "number_lines", "other_lang", "step_note"]

NOTE_DIGITS = 3  # decimals in the notes (the screen may show fewer)

# kind → (English, Chinese, what each index but the last names): the numbers of one role kind
# that differ only in their last index are one line, e.g. "weights of 早: 0.359, 0.330, 0.312".
# Index letters: h head, q query token, k key token, t token, w weight matrix (row), f factor,
# s a name (shown as is), e a sample of the variance experiment (its d), _ not shown.
ROWS = {
    "X": ("x({t})", "x({t})", "t"),
    "embeddings": ("embedding of {t}", "{t} 的嵌入", "t"),
    "source": ("source x({k})", "源序列 x({k})", "k"),
    "Q": ("q({q})", "q({q})", "hq"),
    "K": ("k({k})", "k({k})", "hk"),
    "V": ("v({k})", "v({k})", "hk"),
    # X W as the maps give it (before RoPE turns q and k); K's and V's block is a key/value head's
    "Q_map": ("x({q}) W_q", "x({q}) W_q", "hq"),
    "K_map": ("x({k}) W_k", "x({k}) W_k", "hk"),
    "V_map": ("x({k}) W_v", "x({k}) W_v", "hk"),
    "scores": ("scores of q({q})", "q({q}) 的分数", "hq"),
    "scores_row": ("scores of q({q})", "q({q}) 的分数", "hq_"),  # the row drawn alone
    "scaled": ("scores ÷ √dₖ of q({q})", "q({q}) 的分数 ÷ √dₖ", "hq"),
    "masked": ("masked scores of q({q})", "q({q}) 遮蔽后的分数", "hq"),
    "weights": ("weights of {q}", "{q} 的权重", "hq"),
    "output": ("o({q})", "o({q})", "hq"),
    "residual": ("x({q}) + o({q})", "x({q}) + o({q})", "hq"),
    "tip": ("chain of o({q}), start of v({k})", "o({q}) 的链, v({k}) 的起点", "hqk"),
    "concat": ("heads joined, {t}", "拼接的各头, {t}", "t"),
    "final": ("output of {t}", "{t} 的输出", "t"),
    "W_q": ("W_q row {w}", "W_q 第 {w} 行", "hw"),
    "W_k": ("W_k row {w}", "W_k 第 {w} 行", "hw"),
    "W_v": ("W_v row {w}", "W_v 第 {w} 行", "hw"),
    "W_o": ("W_o row {w}", "W_o 第 {w} 行", "w"),
    "exp": ("e^s of q({q})", "q({q}) 的 e^s", "hq"),
    "exp_plain": ("e^s (unshifted) of q({q})", "q({q}) 的 e^s（未平移）", "hq"),
    "exp_scaled": ("e^s of q({q})", "q({q}) 的 e^s", "hq"),
    "exp_plain_scaled": ("e^s of q({q})", "q({q}) 的 e^s", "hq"),
    "sharpened": ("weights of {q}, scores ×{f}", "{q} 的权重，分数 ×{f}", "hqf"),
    "sharpened_scaled": ("weights of {q}, scores ×{f}", "{q} 的权重，分数 ×{f}", "hqf"),
    "gradient": ("s(1 − s) of {q}, scores ×{f}", "{q} 的 s(1 − s)，分数 ×{f}", "hqf"),
    "enc": ("{s} of {t}", "{t} 的 {s}", "st"),
    "row64_score_raw": ("d = 64, unscaled: scores", "d = 64，不缩放：分数", ""),
    "row64_score_scaled": ("d = 64, ÷√64: scores", "d = 64，÷√64：分数", ""),
    "row64_weight_raw": ("d = 64, unscaled: weights", "d = 64，不缩放：权重", ""),
    "row64_weight_scaled": ("d = 64, ÷√64: weights", "d = 64，÷√64：权重", ""),
    "illustrative": ("illustrative weights, row {w}", "示意权重，第 {w} 行", "_w"),
    "illustrative_qk": ("illustrative {s}, row {w}", "示意 {s}，第 {w} 行", "_sw"),
}
# kinds shown one number a line: kind → (English, Chinese, index letters)
SINGLES = {
    "norm_q": ("‖q({q})‖", "‖q({q})‖", "hq"),
    "norm_k": ("‖k({k})‖", "‖k({k})‖", "hk"),
    "norm_x": ("‖x({t})‖", "‖x({t})‖", "t"),
    "cos": ("cos(q({q}), k({k}))", "cos(q({q}), k({k}))", "hqk"),
    "angle_deg": ("angle of q({q}), k({k}) in degrees", "q({q}) 与 k({k}) 的夹角（度）", "hqk"),
    "shadow": ("k({k})'s shadow on q({q})", "k({k}) 在 q({q}) 上的投影", "hqk"),
    "sqrt_dk": ("√dₖ", "√dₖ", "h"),
    "d_k": ("dₖ", "dₖ", "h"),
    "rowsum": ("sum of the weights of {q}", "{q} 的权重之和", "hq"),
    "word_weight": (
        "weight of {q} on the key word (its pieces summed)",
        "{q} 给键词（各词元之和）的权重",
        "hq",
    ),
    "exp_sum": ("sum of e^s of q({q})", "q({q}) 的 e^s 之和", "hq"),
    "gradient_sum": ("Σ s(1 − s) of {q}, scores ×{f}", "{q} 的 Σ s(1 − s)，分数 ×{f}", "hqf"),
    "gradient_sum_scaled": (
        "Σ s(1 − s) of {q}, scores ×{f}",
        "{q} 的 Σ s(1 − s)，分数 ×{f}",
        "hqf",
    ),
    "share_others": ("share of {q} from the other tokens", "{q} 来自其他词元的份额", "hq"),
    "row64_max_raw": ("d = 64, unscaled: largest weight", "d = 64，不缩放：最大权重", ""),
    "row64_max_scaled": ("d = 64, ÷√64: largest weight", "d = 64，÷√64：最大权重", ""),
    "row64_saturation_raw": ("d = 64, unscaled: Σ s(1 − s)", "d = 64，不缩放：Σ s(1 − s)", ""),
    "row64_saturation_scaled": ("d = 64, ÷√64: Σ s(1 − s)", "d = 64，÷√64：Σ s(1 − s)", ""),
    "kept_pct": ("% of the spread this view keeps", "此视图保留的方差百分比", "s"),
    "cells": ("cells of the score matrix", "分数矩阵的格子数", ""),
    "work": ("multiplications", "乘法次数", ""),
    "cells_at": ("cells at n = {s}", "n = {s} 时的格子数", "s"),
    "head_mass": (
        "head {h}: the average share on its habit or resting place",
        "第 {h} 个头：习惯或停放处的平均份额",
        "h",
    ),
    "head_score": ("head {h}: its model-level score", "第 {h} 个头：模型层面的得分", "h"),
    "shuffle_diff": ("change after shuffling ({s})", "打乱顺序后的变化（{s}）", "s"),
    "seed": ("seed ({s})", "随机种子（{s}）", "s"),
    "variance_raw": ("variance of q·k at d = {e}", "d = {e} 时 q·k 的方差", "e"),
    "variance_scaled": ("variance of q·k ÷ √d at d = {e}", "d = {e} 时 q·k ÷ √d 的方差", "e"),
    "rotary": ("{s}", "{s}", "s"),  # RotaryPositions: a field of the core's rotary view
    "rotary_pair": ("drawn pair {e}: {s}", "所画的第 {e} 对维度：{s}", "es"),
    "share_others_pct": (
        "% of {q} from the other tokens",
        "{q} 来自其他词元的百分比",
        "hq",
    ),
    "moved": ("how far o({q}) moves x({q})", "o({q}) 把 x({q}) 移动的距离", "hq"),
    "norm_output": ("‖o({q})‖", "‖o({q})‖", "hq"),
    "pair_row": ("the followed row: {s}", "所跟随的那一行：{s}", "hs"),
    # HeadMoved (attention_core.moved_vector): E, the terms tⱼ, ΔE and the readout
    "moved_norm": ("‖tⱼ‖, the term of {k} in ΔE({q})", "ΔE({q}) 中 {k} 那一项的长度 ‖tⱼ‖", "hqk"),
    "moved_rest_norm": ("‖the other terms' sum‖ in ΔE({q})", "ΔE({q}) 中其余各项之和的长度", "hq"),
    "moved_before": (
        "E({q}) read out: probability of token {w}",
        "读出 E({q})：第 {w} 个词元的概率",
        "hqw",
    ),
    "moved_after_p": (
        "E + ΔE({q}) read out: probability of token {w}",
        "读出 E + ΔE({q})：第 {w} 个词元的概率",
        "hqw",
    ),
    "moved_pushed": (
        "ΔE({q}): logit change of the token it pushes up {w}. most",
        "ΔE({q})：推高第 {w} 多的词元的对数几率变化",
        "hqw",
    ),
    "moved_key_rank": (
        "rank of the followed key's token ({w} = 1: E({q}), 2: E + ΔE)",
        "所跟随的键的词元的排名（{w} = 1：E({q})，2：E + ΔE）",
        "hqw",
    ),
    "moved_key_change": (
        "ΔE({q}): logit change of the followed key's token",
        "ΔE({q})：所跟随的键的词元的对数几率变化",
        "hq",
    ),
    "moved_layer": ("the layer E enters", "E 进入的层", ""),
}


# the names a role passes (an index letter s) → (English, Chinese): a Chinese note says them in
# Chinese (or as the scene's math), never as the English name in the code
NAMES = {
    # PositionalEncoding's shuffle check
    "without": ("without positional encoding", "不加位置编码"),
    "with": ("with positional encoding", "加上位置编码"),
    # the seeds of illustrative weights
    "illustrative": ("illustrative weights", "示意权重"),
    "ffn": ("feed-forward weights W₁, W₂", "前馈层权重 W₁、W₂"),
    # EncoderBlock's matrices, as its formulas name them
    "X": ("X", "X"),
    "attention": ("attention output A", "注意力输出 A"),
    "residual1": ("X + A", "X + A"),
    "norm1": ("H, normalised X + A", "H（X + A 归一化）"),
    "ff_relu": ("ReLU(H W₁)", "ReLU(H W₁)"),
    "ff_out": ("F = ReLU(H W₁) W₂", "F = ReLU(H W₁) W₂"),
    "residual2": ("H + F", "H + F"),
    "output": ("Y, normalised H + F", "Y（H + F 归一化）"),
    # RotaryPositions (attention_core.readings.rotary_view.RotaryView's fields)
    "frequency": ("ω, radians per position", "ω（每个位置转过的弧度）"),
    "degrees": ("ω, degrees per position", "ω（每个位置转过的度数）"),
    "angle_m": ("the query's turn m·ω, degrees", "查询转过的角度 m·ω（度）"),
    "angle_n": ("the key's turn n·ω, degrees", "键转过的角度 n·ω（度）"),
    "score": ("score rot(q, m) · rot(k, n)", "分数 rot(q, m) · rot(k, n)"),
    "term": ("this pair's part of the score", "这一对维度在分数中的贡献"),
    "score_shifted": ("score after moving both", "两者都移动后的分数"),
    "term_shifted": ("this pair's part after moving both", "两者都移动后这一对的贡献"),
    "fastest": ("ω of the fastest pair", "最快一对的 ω"),
    "slowest": ("ω of the slowest pair", "最慢一对的 ω"),
    # the followed pair's row (attention_core.PairRow's counts)
    "before": ("tokens before the query it may see", "查询能看到的它之前的词元数"),
    "seen": ("keys the query may see", "查询能看到的键数"),
    "rank": ("rank of the pair's score in its row", "这一对的分数在该行的名次"),
}


@dataclasses.dataclass(frozen=True)
class Line:
    """One line of numbers: what they are (in the lecture language), their values and, for a
    row, the last index of each (the line lists them in index order)."""

    label: str
    values: tuple[float, ...]
    digits: int
    columns: tuple = ()

    def text(self) -> str:
        order = list(range(len(self.values)))
        if self.columns:
            order.sort(key=lambda k: self.columns[k])
        complete = sorted(self.columns) == list(range(len(self.columns)))
        shown = [fmt(self.values[k], self.digits) for k in order]
        if self.columns and not complete:  # a part of a row: say which entries
            shown = [f"[{self.columns[k] + 1}] {v}" for k, v in zip(order, shown)]
        return f"{self.label}: " + ", ".join(shown)


# -- the notes ---------------------------------------------------------------------------------
def _tokens(trace: ac.ExampleTrace, letter: str) -> list[str]:
    ex = trace.example
    if letter == "k" and ex.is_cross:
        return list(ex.source_tokens)
    return list(ex.tokens)


def _fill(
    template: str, letters: str, args: tuple, trace: ac.ExampleTrace, lang: str = "en"
) -> str | None:
    """The template with each index named: tokens by label, heads only when there are several."""
    names = {}
    if len(args) != len(letters):
        return None
    for letter, a in zip(letters, args):
        if letter in "qkt":
            tokens = _tokens(trace, letter)
            if not isinstance(a, int) or not 0 <= a < len(tokens):
                return None
            names[letter] = Token(tokens[a])  # named as a caption names it: “。”
        elif letter == "_":
            continue
        elif letter == "e":  # a sample of the variance experiment: its dimension
            names[letter] = str(ac.scaling_experiment()[int(a)].d)
        elif letter in "wh":  # rows and heads counted from 1
            names[letter] = str(int(a) + 1)
        elif isinstance(a, str) and a in NAMES:
            names[letter] = NAMES[a][0 if lang == "en" else 1]
        else:
            names[letter] = f"{a:.3g}" if isinstance(a, (int, float)) else str(a)
    text = captions.filled(template, **names)
    if "h" in letters and len(trace.heads) > 1:
        text = f"{names['h']}: {text}"  # the head, counted from 1
    return text


def _label(kind: str, args: tuple, lang: str, trace: ac.ExampleTrace, table: dict) -> str:
    if kind.startswith("sharpened") and args and args[-1] == 1:  # the scores as they are
        kind, args = "weights", args[:-1]
    entry = table.get(kind)
    text = None
    if entry is not None:
        en, zh, letters = entry
        text = _fill(en if lang == "en" else zh, letters, args, trace, lang)
    if text is None:  # a role without words yet: its name and indices
        text = kind + ("[" + ", ".join(str(a) for a in args) + "]" if args else "")
    return text


def _digits(shown: int) -> int:
    return 0 if shown == 0 else max(shown, NOTE_DIGITS)


def number_lines(trace: ac.ExampleTrace, numbers: list[dict], lang: str) -> list[Line]:
    """The step's numbers as lines, their values resolved from the core by role."""
    from scenes.kit.roles import resolve

    lines: list[Line] = []
    groups: dict[tuple, int] = {}
    for n in numbers:
        role = tuple(n["role"])
        kind, args = role[0], role[1:]
        value = resolve(trace, role)
        digits = _digits(int(n.get("digits", NOTE_DIGITS)))
        if kind in ROWS and args:
            group = (kind, *args[:-1])
            if group in groups:
                old = lines[groups[group]]
                lines[groups[group]] = dataclasses.replace(
                    old, values=(*old.values, value), columns=(*old.columns, args[-1])
                )
                continue
            groups[group] = len(lines)
            label = _label(kind, args[:-1], lang, trace, ROWS)
            lines.append(Line(label, (value,), digits, (args[-1],)))
        else:
            lines.append(Line(_label(kind, args, lang, trace, SINGLES), (value,), digits))
    return lines


def step_note(trace: ac.ExampleTrace, step: dict, lang: str) -> str:
    """A step's speaker note: its caption, the caption in the other language, its numbers."""
    parts = [step["caption"]]
    if step.get("caption_other"):
        parts.append(step["caption_other"])
    parts += [line.text() for line in number_lines(trace, step.get("numbers", []), lang)]
    return "\n".join(parts)


_MARKDOWN_SPECIAL = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation character


def as_markdown(note: str) -> str:
    """A note for reveal.js's markdown notes: each line a paragraph, every punctuation mark
    backslash-escaped, so a label is shown as itself and never read as markdown or HTML."""
    return "\n\n".join(_MARKDOWN_SPECIAL.sub(r"\\\1", line) for line in note.split("\n"))


def from_markdown(text: str) -> str:
    """The inverse of :func:`as_markdown` (for reading a deck back)."""
    lines = [line for line in text.strip().split("\n\n")]
    return "\n".join(re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", line.strip()) for line in lines)
