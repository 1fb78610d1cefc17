"""The starter scene (scenes/_template.py) that CONTRIBUTING's recipe copies: it renders, each
step is a caption of its own in both languages, its numbers are the core's, and it passes the
checks every registered scene is held to (tests/lecturer_examples.py's: layout, numbers, labels,
every number a caption names on its still, a last still with its picture) — for the showcase and
for the 24-token example at the limits, at each aspect, so a copy starts from working code that
handles a lecturer's 24 tokens (issue 38: its list ran six texts out of the frame, and its
"{n} tokens" caption named a count no text on screen showed)."""

from pathlib import Path

import pytest

import attention_core as ac
from scene_checks import (
    dropped_or_distant_labels,
    final_frame_problems,
    geometry_problems,
    unshown_caption_numbers,
)
from scenes._template import StarterScene
from scenes.kit import captions
from scenes.kit.look import Look
from scenes.kit.registry import SCENES
from scenes.pipeline.stills import run_steps

LIMITS = ac.load_example(Path(__file__).parent.parent / "examples" / "at-the-limits.toml")


def _problems(scene) -> tuple[list[str], list[str]]:
    """What the lecturer examples' checks find at a step's end, and on it as a last still."""
    found = geometry_problems(scene) + dropped_or_distant_labels(scene)
    return found + unshown_caption_numbers(scene), final_frame_problems(scene)


@pytest.mark.parametrize(
    "example,lang,aspect",
    [
        (ac.PRESETS["zao-shang-hao"], "en", "4:3"),
        (ac.PRESETS["zao-shang-hao"], "zh", "1:1"),
        (LIMITS, "en", "1:1"),
        (LIMITS, "zh", "16:9"),
    ],
    ids=["zsh-en-4:3", "zsh-zh-1:1", "limits-en-1:1", "limits-zh-16:9"],
)
def test_the_starter_scene_runs_cleanly(example, lang, aspect):
    look = Look.for_example(example, lang=lang, aspect=aspect)
    stills = run_steps(StarterScene, example, look=look, frames=False, snapshot=_problems)
    assert [s.key for s in stills] == ["tokens", "lengths"]
    crowded = example.n > 12  # (scenes.mobjects.plane.CROWDED): the cast named, the rest counted
    for still, key in zip(stills, ("tokens", "lengths")):
        caption = captions.CAPTIONS["StarterScene"][f"{key}_many" if crowded else key]
        words = captions.pick(caption, lang).split("{")[0]
        assert still.caption.startswith(words), (still.key, still.caption)
        assert still.snapshot[0] == [], (still.key, still.snapshot[0])
    assert stills[-1].snapshot[1] == [], stills[-1].snapshot[1]


def test_the_starter_scene_is_not_offered_to_users():
    assert "StarterScene" not in {s.name for s in SCENES}
