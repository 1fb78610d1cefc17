"""The lecturer's examples of issue 20 (tests/lecturer_examples.py: 12 tokens with a
12-character and a repeated label, 4 heads and a causal mask; a trained 12-head layer), every
applicable scene, checked at the end of every step for everything a still can show wrong:
nothing outside the frame, overlapping or too small, every number the core's, no label on an
arrow, every text in contrast with what is behind it (scene_checks.picture_problems), and no
weight hidden where a matrix is the point.

A run at the limits is the costly part (tens of seconds for the larger scenes), so each case
runs at one look, taken in turn from six (both languages at 16:9, 4:3 and 1:1), the trained
layer one look further on; a case taken at English 16:9 is checked on test_scene_ocr.py's run of
it (1080p, that look), not run twice. Every number
a step's caption names must be on its still (test_scene_ocr.py reads them back at 1080p).
The matrix scenes are also checked at every aspect in test_scene_layout.py."""

from __future__ import annotations

import pytest
from test_scene_layout import hidden_cells

import lecturer_examples
from scene_checks import (
    dropped_or_distant_labels,
    final_frame_problems,
    geometry_problems,
    picture_problems,
    unshown_caption_numbers,
)
from scenes.kit.look import Look
from scenes.pipeline.stills import run_steps

# the six looks, taken in turn (one a case: the suite's time; tests/test_caption_numbers.py
# takes the limits' scenes at every aspect)
LOOKS = [("zh", "16:9"), ("en", "4:3"), ("zh", "1:1"), ("en", "16:9"), ("zh", "4:3"), ("en", "1:1")]
MATRIX_SCENES = ("AttentionMatrix", "CausalMask")


def look_of(name: str, scene: str) -> tuple[str, str]:
    """The look a case is checked at, taken in turn from :data:`LOOKS`."""
    shift = lecturer_examples.NAMES.index(name)
    index = [s.name for s in lecturer_examples.applicable(name)].index(scene)
    return LOOKS[(index + shift) % len(LOOKS)]


# the look test_scene_ocr.py reads every case at (1080p): a case taken at it is checked there,
# on that run (one run of a scene for everything a still can show wrong)
OCR_LOOK = ("en", "16:9")


def _all_cases() -> list:
    out = []
    for case in lecturer_examples.cases():
        name, scene = case.values
        lang, aspect = look_of(name, scene.name)
        out.append(pytest.param(name, scene, lang, aspect, id=f"{case.id}-{lang}-{aspect}"))
    return out


def _cases() -> list:
    return [c for c in _all_cases() if tuple(c.values[2:]) != OCR_LOOK]


@pytest.mark.slow
@pytest.mark.parametrize("name,scene,lang,aspect", _cases())
def test_lecturer_example_is_clean(name, scene, lang, aspect):
    ex = lecturer_examples.load(name)
    snapshot = clean_snapshot(name, scene.name)

    look = Look.for_example(ex, lang=lang, aspect=aspect)
    stills = run_steps(scene.load(), ex, look=look, pixel_height=540, snapshot=snapshot)
    assert stills, "the scene has no steps"
    problems = [f"{st.key}: {p}" for st in stills for p in st.snapshot[0]]
    problems += [f"last still, {stills[-1].key}: {p}" for p in stills[-1].snapshot[1]]
    assert not problems, "\n".join(problems[:20])


def clean_snapshot(name: str, scene: str):
    """What a case is checked for at the end of every step: (the still's problems, the last
    still's: it holds its picture, on the limits)."""

    def snapshot(s):
        hidden = hidden_cells(s) if scene in MATRIX_SCENES else []
        last = final_frame_problems(s) if name == "at-the-limits" else []
        return picture_problems(s) + hidden + unshown_caption_numbers(s), last

    return snapshot


# the scenes whose last still is checked at every aspect by a run of the limits already made:
# test_scene_layout.py's every weight on screen, test_caption_numbers.py's MultiHeadSplit widths
# and caption numbers (4:3, 1:1), test_scene_ocr.py's reading back (16:9)
ELSEWHERE = (
    "AttentionMatrix",
    "CausalMask",
    "MultiHeadSplit",
    "Projections",
    "DotProducts",
    "Scaling",
    "Softmax",
    "WeightedSum",
    "EncoderBlock",
)


def _last_still_cases() -> list:
    """Each scene on the limits (but those checked :data:`ELSEWHERE`) and on the 24-token
    sentence at the two aspects test_lecturer_example_is_clean does not take it at (that test
    checks the third)."""
    out = []
    for case in _all_cases():
        name, scene, lang, taken = case.values
        if name == "trophy-24" or (name == "at-the-limits" and scene.name not in ELSEWHERE):
            out += [
                pytest.param(name, scene, lang, aspect, id=f"{name}-{scene.name}-{lang}-{aspect}")
                for aspect in lecturer_examples.ASPECTS
                if aspect != taken
            ]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name,scene,lang,aspect", _last_still_cases())
def test_the_last_still_holds_the_picture(name, scene, lang, aspect):
    """The last still is the png a lecturer pastes into a slide: a picture (a matrix, a plane,
    bars, arrows: not text alone) spanning a fair share of the content region. AttentionMatrix's
    cost step left three lines in a corner at 4:3 and 1:1, Projections ended on a formula and
    PositionalEncoding on three lines of text. Geometry only (no pixels). The 24-token sentence
    at these aspects: at every step too, nothing outside the frame or overlapping, every number
    the core's, no label shortened, dropped or far from its arrow, every number the caption
    names on screen, no matrix elided."""
    ex = lecturer_examples.load(name)
    every = name == "trophy-24"

    def snapshot(s):
        found = []
        if every:
            found = geometry_problems(s) + dropped_or_distant_labels(s) + unshown_caption_numbers(s)
        if every and scene.name in MATRIX_SCENES:
            found += hidden_cells(s)
        return found, final_frame_problems(s)

    look = Look.for_example(ex, lang=lang, aspect=aspect)
    stills = run_steps(scene.load(), ex, look=look, frames=False, snapshot=snapshot)
    problems = [f"{st.key}: {p}" for st in stills for p in st.snapshot[0]]
    problems += [f"last still, {stills[-1].key}: {p}" for p in stills[-1].snapshot[1]]
    assert not problems, "\n".join(problems[:20])
