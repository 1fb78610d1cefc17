"""The starter scene (scenes/_template.py) that CONTRIBUTING's recipe copies: it renders, each
step is a caption of its own in both languages, its numbers are the core's, and its layout is
clean — for the showcase and for an example at the limits, so a copy starts from working code."""

from pathlib import Path

import pytest

import attention_core as ac
from scene_checks import layout_problems, numbers_problems
from scenes._template import StarterScene
from scenes.kit import captions
from scenes.kit.registry import SCENES
from scenes.pipeline.stills import run_steps

LIMITS = ac.load_example(Path(__file__).parent.parent / "examples" / "at-the-limits.toml")


@pytest.mark.parametrize("example", [ac.PRESETS["zao-shang-hao"], LIMITS], ids=["zsh", "limits"])
@pytest.mark.parametrize("lang", captions.LANGS)
def test_the_starter_scene_runs_cleanly(example, lang):
    stills = run_steps(
        StarterScene,
        example,
        lang=lang,
        frames=False,
        snapshot=lambda s: layout_problems(s) + numbers_problems(s),
    )
    assert [s.key for s in stills] == list(captions.CAPTIONS["StarterScene"])
    for still in stills:
        assert still.snapshot == [], (still.key, still.snapshot)


def test_the_starter_scene_is_not_offered_to_users():
    assert "StarterScene" not in {s.name for s in SCENES}
