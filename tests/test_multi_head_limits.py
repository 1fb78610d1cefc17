"""MultiHeadSplit at the documented limits (12 tokens, 4 heads, causal), at 16:9, 4:3 and 1:1: Q, K
and V of every head are on screen whole (no row or column hidden: squares where the numbers do
not fit), the concatenation shows every head's columns, and the layout is clean."""

from pathlib import Path

import pytest

import attention_core as ac
from scene_checks import layout_problems
from scenes.kit.look import Look
from scenes.kit.registry import BY_NAME
from scenes.pipeline.stills import run_steps

LIMITS = Path(__file__).resolve().parent.parent / "examples" / "at-the-limits.toml"


def cells_on_screen(scene) -> set:
    """The roles of the matrix cells on screen (numbers or squares): ("Q", h, i, j) …"""
    out = set()
    for top in scene.mobjects:
        for mob in top.get_family():
            role = getattr(mob, "role", None)
            if role and mob.get_fill_opacity() > 0.1:
                out.add(tuple(role))
    return out


def colour_keys(scene) -> list[str]:
    """The scales of the colour bars on screen ("weights", "scores")."""
    from scenes.mobjects.colour_bar import ColorBar

    bars = [m for top in scene.mobjects for m in top.get_family() if isinstance(m, ColorBar)]
    ends = [[getattr(t, "source_text", "") for t in b.ticks.get_family()] for b in bars]
    return ["scores" if any(t[:1] in "−-" and t for t in e) else "weights" for e in ends]


def count(cells, *names) -> int:
    return sum(1 for r in cells if r[0] in names)


@pytest.mark.slow
@pytest.mark.parametrize("aspect", ["16:9", "4:3", "1:1"])
def test_every_head_keeps_q_k_v_at_the_limits(aspect):
    example = ac.load_example(LIMITS)
    n, H = example.n, example.heads
    d_k = ac.trace_example(example).heads[0].d_k
    stills = run_steps(
        BY_NAME["MultiHeadSplit"].load(),
        example,
        frames=False,
        look=Look.for_example(example, lang="en", aspect=aspect),
        snapshot=lambda s: (cells_on_screen(s), layout_problems(s), colour_keys(s)),
    )
    by_key = {st.key: st.snapshot[:2] for st in stills}
    keys = {st.key: st.snapshot[2] for st in stills}
    # Q, K and V as squares coloured by value: the key of that scale beside them (issue 38)
    assert keys["project"] == keys["split"] == ["scores"], keys
    # … and of the outputs' and concatenation's squares, then concat's, W_O's and the output's
    # (the mix keeps the heads, with their weights' bar)
    assert keys["concat"] == ["scores"] and sorted(keys["mix"]) == ["scores", "weights"], keys
    every = 3 * n * H * d_k  # Q, K and V: every head's every cell
    maps = ("Q_map", "K_map", "V_map")  # Q = X W_q, K, V as the maps give them
    assert count(by_key["project"][0], *maps) == every
    assert count(by_key["split"][0], *maps) == every
    heads_shown = {r[1] for r in by_key["heads"][0] if r[0] == "weights"}
    if aspect == "1:1":  # fewer heads, each at least 120 px at 1080p (issue 38): head 1 first
        assert 0 in heads_shown and len(heads_shown) >= 2, heads_shown
    else:
        assert heads_shown == set(range(H)), heads_shown  # every head's weights (a grid of 2 × 2)
    assert count(by_key["concat"][0], "concat") == n * H * d_k  # every head's columns
    problems = [f"{key}: {p}" for key, (_, found) in by_key.items() for p in found]
    assert not problems, "\n".join(problems[:20])


def limits_split(aspect: str, snapshot) -> list:
    """MultiHeadSplit's steps on the limits at ``aspect`` (English, 360p, no frames)."""
    example = ac.load_example(LIMITS)
    look = Look.for_example(example, lang="en", aspect=aspect)
    return run_steps(
        BY_NAME["MultiHeadSplit"].load(),
        example,
        look=look,
        pixel_height=360,
        frames=False,
        snapshot=snapshot,
    )


@pytest.mark.slow
@pytest.mark.parametrize("aspect", ["16:9", "4:3", "1:1"])
def test_the_concatenation_takes_the_room_it_has(aspect):
    """The concat step had the concatenation in the corner W_O's step would move it to: 12 × 8
    at a third of the content's height (half of the frame empty). It now stands beside the
    head outputs where it is tall (the limits), across the frame where it is wide (a trained
    layer's 384 columns); K's and V's squares take Q's scale."""

    def share(scene):
        if scene.steps[-1]["key"] != "concat":
            return None
        content = scene.regions.content
        return scene.concat_group.height / content.height

    stills = limits_split(aspect, share)
    (got,) = [s.snapshot for s in stills if s.key == "concat"]
    assert got >= 0.7, got


def test_no_gap_is_named_where_every_head_is_drawn():
    """At 4:3 the limits draw all 4 heads in the split and heads steps, titled "… head 4" (the
    title was named among the heads a narrower layout would have drawn)."""
    from scene_checks import texts

    stills = limits_split(
        "4:3", lambda s: [t.text for t in texts(s) if "head" in getattr(t, "text", "")]
    )
    for s in stills:
        if s.key in ("split", "heads"):  # Manim's Text drops spaces; head 1 (the explained
            # head) is named with its pair, "head 1: explanations → notes"
            names = {t.removesuffix(":") for t in s.snapshot}
            assert {"head1", "head2", "head3", "head4"} <= names, s.snapshot
            assert not [t for t in s.snapshot if t.startswith("…")], (s.key, s.snapshot)
