"""The lecturer's examples of issues 20 and 38 (tests/lecturer_examples.py: 24 tokens at the
file format's limits, a 12-character label, repeated labels, 4 heads and a causal mask; a trained
12-head layer; a real 24-token SmolLM2 sentence and a real 21-token MiniLM one), every
applicable scene, checked at the end of every step for everything a still can show wrong:
nothing outside the frame, overlapping or too small, every number the core's, no label on an
arrow, every text in contrast with what is behind it (scene_checks.picture_problems), and no
weight hidden where a matrix is the point.

A run at the limits is the costly part (tens of seconds for the larger scenes), so each case
runs at one look, taken in turn from six (both languages at 16:9, 4:3 and 1:1), each example one
look further on (lecturer_examples.look_of). A run is shared with every other test that checks
the same scene at the same look (lecturer_examples.stills_of): a case taken at English 16:9 is
checked on test_scene_ocr.py's run of it (1080p), not run twice. Every number a step's caption
names must be on its still (test_scene_ocr.py reads them back at 1080p). The real sentences'
scenes are also checked at the other two aspects (their 16:9 on the OCR run), the matrix scenes
at every aspect in test_scene_layout.py."""

from __future__ import annotations

import pytest
from test_scene_layout import hidden_cells

import lecturer_examples
from lecturer_examples import (
    ASPECTS,
    OCR_LOOK,
    has_last_still_cases,
    look_of,
    made_at,
    run_at,
    shared_case,
    stills_of,
)
from scene_checks import (
    dropped_or_distant_labels,
    final_frame_problems,
    geometry_problems,
    picture_problems,
    story_missing,
    unshown_caption_numbers,
)

MATRIX_SCENES = ("AttentionMatrix", "CausalMask")
CLEAN_PIXELS = 540  # contrast measured on frames this high (higher on a run shared with OCR)


def _all_cases() -> list:
    out = []
    for case in lecturer_examples.cases():
        name, scene = case.values
        lang, aspect = look_of(name, scene.name)
        out.append(pytest.param(name, scene, lang, aspect, id=f"{case.id}-{lang}-{aspect}"))
    return out


def clean_snapshot(name: str, scene: str):
    """What a case is checked for at the end of every step: (the still's problems, the last
    still's: it holds its picture, on the limits)."""

    def snapshot(s):
        hidden = hidden_cells(s) if scene in MATRIX_SCENES else []
        last = final_frame_problems(s) if name == "at-the-limits" else []
        return picture_problems(s) + hidden + unshown_caption_numbers(s), last

    return snapshot


def _clean_cases() -> list:
    out = []
    for case in _all_cases():
        name, scene, lang, aspect = case.values
        check = clean_snapshot(name, scene.name)
        run = (name, scene.name, lang, aspect)
        out.append(shared_case(run, "clean", check, *case.values, id=case.id, pixels=CLEAN_PIXELS))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name,scene,lang,aspect", _clean_cases())
def test_lecturer_example_is_clean(name, scene, lang, aspect):
    stills = stills_of((name, scene.name, lang, aspect), "clean")
    assert stills, "the scene has no steps"
    problems = [f"{st.key}: {p}" for st in stills for p in st.snapshot[0]]
    problems += [f"last still, {stills[-1].key}: {p}" for p in stills[-1].snapshot[1]]
    assert not problems, "\n".join(problems[:20])


def _last_still_cases() -> list:
    """Each scene on the limits (but those checked :data:`ELSEWHERE`) and on the real sentences
    at the two aspects test_lecturer_example_is_clean does not take it at (that test checks the
    third): at 16:9 on test_scene_ocr.py's run (English), which on the limits checks the last
    still itself (no case here)."""
    out = []
    for case in _all_cases():
        name, scene, lang, taken = case.values
        if not has_last_still_cases(name, scene.name):
            continue
        for aspect in lecturer_examples.ASPECTS:
            run = run_at(name, scene.name, aspect)
            if aspect == taken or (name == "at-the-limits" and aspect == OCR_LOOK[1]):
                continue
            out.append(
                shared_case(
                    run,
                    "last still",
                    last_still_snapshot(name, scene.name),
                    *(name, scene, run[2], aspect),
                    id="-".join(run),
                )
            )
    return out


def last_still_snapshot(name: str, scene: str):
    """What test_the_last_still_holds_the_picture checks at each step (the real sentences) and
    on the last still."""
    every = name in lecturer_examples.REAL

    def snapshot(s):
        found = []
        if every:
            found = geometry_problems(s) + dropped_or_distant_labels(s) + unshown_caption_numbers(s)
        if every and scene in MATRIX_SCENES:
            found += hidden_cells(s)
        return found, final_frame_problems(s)

    return snapshot


@pytest.mark.slow
@pytest.mark.parametrize("name,scene,lang,aspect", _last_still_cases())
def test_the_last_still_holds_the_picture(name, scene, lang, aspect):
    """The last still is the png a lecturer pastes into a slide: a picture (a matrix, a plane,
    bars, arrows: not text alone) spanning a fair share of the content region. AttentionMatrix's
    cost step left three lines in a corner at 4:3 and 1:1, Projections ended on a formula and
    PositionalEncoding on three lines of text. Geometry only (no pixels). The real sentences
    (SmolLM2's 24 tokens, MiniLM's 21) at these aspects: at every step too, nothing outside the
    frame or overlapping, every number the core's, no label shortened, dropped or far from its
    arrow, every number the caption names on screen, no matrix elided."""
    stills = stills_of((name, scene.name, lang, aspect), "last still")
    problems = [f"{st.key}: {p}" for st in stills for p in st.snapshot[0]]
    problems += [f"last still, {stills[-1].key}: {p}" for p in stills[-1].snapshot[1]]
    assert not problems, "\n".join(problems[:20])


# the examples of issue 38's "done when": two real sentences of 20–24 tokens and the limits
STORY = ("at-the-limits", *lecturer_examples.REAL)


def _story(scene, frame) -> list[str]:  # noqa: ARG001 - the mobjects only
    return story_missing(scene)


def _story_cases() -> list:
    return [
        shared_case(
            made_at(name, scene.name, aspect),
            "story",
            _story,
            *(name, scene, aspect),
            id=f"{name}-{scene.name}-{aspect}",
            last=True,
        )
        for name in STORY
        for scene in lecturer_examples.applicable(name)
        for aspect in ASPECTS
    ]


@pytest.mark.slow
@pytest.mark.parametrize("name,scene,aspect", _story_cases())
def test_the_last_still_keeps_the_story(name, scene, aspect):
    """Issue 38: the last still of every scene (the png a lecturer pastes) shows the followed
    pair's labels, whole, and in a scene after softmax its weight
    (scene_checks.story_missing), on the two real sentences and the limits at every aspect;
    checked once on the scene as a run the suite makes anyway leaves it
    (lecturer_examples.made_at: no run of its own)."""
    stills = stills_of(made_at(name, scene.name, aspect), "story")
    assert stills, "the scene has no steps"
    missing = stills[-1].snapshot
    assert not missing, f"last still, {stills[-1].key}: " + "; ".join(missing)


def test_the_last_still_checks_add_no_run():
    """Each run the story (and test_scene_ocr.py's cast labels) is checked on is one another
    test makes anyway: made_at's runs of the limits' scenes checked elsewhere are those
    test_scene_layout.py and test_caption_numbers.py register."""
    import test_caption_numbers  # noqa: F401 - each registers its runs at import
    import test_multi_head_limits  # noqa: F401
    import test_scene_layout  # noqa: F401
    import test_scene_ocr  # noqa: F401

    ours = {"story", "cast labels"}
    alone = [
        run
        for name in STORY
        for scene in lecturer_examples.applicable(name)
        for aspect in ASPECTS
        if not set(lecturer_examples._CHECKS[run := made_at(name, scene.name, aspect)]) - ours
    ]
    assert not alone, f"runs made for the last still's checks alone: {alone}"


def test_a_shared_run_is_made_once_for_every_check_on_it(monkeypatch):
    """lecturer_examples.stills_of: the tests of one run (example, scene, language, aspect) take
    their stills from one run, made with every check registered on it; each test gets what its
    own check returned, and only the test whose check raised fails with it; a check of the last
    still alone is called once, on the scene as the run left it and its last frame, drawn at
    the height it asks for. (A stand-in for run_steps: no scene is drawn.)"""
    import scenes.pipeline.stills as stills_module

    made = []

    def run_steps(scene_cls, example, *, look, snapshot, **kw):
        made.append((example, scene_cls, look.lang, look.aspect, kw))
        out = [stills_module.StepStill(k, k, None, snapshot(k)) for k in ("a", "b")]
        out[-1].frame = f"frame at {kw.get('last_pixel_height')}"
        return out

    def broken(s):
        raise ValueError(f"broken at {s}")

    monkeypatch.setattr(stills_module, "run_steps", run_steps)
    monkeypatch.setattr(lecturer_examples, "_CHECKS", {})
    monkeypatch.setattr(lecturer_examples, "_MADE", {})
    run = ("at-the-limits", "Softmax", "zh", "1:1")
    lecturer_examples.on_run(run, "upper", str.upper)
    lecturer_examples.on_run(run, "twice", lambda s: s * 2, pixels=540)
    lecturer_examples.on_run(run, "broken", broken)
    lecturer_examples.on_run(run, "last", lambda s, f: f"{s}, {f}", pixels=1080, last=True)
    lecturer_examples.on_run(run, "last broken", lambda s, f: broken(s), last=True)
    assert [s.snapshot for s in stills_of(run, "upper")] == ["A", "B"]
    assert [s.snapshot for s in stills_of(run, "twice")] == ["aa", "bb"]
    assert [s.snapshot for s in stills_of(run, "last")] == [None, "b, frame at 1080"]
    with pytest.raises(ValueError, match="broken at a"):
        stills_of(run, "broken")
    with pytest.raises(ValueError, match="broken at b"):
        stills_of(run, "last broken")
    from scenes.kit.registry import find

    ex, scene = lecturer_examples.load("at-the-limits"), find("Softmax").load()
    kw = dict(frames=True, pixel_height=540, last_pixel_height=1080)
    assert made == [(ex, scene, "zh", "1:1", kw)]
