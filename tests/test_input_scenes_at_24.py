"""PositionalEncoding and EncoderBlock at 24 tokens (issue 38, "seen at real size"): they draw
the story's cast (:func:`attention_core.story_cast`) and count or elide the rest.

No example of the lecturer's applies to both at 24 tokens (the 24-token sentence is a decoder's,
with RoPE), so one hand-written example at the limits (24 tokens, 8 dimensions, 4 heads, causal)
is run once per scene, with the checks of every still (nothing outside the frame or overlapping,
every number the core's) and what each scene owes the cast:

- PositionalEncoding's waves label the cast's positions under the axis (at 24 tokens none had a
  label), and its plane labels only the cast's sums, "when+PE", the others grey and counted
  ("16 others: x + PE, grey"; 24 "…+PE" labels hid the plane), only those sums ending in full
  heads (the steps to them, E and + PE, and the others in small ones: a pile of arrowheads),
  and its last still names where the reversal moves the followed query and key;
- EncoderBlock's matrices keep the followed query's row where rows are elided (at 1:1 the first
  eight and the last were drawn: the cast's they₂ and with elided), in a narrow frame with at
  least half its columns (three slots side by side showed 1 of 8: its bands across the frame
  trade the cast's other rows for the query's whole row, the output's last still the key's).
"""

from __future__ import annotations

import numpy as np
import pytest

import attention_core as ac
from scene_checks import describe, geometry_problems, texts
from scenes.kit.look import Look
from scenes.kit.registry import BY_NAME
from scenes.pipeline.stills import run_steps

TOKENS = [
    *("when", "students", "read", "the", "slides", "they", "compare", "the", "numbers", "with"),
    *("notes", "explanations", "and", "then", "they", "ask", "why", "the", "model", "looked"),
    *("at", "each", "word", "again"),
]


CAST_ROWS = 1  # EncoderBlock at 1:1: the first of the cast kept where rows are elided (a band
# across the frame holds one row of numbers: the followed query's, whole)


def example() -> ac.Example:
    rng = np.random.default_rng(5)
    return ac.Example(
        tokens=tuple(TOKENS),
        embeddings=np.round(rng.normal(size=(len(TOKENS), 8)), 1),
        title="at the limits, 24 tokens",
        heads=4,
        seed=3,
        mask="causal",
    )


def _shown(scene) -> list[str]:
    skip = {id(m) for m in scene.caption_mob.get_family()}
    return [describe(m) for m in texts(scene) if id(m) not in skip]


def positional_problems(scene) -> list[str]:
    step, out = scene.steps[-1]["key"], []
    cast = ac.story_cast(scene.trace)
    names = [scene.q_tokens[i] for i in cast]
    shown = _shown(scene)
    if step == "waves":
        labelled = [t for t in names if t in shown]
        if len(labelled) < 3:
            out.append(f"the waves label {labelled} of the cast {names}")
    if step == "add":
        sums = [t for t in shown if t.endswith("+PE")]
        if sorted(sums) != sorted(f"{t}+PE" for t in names):
            out.append(f"the plane labels {sums}, not the cast's {names}")
        others = len(TOKENS) - len(cast)
        if not any(t.startswith(f"{others} others") for t in shown):
            out.append(f"no line counts the {others} others")
        out += _big_heads(scene, len(cast))
    if step == "order":  # the last still: where the reversal moves the followed pair
        pair = ac.followed_pair(scene.trace)
        gone = [scene.q_tokens[i] for i in (pair.query, pair.key) if scene.q_tokens[i] not in shown]
        if gone:
            out.append(f"the order's still does not name {gone}")
    return out


BIG_HEAD = 0.2  # an arrowhead longer than this is a sum's: the cast's, one each


def _big_heads(scene, sums: int) -> list[str]:
    """PositionalEncoding's plane at 24 tokens: only the cast's sums end in full heads, each
    step to them (E, + PE) and every other token's sum in a small one (issue 38: "a pile of
    arrowheads")."""
    from manim import Arrow

    from scene_checks import on_screen

    big = [a for a in on_screen(scene, Arrow) if a.get_tip().length > BIG_HEAD]
    return (
        [f"{len(big)} arrows end in heads over {BIG_HEAD}, {sums} sums"] if len(big) > sums else []
    )


def encoder_problems(scene) -> list[str]:
    from manim import VGroup

    from scene_checks import on_screen

    cast = ac.story_cast(scene.trace)
    out = []
    for group in on_screen(scene, VGroup):
        m = getattr(group, "of_matrix", lambda: None)()
        if m is None or m.shape[0] != len(TOKENS) or len(m.shown_rows) == len(TOKENS):
            continue
        left = [scene.q_tokens[i] for i in cast[:CAST_ROWS] if i not in m.shown_rows]
        if left:  # the followed query, its key and the story's next: never elided
            out.append(f"a {m.shape} matrix elides the cast's {left}: rows {m.shown_rows}")
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    "name,check",
    [("PositionalEncoding", positional_problems), ("EncoderBlock", encoder_problems)],
)
def test_the_cast_at_24_tokens(name, check):
    ex = example()
    look = Look.for_example(ex, lang="en", aspect="1:1")
    stills = run_steps(
        BY_NAME[name].load(),
        ex,
        look=look,
        frames=False,
        snapshot=lambda s: geometry_problems(s) + check(s),
    )
    problems = [f"{s.key}: {p}" for s in stills for p in s.snapshot]
    assert not problems, "\n".join(problems[:20])


FEW_COLUMNS = {"4:3": 8, "1:1": 8}  # EncoderBlock's columns of 8 shown at least (1 before)


@pytest.mark.slow
@pytest.mark.parametrize("aspect", sorted(FEW_COLUMNS))
def test_encoder_block_shows_the_followed_row_whole(aspect):
    """EncoderBlock at 24 tokens in a narrow frame (issue 38: "shows the columns it talks about
    and uses the frame"): every matrix of the model's width keeps the followed query's row,
    named whole, with at least ``FEW_COLUMNS`` of its 8 columns (three slots side by side
    showed 1 of 8 beside its row labels "#6", "#24"), and the block's output (the last still)
    keeps the followed key's row too."""
    from manim import VGroup

    from scene_checks import on_screen

    ex = example()

    def columns(scene) -> list[str]:
        pair, out = ac.followed_pair(scene.trace), []
        for group in on_screen(scene, VGroup):
            m = getattr(group, "of_matrix", lambda: None)()
            if m is None or m.shape != (len(TOKENS), 8):
                continue
            if pair.query not in m.shown_rows or len(m.shown_columns) < FEW_COLUMNS[aspect]:
                out.append(f"rows {m.shown_rows}, columns {m.shown_columns}")
        names = [
            TOKENS[pair.query],
            *([TOKENS[pair.key]] if scene.steps[-1]["key"] == "norm2" else []),
        ]
        out += [f"no whole label {t!r}" for t in names if t not in _shown(scene)]
        return out

    look = Look.for_example(ex, lang="en", aspect=aspect)
    stills = run_steps(
        BY_NAME["EncoderBlock"].load(), ex, look=look, frames=False, snapshot=columns
    )
    problems = [f"{s.key}: {p}" for s in stills for p in s.snapshot]
    assert not problems, "\n".join(problems[:20])
    assert stills[-1].key == "norm2"
