"""Issues 30 and 32 in CausalMask, Scaling and Projections, on the 24-token sentence (SmolLM2
layer 14 head 9, it₁ → trophy asked):

- each scene says, in a step of its own, what the head does with the followed pair, in words
  and the core's numbers (``attention_core.pair_row``), in both languages, every number it
  names on the still;
- CausalMask's last still holds its picture at 16:9 and 1:1 (the followed row beside the
  weights in a wide frame), its blocked cells in a look of their own with a key said once, the
  followed pair framed and its weight shown;
- Projections labels every arrow it draws on its own (no "in,because,was,…" lists), and its
  match grid's 24 column numbers stand flat in tiers at 1:1 (upright, two tiers ran together).

Cheap: each scene runs once a language or aspect, without frames, at 270 px."""

from __future__ import annotations

import contextlib
from functools import cache
from pathlib import Path

from manim.utils.color import ManimColor

import attention_core as ac
from scene_checks import (
    dropped_or_distant_labels,
    final_frame_problems,
    on_screen,
    unshown_caption_numbers,
)
from scenes.kit.look import Look
from scenes.kit.registry import find
from scenes.mobjects.blocked import blocked_tone
from scenes.mobjects.text import Num, quoted
from scenes.pipeline.stills import run_steps

TROPHY = Path(__file__).resolve().parents[1] / "examples" / "smollm2-trophy.toml"


CHECKED = ("softmax", "pair", "maps_nd")  # the steps the tests read


class _Enough(Exception):
    """Raised after the last step a test reads."""


@cache
def _example():
    return ac.load_example(TROPHY)


@cache
def _run(scene: str, lang: str, aspect: str, until: str | None = None):
    """{step: what the checks read at its end}, the scene run once for every test reading it."""
    ex = _example()
    seen: dict = {}

    def record(sc):
        key = sc.steps[-1]["key"]
        seen[key] = {"caption": sc.steps[-1]["caption"], "scene": sc}
        if key in CHECKED:  # the costly checks only where a test reads them
            seen[key].update(
                unshown=unshown_caption_numbers(sc),
                final=final_frame_problems(sc) if key == "pair" else [],
                labels=dropped_or_distant_labels(sc) if key == "maps_nd" else [],
                nums={(m.role, m.shown) for m in on_screen(sc, Num)},
                texts=[getattr(m, "source_text", "") for m in on_screen(sc)],
            )
        if key == until:
            raise _Enough

    look = Look.for_example(ex, lang=lang, aspect=aspect)
    with contextlib.suppress(_Enough):
        run_steps(
            find(scene).load(), ex, look=look, pixel_height=270, frames=False, snapshot=record
        )
    return seen


# -- CausalMask --------------------------------------------------------------------------------
def test_causal_mask_says_what_the_head_does_and_ends_on_its_picture_16_9():
    steps = _run("CausalMask", "en", "16:9")
    assert list(steps)[-1] == "pair"
    pair = steps["pair"]
    caption = pair["caption"]
    assert (
        "it₁ may see only the 11 tokens before it, and itself, and gives 0.563 to trophy" in caption
    )
    assert not pair["unshown"] and not pair["final"], (pair["unshown"], pair["final"])
    assert (("weights", 0, 11, 1), "0.563") in pair["nums"]  # the pair's weight, framed
    assert (("pair_row", 0, "before"), "11") in pair["nums"]
    scene = pair["scene"]
    panel = scene.panel_room()  # the followed row beside the weights: the frame is used
    assert scene.side_panel and panel.width > 3.0
    row_nums = [r for r, _ in pair["nums"] if r[:3] == ("weights", 0, 11)]
    assert len(row_nums) >= 8  # the row chart: the keys it₁ may see, their weights


def test_causal_mask_blocked_cells_look_blocked_and_are_explained_once():
    steps = _run("CausalMask", "en", "16:9")
    scene = steps["pair"]["scene"]
    mask, weights = scene.head.mask, scene.weights
    blocked = [(i, j) for i, j in weights.shown_cells if not mask[i, j]]
    assert len(blocked) == 276 and weights.style.squares
    # on a grid of squares one flat faint tone, no outline, no diagonal (issue 38: the crossed
    # cells carried more ink than the weights)
    assert len(scene.blocked_look) == 0
    bg = ManimColor(blocked_tone(scene.theme)).to_hex().upper()
    for i, j in blocked:
        rect = weights.cell_rect(i, j)
        assert rect.get_fill_color().to_hex().upper() == bg
        assert rect.get_stroke_width() == 0
        # and the weight's square over it (it fills the cell) in that tone, as the key's
        # swatch: a 0's purple on every blocked cell beside a grey swatch (a review)
        square = weights.squares.get((i, j))
        assert square is None or square.get_fill_color().to_hex().upper() == bg, (i, j)
    for i, j in weights.shown_cells:  # an allowed cell, even near 0, keeps the panel's fill
        if mask[i, j]:
            assert weights.cell_rect(i, j).get_fill_color().to_hex().upper() != bg
    # the key, once (on one or two lines)
    assert "blocked by the mask: weight exactly 0" in " ".join(steps["softmax"]["texts"])


def test_causal_mask_at_1_1_in_chinese_keeps_the_whole_grid_and_says_the_pair():
    steps = _run("CausalMask", "zh", "1:1")
    pair = steps["pair"]
    assert "it₁ 只能看到它前面的 11 个词元和它自己，给 trophy 的权重是 0.563" in pair["caption"]
    assert not pair["unshown"] and not pair["final"], (pair["unshown"], pair["final"])
    assert pair["scene"].weights.whole  # the strip under the grid cost no row or column
    assert any("被掩码挡住" in t for t in steps["softmax"]["texts"])


# -- Scaling -----------------------------------------------------------------------------------
def test_scaling_says_what_the_head_does_in_both_languages():
    en = _run("Scaling", "en", "16:9", until="pair")["pair"]
    zh = _run("Scaling", "zh", "16:9", until="pair")["pair"]
    assert "Of the keys q(it₁) may see, trophy has the highest scaled score (5.7)" in en["caption"]
    # not "this is the pair asked about": did → trophy 0.911 and 10 others look most at trophy
    assert "many tokens look most at trophy, not it₁ alone" in en["caption"]
    assert "在 q(it₁) 能看到的键里，trophy 的缩放分数最高（5.7）" in zh["caption"]
    assert "很多词元都最看重 trophy，不只是 it₁" in zh["caption"]
    assert not en["unshown"] and not zh["unshown"], (en["unshown"], zh["unshown"])


# -- Projections -------------------------------------------------------------------------------
def test_projections_says_what_the_head_does_and_tiers_its_column_numbers_at_1_1():
    steps = _run("Projections", "en", "1:1")
    pair = steps["pair"]
    assert "q(it₁) · k(trophy) = 45.39 is the largest match of the keys q(it₁) may see" in (
        pair["caption"].replace("\u00a0", " ")
    )
    assert not pair["unshown"] and not pair["final"], (pair["unshown"], pair["final"])
    grid = pair["scene"].match_matrix
    assert grid.whole and not grid.upright and grid.style.tiers == 3  # flat, each readable
    assert not steps["maps_nd"]["labels"], steps["maps_nd"]["labels"]


def test_projections_labels_each_drawn_arrow_on_its_own():
    steps = _run("Projections", "zh", "16:9")
    tokens = {*_distinct(), *(quoted(t) for t in _distinct())}  # “,” as drawn (issue 38)
    tips = [
        t
        for t in steps["maps_nd"]["texts"]
        if t and t not in ("2-D view: keeps", "二维视图：保留") and not t.startswith(("另有", "%"))
    ]
    merged = [t for t in tips if t not in tokens and "," in t and len(t) > 1]
    assert not merged, merged  # no "in,because,was,…"
    assert not steps["maps_nd"]["labels"], steps["maps_nd"]["labels"]
    assert "q(it₁) · k(trophy) = 45.39 是 q(it₁) 能看到的键里最大的匹配" in (
        steps["pair"]["caption"].replace("\u00a0", " ")
    )
    assert not steps["pair"]["unshown"], steps["pair"]["unshown"]


def _distinct():
    from scenes.mobjects.text import distinct

    return distinct(_example().tokens)


def test_scalings_story_of_an_induction_head_stays_in_the_frame_at_4_3():
    """A review: at 4:3 the induction head's Scaling story ran past both edges of the frame (the
    caption's fourth line, joined onto its third)."""
    from scene_checks import layout_problems

    path = TROPHY.parent / "smollm2-induction.toml"
    ex = ac.load_example(path)
    look = Look.for_example(ex, lang="en", aspect="4:3")
    seen = {}

    def snap(scene):
        seen[scene.steps[-1]["key"]] = layout_problems(scene)
        if scene.steps[-1]["key"] == "pair":
            raise _Enough

    with contextlib.suppress(_Enough):
        run_steps(find("Scaling").load(), ex, look=look, frames=False, snapshot=snap)
    assert "pair" in seen and not seen["pair"], seen.get("pair")


# -- AttentionMatrix: the head's habit before an asked pair ---------------------------------------
def test_an_asked_pair_in_a_sink_head_is_told_after_the_heads_habit():
    """A head resting half its weight or more on the first token, asked about a pair that is not
    its habit, is said to do so before the pair (a reviewer's 22-token sentence: the bright first
    column was never named, the pair told as 'this head's strongest links'); the sentence rests
    on the core's reading, and is absent without a habit or where the pair is the habit."""
    from types import SimpleNamespace

    import numpy as np

    from scenes.attention_matrix import AttentionMatrix
    from scenes.kit import captions

    n = 6
    sink = np.tril(np.full((n, n), 0.3 / np.arange(1, n + 1)[:, None]))
    sink[:, 0] += 0.7  # each row: 0.7 on the first token, the rest shared over what it sees
    sink /= sink.sum(axis=1, keepdims=True)
    tokens = ("The", "cat", "sat", "on", "it", "mat")
    asked = SimpleNamespace(kind="asked", habit=None)

    def told(W, story, lang="en"):
        scene = SimpleNamespace(
            head=SimpleNamespace(weights=W),
            h=0,  # the head (its model-level scores: none in this example)
            example=SimpleNamespace(tokens=tokens),
            lang=lang,
            q_tokens=tokens,
            say=lambda key, **v: captions.word(key, lang, **v),
        )
        return AttentionMatrix.head_habit(scene, story)

    assert ac.read_head(sink, tokens).habitual
    assert told(sink, asked) == (
        "On average, half or more of this head's weight goes to the first token (attention sink). "
    )
    assert told(sink, asked, "zh").startswith("平均来看，这个头一半以上的权重给了第一个词元")
    assert told(sink, SimpleNamespace(kind="asked", habit="sink")) == ""  # the pair is the habit
    even = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]
    assert not ac.read_head(even, tokens).habitual and told(even, asked) == ""
