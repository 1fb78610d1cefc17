"""Issue 44: the followed pair's row and column are never elided, wherever its key sits.

CausalMask crashed at 1:1 on a real 23-token sentence (SmolLM2, she → baker, the key in the
middle): the weights matrix kept the followed row but elided the key's column, and framing the
cell handed Manim nothing (`TypeError: Expected all inputs for parameter mobjects …`). Now a
matrix keeps the rows and the columns of the cells it names (``named``), and framing a cell
that is not drawn is an :class:`ElidedCellError` naming the cell, never a TypeError.

Checked at three depths: the elision rule itself (every count, room and wanted index), a
24 × 24 matrix fitted to each aspect's content with the followed cell anywhere, and every
applicable scene of two real sentences whose followed key sits in the middle (one per model)
at 1:1 (those with a matrix of queries × keys at every aspect), each step's matrices showing
the followed cell."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from manim import ManimColor
from real_size_matrix_checks import (
    attention_matrix_problems,
    badges_over_cells,
    overview_table_problems,
)

import attention_core as ac
from scene_checks import geometry_problems, on_screen, real_size_problems, story_missing
from scenes.kit.look import Look
from scenes.kit.registry import SCENES
from scenes.mobjects.elision import ElidedCellError, elide
from scenes.mobjects.matrix import LabelledMatrix
from scenes.mobjects.theme import get_theme
from scenes.pipeline.stills import run_steps

ROOT = Path(__file__).resolve().parent.parent
# two real sentences, the followed key in the middle (issue 44's own and a MiniLM one)
SENTENCES = {
    "smollm2-baker": ROOT / "examples" / "smollm2-baker.toml",  # she → baker, key 11 of 23
    "minilm-painting": ROOT / "examples" / "minilm-painting.toml",  # they → painting, 16 of 21
}


@settings(max_examples=300, deadline=None)
@given(
    count=st.integers(1, 30),
    room=st.floats(0.0, 12.0),
    step=st.floats(0.15, 1.5),
    keep=st.lists(st.integers(0, 29), max_size=4),
)
def test_the_most_wanted_index_is_never_elided(count, room, step, keep):
    shown = elide(count, room, step, keep)
    wanted = [k for k in keep if k < count]
    indices = [k for k in shown if k is not None]
    assert indices == sorted(set(indices)), shown
    if wanted:
        assert wanted[0] in indices, (shown, wanted)
    if count * step <= room:
        assert indices == list(range(count))


def _weights(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return ac.softmax(rng.normal(size=(n, n)) * 3)


# the content boxes of a scene's matrix at 16:9, 4:3 and 1:1 (frame less title and caption),
# and a narrower half of the 16:9 one (CausalMask's two matrices side by side)
BOXES = {
    "16:9": (-6.86, -2.09, 6.86, 2.9),
    "4:3": (-5.08, -2.09, 5.08, 2.9),
    "1:1": (-3.75, -2.09, 3.75, 2.9),
    "half": (-6.86, -2.09, -0.2, 2.9),
}


@pytest.mark.parametrize("box", BOXES, ids=list(BOXES))
def test_a_named_cell_keeps_its_row_and_column_anywhere(box):
    """Numbers elided (``fitted`` without squares), the followed cell (query, key) at the
    corners, the middle and off the diagonal of 24 tokens: its row and column are drawn, and
    framing it gives a frame round it."""
    from scenes.mobjects.layout import Box

    theme = get_theme("dark")
    tokens = [f"word{i}" for i in range(24)]
    values = _weights(24)
    for query, key in [(0, 0), (23, 11), (12, 5), (20, 23), (7, 16)]:
        m = LabelledMatrix.fitted(
            values, ("weights", 0), theme, tokens, tokens, Box(*BOXES[box]), named=[(query, key)]
        )
        assert query in m.shown_rows and key in m.shown_columns, (query, key, box)
        frame = m.highlight(query, key)
        assert frame.get_center() == pytest.approx(m.cell_rect(query, key).get_center())


def test_framing_an_elided_cell_names_it():
    from scenes.mobjects.layout import Box

    theme = get_theme("dark")
    tokens = [f"word{i}" for i in range(24)]
    m = LabelledMatrix.fitted(
        _weights(24), ("weights", 0), theme, tokens, tokens, Box(*BOXES["1:1"]), digits=3
    )
    hidden = next(j for j in range(24) if j not in m.shown_columns)
    with pytest.raises(ElidedCellError, match=rf"cell \(0, {hidden}\) of a 24 × 24 matrix"):
        m.highlight(0, hidden)


def followed_cell_hidden(scene) -> list[str]:
    """Every query × key matrix on screen that elides the followed pair's row or column."""
    from manim import VGroup

    pair = ac.followed_pair(scene.trace)
    if pair is None:
        return []
    shape = scene.head.weights.shape
    out = []
    for group in on_screen(scene, VGroup):
        m = getattr(group, "of_matrix", lambda: None)()
        if m is None or tuple(m.shape) != tuple(shape):
            continue
        if pair.query not in m.shown_rows or pair.key not in m.shown_columns:
            out.append(
                f"{m.shape} matrix hides the followed cell ({pair.query}, {pair.key}): rows "
                f"{m.shown_rows}, columns {m.shown_columns}"
            )
    return out


# the scenes that draw a matrix of queries × keys: also at the two wider aspects
MATRIX_SCENES = ("DotProducts", "Scaling", "AttentionMatrix", "Overview", "CausalMask")


def cast_colour_problems(scene) -> list[str]:
    """Every labelled row of a query × key matrix on screen in its cast colour, or in the quiet
    tone outside the cast: at most :data:`attention_core.CAST_SIZE` token colours (issue 38)."""
    from manim import VGroup

    cast, theme = ac.story_cast(scene.trace), scene.theme
    want = {i: theme.token(r) for r, i in enumerate(cast)}
    out = []
    for group in on_screen(scene, VGroup):
        m = getattr(group, "of_matrix", lambda: None)()
        if m is None or tuple(m.shape) != tuple(scene.head.weights.shape):
            continue
        for i, lab in m.row_label_of.items():
            colour = want.get(i, theme.muted).to_hex().lower()
            if lab.get_color().to_hex().lower() != colour:
                out.append(f"row {i} label in {lab.get_color().to_hex()}, not {colour}")
    return out


PLANE_SHARE = 0.45  # DotProducts at 1:1: its q/k plane at least this share of the frame's width


def dot_products_problems(scene) -> list[str]:
    """DotProducts' story at real size (issue 38): each pair step works the key the core
    gives (``attention_core.worked_keys``: the followed key, then its query's heaviest), never
    one the mask blocks, at every aspect (16:9 worked a blocked key, 4:3 one key only); at 1:1
    the q/k plane is at least :data:`PLANE_SHARE` of the frame's width while the query and its
    pairs are worked (it was 80 px of 720); where the followed row's keys are labelled, no
    label across another's arrow or way (:func:`labels_across_arrows`) and no foot on another
    or under a label (:func:`feet_problems`)."""
    if scene.scene_name != "DotProducts" or not scene.steps:  # the first step's first page
        return []
    step, caption, out = scene.steps[-1]["key"], scene.steps[-1]["caption"], []
    i, head = scene.followed_query().row, scene.head
    seen = np.ones(head.weights.shape[1], bool) if head.mask is None else head.mask[i]
    pair = ac.followed_pair(scene.trace)
    key = pair.key if pair.query == i and pair.kind != "demo" else None
    want = ac.worked_keys(head.weights[i], key, seen)
    if step == "matrix":  # every worked key had its pair step
        pairs = [s["key"] for s in scene.steps if s["key"].startswith("pair")]
        if len(pairs) != len(want):
            out.append(f"{len(pairs)} keys worked, not the story's {len(want)}")
    if step.startswith("pair"):  # the key its caption names ("q(it)·k(soup): …")
        named = [(caption.find(f"·k({t})"), b) for b, t in enumerate(scene.k_tokens)]
        worked = min((at, b) for at, b in named if at >= 0)[1]
        n = int(step[len("pair") :])
        if not seen[worked]:
            out.append(f"{step} works k({scene.k_tokens[worked]}), which the mask blocks")
        if n > len(want) or worked != want[n - 1]:
            out.append(f"{step} works key {worked}, not the story's {list(want)}")
    # its cos θ against random directions' (issue 38; at 1:1 only where the plane has room)
    if step == "pair1" and head.d_k > 2 and scene.look.aspect != "1:1":
        spread = f"±{ac.random_cos_spread(head.d_k):.3f}"
        times = f"{ac.cos_against_random(head.Q[i], head.K[want[0]]):.1f}"
        if spread not in caption or f"{times} times" not in caption:
            out.append(f"pair1 does not compare cos θ with random directions': {caption!r}")
    if step in ("matrix", "again"):  # the plane of the followed row's keys, labelled
        out += labels_across_arrows(scene) + feet_problems(scene)
    if scene.look.aspect == "1:1" and (step == "query" or step.startswith("pair")):
        share = scene.plane.plane.width / scene.frame.width
        if share < PLANE_SHARE:
            out.append(f"the plane is {share:.0%} of the frame's width (< {PLANE_SHARE:.0%})")
    return out


# the scenes whose followed pair's number is checked clear of every frame's stroke (AttentionMatrix
# at 1:1 drew MiniLM's 0.366 on its badge under the reading's frames on the column beside it)
FRAMED_CHECKED = ("Projections", "DotProducts", "AttentionMatrix")


def framed_pair_numbers(scene) -> list[str]:
    """The followed pair's number (its score or weight, a cell's or a note's) never under a
    frame's stroke: inside the frame or clear of it (issue 38: Projections at 1:1 centred
    "21.05" on its framed square, and the frame made it "2 ..(5")."""
    from manim import SurroundingRectangle

    from scenes.kit.drawing import QUERY_KEY_ROLES
    from scenes.mobjects.layout import box_of
    from scenes.mobjects.text import Num

    if scene.scene_name not in FRAMED_CHECKED:
        return []
    pair = ac.followed_pair(scene.trace)

    def of_pair(role) -> bool:
        if role[:1] == ("scores_row",):  # one query's row: (kind, head, row, 0, key)
            return len(role) == 5 and (role[2], role[4]) == (pair.query, pair.key)
        return role[:1] in [(k,) for k in QUERY_KEY_ROLES] and role[-2:] == (pair.query, pair.key)

    def shown(n) -> bool:
        return max((m.get_fill_opacity() for m in n.family_members_with_points()), default=0) > 0

    nums = [n for n in on_screen(scene, Num) if of_pair(tuple(n.role)) and shown(n)]
    out = []
    for frame in on_screen(scene, SurroundingRectangle):
        if frame.get_stroke_opacity() < 0.05 or frame.get_stroke_width() <= 0:
            continue
        half = frame.get_stroke_width() / 200  # Cairo: a stroke width of 1 is 0.01 units
        box = box_of(frame)
        outer, inner = box.inset(-half), box.inset(half)
        for n in nums:
            b = box_of(n)
            if b.overlaps(outer) and not inner.contains(b):
                out.append(f"a frame's stroke crosses the followed pair's {n.source_text!r} at {b}")
    return out


def scaling_table_problems(scene) -> list[str]:
    """Scaling's table of scores at real size (issue 38: it framed "chef" and "tasted", no part
    of the story, and hid "it", "that" and "brought" behind "…" at 1:1 and 4:3): every cell it
    frames is a cast token's row and column (:func:`attention_core.story_cast`), and a table
    that hides a cast row or column shows no token outside the cast in its place (but the last,
    which elision always keeps): the cast is elided only where no room is left for it."""
    from manim import SurroundingRectangle, VGroup

    from scenes.mobjects.layout import box_of

    if scene.scene_name != "Scaling":
        return []
    cast, pair, out = ac.story_cast(scene.trace), ac.followed_pair(scene.trace), []
    accent = ManimColor(scene.theme.accent).to_hex().upper()
    frames = [
        box_of(f)
        for f in on_screen(scene, SurroundingRectangle)
        if f.get_stroke_opacity() > 0.05
        and ManimColor(f.get_stroke_color()).to_hex().upper() == accent
    ]
    for group in on_screen(scene, VGroup):
        m = getattr(group, "of_matrix", lambda: None)()
        if m is None or tuple(m.shape) != tuple(scene.head.weights.shape):
            continue
        for what, shown, count, wanted in (
            ("rows", m.shown_rows, m.shape[0], [pair.query, *cast]),
            ("columns", m.shown_columns, m.shape[1], [pair.key, *cast]),
        ):
            hidden = [t for t in dict.fromkeys(wanted) if t not in shown]
            others = [t for t in shown if t not in cast and t != count - 1]
            if hidden and others:
                out.append(f"{what} {others} (outside the cast) shown, the cast's {hidden} hidden")
        for rect in m.backgrounds:
            i, j = rect.cell_index
            centre = rect.get_center()
            inside = any(b.x0 < centre[0] < b.x1 and b.y0 < centre[1] < b.y1 for b in frames)
            if inside and (i not in cast or j not in cast):
                out.append(f"cell ({i}, {j}) framed, outside the cast {sorted(cast)}")
    return out


# the scenes whose planes of 20-odd tokens label the cast at its tips, the others grey
CAST_PLANES = ("Embeddings", "Projections", "Overview", "WeightedSum")


def cast_plane_labels(scene) -> list[str]:
    """In Embeddings', Overview's and WeightedSum's planes no label away from its arrow and no
    knot (issue 38: at 20-odd tokens their labels sat at another arrow's tip, joined by leader
    lines that knotted): a token's label sits within ``NEAR`` of its own tip, no leader line (a
    cast the tips cannot all label is named in a key); an output's label (white arrows all alike) is
    nearer its own tip than any other output's, and no two leader lines cross."""
    from scene_checks import _gap, _leaders, describe, tip_labels_on_screen, token_arrows
    from scenes.mobjects.layout import box_of
    from scenes.mobjects.plane import NEAR

    if scene.scene_name not in CAST_PLANES:
        return []
    white = ManimColor(scene.theme.output).to_hex().upper()
    leaders = _leaders(scene)
    out = [f"a leader line to {e[:2].round(2)}" for _, e, c in leaders if c != white]
    out += [
        f"leader lines to {a[1][:2].round(2)} and {b[1][:2].round(2)} cross"
        for k, a in enumerate(leaders)
        for b in leaders[k + 1 :]
        if _cross(a[0], a[1], b[0], b[1])
    ]
    tips = [t for t, c in token_arrows(scene, every=True) if c == white]
    for mob in tip_labels_on_screen(scene):
        home = getattr(mob, "tip_home", None)
        if home is None:
            continue
        own, box = mob.get_center() + home, box_of(getattr(mob, "tip_group", mob))
        gap = _gap(own, box)
        if ManimColor(mob.get_color()).to_hex().upper() != white:
            if gap > NEAR:
                out.append(f"{describe(mob)!r} is {gap:.2f} from its own tip")
        elif any(_gap(t, box) < gap - 1e-6 for t in tips):
            out.append(f"{describe(mob)!r} is nearer another output's tip than its own")
    return out


def embeddings_compare_problems(scene) -> list[str]:
    """Embeddings' compare step compares the followed query and key (it compared the two
    closest directions, the₂ and that₁, on a sentence following it → soup), each labelled at its
    own tip, whole, its arrow drawn bright."""
    from scene_checks import describe, tip_labels_on_screen

    if scene.scene_name != "Embeddings" or not scene.steps or scene.steps[-1]["key"] != "compare":
        return []
    pair = ac.followed_pair(scene.trace)
    want = (pair.query, pair.key)
    if scene.compared != want:
        return [f"compare shows tokens {scene.compared}, not the followed pair {want}"]
    labels = {describe(m) for m in tip_labels_on_screen(scene)}
    out = [
        f"{scene.q_tokens[t]!r} is not labelled at its tip"
        for t in want
        if scene.q_tokens[t] not in labels
    ]
    out += [
        f"the arrow of {scene.q_tokens[t]!r} is faint"
        for t in want
        if scene.arrows[t].get_stroke_opacity() < 0.9
    ]
    return out


HEAD_GAP = 0.2  # WeightedSum: two labelled values' arrowheads at least this far apart
MIN_LINK = 0.3  # WeightedSum's chain: every link drawn in colour at least this long on screen


def weighted_sum_problems(scene) -> list[str]:
    """WeightedSum at real size (issue 38): no two labelled values' arrowheads within
    :data:`HEAD_GAP` of each other (at 1:1 eight values from the origin knotted there, short
    ones hidden under others' heads); once the chain has formed, every link of it drawn in a
    token's colour at least :data:`MIN_LINK` long on screen and the small terms merged into one
    grey link (at 1:1 twenty-odd links of 0.02 made a chain nobody could see) — but a term the
    chain names (``told_terms``: the followed key, a weight of 0.1 or more), a link of its own
    however short, drawn all head :data:`SHORT_HEAD` long (he → farmer: 0.299 × v(When))."""
    from scene_checks import token_arrows
    from scenes.parts.weighted_sum_chain import SHORT_HEAD

    if scene.scene_name != "WeightedSum":
        return []
    out = []
    tips = [t for t, c in token_arrows(scene)]
    out += [
        f"two values' arrowheads {np.linalg.norm(a[:2] - b[:2]):.2f} apart at {a[:2].round(2)}"
        for k, a in enumerate(tips)
        for b in tips[k + 1 :]
        if np.linalg.norm(a[:2] - b[:2]) < HEAD_GAP
    ]
    step = getattr(scene, "_open_step", None) or (scene.steps[-1] if scene.steps else {})
    if step.get("key") != "chain":
        return out
    grey = ManimColor(scene.theme.muted).to_hex().upper()
    links = getattr(scene, "chain_arrows", None) or scene.shrunk
    drawn = getattr(scene, "chain_links_drawn", {})
    told = {id(drawn[j]) for j in scene.told_terms() if j in drawn}
    greys = 0
    for link in links:
        if not link.has_points() or link.get_stroke_opacity() < 0.5:
            continue
        if id(link) in told and link.get_length() >= SHORT_HEAD - 1e-6:
            continue  # a named term, all head
        if ManimColor(link.get_stroke_color()).to_hex().upper() == grey:
            greys += 1
            continue
        length = float(np.linalg.norm(link.get_end() - link.get_start()))
        if length < MIN_LINK:
            out.append(f"a link of the chain {length:.2f} long (< {MIN_LINK})")
    if greys > 1:
        out.append(f"{greys} grey links in the chain, not one")
    return out


def _cross(p1, p2, q1, q2) -> bool:
    """Whether segments p1–p2 and q1–q2 cross (in x, y)."""

    def side(a, b, c):
        return np.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))

    return side(p1, p2, q1) * side(p1, p2, q2) < 0 and side(q1, q2, p1) * side(q1, q2, p2) < 0


# RotaryPositions at 1:1: each plane at least this share of the content's width (issue 38: 0.25
# of the frame's was met by planes of 2.07 of a 7.5-wide content, ≈100 px seen at 480p)
ROTARY_SHARE = 0.3


def labels_across_arrows(scene) -> list[str]:
    """Each tip label whose way to its own tip (from its box's nearest point: a leader line's,
    or the gap a near label leaves) crosses another arrow's shaft or another label's way
    (issue 38, he → farmer at 1:1: farmer's leader ran between he and its arrow; "farmer"
    sat across the he shaft from its tip). Not an arrow within 12° of the label's own: lying
    along it, neither side is clear."""
    from scene_checks import arrows_on_screen, describe, tip_labels_on_screen
    from scenes.mobjects.layout import box_of

    out, arrows, ways = [], arrows_on_screen(scene, keys=True), []
    for mob in tip_labels_on_screen(scene):
        home = getattr(mob, "tip_home", None)
        if home is None:
            continue
        tip, b = (mob.get_center() + home)[:2], box_of(mob)
        near = np.array([min(max(tip[0], b.x0), b.x1), min(max(tip[1], b.y0), b.y1)])
        ways.append((describe(mob), near, tip))
    for n, (name, near, tip) in enumerate(ways):
        own = [np.asarray(e)[:2] - np.asarray(t)[:2] for t, e in arrows if _at(e, tip)]
        for tail, end in arrows:
            if _at(end, tip):
                continue  # its own arrow
            way = np.asarray(end)[:2] - np.asarray(tail)[:2]
            if own and _degrees(own[0], way) < 12:
                continue
            if _cross(near, tip, np.asarray(tail)[:2], np.asarray(end)[:2]):
                out.append(f"{name!r} is across an arrow to {np.asarray(end)[:2].round(2)}")
        out += [
            f"{name!r}'s way to its tip crosses {other!r}'s"
            for other, p, t in ways[n + 1 :]
            if _cross(near, tip, p, t)
        ]
    return out


def _at(point, tip) -> bool:
    return bool(np.linalg.norm(np.asarray(point)[:2] - np.asarray(tip)[:2]) < 0.05)


def _degrees(u, v) -> float:
    cos = np.dot(u, v) / max(np.linalg.norm(u) * np.linalg.norm(v), 1e-12)
    return float(np.degrees(np.arccos(np.clip(cos, -1.0, 1.0))))


def feet_problems(scene) -> list[str]:
    """DotProducts' shadows' feet (dots) apart from one another and from every tip label
    (issue 38, he → farmer at 16:9 and 4:3: four keys nearly at right angles to q(he) put their
    feet on one another by the origin)."""
    from manim import Dot

    from scene_checks import describe, tip_labels_on_screen
    from scenes.mobjects.layout import box_of

    dots = [d for d in on_screen(scene, Dot) if d.get_fill_opacity() > 0.2]
    out = [
        f"two feet {np.linalg.norm(a.get_center() - b.get_center()):.3f} apart at "
        f"{a.get_center()[:2].round(2)}"
        for k, a in enumerate(dots)
        for b in dots[k + 1 :]
        if np.linalg.norm(a.get_center() - b.get_center()) < (a.width + b.width) / 2
    ]
    labels = [(describe(m), box_of(m)) for m in tip_labels_on_screen(scene)]
    out += [
        f"{name!r} lies on a foot at {d.get_center()[:2].round(2)}"
        for d in dots
        for name, b in labels
        if b.overlaps(box_of(d))
    ]
    return out


def rotary_problems(scene) -> list[str]:
    """RotaryPositions at real size (issue 38): at 1:1 each pair's plane is at least
    :data:`ROTARY_SHARE` of the content's width (on she → baker they were 17 % of the frame's,
    the table and the score lines beside them running off the frame's left edge; on he →
    farmer 2.07 of 7.5), no label across another arrow from its tip
    (:func:`labels_across_arrows`), and each plane's heading and the numbers inside the
    content."""
    if scene.scene_name != "RotaryPositions":
        return []
    from scene_checks import describe, texts
    from scenes.mobjects.layout import box_of

    def describe_all(mob) -> str:
        family = {id(m) for m in mob.get_family()}
        return " ".join(describe(t) for t in texts(scene) if id(t) in family)

    out, content = labels_across_arrows(scene), scene.regions.content
    for pn in scene.panels:
        share = pn.plane.plane.width / content.width
        if scene.look.aspect == "1:1" and share < ROTARY_SHARE:
            out.append(f"a plane is {share:.0%} of the content's width (< {ROTARY_SHARE:.0%})")
    for mob in [scene.table, *(pn.heading for pn in scene.panels)]:
        if not content.contains(box_of(mob), 0.02):
            out.append(f"{describe_all(mob)!r} leaves the content: {box_of(mob)}")
    return out


def _cases():
    out = []
    for name, path in SENTENCES.items():
        ex = ac.load_example(path)
        for scene in SCENES:
            if scene.why_not(ex) is not None:
                continue
            aspects = ("1:1", "4:3", "16:9") if scene.name in MATRIX_SCENES else ("1:1",)
            out += [pytest.param(name, scene, a, id=f"{name}-{scene.name}-{a}") for a in aspects]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name,scene,aspect", _cases())
def test_every_scene_of_a_real_sentence(name, scene, aspect):
    """The class of issue 44: every applicable scene of a real 21–23-token sentence whose
    followed key is in the middle renders at 1:1 (the scenes with a matrix of queries × keys
    at every aspect), nothing outside the frame or overlapping, every such matrix showing the
    followed cell at every step, its row labels in the cast's colours or the quiet tone; the
    last still keeps the followed pair; a caption in pages is cut between sentences; DotProducts
    works the story's keys, none blocked, its plane at 1:1 at least 45 % of the frame's width;
    in Projections, DotProducts and AttentionMatrix no frame's stroke crosses the followed
    pair's number."""
    ex = ac.load_example(SENTENCES[name])
    look = Look.for_example(ex, lang="en", aspect=aspect)

    def snapshot(s):
        return (
            geometry_problems(s)
            + followed_cell_hidden(s)
            + cast_colour_problems(s)
            + dot_products_problems(s)
            + framed_pair_numbers(s)
            + scaling_table_problems(s)
            + real_size_problems(s)
            + rotary_problems(s)
            + cast_plane_labels(s)
            + embeddings_compare_problems(s)
            + weighted_sum_problems(s)
            + attention_matrix_problems(s)
            + overview_table_problems(s)
            + badges_over_cells(s)
        )

    def snapshot_and_story(s):
        return snapshot(s), story_missing(s)

    stills = run_steps(
        scene.load(), ex, look=look, frames=False, snapshot=snapshot_and_story, pages=True
    )
    assert stills, "the scene has no steps"
    problems = [f"{s.key}: {p}" for s in stills for p in s.snapshot[0]]
    # a caption in pages: each page a still of its own, ending with its sentence (a pasted
    # still held "masked keys (−∞) get none.", the start of its sentence gone)
    problems += [
        f"{s.key} page {s.page} ends inside a sentence: {s.caption!r}"
        for s in stills
        if s.page and s.caption.rstrip()[-1:] not in ".。!?！？"
    ]
    problems += [f"last still {stills[-1].key}: {p}" for p in stills[-1].snapshot[1]]
    assert not problems, "\n".join(problems[:20])
