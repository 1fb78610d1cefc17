"""MultiHeadSplit shows the split (issue 14.1): the split step of two-heads holds Q's 3 × 4 numbers
in head-tinted column blocks, and both heads' Q, K and V blocks; the heads' planes tell q from k;
the per-head form is named in the lecture's words; one head says there is nothing to split; many
heads and tokens stay in the frame."""

import numpy as np

import attention_core as ac
from scene_checks import layout_problems, numbers_problems
from scenes.kit.registry import find
from scenes.mobjects.layout import box_of
from scenes.mobjects.text import Num
from scenes.pipeline.stills import run_steps


def _scene_cls():
    return find("MultiHeadSplit").load()


def _split_snapshot(scene):
    nums = [m for top in scene.mobjects for m in top.get_family() if isinstance(m, Num)]
    family = {id(m) for top in scene.mobjects for m in top.get_family()}
    blocks = {
        name: {
            h: (box_of(frame), id(frame) in family, frame.get_stroke_opacity())
            for h, frame in frames.items()
        }
        for name, frames in scene.head_blocks.items()
    }
    return {
        "nums": [(n.role, n.value, n.get_center()[:2].copy(), _opacity(n)) for n in nums],
        "blocks": blocks,
        "fills": {
            name: {h: _block_fill(scene, name, h) for h in frames}
            for name, frames in scene.head_blocks.items()
        },
    }


def _opacity(mob) -> float:
    """How visible a text is: the fill opacity of its glyphs."""
    return min(g.get_fill_opacity() for g in mob.family_members_with_points())


def _block_fill(scene, name, h):
    """The fill colour of the cells inside head h's frame of matrix ``name``."""
    frame = scene.head_blocks[name][h]
    b = box_of(frame)
    fills = set()
    for top in scene.mobjects:
        for m in top.get_family():
            if hasattr(m, "cell_index"):
                c = m.get_center()
                if b.x0 < c[0] < b.x1 and b.y0 < c[1] < b.y1:
                    fills.add(m.get_fill_color().to_hex())
    return fills


def test_split_step_shows_every_block_of_q_k_v():
    ex = ac.PRESETS["two-heads"]
    tr = ac.trace_example(ex)
    stills = run_steps(_scene_cls(), ex, frames=False, snapshot=_split_snapshot)
    split = next(s for s in stills if s.key == "split")
    shown = {}
    for role, value, centre, opacity in split.snapshot["nums"]:
        if opacity > 0.5:
            shown.setdefault(role, []).append((value, centre))
    for name in ("Q", "K", "V"):
        for h, head in enumerate(tr.heads):
            values = getattr(head, name)
            for i in range(values.shape[0]):
                for j in range(values.shape[1]):
                    role = (f"{name}_map", h, i, j)  # X W's block h (one key/value head a head)
                    assert role in shown, f"{role} is not on screen in the split step"
                    assert all(np.isclose(v, values[i, j]) for v, _ in shown[role])
                    # once in the full n × H·d_k matrix and once in the head's own block
                    assert len(shown[role]) == 2, (role, len(shown[role]))
    # Q = X W_q: an n × d_model matrix, one tinted block per head, each framing its own columns
    for name in ("Q", "K", "V"):
        blocks = split.snapshot["blocks"][name]
        assert set(blocks) == {0, 1}, name
        for h, (box, on_screen, opacity) in blocks.items():
            assert on_screen and opacity > 0.5, (name, h)
            for role, entries in shown.items():
                if role[0] != f"{name}_map":
                    continue
                full = max(entries, key=lambda e: e[1][1])[1]  # the full matrix sits on top
                inside = box.x0 < full[0] < box.x1 and box.y0 < full[1] < box.y1
                assert inside == (role[1] == h), (name, h, role)
        fills = split.snapshot["fills"][name]
        assert fills[0] and fills[1] and fills[0].isdisjoint(fills[1]), fills


def test_heads_step_tells_queries_from_keys():
    ex = ac.PRESETS["two-heads"]

    def snap(scene):
        from manim import Arrow

        family = {id(m): m for top in scene.mobjects for m in top.get_family()}.values()
        arrows = [m for m in family if isinstance(m, Arrow)]
        outlined = [m for m in family if hasattr(m, "tip_point") and m.get_stroke_opacity() > 0.5]
        weights = {n.role for n in family if isinstance(n, Num)}
        return len(arrows), len(outlined), weights

    stills = run_steps(_scene_cls(), ex, frames=False, snapshot=snap)
    heads = next(s for s in stills if s.key == "heads")
    n_solid, n_outlined, roles = heads.snapshot
    assert n_solid >= 2 * ex.n and n_outlined >= 2 * ex.n_keys  # (and the legend's)
    for h in range(2):
        for i in range(ex.n):
            for j in range(ex.n_keys):
                assert ("weights", h, i, j) in roles


def test_per_head_form_is_named_in_the_lectures_words():
    ex = ac.PRESETS["numpy-3x4-two-heads"]
    for lang in ("en", "zh"):
        stills = run_steps(_scene_cls(), ex, frames=False, lang=lang)
        keys = [s.key for s in stills]
        assert keys[-1] == "no_mix" and "mix" not in keys
        text = " ".join(s.caption for s in stills)
        assert "000" not in text and "NumPy" in text


def test_one_head_says_there_is_nothing_to_split():
    stills = run_steps(
        _scene_cls(), ac.PRESETS["zao-shang-hao"], frames=False, snapshot=layout_problems
    )
    assert [s.key for s in stills] == ["one_head"]
    assert not stills[0].snapshot
    assert "1 heads" not in stills[0].caption


def test_twelve_tokens_and_eight_heads_stay_in_the_frame():
    rng = np.random.default_rng(7)
    ex = ac.Example(
        name="many-heads",
        tokens=[f"word{i:02d}" for i in range(12)],
        embeddings=rng.normal(size=(12, 16)).round(2),
        seed=3,
        heads=8,
    )
    for aspect in ("16:9", "1:1"):
        from scenes.kit.look import Look

        look = Look.for_example(ex, lang="en", aspect=aspect)
        stills = run_steps(
            _scene_cls(),
            ex,
            look=look,
            frames=False,
            snapshot=lambda s: layout_problems(s) + numbers_problems(s),
        )
        assert [s.key for s in stills][-1] == "mix"
        problems = [f"{s.key}: {p}" for s in stills for p in s.snapshot]
        assert not problems, "\n".join(problems[:10])
