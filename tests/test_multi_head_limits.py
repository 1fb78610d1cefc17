"""MultiHeadSplit at the documented limits (12 tokens, 4 heads, causal), at 16:9, 4:3 and 1:1: Q, K
and V of every head are on screen whole (no row or column hidden: squares where the numbers do
not fit), the concatenation shows every head's columns, and the layout is clean.

Each aspect's run (English) is made once for every check on it, and shared with
test_caption_numbers.py's widths (4:3, 1:1) and test_lecturer_examples.py's clean case (16:9)
(lecturer_examples.stills_of)."""

from pathlib import Path

import pytest

import attention_core as ac
from lecturer_examples import ASPECTS, on_run, shared_case, stills_of
from scene_checks import layout_problems, texts

LIMITS = Path(__file__).resolve().parent.parent / "examples" / "at-the-limits.toml"


def limits_run(aspect: str) -> tuple:
    """MultiHeadSplit's run on the limits at ``aspect`` (English): shared by every check on it."""
    return ("at-the-limits", "MultiHeadSplit", "en", aspect)


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


def cells_layout_keys(scene) -> tuple:
    """(the cells on screen, the layout's problems, the colour bars' scales, the labels of the
    heads' planes off their own tips) at a step."""
    from test_multi_head_heads_that_matter import labels_off_own_tips

    crowded = scene.named_arrows(scene.explained) is not None  # (of 12 tokens, every arrow)
    off = labels_off_own_tips(scene) if crowded and scene.steps[-1]["key"] == "heads" else []
    return cells_on_screen(scene), layout_problems(scene), colour_keys(scene), off


def _cases(check: str, snapshot) -> list:
    return [shared_case(limits_run(a), check, snapshot, a, id=a) for a in ASPECTS]


@pytest.mark.slow
@pytest.mark.parametrize("aspect", _cases("q k v kept", cells_layout_keys))
def test_every_head_keeps_q_k_v_at_the_limits(aspect):
    example = ac.load_example(LIMITS)
    n, H = example.n, example.heads
    d_k = ac.trace_example(example).heads[0].d_k
    stills = stills_of(limits_run(aspect), "q k v kept")
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
    if aspect == "1:1":  # fewer heads, each at least 120 px at 1080p (issue 38): head 1 first,
        # alone where two heads' planes are too narrow to name "explanations" at its tip
        assert 0 in heads_shown, heads_shown
    else:
        # every head's weights (issue 38: at 24 tokens, heads 1 and 3 only): the explained
        # head's plane beside its weights, the others' weights beside it
        assert heads_shown == set(range(H)), heads_shown
    # of more tokens than a plane names, each coloured arrow of a head's plane named at its own
    # tip, none by a key or a leader line (issue 38: three arrows at 16:9 had no label, their
    # names in a key)
    off = next(st.snapshot[3] for st in stills if st.key == "heads")
    assert not off, off
    assert count(by_key["concat"][0], "concat") == n * H * d_k  # every head's columns
    problems = [f"{key}: {p}" for key, (_, found) in by_key.items() for p in found]
    assert not problems, "\n".join(problems[:20])


def concat_share(scene):
    """The concatenation's share of the content's height at the concat step (None elsewhere)."""
    if scene.steps[-1]["key"] != "concat":
        return None
    return scene.concat_group.height / scene.regions.content.height


@pytest.mark.slow
@pytest.mark.parametrize("aspect", _cases("concat share", concat_share))
def test_the_concatenation_takes_the_room_it_has(aspect):
    """The concat step had the concatenation in the corner W_O's step would move it to: 12 × 8
    at a third of the content's height (half of the frame empty). It now stands beside the
    head outputs where it is tall (the limits), across the frame where it is wide (a trained
    layer's 384 columns); K's and V's squares take Q's scale."""
    stills = stills_of(limits_run(aspect), "concat share")
    (got,) = [s.snapshot for s in stills if s.key == "concat"]
    assert got >= 0.7, got


def head_titles(scene) -> list[str]:
    """The texts on screen that name a head."""
    return [t.text for t in texts(scene) if "head" in getattr(t, "text", "")]


@on_run(limits_run("4:3"), "head titles", head_titles)
def test_no_gap_is_named_where_every_head_is_drawn():
    """At 4:3 the limits draw all 4 heads in the split and heads steps, titled "… head 4" (the
    title was named among the heads a narrower layout would have drawn)."""
    stills = stills_of(limits_run("4:3"), "head titles")
    for s in stills:
        if s.key in ("split", "heads"):  # Manim's Text drops spaces; head 1 (the explained
            # head) is named with its pair, "head 1: explanations → notes"
            names = {t.split(":")[0] for t in s.snapshot}  # (on one line or two)
            assert {"head1", "head2", "head3", "head4"} <= names, s.snapshot
            assert not [t for t in s.snapshot if t.startswith("…")], (s.key, s.snapshot)


@pytest.mark.slow
@pytest.mark.parametrize("aspect", ["16:9", "4:3", "1:1"])
@pytest.mark.parametrize("which", ["at-the-limits", "smollm2-layer19", "minilm-layer1"])
def test_the_explained_heads_plane_draws_its_cast_large(which, aspect):
    """Issue 38 item 7, a review: the explained head's q·k plane at 24 tokens was fitted to all
    48 arrows, 45 of them grey, and left its cast a pile of arrowheads in a corner of a plane
    80 px tall. Now the plane is fitted to the cast alone — the followed query, its key and
    the keys it weighs most, each named at its tip — the others counted under it ("45 not
    drawn"), never drawn: the cast's longest arrow spans at least half the plane."""
    from lecturer_examples import load
    from scenes.kit.look import Look
    from scenes.kit.registry import find
    from scenes.mobjects.layout import box_of
    from scenes.pipeline.stills import run_steps

    data = Path(__file__).resolve().parent / "data" / "smollm2-layer19.toml"
    ex = ac.load_example(data) if which == "smollm2-layer19" else load(which)

    def snap(scene):
        panel = getattr(scene, "panels", {}).get(scene.explained)
        if panel is None or panel.plane is None:
            return None
        plane = box_of(panel.plane.plane)
        arrows = [*panel.q_arrows, *panel.k_arrows]
        longest = max(max(box_of(a).width, box_of(a).height) for a in arrows)
        notes = panel.note.get_family()
        said = " ".join(getattr(t, "source_text", "") for t in notes).replace("\u00a0", " ")
        drawn = len(panel.q_arrows) + len(panel.k_arrows)
        return longest / max(plane.width, plane.height), len(panel.grey), drawn, said

    look = Look.for_example(ex, lang="en", aspect=aspect)
    stills = run_steps(find("MultiHeadSplit").load(), ex, look=look, frames=False, snapshot=snap)
    heads = next(s.snapshot for s in stills if s.key == "heads")
    assert heads is not None, "the explained head's plane is drawn"
    span, grey, drawn, said = heads
    others = ex.n + ex.n_keys - drawn
    assert grey == 0, grey  # none of the others drawn
    assert f"{others} not drawn" in said, said
    assert span >= 0.5, span
