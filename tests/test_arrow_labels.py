"""No label on an arrow: at the end of every step, no tip label (q(…), k(…), v(…), o(…), E(…) …)
covers an arrowhead or lies on an arrow's shaft — its own arrow's tip, which it sits beside, is
the one point it may touch. The check (scene_checks.labels_on_arrows) is part of every layout
run: the presets, every look, random examples and the lecturer's examples; here, that it can
fail."""

import numpy as np
import pytest
from manim import DOWN, RIGHT, Arrow, VGroup

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


def _plane_scene(name: str = "DotProducts"):
    """A bare scene named as a plane scene: the plane-label checks apply to it."""
    from manim import Scene

    scene = Scene()
    scene.scene_name = name
    return scene


def test_the_check_sees_two_labels_read_as_one_and_a_label_over_a_keys_head():
    """The checks can fail: two tip labels side by side on one line ("soup,it", issue 38) are
    reported, and so is a label over an outlined key arrow — whose dashed shaft has no points
    of its own, so that no check saw a key arrow at all."""
    from scene_checks import plane_label_problems
    from scenes.mobjects.layout import Box
    from scenes.mobjects.plane import VectorPlane
    from scenes.mobjects.text import label
    from scenes.mobjects.theme import THEMES

    theme = THEMES["dark"]
    scene = _plane_scene()
    soup, comma, it = label("soup", 26), label(",", 26), label("it", 26)
    for mob in (soup, it):
        mob.is_tip_label = True
    scene.add(VGroup(soup, comma, it).arrange(buff=0.06, aligned_edge=DOWN))
    assert any("read as one label" in p for p in plane_label_problems(scene))
    it.shift(DOWN * 0.5)  # on a line of its own
    assert not plane_label_problems(scene)

    plane = VectorPlane(np.array([[1.0, 1.0]]), Box(-2, -2, 2, 2), theme, ticks=False)
    key = plane.arrow([0.2, 1.0], theme.token(1), outline=True)
    over = label("k(x)", 26).move_to(plane.point([0.2, 1.0]) + np.array([0.1, -0.25, 0]))
    over.is_tip_label = True
    scene = _plane_scene()
    scene.add(key, over)
    assert labels_on_arrows(scene) or plane_label_problems(scene)
    over.shift(RIGHT * 1.5)
    assert not labels_on_arrows(scene) and not plane_label_problems(scene)


def test_close_tips_get_a_label_each_on_its_own_line():
    """Issue 38: tips closer than ``merge`` shared one label ("soup,it"); now each label is on
    a line of its own, in its colour, none read as one with another or over a head."""
    from scene_checks import dropped_or_distant_labels, plane_label_problems
    from scenes.mobjects.layout import Box
    from scenes.mobjects.plane import VectorPlane
    from scenes.mobjects.theme import THEMES

    theme = THEMES["dark"]
    coords = np.array([[1.0, -0.5], [1.02, -0.56], [-0.6, 0.9]])
    box = Box(-2.5, -2.5, 2.5, 2.5)
    plane = VectorPlane(coords, box, theme, ticks=False)
    colors = [theme.token(i) for i in range(3)]
    arrows = plane.arrows(coords, colors)
    labels = plane.tip_labels(coords, ["it", "soup", "chef"], colors, box, merge=0.35)
    texts = [m for m in labels.get_family() if getattr(m, "is_tip_label", False)]
    assert sorted(m.source_text for m in texts) == ["chef", "it", "soup"]
    scene = _plane_scene("Projections")
    scene.add(arrows, labels)
    assert not plane_label_problems(scene)
    assert not dropped_or_distant_labels(scene) and not labels_on_arrows(scene)


def test_near_parallel_keys_are_labelled_in_a_column_beside_their_heads():
    """Issue 38, DotProducts' last still (the chef sentence, 1:1): four near-parallel keys'
    labels hovered among their heads. ``fanned_labels`` sets them in one column beside the
    heads, top to bottom as the tips, each led to its own tip: none over an arrow or head,
    none read as one with another, every arrow labelled."""
    from scene_checks import dropped_or_distant_labels, plane_label_problems
    from scenes.mobjects.layout import Box, box_of
    from scenes.mobjects.plane import VectorPlane
    from scenes.mobjects.theme import THEMES

    theme = THEMES["dark"]
    keys = np.array([[0.6, 11.5], [1.0, 10.5], [2.0, 9.6], [1.0, 3.0]])
    box = Box(-3, -2, 1.5, 3)
    plane = VectorPlane(np.vstack([keys, [[16.0, 0.0]]]), box, theme, ticks=False)
    colors = [theme.token(i) for i in range(4)]
    arrows = VGroup(*(plane.arrow(k, c, outline=True) for k, c in zip(keys, colors)))
    for a in arrows:
        a.wants_label = True
    texts = ["k(“,”)", "k(that₁)", "k(soup)", "k(The)"]
    labels = plane.fanned_labels(keys, texts, colors, box)
    shown = [m for m in labels.get_family() if getattr(m, "is_tip_label", False)]
    assert [m.source_text for m in sorted(shown, key=lambda m: -m.get_y())] == texts
    assert len({round(box_of(m).x0, 3) for m in shown}) == 1  # one column
    scene = _plane_scene()
    scene.add(arrows, labels)
    assert not plane_label_problems(scene)
    assert not labels_on_arrows(scene) and not dropped_or_distant_labels(scene)


def test_the_check_sees_a_squeezed_plane_beside_the_matrix():
    """The check can fail (issue 38: she→baker, 22 tokens, 4:3 zh): DotProducts' matrix step in
    a narrow frame with its plane's grid 1.84 × 1.49 in a content 5.37 high is reported; a
    square grid a third larger is not, nor the same flat plane at 16:9 or at another step."""
    from types import SimpleNamespace

    from scene_checks import squeezed_plane
    from scenes.mobjects.layout import Box
    from scenes.mobjects.plane import VectorPlane
    from scenes.mobjects.theme import THEMES

    def scene_with(points, box, aspect="4:3", step="matrix"):
        scene = _plane_scene()
        scene.plane = VectorPlane(np.array(points), box, THEMES["dark"])
        scene.add(scene.plane)
        scene.look = SimpleNamespace(aspect=aspect)
        scene.steps = [{"key": step}]
        scene.regions = SimpleNamespace(content=Box(-5.08, -2.47, 5.08, 2.9))
        return scene

    flat = [[20.0, 0.0], [1.0, 12.0]]
    narrow = Box(-5.08, 0.0, -2.74, 2.0)  # the column the matrix left, less the plane's foot
    problems = squeezed_plane(scene_with(flat, narrow))
    assert any("the plane beside the matrix is" in p for p in problems), problems
    assert not squeezed_plane(scene_with(flat, narrow, aspect="16:9"))
    assert not squeezed_plane(scene_with(flat, narrow, step="pair1"))
    assert not squeezed_plane(scene_with([*flat, [0.0, 20.0]], Box(-5.08, -1.0, -2.64, 2.9)))
