"""Issue 30 item 4: RotaryPositions visibly turns on a real head. Before, the SmolLM2 induction
head's one pair printed "0.0° per position", its plane showed one quadrant and nothing moved;
now a fast and a slow pair side by side, each angle printed non-zero, each plane around the
origin (both negative halves)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import attention_core as ac
from scene_checks import layout_problems, numbers_problems, on_screen, unshown_caption_numbers
from scenes.kit.look import Look
from scenes.kit.registry import find
from scenes.mobjects.text import Num
from scenes.pipeline.stills import run_steps

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _snapshot(scene):
    """The angles printed (Nums ending in °), each plane's ranges, the |q|·|k| printed and the
    arrows' lengths in each plane's units."""
    nums = on_screen(scene, Num)
    panels = getattr(scene, "panels", [])
    planes = [p.plane for p in panels] or [scene.pair_plane]
    lengths = [
        float(np.linalg.norm(b - a)) / pn.plane.unit
        for pn in panels
        for a, b in pn.plane.shafts[-2:]
    ]
    return {
        "angles": [m.shown for m in nums if m.source_text.endswith("°")],
        "per_position": [m.value for m in nums if m.role[-1] == "degrees"],
        "ranges": [(p.lo, p.hi) for p in planes],
        "lengths": [m.value for m in nums if m.role[-1] == "lengths"],
        "arrows": lengths,
    }


def _stills(example, aspect="16:9"):
    look = Look.for_example(example, lang="en", aspect=aspect)
    scene = find("RotaryPositions").load()
    return run_steps(scene, example, look=look, pixel_height=270, snapshot=_snapshot)


@pytest.mark.parametrize("aspect", ["16:9", "4:3"])
def test_induction_head_turns_two_pairs_at_their_own_angles(aspect):
    ex = ac.load_example(EXAMPLES / "smollm2-induction.toml")
    last = _stills(ex, aspect)[-1].snapshot
    assert last["angles"] and all(float(a) != 0.0 for a in last["angles"])
    fast, slow = last["per_position"]
    assert fast != slow and fast > slow > 0
    assert len(last["ranges"]) == 2
    for lo, hi in last["ranges"]:
        assert lo[0] < 0 < hi[0] and lo[1] < 0 < hi[1]


def test_a_key_too_short_to_see_turn_is_drawn_as_a_direction():
    """The induction head's key is 0.13 of its query's length in pair 2 (drawn to scale: a stub
    whose turn cannot be seen): the core says so (``directions``), the planes draw both to the
    unit circle and the table prints |q|·|k|. The rotary preset's pair stays to scale."""
    from attention_core.readings.rotary_view import STUB, rotary_view

    ex = ac.load_example(EXAMPLES / "smollm2-induction.toml")
    view = rotary_view(ac.trace_example(ex))
    t = view.shown[0]
    assert view.directions and min(t.q_norm, t.k_norm) < STUB * max(t.q_norm, t.k_norm)
    first = _stills(ex, "4:3")[0].snapshot
    assert first["lengths"] == pytest.approx([s.q_norm * s.k_norm for s in view.shown])
    assert first["arrows"] and all(a == pytest.approx(1.0, abs=0.02) for a in first["arrows"])
    preset = rotary_view(ac.trace_example(ac.PRESETS["rotary"]))
    assert not preset.directions


def test_rotary_preset_keeps_one_pair_around_the_origin():
    stills = _stills(ac.PRESETS["rotary"])
    assert [s.key for s in stills] == ["pair", "turn", "score", "shift"]
    ((lo, hi),) = stills[-1].snapshot["ranges"]
    assert lo[0] < 0 < hi[0] and lo[1] < 0 < hi[1]


def _problems(scene):
    return layout_problems(scene) + numbers_problems(scene) + unshown_caption_numbers(scene)


@pytest.mark.parametrize("name", ["smollm2-induction", "smollm2-previous"])
@pytest.mark.parametrize("aspect,lang", [("4:3", "en"), ("1:1", "en"), ("1:1", "zh")])
def test_real_heads_lay_out_at_full_size(name, aspect, lang):
    """The table of two pairs fits beside the planes (below them in a square frame) at full
    size: a first try shrank the column under the minimum size at 4:3 and 1:1."""
    ex = ac.load_example(EXAMPLES / f"{name}.toml")
    look = Look.for_example(ex, lang=lang, aspect=aspect)
    stills = run_steps(find("RotaryPositions").load(), ex, look=look, snapshot=_problems)
    assert [f"{s.key}: {p}" for s in stills for p in s.snapshot] == []
    assert stills[-1].key == f"reading_{'content' if 'induction' in name else 'position'}"
