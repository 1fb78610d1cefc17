"""The cast (issue 38): the few tokens the story is about, decided in the core
(``attention_core.story_cast``) and drawn in colour by every scene, every other token in one
quiet tone (23 token colours in one frame could not be told apart: The vs he, four greens in
one share bar)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from manim import Arrow
from test_lecturer_examples import OCR_LOOK

import attention_core as ac
import lecturer_examples
from lecturer_examples import shared_case, stills_of

ROOT = Path(__file__).resolve().parent.parent


@st.composite
def examples(draw):
    n = draw(st.integers(1, 24))
    d = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 2**16))
    rng = np.random.default_rng(seed)
    mask = draw(st.sampled_from(["none", "causal"]))
    asked = draw(st.booleans())
    fields = {}
    if asked and n > 1:
        q = draw(st.integers(0, n - 1))
        k = draw(st.integers(0, q if mask == "causal" else n - 1))
        fields = {"query": f"t{q}", "key": f"t{k}"}
    return ac.Example(
        name="cast",
        tokens=[f"t{i}" for i in range(n)],
        embeddings=(rng.standard_normal((n, d)) * 2).round(3).tolist(),
        mask=mask,
        **fields,
    )


@settings(max_examples=120, deadline=None)
@given(examples())
def test_the_cast_is_the_story_first_and_at_most_eight(ex):
    trace = ac.trace_example(ex)
    cast = ac.story_cast(trace)
    assert len(set(cast)) == len(cast) and all(0 <= t < ex.n for t in cast)
    if ex.n <= ac.CAST_ALL:
        assert cast == tuple(range(ex.n))  # a small example: every token its own colour
        return
    pair = ac.followed_pair(trace)
    assert len(cast) == ac.CAST_SIZE
    assert cast[0] == pair.query and (cast[1] == pair.key or pair.key == pair.query)
    # the rest are the story's cells, then the keys the query weighs most: no key weighed
    # more than every cast key of the query's row is left out
    row = trace.attention.weights[pair.query]
    outside = [j for j in range(ex.n) if j not in cast]
    assert max(row[outside]) <= max(row[list(cast)]) + 1e-12


def test_the_cast_of_a_real_sentence():
    trace = ac.trace_example(ac.load_example(ROOT / "examples" / "smollm2-baker.toml"))
    tokens = trace.example.tokens
    cast = [tokens[i] for i in ac.story_cast(trace)]
    assert cast[:2] == ["she", "baker"] and len(cast) == 8


# -- every scene draws exactly the cast in colour (issue 38 item 1) -----------------------------
# checked on the 24-token trophy sentence's runs at 16:9 in English, which the OCR test makes
# anyway (lecturer_examples.on_run): no run of its own
CAST_SCENES = {"WeightedSum": "values", "Overview": "formula"}  # the step with the plane of them
NUMBER = re.compile(r"^[-−]?\d+(?:\.\d+)?$")


def cast_in_colour(scene) -> tuple[set, list, set]:
    """(the tokens whose label is on screen in a cast colour, what is wrong with those labels,
    the cast colours of the arrows on screen): every text in a token colour (the caption aside)
    names a cast token whole — v(trophy), o(it₁), × v(trophy), a key's or a list's trophy —
    in that token's own colour (a number in it, a weight, names nothing)."""
    from manim import ManimColor

    from scene_checks import describe, each_mobject, texts

    cast, theme, tokens = ac.story_cast(scene.trace), scene.theme, scene.q_tokens
    colour = {ManimColor(theme.token(r)).to_hex().upper(): t for r, t in enumerate(cast)}
    caption = {id(m) for m in scene.caption_mob.get_family()}
    named, wrong = set(), []
    for mob in texts(scene):
        ink = ManimColor(mob.get_color()).to_hex().upper()
        if id(mob) in caption or ink not in colour:
            continue
        text = re.sub(r"^[×\s]*(?:[voqE]\()?|\)?\s*=?$", "", describe(mob)).strip()
        if NUMBER.match(text) or not text:
            continue
        if text not in tokens:
            wrong.append(f"{describe(mob)!r} in a cast colour names no token whole")
        elif tokens.index(text) != colour[ink]:
            wrong.append(f"{describe(mob)!r} in {tokens[colour[ink]]}'s colour")
        else:
            named.add(colour[ink])
    arrows = {
        colour[ManimColor(m.get_stroke_color()).to_hex().upper()]
        for m in each_mobject(scene)
        if isinstance(m, Arrow)
        and m.get_stroke_opacity() >= 0.3
        and ManimColor(m.get_stroke_color()).to_hex().upper() in colour
    }
    return named, wrong, arrows


def _cast_cases() -> list:
    return [
        shared_case(("trophy-24", scene, *OCR_LOOK), "cast", cast_in_colour, scene, id=scene)
        for scene in CAST_SCENES
    ]


@pytest.mark.slow
@pytest.mark.parametrize("scene", _cast_cases())
def test_the_scenes_draw_the_cast_in_colour(scene):
    """On a 24-token sentence WeightedSum and Overview colour exactly the core's cast: every
    cast token's label whole in its colour somewhere in the scene, no other token's, and the
    plane of the values (of the tokens) draws every one of them in its colour (issue 38: the
    list of weights had listed fit, drawn, before it₁; the tokens' plane drew 2 of 8 in
    colour, 3 at 16:9)."""
    stills = stills_of(("trophy-24", scene, *OCR_LOOK), "cast")
    trace = ac.trace_example(lecturer_examples.load("trophy-24"))
    cast = set(ac.story_cast(trace))
    named = set().union(*(s.snapshot[0] for s in stills))
    problems = [f"{s.key}: {p}" for s in stills for p in s.snapshot[1]]
    plane = next(s for s in stills if s.key == CAST_SCENES[scene])
    assert not problems, "\n".join(problems[:20])
    assert named == cast, f"labelled in colour {sorted(named)}, the cast {sorted(cast)}"
    assert plane.snapshot[2] == cast, f"in colour {sorted(plane.snapshot[2])}, cast {sorted(cast)}"
