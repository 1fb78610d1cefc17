"""WeightedSum on the 24-token causal sentence (examples/smollm2-trophy.toml, it₁ → trophy) and
the 21-token MiniLM one (they → painting), as issue 38's reviewer found it: the chain's plane,
zoomed to the chain, cut the values' hull at its edges (the caption says the output is "always
inside the convex hull", and half of it was off the plane), and the sink's value v(The), a cast
member 0.08 long on screen, was a label with no arrow (its head 0.03 long, under the others'
tails). No run of its own: each check rides on the run test_lecturer_examples.py makes of the
scene at that aspect (lecturer_examples.run_at). On the last still (compare) the hull's edge
and the y axis ran through "× v(trophy)" and "o(they)" (OCR read "x \\(trophy)"): each cast
label on the plane sits on a plate of the background, drawn over the plane's lines."""

from __future__ import annotations

import re

import numpy as np
import pytest

from lecturer_examples import on_run, run_at, stills_of

HEAD_SEEN = 0.15  # a value's arrowhead at least this long on screen (scene units)


def weighted_sum_facts(scene):
    """At the values step, each value in colour: its token and its arrowhead's size on screen;
    at the chain step, the hull's corners drawn and the values' hull (data), the plane's range."""
    import attention_core as ac

    key = scene.steps[-1]["key"]
    if key == "values":
        heads = {}
        for j, arrow in zip(scene.v_drawn, scene.v_arrows):
            tip = arrow.get_tip() if hasattr(arrow, "get_tip") and arrow.has_tip() else None
            heads[scene.k_tokens[j]] = max(tip.width, tip.height) if tip is not None else 0.0
        return {"heads": heads}
    if key == "chain":
        plane, seen = scene.vplane, scene.V2[scene.seen]
        corners = ac.convex_hull_2d(seen) if len(seen) >= 3 else seen
        drawn = scene.hull.get_vertices() if len(scene.hull.points) else np.zeros((0, 3))
        drawn_order = [m for top in scene.mobjects for m in top.get_family()]
        order = {id(m): k for k, m in enumerate(drawn_order)}
        links = [m for a in scene.shrunk for m in a.get_family() if id(m) in order]
        texts = {getattr(m, "source_text", "") for m in drawn_order}
        linked = getattr(scene, "chain_links_drawn", {})  # a merged chain's links of their own
        told = [f"× v({scene.k_tokens[j]})" for j in scene.told_terms() if j in linked]
        return {
            "output_on_top": min(order.get(id(m), -1) for m in scene.result.get_family())
            > max((order[id(m)] for m in links), default=-1),
            "told_unnamed": [t for t in told if t not in texts],
            "hull_named": len(scene.hull_name) > 0,
            "corners": np.asarray(corners),
            "drawn": np.asarray(drawn)[:, :2],
            "at": np.array([plane.point(p)[:2] for p in corners]),
            "lo": np.asarray(plane.lo),
            "hi": np.asarray(plane.hi),
        }
    if key == "compare":
        return plates(scene)
    return None


ON_PLANE = re.compile(r"^(o|× v)\(.+\)$")  # the output's label, the followed link's term


def plates(scene) -> dict:
    """Each label on the plane (:data:`ON_PLANE`, its box within the plane's): whether an opaque
    rectangle of the background colour lies under its text, reaching 0.05 around it, drawn
    after the hull and every line of the plane and before the text."""
    from manim import Rectangle

    from scenes.mobjects.layout import box_of

    drawn = [m for top in scene.mobjects for m in top.get_family()]
    order = {id(m): k for k, m in enumerate(drawn)}
    lines = [*scene.hull.get_family(), *scene.vplane.plane.get_family()]
    last_line = max(order.get(id(m), -1) for m in lines if len(m.points))
    area, background = box_of(scene.vplane.plane), scene.theme.background.to_hex().lower()
    found = {}
    for text in (m for m in drawn if ON_PLANE.match(getattr(m, "source_text", "") or "")):
        box = box_of(text)
        if not area.overlaps(box, 0.0) or text.get_fill_opacity() < 0.5:
            continue
        found[text.source_text] = any(
            isinstance(m, Rectangle)
            and m.get_fill_opacity() > 0.99
            and m.get_fill_color().to_hex().lower() == background
            and box_of(m).contains(box.inset(-0.05), tol=1e-6)
            and last_line < order[id(m)] < order[id(text)]
            for m in drawn
        )
    return found


def _runs():
    params = []
    for name in ("trophy-24", "minilm-painting"):
        for aspect in ("16:9", "4:3", "1:1"):
            run = run_at(name, "WeightedSum", aspect)
            if run is not None:
                mark = on_run(run, "weighted sum 24", weighted_sum_facts)
                params.append(pytest.param(run, id=f"{name}-{aspect}", marks=mark))
    return params


RUNS = _runs()


def _step(run, key: str):
    return next(s.snapshot for s in stills_of(run, "weighted sum 24") if s.key == key)


@pytest.mark.parametrize("run", RUNS)
def test_the_values_hull_is_whole_in_the_chains_plane(run):
    """Every corner of the values' hull lies in the chain's plane's range and is a corner of the
    hull drawn (the zoomed plane had cut it to its range: trophy-24 at 16:9 and 1:1)."""
    chain = _step(run, "chain")
    corners, drawn = chain["corners"], chain["drawn"]
    assert len(corners) >= 3
    lo, hi = chain["lo"] - 1e-9, chain["hi"] + 1e-9
    assert ((corners >= lo) & (corners <= hi)).all(), (corners, lo, hi)
    for p in chain["at"]:
        assert np.min(np.linalg.norm(drawn - p, axis=1)) < 1e-6, p


@pytest.mark.parametrize("run", RUNS)
def test_every_value_in_colour_has_an_arrowhead_to_see(run):
    """Each value drawn in colour (the cast, labelled) has an arrowhead at least HEAD_SEEN long on
    screen: the sink's v(The) on trophy-24 had one 0.03 long at the origin, a label with no
    arrow."""
    heads = _step(run, "values")["heads"]
    assert heads
    small = {t: round(h, 3) for t, h in heads.items() if h < HEAD_SEEN}
    assert not small, small


@pytest.mark.parametrize("run", RUNS)
def test_the_labels_on_the_plane_sit_on_plates(run):
    """On the last still the output's label and the followed link's term ("0.563 × v(trophy)")
    each sit on a plate of the background drawn over the hull and the plane's lines: the hull's
    edge and the y axis no longer run through their letters (OCR read "x \\(trophy)",
    "x \\(painting)" and "o(éxplanations)")."""
    found = _step(run, "compare")
    assert found, "no label on the plane"
    bare = [name for name, plated in found.items() if not plated]
    assert not bare, found


@pytest.mark.parametrize("run", RUNS)
def test_the_output_and_every_told_term_are_seen_on_the_chain(run):
    """Issue 38, a review of he → farmer (SmolLM2 L14 H9, the same head as trophy-24): o(he)
    lay hidden under 0.547 × v(farmer), which nearly coincides with it, and 0.299 × v(When),
    0.07 long, was merged unseen into the grey link. On the chain's still the output's arrow is
    drawn over every link, each term weighed ≥ 0.1 (and the followed key's) is a link of its own
    in a merged chain, named by it (where every term is a link, the list beside names them);
    the values' hull is named where the plane is not square."""
    chain = _step(run, "chain")
    assert chain["output_on_top"]
    assert not chain["told_unnamed"], chain["told_unnamed"]
    if run[3] != "1:1":  # at 1:1 the zoomed plane may leave no room: the caption names it
        assert chain["hull_named"]
