"""Grouped-query heads shown as they are (issue 22.5), and "Q = X W_q" showing what X W_q gives
under rotary positions (22, Projections):

- the core's :func:`attention_core.linear_maps` gives Q, K, V as the maps give them (before RoPE
  turns q and k), K and V one block per key/value head, and which query heads share each;
- MultiHeadSplit draws K and V with G blocks (not H), each named by the query heads that read it;
  a query head's panel takes its group's K and V (K₁ for heads 1–3 of SmolLM2's 9 → 3), every
  number from the core;
- HeadGallery puts each group of query heads in one framed row named by its key/value head;
- Projections' Q = X W_q table holds X W_q, not the turned vectors.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import attention_core as ac
from attention_core.rotary import apply_rotary
from scene_checks import geometry_problems
from scenes.kit.look import Look
from scenes.kit.registry import find
from scenes.mobjects.text import Num
from scenes.pipeline.stills import run_steps


def grouped_example(heads=4, kv=2, d_k=2, n=5, rotary=True, seed=3) -> ac.Example:
    """A small decoder-like example: ``heads`` query heads over ``kv`` key/value heads."""
    rng = np.random.default_rng(seed)
    d = heads * d_k
    w = {
        "W_q": rng.normal(size=(d, heads * d_k)),
        "W_k": rng.normal(size=(d, kv * d_k)),
        "W_v": rng.normal(size=(d, kv * d_k)),
        "W_o": rng.normal(size=(heads * d_k, d)),
    }
    fields = dict(
        tokens=[f"t{i}" for i in range(n)], embeddings=rng.normal(size=(n, d)).tolist(),
        heads=heads, kv_heads=kv, weights=w, mask="causal",
    )  # fmt: skip
    if rotary:
        fields["rotary_base"] = 10.0
    return ac.Example.from_dict(fields)


# -- the core ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "heads,kv,rotary", [(4, 2, True), (4, 2, False), (6, 3, True), (4, 4, True)]
)
def test_linear_maps_are_x_w_before_the_turn_and_name_the_groups(heads, kv, rotary):
    ex = grouped_example(heads, kv, rotary=rotary)
    tr, w = ac.trace_example(ex), ex.weights
    maps = ac.linear_maps(tr)
    assert (maps.heads, maps.kv_heads, maps.shared, maps.rotated) == (heads, kv, kv < heads, rotary)
    np.testing.assert_allclose(maps.Q, ex.embeddings @ w.W_q)
    np.testing.assert_allclose(maps.K, ex.embeddings @ w.W_k)
    np.testing.assert_allclose(maps.V, ex.embeddings @ w.W_v)
    assert maps.K.shape == (ex.n, kv * 2)
    size = heads // kv
    for h in range(heads):
        g = h // size
        assert maps.group(h) == g and h in maps.members(g)
        Q_h, K_g, V_g = maps.head(h)
        turn = (lambda M: apply_rotary(M, base=10.0)) if rotary else (lambda M: M)
        np.testing.assert_allclose(turn(Q_h), tr.heads[h].Q, atol=1e-12)  # the trace's: turned
        np.testing.assert_allclose(turn(K_g), tr.heads[h].K, atol=1e-12)
        np.testing.assert_allclose(V_g, tr.heads[h].V)
    assert sorted(h for g in range(kv) for h in maps.members(g)) == list(range(heads))


def test_linear_maps_of_ordinary_examples_are_the_traces_own():
    for name in ("zao-shang-hao", "two-heads", "causal", "numpy-3x4-two-heads", "cross-zh-en"):
        tr = ac.trace_example(ac.PRESETS[name])
        maps = ac.linear_maps(tr)
        assert not maps.shared and not maps.rotated
        for h, head in enumerate(tr.heads):
            for got, want in zip(maps.head(h), (head.Q, head.K, head.V)):
                assert np.array_equal(got, want)


# -- the scenes ----------------------------------------------------------------------------------
def _run(scene: str, ex: ac.Example, lang="en", aspect="16:9", snapshot=None):
    look = Look.for_example(ex, lang=lang, aspect=aspect)
    return run_steps(find(scene).load(), ex, look=look, frames=False, snapshot=snapshot)


def _split_state(scene) -> dict:
    cells = [m for top in scene.mobjects for m in top.get_family() if getattr(m, "role", None)]
    tags = [m.source_text for top in scene.mobjects for m in top.get_family()
            if getattr(m, "source_text", None)]  # fmt: skip
    return {
        "blocks": {name: sorted(frames) for name, frames in scene.head_blocks.items()},
        "roles": {tuple(c.role[:2]) for c in cells},  # numbers, or squares where they don't fit
        "texts": tags,
        "problems": geometry_problems(scene),
    }


@pytest.mark.parametrize("aspect", ["16:9", "4:3", "1:1"])
def test_multi_head_split_draws_shared_key_value_heads(aspect):
    ex = grouped_example(4, 2)
    stills = _run("MultiHeadSplit", ex, aspect=aspect, snapshot=_split_state)
    steps = {s.key: s.snapshot for s in stills}
    project, split = steps["project"], steps["split"]
    assert project["blocks"] == {"Q": [0, 1, 2, 3], "K": [0, 1], "V": [0, 1]}
    tags = [t.removeprefix("heads ") for t in project["texts"]]  # "heads 1–2", or "1–2"
    assert tags.count("1–2") == 2 and tags.count("3–4") == 2, project["texts"]  # K's and V's
    # heads 1 and 2 take K₁ and V₁ (the map's blocks, before the turn); 3 and 4 K₂, V₂
    kv = {r for r in split["roles"] if r[0] in ("K_map", "V_map")}
    assert kv == {("K_map", 0), ("K_map", 1), ("V_map", 0), ("V_map", 1)}, split["roles"]
    assert not any(r[0] in ("Q", "K") for r in split["roles"])  # never the turned vectors as X W
    for key, snap in steps.items():
        assert snap["problems"] == [], (key, snap["problems"])


def test_multi_head_split_captions_say_the_heads_share():
    ex = grouped_example(6, 3)
    caps = {s.key: s.caption for s in _run("MultiHeadSplit", ex)}
    assert "K and V into only 3" in caps["project"]
    # the explained head's group, named only as far as its heads are drawn (issue 38)
    said = r"6 query heads share 3 key/value heads \((1–2 share K₁, V₁|head 1 reads K₁, V₁)\)"
    assert re.search(said, caps["split"]), caps["split"]
    assert "turned by position (RoPE)" in caps["heads"]


def _gallery_state(scene) -> dict:
    from manim import SurroundingRectangle

    frames = [m for top in scene.mobjects for m in top.get_family()
              if isinstance(m, SurroundingRectangle) and m.get_stroke_width() < 2]  # fmt: skip
    texts = [m.source_text for top in scene.mobjects for m in top.get_family()
             if getattr(m, "source_text", None)]  # fmt: skip
    return {"frames": len(frames), "texts": texts, "problems": geometry_problems(scene)}


@pytest.mark.parametrize("lang,aspect", [("en", "16:9"), ("zh", "1:1"), ("en", "4:3")])
def test_head_gallery_frames_one_row_per_key_value_head(lang, aspect):
    ex = grouped_example(6, 3, n=4)
    steps = _run("HeadGallery", ex, lang=lang, aspect=aspect, snapshot=_gallery_state)
    first = steps[0].snapshot
    if aspect == "1:1" and not first["frames"]:  # no room for the groups' frames and names:
        # every head drawn, or fewer, each at least 120 px at 1080p, the others named
        every = all(f"头 {h}" in first["texts"] for h in range(1, 7))
        named = any("未画出" in t or "not shown" in t for t in first["texts"])
        assert every or named, first["texts"]
        assert not re.search(r"query heads in|个查询头分成", steps[0].caption), steps[0].caption
    else:
        assert first["frames"] == 3
        names = ["K/V 1", "K/V 2", "K/V 3"] if lang == "en" else ["键值 1", "键值 2", "键值 3"]
        assert all(n in first["texts"] for n in names), first["texts"]
        assert re.search(r"6 query heads in 3 groups|6 个查询头分成 3 组", steps[0].caption)
    for s in steps:
        assert s.snapshot["problems"] == [], (s.key, s.snapshot["problems"])


def test_ungrouped_gallery_has_no_group_frames():
    steps = _run("HeadGallery", ac.PRESETS["two-heads"], snapshot=_gallery_state)
    assert steps[0].snapshot["frames"] == 0
    assert not any("K/V" in t for t in steps[0].snapshot["texts"])


def test_projections_under_rope_shows_x_w_not_the_turned_vectors():
    """The rotary preset (W = I): its "Q = K = V = X" table showed the turned q (e.g. 上 at
    −0.44, 1.35) before; it must show X itself, and the caption say that RoPE turns them later."""
    ex = ac.PRESETS["rotary"]

    def table(scene):
        return sorted(
            (n.role, round(n.value, 9)) for top in scene.mobjects for n in top.get_family()
            if isinstance(n, Num) and n.role and n.role[0].startswith("Q")
        )  # fmt: skip

    steps = {s.key: s for s in _run("Projections", ex, snapshot=table)}
    got = steps["identity"].snapshot
    cells = np.ndenumerate(ex.embeddings)
    want = sorted((("Q_map", 0, i, j), round(float(v), 9)) for (i, j), v in cells)
    assert got == want
    assert "until RoPE turns q and k" in steps["identity"].caption


@pytest.mark.slow
def test_smollm2_layer_is_shown_as_nine_query_heads_over_three(cli, tmp_path):
    """A real SmolLM2 layer (`from-model --model smollm2 --all-heads`): K and V drawn as 3 blocks
    of 64, not 9; the gallery in three framed rows; nothing overlaps or leaves the frame (at 1:1,
    where K and V go below Q). Before, the 576-wide matrices ran off the frame."""
    r = cli("from-model", "The cat sat on the mat", "--model", "smollm2", "--layer", 2,
            "--all-heads", "-o", "sm.toml", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    ex = ac.load_example(tmp_path / "sm.toml")
    steps = {s.key: s.snapshot for s in _run("MultiHeadSplit", ex, "zh", "1:1", _split_state)}
    assert steps["project"]["blocks"] == {"Q": list(range(9)), "K": [0, 1, 2], "V": [0, 1, 2]}
    for key, snap in steps.items():
        assert snap["problems"] == [], (key, snap["problems"])
    gallery = _run("HeadGallery", ex, "en", "16:9", _gallery_state)
    assert gallery[0].snapshot["frames"] == 3
    assert all(s.snapshot["problems"] == [] for s in gallery), [s.snapshot for s in gallery]
