"""MultiHeadSplit with more heads than fit (issue 30 item 5): the heads drawn are those that
matter — the strongest reading's first, then one head per other reading (``rank_heads``, decided
in the core) — the others are named in a line, and each trained head's plane names its followed
query and the keys that query weighs most."""

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_core as ac
import scene_checks
from attention_core.readings.heads import _strength
from scene_checks import labels_on_arrows, layout_problems
from scenes.kit.captions import multi_head_split as words
from scenes.kit.look import Look
from scenes.kit.registry import BY_NAME
from scenes.mobjects.text import Num
from scenes.parts.multi_head_blocks import spans
from scenes.pipeline.stills import run_steps

ROOT = Path(__file__).resolve().parent.parent
# `attn-explain from-model "violin marble tiger lemon kettle violin marble tiger lemon kettle"
#  --model smollm2 --layer 19 --all-heads`: 9 heads, head 7 an induction head
SMOLLM2_L19 = ROOT / "tests" / "data" / "smollm2-layer19.toml"
MINILM_L1 = ROOT / "examples" / "minilm-cat-layer1.toml"


def weights_of(path):
    ex = ac.load_example(path)
    tr = ac.trace_example(ex)
    return ex, tr, [h.weights for h in tr.heads]


@st.composite
def layers(draw):
    H, n = draw(st.integers(2, 6)), draw(st.integers(2, 6))
    raw = draw(st.lists(st.floats(0.0, 10.0), min_size=H * n * n, max_size=H * n * n).map(np.array))
    w = raw.reshape(H, n, n) + 1e-3
    return list(w / w.sum(axis=2, keepdims=True))


@settings(max_examples=60, deadline=None)
@given(layers())
def test_rank_heads_strongest_first_then_one_per_reading(weights):
    order = ac.rank_heads(weights)
    assert sorted(order) == list(range(len(weights)))  # every head once
    reads = [ac.read_head(w) for w in weights]
    strongest = max(_strength(r) for r in reads)
    assert _strength(reads[order[0]]) == strongest  # the strongest reading's head first

    def kind(r):
        lean = max(r.masses, key=r.masses.get) if not r.habitual else ""
        return (r.pattern if r.habitual else "", lean)

    kinds = [kind(reads[h]) for h in order]
    distinct = len(set(kinds))
    assert len(set(kinds[:distinct])) == distinct  # one head per reading before any repeat
    firsts = [_strength(reads[h]) for h in order[:distinct]]
    assert firsts == sorted(firsts, reverse=True)  # … strongest first


def test_rank_heads_on_trained_layers():
    ex, _, w = weights_of(SMOLLM2_L19)
    order = ac.rank_heads(w, ex.tokens)
    assert order[:2] == [8, 6]  # head 9, a sink at 1.00, then the induction head 7
    assert ac.read_head(w[6], ex.tokens).pattern == "induction"
    ex, _, w = weights_of(MINILM_L1)
    order = ac.rank_heads(w, ex.tokens)
    reads = [ac.read_head(x, ex.tokens) for x in w]
    assert _strength(reads[order[0]]) == max(_strength(r) for r in reads)


def test_cross_attention_heads_keep_their_order():
    w = [np.full((2, 3), 1 / 3)] * 3
    assert ac.rank_heads(w) == [0, 1, 2]


def test_spans_name_runs_of_heads():
    assert spans([3, 4, 5, 7]) == "4–6, 8"
    assert spans([0, 2]) == "1, 3"
    assert spans([0, 1, 5]) == "1, 2, 6"
    for key in ("mh_not_shown", "mh_not_shown_one"):  # both languages
        zh, en = words.WORDS[key]
        assert "{heads}" in zh and "{heads}" in en


def heads_step(path, aspect):
    """The heads step of MultiHeadSplit on ``path``: (heads drawn, {head: its plane's labels},
    every text on screen, the token labels of the queries and the keys, the still's problems,
    and {head: the side of its weights} with the explained head's edge labels)."""
    example = ac.load_example(path)

    def snap(s):
        texts = {getattr(m, "source_text", None) for top in s.mobjects for m in top.get_family()}
        labels = {h: plane_names(p) for h, p in getattr(s, "panels", {}).items()}
        problems = layout_problems(s) + labels_on_arrows(s) + labels_off_own_tips(s)
        sides = {h: min(p.weights.width, p.weights.height) for h, p in s.panels.items()}
        edges = s.panels[s.explained].edges
        size = {"sides": sides, "edges": (edges.rows, edges.cols) if len(edges) else ((), ())}
        return list(s.shown), labels, texts, (s.q_tokens, s.k_tokens), problems, size

    def spread(s):  # the project step: how much of the content's height Q, K and V span
        frames = [f for name in "QKV" for f in s.head_blocks.get(name, {}).values()]
        top, foot = max(f.get_top()[1] for f in frames), min(f.get_bottom()[1] for f in frames)
        return (top - foot) / s.regions.content.height

    stills = run_steps(
        BY_NAME["MultiHeadSplit"].load(),
        example,
        frames=False,
        look=Look.for_example(example, lang="en", aspect=aspect),
        snapshot=lambda s: {"project": spread, "split": split_state}.get(s.steps[-1]["key"], snap)(
            s
        ),
    )
    got = next(st.snapshot for st in stills if st.key == "heads")
    for key in ("project", "split"):
        got[5][key] = next(st.snapshot for st in stills if st.key == key)
    return got


def split_state(scene) -> dict:
    """The split step of a block diagram: the heads drawn, the key/value groups they show, and
    how much of the content's height their panels span."""
    panels = getattr(scene, "split_panels", None)
    heads = list(scene.split_heads)
    return {
        "heads": heads,
        "groups": {scene.maps.group(h) for h in heads},
        "span": panels.height / scene.regions.content.height if panels is not None else 0.0,
        "problems": layout_problems(scene),
    }


def plane_names(panel) -> list[str]:
    """The names in a head's plane: its tip labels (never a key of its colours: one label per
    arrow, at its tip, issue 38)."""
    return [m.source_text for m in panel.labels.get_family() if getattr(m, "is_tip_label", False)]


def labels_off_own_tips(scene, reach: float = 0.45) -> list[str]:
    """Issue 38 (seen at real size): each label in a head's plane within ``reach`` of its own
    arrowhead (a label set away with a leader line, or at another arrow's tip, read as that
    arrow's: "The" sat at head 3's followed query); each labelled arrow with its label."""
    from manim import Arrow

    from scene_checks import _gap, _tip_of
    from scenes.mobjects.layout import box_of

    out = []
    for h, p in getattr(scene, "panels", {}).items():
        parts = [m for m in p.labels.get_family() if getattr(m, "tip_home", None) is not None]
        homes = []
        for m in parts:
            tip = m.get_center() + m.tip_home
            homes.append(tip)
            gap = _gap(tip, box_of(getattr(m, "tip_group", m)))
            if gap > reach:
                out.append(f"head {h + 1}: {m.source_text!r} is {gap:.2f} from its own tip")
        if any(getattr(m, "is_leader", False) for m in p.labels.get_family()):
            out.append(f"head {h + 1}: a label joined to its arrow by a leader line")
        for a in (*p.q_arrows, *p.k_arrows):
            if not getattr(a, "wants_label", False):
                continue
            tip = _tip_of(a) if len(a.submobjects) == 2 or isinstance(a, Arrow) else a.get_center()
            if not any(np.linalg.norm((t - tip)[:2]) < 1e-3 for t in homes):
                out.append(f"head {h + 1}: the arrow at {np.round(tip[:2], 2)} has no label")
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    "path, aspect",
    [(SMOLLM2_L19, "16:9"), (SMOLLM2_L19, "4:3"), (MINILM_L1, "16:9")],
    ids=["smollm2-l19-16:9", "smollm2-l19-4:3", "minilm-l1-16:9"],
)
def test_many_heads_draw_those_that_matter_and_name_the_rest(path, aspect):
    ex, tr, w = weights_of(path)
    order = ac.rank_heads(w, ex.tokens, ex.head_index)
    shown, labels, texts, (q_tokens, k_tokens), problems, size = heads_step(path, aspect)
    assert not problems, problems[:10]
    assert len(shown) < len(w)
    assert shown[0] == ex.head_index  # the explained head first (head 1: the example names none)
    # then the strongest reading's, then one per reading
    assert shown[1:] == sorted(order[1 : len(shown)])
    if path == SMOLLM2_L19:
        assert 8 in shown  # head 9, a sink at 1.00 (the strongest reading)
    left = [h for h in range(len(w)) if h not in shown]
    assert f"heads {spans(left)} not shown" in texts
    for h in shown:  # the followed query and its strongest key, labelled, each label once (a
        pair = ac.followed_pair(tr, ex, h)  # token both a query and a key: q(it) and k(it))
        q, k = q_tokens[pair.query], k_tokens[pair.key]
        assert {q, f"q({q})"} & set(labels[h]), (h, labels[h])
        assert {k, f"k({k})"} & set(labels[h]), (h, labels[h])
        assert len(set(labels[h])) == len(labels[h]), (h, labels[h])
    # issue 38: the project step's middle third was empty (Q, K and V at the top, 30 % of the
    # content): its bars spread over the content where the split takes all of it
    assert size["project"] >= 0.45, size["project"]
    # issue 38: the split drew the heads step's two or three heads in one row, the content's
    # lower half empty; its panels now take rows of it, as many heads as keep each block at
    # least 60 px at 1080p (all 9 over 11 tokens at 16:9), of more than one key/value group
    split = size["split"]
    assert not split["problems"], split["problems"][:5]
    assert split["span"] >= 0.6, split
    assert split["heads"][0] == ex.head_index, split
    assert len(split["heads"]) >= (len(w) if path == SMOLLM2_L19 and aspect == "16:9" else 6)
    if path == SMOLLM2_L19:
        assert len(split["groups"]) >= 2, split
    if aspect == "16:9":  # the explained head drawn larger, its followed row and column labelled
        e, sides = ex.head_index, size["sides"]
        assert all(sides[e] > 1.15 * sides[h] for h in shown if h != e), sides
        pair = ac.followed_pair(tr, ex, e)
        assert size["edges"][0] == [pair.query] and size["edges"][1][0] == pair.key, size


# -- issue 38 items 6 and 7: the explained head first, framed, named with its pair, large ---------
PX = 1080 / 8  # pixels a scene unit at 1080p (the frame is 8 units tall)
HEAD_WORDS = re.compile(r"(?:\bheads?|头) (\d+)(?:–(\d+))?|\b(\d+)–(\d+) (?:share|共用)")


def cited_heads(caption: str) -> set[int]:
    """The head numbers a caption names ("head 6 reads …", "heads 4–6 share …"), from 0."""
    out = set()
    for a, b, c, d in HEAD_WORDS.findall(caption):
        a, b = (a, b) if a else (c, d)
        out.update(range(int(a) - 1, int(b or a)))
    return out


def explained_state(scene):
    """What a step shows of the explained head: the heads drawn (in order), the explained
    head's name and frame, its followed cell's frame, and the side of each head's weights."""
    from scenes.mobjects.layout import box_of

    family = {id(m) for top in scene.mobjects for m in top.get_family()}
    e = scene.explained
    out = {}
    if getattr(scene, "strip", None) is not None and id(scene.strip.grids[e]) in family:
        grids = scene.strip.grids  # the heads kept on screen (the concatenation and W_O)
        out["drawn"] = [h for h in scene.shown if id(grids[h]) in family]
        out["sides"] = {h: min(grids[h].width, grids[h].height) for h in out["drawn"]}
        lead = scene.strip[scene.shown.index(e)]
        out["title"] = " ".join(m.source_text for m in lead[0])
        frame, cell = lead[-1], lead[-2]
        target = grids[e].cell_rect(*_pair(scene, e))
    elif getattr(scene, "panels", None) and scene.steps[-1]["key"] == "heads":
        out["drawn"] = list(scene.panels)
        out["sides"] = {h: min(p.weights.width, p.weights.height) for h, p in scene.panels.items()}
        lead = scene.panels[e]
        out["title"] = " ".join(m.source_text for m in lead.title)
        frame, cell = lead.frame, lead.cell
        target = lead.weights.cell_rect(*_pair(scene, e))
    else:
        return out
    out["texts"] = [
        m.source_text.replace("\u00a0", " ")
        for top in scene.mobjects
        for m in top.get_family()
        if getattr(m, "source_text", None) and id(m) in family
    ]
    out["framed"] = id(frame) in family and box_of(frame).contains(box_of(lead), tol=0.2)
    out["frame_colour"] = frame.get_stroke_color().to_hex().lower()
    out["accent"] = scene.theme.accent.to_hex().lower()
    c = target.get_center()
    out["cell_framed"] = id(cell) in family and box_of(cell).contains(
        type(box_of(cell))(c[0], c[1], c[0], c[1])
    )
    role = ("weights", e, *_pair(scene, e))  # the followed weight, as a number on screen
    out["weight"] = [
        m.shown for m in scene_checks.on_screen(scene, Num)
        if tuple(m.role) == role and scene_checks._inked(m)
    ]  # fmt: skip
    return out


def outputs_state(scene) -> dict:
    """The concatenation step's row of head outputs (a trained layer's block diagram): the heads
    in order, whether the first is framed in the accent, and the shapes written under them."""
    outs = getattr(scene, "outputs", None)
    if outs is None or scene.steps[-1]["key"] != "concat":
        return {}
    first = outs[next(iter(outs))][1].bar
    d_v = scene.trace.heads[0].V.shape[1]  # an output's shape: "8 × 32", once, "each"
    accent = scene.theme.accent.to_hex().lower()
    texts = [m.source_text for top in scene.mobjects for m in top.get_family()
             if getattr(m, "source_text", None)]  # fmt: skip
    return {
        "order": list(outs),
        "first_framed": first.get_stroke_color().to_hex().lower() == accent,
        "shapes": [t for t in texts if re.fullmatch(rf"{scene.example.n} × {d_v}( each)?", t)],
    }


EDGE = 1.5  # a rectangle drawn at least this thick is a block or a frame, not a heatmap's cell


def texts_across_edges(scene) -> list[str]:
    """Each text that a block's or a frame's edge (a rectangle drawn :data:`EDGE` thick or
    more) runs through: partly inside it, not wholly."""
    from manim import Rectangle

    from scenes.mobjects.layout import box_of

    blocks = [
        box_of(m)
        for m in scene_checks.each_mobject(scene)
        if isinstance(m, Rectangle)
        and m.has_points()
        and m.get_stroke_width() >= EDGE
        and m.get_stroke_opacity() >= 0.2
    ]
    out = []
    for mob in scene_checks.texts(scene):
        b = box_of(mob).inset(0.01)
        if any(b.overlaps(r) and not r.contains(b) for r in blocks):
            out.append(f"an edge runs through {scene_checks.describe(mob)!r}")
    return out


def _pair(scene, h):
    p = ac.followed_pair(scene.trace, scene.example, h)
    return p.query, p.key


@pytest.mark.slow
def test_the_explained_head_is_drawn_first_framed_named_and_large_at_1_1():
    """A trained 12-head layer whose explained head is head 9 (as `from-model --all-heads
    --find` writes it), at 1:1: the split drew head 1 first, unlabelled, its pair unframed,
    and ended on a grey 384 × 384 W_O. Now, in the heads step and in the last still, head 9
    comes first, framed, named "head 9: q → k", its followed cell framed in its weights; every
    head drawn is at least 160 px at 1080p (the split's heads are read cell by cell;
    HeadGallery's overview keeps 120), the heads not drawn named on screen ("heads 1, 2, …
    not shown") in each step that draws the heads; a caption names only heads on screen; the
    last still holds the heads."""
    import dataclasses

    from lecturer_examples import load
    from scenes.kit.look import Look

    ex = dataclasses.replace(load("minilm-layer1"), head=9)
    tr = ac.trace_example(ex)
    stills = run_steps(
        BY_NAME["MultiHeadSplit"].load(),
        ex,
        frames=False,
        look=Look.for_example(ex, lang="en", aspect="1:1"),
        snapshot=lambda s: (
            explained_state(s),
            layout_problems(s) + texts_across_edges(s),
            list(getattr(s, "split_heads", [])),
            outputs_state(s),
        ),
    )
    pair = ac.followed_pair(tr, ex, 8)
    name = f"head 9: {ex.tokens[pair.query]} → {ex.tokens[pair.key]}"
    steps = {still.key: still for still in stills}
    assert [s.key for s in stills] == ["project", "split", "heads", "concat", "mix"]
    # no two texts overlap in any step (the concat step's shapes did), no block's edge through
    # a text (the outputs' bars ran through "concat [head 1 … head 12]")
    for still in stills:
        assert not still.snapshot[1], (still.key, still.snapshot[1][:5])
    assert steps["split"].snapshot[2][0] == 8  # the split: the explained head first
    assert len(steps["split"].snapshot[2]) >= 6  # in rows (it drew 2 in one, issue 38)
    # the concatenation: the outputs in the order the heads are drawn (the explained head
    # first, framed in the accent), one shape for them all
    outputs = steps["concat"].snapshot[3]
    assert outputs["order"] == steps["concat"].snapshot[0]["drawn"], outputs
    assert outputs["first_framed"], outputs
    assert outputs["shapes"] == [f"{ex.n} × 32 each"], outputs
    for key in ("heads", "concat", "mix"):  # the heads step, the concatenation, the last still
        state, problems, *_ = steps[key].snapshot
        assert state["drawn"][0] == 8, (key, state["drawn"])
        assert len(state["drawn"]) >= 2, (key, state["drawn"])  # the heads, not W_O alone
        assert state["title"].replace("\u00a0", " ") == name, (key, state["title"])
        assert state["framed"] and state["frame_colour"] == state["accent"], key
        assert state["cell_framed"], key
        if key == "mix":  # the last still: the followed pair's weight beside its cell
            assert state["weight"], (key, state)
        small = {h: s * PX for h, s in state["sides"].items() if s * PX < 160 - 0.5}
        assert not small, (key, small)
        left = [h for h in range(12) if h not in state["drawn"]]  # the rest, named
        said = " ".join(state["texts"])  # (on two lines beside the last head, if need be)
        assert f"heads {spans(left)} not shown" in said, (key, state["texts"])
    on_screen = {"split": set(steps["split"].snapshot[2])}
    on_screen.update(
        {k: set(steps[k].snapshot[0].get("drawn", range(12))) for k in steps if k != "split"}
    )
    for still in stills:
        if still.key in on_screen:
            assert cited_heads(still.caption) <= on_screen[still.key], (still.key, still.caption)


def test_a_caption_names_the_explained_heads_group_only_as_far_as_drawn():
    assert cited_heads("9 query heads share 3 key/value heads (4–6 share K₂, V₂).") == {3, 4, 5}
    assert cited_heads("… (head 6 reads K₂, V₂).") == {5}
