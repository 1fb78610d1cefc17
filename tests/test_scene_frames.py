"""Frame tests on the last frame of every scene (for zao-shang-hao, or the scene's own preset),
against committed control data.

Manim's own frames_comparison skips on Debian 12's cairo 1.16, and pixels differ between Debian
releases, so each control holds (a) the geometry of the final frame — every text with its string,
box and colour, every shape's box and colour — compared with a small tolerance, and (b) the frame
averaged into 48 × 27 cells, compared with a tolerance that text rasterisation cannot exceed but a
moved or recoloured mobject does. Missing control data fails; it is never regenerated silently:
``ATTN_UPDATE_CONTROL=1 make test PYTEST_ARGS=tests/test_scene_frames.py`` rewrites it on purpose.
"""

import copy
import json
import os
from pathlib import Path

import numpy as np
import pytest

import attention_core as ac
from scene_checks import pooled, snapshot
from scenes.kit.registry import SCENES, find
from scenes.pipeline.stills import run_steps

CONTROL = Path(__file__).parent / "control_data"
TEXT_TOL = 0.08  # scene units (the frame is 8 tall): a pixel or two at any resolution
SHAPE_TOL = 0.04
POOL_MEAN_TOL = 4.0  # mean |Δ| over the pooled cells, 0–255
POOL_MAX_TOL = 60.0  # the largest single-cell difference


def final_state(scene_info, example) -> dict:
    stills = run_steps(scene_info.load(), example, pixel_height=270, snapshot=snapshot)
    last = stills[-1]
    return {
        "scene": scene_info.name,
        "steps": [s.key for s in stills],
        "geometry": last.snapshot,
        "pooled": np.round(pooled(last.frame), 1).tolist(),
    }


def compare(control: dict, actual: dict) -> list[str]:
    """Every difference between two final states that a viewer could see."""
    problems = []
    if control["steps"] != actual["steps"]:
        problems.append(f"steps {actual['steps']} ≠ {control['steps']}")
    groups: dict = {}
    for item in control["geometry"]:
        groups.setdefault((item["kind"], item.get("text"), item["color"]), []).append(item)
    for item in actual["geometry"]:
        key = (item["kind"], item.get("text"), item["color"])
        candidates = groups.get(key)
        if not candidates:
            problems.append(
                f"unexpected {item['kind']} {item.get('text', '')!r} "
                f"{item['color']} at {item['box']}"
            )
            continue
        dist = [max(abs(a - b) for a, b in zip(c["box"], item["box"])) for c in candidates]
        best = int(np.argmin(dist))
        tol = TEXT_TOL if item["kind"] == "text" else SHAPE_TOL
        if dist[best] > tol:
            problems.append(
                f"moved {item['kind']} {item.get('text', '')!r}: {item['box']} vs "
                f"{candidates[best]['box']}"
            )
        candidates.pop(best)
    for key, rest in groups.items():
        for item in rest:
            problems.append(f"missing {key[0]} {key[1] or ''!r} {key[2]} at {item['box']}")
    a, b = np.array(control["pooled"]), np.array(actual["pooled"])
    if a.shape != b.shape:
        problems.append(f"pooled frame shape {b.shape} ≠ {a.shape}")
    else:
        diff = np.abs(a - b)
        if diff.mean() > POOL_MEAN_TOL or diff.max() > POOL_MAX_TOL:
            problems.append(f"pixels differ: mean {diff.mean():.2f}, max {diff.max():.1f}")
    return problems


def control_for(name: str) -> dict:
    path = CONTROL / f"{name}.json"
    if not path.exists():
        pytest.fail(
            f"missing control data {path}: frame tests never skip; create it on purpose "
            "with ATTN_UPDATE_CONTROL=1 (docs/development.md, frame tests)"
        )
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def zao():
    return ac.PRESETS["zao-shang-hao"]


@pytest.mark.parametrize("scene", SCENES, ids=[s.name for s in SCENES])
def test_last_frame_matches_control(scene):
    actual = final_state(scene, ac.PRESETS[scene.showcase])
    path = CONTROL / f"{scene.name}.json"
    if os.environ.get("ATTN_UPDATE_CONTROL") == "1":
        CONTROL.mkdir(exist_ok=True)
        path.write_text(json.dumps(actual, ensure_ascii=False, indent=0), encoding="utf-8")
    problems = compare(control_for(scene.name), actual)
    assert not problems, "\n".join(problems[:15])


def test_comparison_catches_one_changed_number():
    control = control_for("DotProducts")
    actual = copy.deepcopy(control)
    for item in actual["geometry"]:
        if item.get("text") == "2.08":
            item["text"] = "2.09"
            break
    else:
        pytest.fail("the DotProducts control shows no 2.08")
    assert any("2.09" in p for p in compare(control, actual))


def test_comparison_catches_one_moved_mobject():
    control = control_for("AttentionMatrix")
    actual = copy.deepcopy(control)
    item = next(i for i in actual["geometry"] if i.get("text") == "0.344")
    item["box"] = [v + 0.3 if k % 2 == 0 else v for k, v in enumerate(item["box"])]
    assert any("moved" in p and "0.344" in p for p in compare(control, actual))


def test_a_different_example_fails_the_comparison(zao):
    """A real render with one embedding changed (早 [1.2, 0.8] → [1.2, 0.9]) is caught."""
    changed = ac.Example(
        name="zao-shang-hao",
        title=zao.title,
        tokens=list(zao.tokens),
        embeddings=[[1.2, 0.9], [0.9, 1.1], [0.7, 1.3]],
    )
    problems = compare(control_for("DotProducts"), final_state(find("DotProducts"), changed))
    assert problems and any("2.08" in p or "moved" in p or "unexpected" in p for p in problems)


def test_missing_control_data_fails_not_skips():
    with pytest.raises(pytest.fail.Exception, match="missing control data"):
        control_for("NoSuchScene")
