"""No label on an arrow: at the end of every step, no tip label (q(…), k(…), v(…), o(…), E(…) …)
covers an arrowhead or lies on an arrow's shaft — its own arrow's tip, which it sits beside, is
the one point it may touch. The check (scene_checks.labels_on_arrows) is part of every layout
run: the presets, every look, random examples and the lecturer's examples; here, that it can
fail."""

import numpy as np
import pytest
from manim import Arrow

from scene_checks import describe, labels_on_arrows


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


def _crowded_plane():
    """Twelve arrows whose tips crowd into one corner of a small plane, each with a long label."""
    from scenes.mobjects.layout import Box
    from scenes.mobjects.plane import VectorPlane
    from scenes.mobjects.theme import THEMES

    theme = THEMES["dark"]
    angles = np.linspace(0.2, 0.6, 12)
    coords = np.c_[np.cos(angles), np.sin(angles)] * np.linspace(0.8, 1.0, 12)[:, None]
    coords = np.vstack([coords, [[-1.0, -1.0]]])  # one far tip: the plane's room is elsewhere
    plane = VectorPlane(coords, Box(-2.5, -2.5, 2.5, 2.5), theme, ticks=False)
    colors = [theme.token(i) for i in range(len(coords))]
    arrows = plane.arrows(coords, colors)
    texts = [f"token{i:02d}" for i in range(len(coords))]
    labels = plane.tip_labels(coords, texts, colors, Box(-2.5, -2.5, 2.5, 2.5))
    return arrows, labels


def test_a_crowded_plane_labels_every_arrow_with_leaders_where_away():
    """Issue 32 item 3: labels with no room at their tips were left out (Projections labelled
    6 of 11 arrows); now each is set where there is room, joined to its tip by a leader line,
    and the checks find no dropped or distant label."""
    from manim import Scene

    from scene_checks import dropped_or_distant_labels

    arrows, labels = _crowded_plane()
    shown = [m for m in labels.get_family() if getattr(m, "is_tip_label", False)]
    assert len(shown) == len(arrows)
    assert any(getattr(m, "is_leader", False) for m in labels.get_family())
    scene = Scene()
    scene.add(arrows, labels)
    assert not dropped_or_distant_labels(scene)
    assert not labels_on_arrows(scene)


def test_the_check_sees_a_dropped_and_a_distant_label():
    """The checks can fail: an arrow whose label is removed is reported as having none, and a
    label moved away from its tip without a leader line is reported as distant."""
    from manim import Scene

    from scene_checks import dropped_or_distant_labels

    arrows, labels = _crowded_plane()
    first = labels[0]
    scene = Scene()
    scene.add(arrows, *labels[1:])
    assert any("has no label" in p for p in dropped_or_distant_labels(scene))
    text = first if getattr(first, "is_tip_label", False) else first[0]
    scene.add(text.shift([-1.5, -1.5, 0]))  # away from its tip, without its leader
    assert any("no leader line" in p for p in dropped_or_distant_labels(scene))


def test_an_output_label_away_from_its_tip_is_seen_and_led():
    """Issue 32 item 3: WeightedSum's o(it₁), a scene's own label (not a tip label), sat 1.1
    from its output's tip at 24 tokens with no line, and the check did not see it: now a name
    o(…) in the output style far from every output tip is reported; placed through
    ``VectorPlane.leadered`` it gets its line and passes. And a tip label among arrows of its
    own colour (every output is drawn alike) is checked against its own tip, not any tip."""
    from manim import Scene

    from scene_checks import dropped_or_distant_labels
    from scenes.mobjects.layout import Box
    from scenes.mobjects.plane import VectorPlane
    from scenes.mobjects.text import label
    from scenes.mobjects.theme import THEMES

    theme = THEMES["dark"]
    plane = VectorPlane(np.array([[1.0, 0.2], [0.9, -0.8]]), Box(-2, -2, 2, 2), theme)
    scene = Scene()
    scene.theme = theme
    tip = plane.point([1.0, 0.2])
    far = label("o(x)", 24, theme.output).move_to(tip + np.array([0.0, -1.4, 0.0]))
    scene.add(plane.arrow([1.0, 0.2], theme.output), far)
    assert any("far from its output arrow" in p for p in dropped_or_distant_labels(scene))
    scene.remove(far)
    far.is_tip_label = True
    scene.add(plane.leadered(far, tip))
    assert not dropped_or_distant_labels(scene)
    # its line removed, a second output drawn alike: still read against its own tip
    scene.add(plane.arrow([0.9, -0.8], theme.output))
    scene.remove(*scene.mobjects[1:2])
    scene.add(far)
    assert any("from its own tip" in p for p in dropped_or_distant_labels(scene))


@pytest.mark.parametrize("name", ["dark", "light"])
def test_the_roles_are_drawn_in_no_tokens_colour(name):
    """Issue 38: Projections drew query, key and value in the first three token colours, the
    cast's (the followed query "it" cyan, its key "soup" red), so "value" in blue read as
    that₁'s colour. The role cards' every coloured stroke and text is at least 20 in CIEDE2000
    from each of the 24 token colours (the role is told by its name), and its text at least
    4.5 : 1 against the card."""
    from types import SimpleNamespace

    from scenes.kit import captions
    from scenes.mobjects.layout import Box
    from scenes.mobjects.theme import THEMES, contrast, delta_e
    from scenes.projections import role_cards

    theme = THEMES[name]
    scene = SimpleNamespace(theme=theme, say=lambda key, **kw: captions.word(key, "en", **kw))
    cards = role_cards(scene, Box(-5, -3, 5, 3))
    inks = []
    for mob in cards.get_family():
        if not mob.has_points():
            continue
        if mob.get_stroke_width() > 0 and mob.get_stroke_opacity() > 0:
            inks.append((mob, mob.get_stroke_color()))
        if mob.get_fill_opacity() > 0 and mob.get_fill_color().to_hex() != theme.panel.to_hex():
            inks.append((mob, mob.get_fill_color()))
    assert inks
    for mob, ink in inks:
        nearest = min(delta_e(ink, t) for t in theme.tokens)
        assert nearest >= 20, f"{describe(mob)!r} in {ink.to_hex()}: ΔE {nearest:.1f} to a token"
    for text in (m for m in cards.get_family() if getattr(m, "source_text", None)):
        assert contrast(text.get_fill_color(), theme.panel) >= 4.5, text.source_text
