"""The examples a lecturer brings that issues 20 and 38 are measured on, shared by the layout,
caption, contrast and OCR tests:

- ``at-the-limits``: ``examples/at-the-limits.toml`` (the file format's limits: 24 tokens, a
  12-character label as the followed query, repeated labels, punctuation tokens, 4 heads, a
  causal mask);
- ``minilm-layer1``: a trained layer with all 12 heads, ``examples/minilm-cat-layer1.toml`` (and
  its 6.6 MB sidecar of 4 × 384 × 384 attention weights and the layer's own feed-forward,
  384 × 1536 and back, and LayerNorms), exactly what
  ``attn-explain from-model "the cat sat on the mat" --layer 1 --all-heads`` writes
  (tests/test_model.py checks that it still is);
- ``trophy-24``: a real 24-token sentence through SmolLM2 (layer 14, head 9, causal, RoPE),
  it₁ → trophy, the pair ``heads --find`` found;
- ``minilm-painting``: a real 21-token sentence through MiniLM (layer 6, head 12), they →
  painting.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

import attention_core as ac
from scenes.kit.registry import SCENES

ROOT = Path(__file__).resolve().parent.parent
LIMITS = ROOT / "examples" / "at-the-limits.toml"
LAYER = ROOT / "examples" / "minilm-cat-layer1.toml"
LAYER_TEXT = "the cat sat on the mat"
# 24 tokens, a real sentence through SmolLM2 (layer 14, head 9, causal, RoPE): it₁ → trophy
TROPHY = ROOT / "examples" / "smollm2-trophy.toml"
# 21 tokens, a real sentence through MiniLM (layer 6, head 12): they → painting
PAINTING = ROOT / "examples" / "minilm-painting.toml"
NAMES = ("at-the-limits", "minilm-layer1", "trophy-24", "minilm-painting")
REAL = ("trophy-24", "minilm-painting")  # the real sentences of 20–24 tokens (issue 38)
ASPECTS = ("16:9", "4:3", "1:1")


@cache
def load(name: str) -> ac.Example:
    if name == "at-the-limits":
        return ac.load_example(LIMITS)
    if name == "minilm-layer1":
        return ac.load_example(LAYER)
    if name == "trophy-24":
        return ac.load_example(TROPHY)
    if name == "minilm-painting":
        return ac.load_example(PAINTING)
    raise KeyError(name)


def applicable(name: str) -> list:
    """The scenes that apply to the example (the others say why not, as `scenes` does); for
    the trained layer only those a layer needs (its heads, its block): the one-head scenes of
    MiniLM are checked on the 21-token sentence, the same model at real size (suite time)."""
    ex = load(name)
    scenes = [s for s in SCENES if s.why_not(ex) is None]
    if name == "minilm-layer1":
        sentence = load("minilm-painting")
        scenes = [s for s in scenes if s.why_not(sentence) is not None]
    return scenes


def cases(names=NAMES) -> list:
    """pytest params (example name, scene) for every applicable scene of each example."""
    import pytest

    return [
        pytest.param(name, scene, id=f"{name}-{scene.name}")
        for name in names
        for scene in applicable(name)
    ]


# -- the looks the lecturer examples' cases are checked at (tests/test_lecturer_examples.py) ------
# the six looks, taken in turn (one a case: the suite's time; tests/test_caption_numbers.py
# takes the limits' scenes at every aspect)
LOOKS = [("zh", "16:9"), ("en", "4:3"), ("zh", "1:1"), ("en", "16:9"), ("zh", "4:3"), ("en", "1:1")]


def look_of(name: str, scene: str) -> tuple[str, str]:
    """The look a case is checked at, taken in turn from :data:`LOOKS`."""
    shift = NAMES.index(name)
    index = [s.name for s in applicable(name)].index(scene)
    return LOOKS[(index + shift) % len(LOOKS)]


# the look test_scene_ocr.py reads every case at (1080p): a case taken at it is checked on that run
OCR_LOOK = ("en", "16:9")

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


def has_last_still_cases(name: str, scene: str) -> bool:
    """Whether test_lecturer_examples.py's test_the_last_still_holds_the_picture checks
    ``scene`` on ``name`` (at the aspects its clean case is not taken at)."""
    return name in REAL or (name == "at-the-limits" and scene not in ELSEWHERE)


def run_at(name: str, scene: str, aspect: str) -> tuple | None:
    """The run test_lecturer_examples.py (or test_scene_ocr.py, at 16:9) makes of ``scene`` on
    ``name`` at ``aspect``, or None: a check that reads the same in either language rides on it
    (no run of its own). At 16:9 a case not taken there is checked on the OCR run (English,
    1080p): every case has one."""
    lang, taken = look_of(name, scene)
    if aspect == taken:
        return (name, scene, lang, aspect)
    if aspect == OCR_LOOK[1]:
        return (name, scene, *OCR_LOOK)
    return (name, scene, lang, aspect) if has_last_still_cases(name, scene) else None


# the limits' scenes checked :data:`ELSEWHERE` in English at 4:3 and 1:1 (test_scene_layout.py's
# every weight, test_caption_numbers.py's MultiHeadSplit widths); the others there in the
# language test_caption_numbers.limits_lang gives
ELSEWHERE_IN_ENGLISH = ("AttentionMatrix", "CausalMask", "MultiHeadSplit")


def made_at(name: str, scene: str, aspect: str) -> Run:
    """A run the suite makes of ``scene`` on ``name`` at ``aspect`` anyway: :func:`run_at`'s,
    else (a scene of the limits checked :data:`ELSEWHERE`) the one test_scene_layout.py or
    test_caption_numbers.py makes (test_lecturer_examples.py checks that it does): a check of
    every example's last still at every aspect rides on it, no run of its own."""
    run = run_at(name, scene, aspect)
    if run is not None:
        return run
    if name != "at-the-limits" or scene not in ELSEWHERE:
        raise KeyError((name, scene, aspect))
    lang, taken = look_of(name, scene)
    if scene in ELSEWHERE_IN_ENGLISH:
        lang = "en"
    elif taken == "16:9":  # both languages over the two narrow aspects
        lang = "zh" if aspect == "4:3" else "en"
    else:  # the other narrow aspect in the other language
        lang = "en" if lang == "zh" else "zh"
    return (name, scene, lang, aspect)


# -- one run of a scene for every check made on it ---------------------------------------------
# A scene's run on a lecturer example (the costly part: seconds to a minute) is the same run
# whichever test makes it: (example, scene, language, aspect). Each test module registers at
# import what it checks on a run (:func:`on_run`, :func:`shared_case`); a test takes its run's
# stills from :func:`stills_of`, which makes the run once in a process, calling every check
# registered on it at the end of every step; the run's ``xdist_group`` sends all the tests of
# a run to one worker. What the mobjects tell does not depend on the resolution: a run draws its
# frames only where a check reads pixels (contrast, OCR), at the highest resolution one asks for.
# A check of the last still alone (``last``) is made once, on the scene as the run leaves it,
# its frame drawn once at the height it asks for (OCR at 1080p on a run drawn at 540 or not at
# all: one frame more, not one a step).

Run = tuple[str, str, str, str]  # (example name, scene name, language, aspect)

_CHECKS: dict[Run, dict[str, tuple[Callable | None, int | None, bool]]] = {}
_MADE: dict[Run, dict[str, list] | BaseException] = {}


def on_run(
    run: Run,
    check: str,
    snapshot: Callable | None,
    pixels: int | None = None,
    last: bool = False,
):
    """Register ``snapshot(scene)`` on ``run`` as ``check``, to be called at the end of every
    step (None: the check reads the steps' captions only), the frame drawn first at ``pixels``
    high where it reads pixels (None: the mobjects only); return the mark that sends the test
    to the run's worker. ``last``: ``snapshot(scene, frame)`` is called once, on the scene as
    the run leaves it (its last still), ``frame`` that still drawn at ``pixels`` high (None
    without ``pixels``); the other stills' snapshots are None."""
    import pytest

    _CHECKS.setdefault(run, {})[check] = (snapshot, pixels, last)
    return pytest.mark.xdist_group("-".join(run))


def shared_case(
    run: Run, check: str, snapshot: Callable, *values, id: str, pixels=None, marks=(), last=False
):
    """A pytest param (``values``) whose test takes its stills from ``stills_of(run, check)``
    (:func:`on_run`)."""
    import pytest

    mark = on_run(run, check, snapshot, pixels, last)
    return pytest.param(*values, id=id, marks=[*marks, mark])


def stills_of(run: Run, check: str) -> list:
    """The run's stills (StepStill, no frame), each ``snapshot`` what ``check`` returned at it;
    an exception ``check`` raised, or the run, is raised here."""
    if run not in _MADE:
        try:
            _MADE[run] = _make(run)
        except Exception as exc:  # every test of the run fails with it (the run is not retried)
            _MADE[run] = exc
    made = _MADE[run]
    if isinstance(made, BaseException):
        raise made
    stills = made[check]
    raised = [s.snapshot for s in stills if isinstance(s.snapshot, _Raised)]
    if raised:
        raise raised[0].error
    return stills


class _Raised:
    def __init__(self, error: BaseException):
        self.error = error


def _make(run: Run) -> dict[str, list]:
    from dataclasses import replace

    from scenes.kit.look import Look
    from scenes.kit.registry import find
    from scenes.pipeline.stills import run_steps

    name, scene, lang, aspect = run
    checks = dict(_CHECKS[run])
    every = {c: call for c, (call, _, last) in checks.items() if not last}
    pixels = max((p for _, p, last in checks.values() if p and not last), default=None)
    last_pixels = max((p for _, p, last in checks.values() if p and last), default=None)
    ran = []  # the scene (the same at every step)

    def snapshot(s):
        ran[:] = [s]
        return {check: _called(call, s) if call else None for check, call in every.items()}

    ex = load(name)
    look = Look.for_example(ex, lang=lang, aspect=aspect)
    kw = dict(frames=True, pixel_height=pixels) if pixels else dict(frames=False)
    if last_pixels:
        kw["last_pixel_height"] = last_pixels
    stills = run_steps(find(scene).load(), ex, look=look, snapshot=snapshot, **kw)
    for check, (call, _, last) in checks.items():
        for s in stills:
            s.snapshot.setdefault(check, None)
        if last and stills:  # once, on the scene as the run left it
            stills[-1].snapshot[check] = _called(call, ran[0], stills[-1].frame)
    return {
        check: [replace(s, frame=None, snapshot=s.snapshot[check]) for s in stills]
        for check in checks
    }


def _called(call: Callable, *args):
    """``call(*args)``, or what it raised (this check's test fails with it; the others go on)."""
    try:
        return call(*args)
    except Exception as exc:
        return _Raised(exc)
