"""No label on an arrow: at the end of every step, no tip label (q(…), k(…), v(…), o(…), E(…) …)
covers an arrowhead or lies on an arrow's shaft — its own arrow's tip, which it sits beside, is
the one point it may touch. Checked on the scenes that draw arrows, over the presets, the
examples at the limits and random examples."""

from pathlib import Path

import numpy as np
import pytest
from manim import Arrow
from test_scene_layout import random_example

import attention_core as ac
from scenes.mobjects.layout import box_of
from scenes.mobjects.plane import SHAFT_SAMPLES
from scenes.pipeline.stills import run_steps
from scenes.registry import BY_NAME

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ARROW_SCENES = [
    "Embeddings",
    "Projections",
    "DotProducts",
    "WeightedSum",
    "Overview",
    "MultiHeadSplit",
    "PositionalEncoding",
    "EncoderBlock",
    "CrossAttention",
]
TOUCH = 0.03  # a label's edge may touch a point this close (its own tip, where it is anchored)


def arrows_on_screen(scene):
    """(tail, tip) on screen of every visible arrow: solid ones and outlined (key) ones."""
    seen, out = set(), []
    for top in scene.mobjects:
        for mob in top.get_family():
            if id(mob) in seen:
                continue
            seen.add(id(mob))
            if isinstance(mob, Arrow):
                if mob.has_points() and mob.get_stroke_opacity() >= 0.2:
                    out.append((mob.get_start(), mob.get_end()))
            elif hasattr(mob, "tip_point") and len(mob.submobjects) == 2:
                shaft, head = mob.submobjects
                if shaft.has_points() and head.has_points() and head.get_stroke_opacity() >= 0.2:
                    out.append((shaft.get_start(), head.get_vertices()[0]))
    return out


def tip_labels_on_screen(scene):
    seen, out = set(), []
    for top in scene.mobjects:
        for mob in top.get_family():
            if getattr(mob, "is_tip_label", False) and id(mob) not in seen:
                seen.add(id(mob))
                if mob.get_fill_opacity() >= 0.2:
                    out.append(mob)
    return out


def labels_on_arrows(scene) -> list[str]:
    """Each label that covers an arrowhead or a point along a shaft."""
    problems = []
    arrows = arrows_on_screen(scene)
    for mob in tip_labels_on_screen(scene):
        b = box_of(mob)
        inner = (b.x0 + TOUCH, b.y0 + TOUCH, b.x1 - TOUCH, b.y1 - TOUCH)

        def inside(p, inner=inner):
            return inner[0] < p[0] < inner[2] and inner[1] < p[1] < inner[3]

        for a, tip in arrows:
            a, tip = np.asarray(a), np.asarray(tip)
            if np.linalg.norm(tip - a) < 1e-3:
                continue
            if inside(tip):
                problems.append(f"{mob.source_text!r} covers an arrowhead at {tip[:2].round(2)}")
                break
            if any(inside(a + t * (tip - a)) for t in SHAFT_SAMPLES):
                problems.append(f"{mob.source_text!r} lies on an arrow's shaft")
                break
    return problems


def check(scene_name, example, **kw):
    stills = run_steps(
        BY_NAME[scene_name].load(), example, frames=False, snapshot=labels_on_arrows, **kw
    )
    problems = [f"{st.key}: {p}" for st in stills for p in st.snapshot]
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("scene", ARROW_SCENES)
@pytest.mark.parametrize("preset", ["zao-shang-hao", "two-heads", "causal", "cross-zh-en"])
def test_preset_labels_keep_off_arrows(scene, preset):
    check(scene, ac.PRESETS[preset])


@pytest.mark.slow
@pytest.mark.parametrize("scene", ARROW_SCENES)
@pytest.mark.parametrize("aspect", ["16:9", "4:3", "1:1"])
def test_labels_keep_off_arrows_at_the_limits(scene, aspect):
    from scenes.look import Look

    example = ac.load_example(EXAMPLES / "at-the-limits.toml")
    check(scene, example, look=Look.for_example(example, lang="en", aspect=aspect))


@pytest.mark.slow
@pytest.mark.parametrize("k", range(12))
def test_random_examples_keep_labels_off_arrows(k):
    """Every arrow scene meets several random examples (1–12 tokens, 2–6 dims, masks, heads,
    source sequences)."""
    example = random_example(k)
    for scene in (ARROW_SCENES[k % len(ARROW_SCENES)], ARROW_SCENES[(k + 4) % len(ARROW_SCENES)]):
        check(scene, example)


def test_the_check_sees_a_label_on_an_arrow():
    """The check can fail: a label put on purpose over an arrow's shaft is reported."""
    from manim import Scene

    from scenes.mobjects.text import label

    scene = Scene()
    arrow = Arrow([0, 0, 0], [2, 0, 0], buff=0)
    text = label("q(x)", 24).move_to([1, 0, 0])
    text.is_tip_label = True
    scene.add(arrow, text)
    assert labels_on_arrows(scene)
    text.move_to([1, 1, 0])
    assert not labels_on_arrows(scene)
