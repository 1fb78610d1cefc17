"""No label on an arrow: at the end of every step, no tip label (q(…), k(…), v(…), o(…), E(…) …)
covers an arrowhead or lies on an arrow's shaft — its own arrow's tip, which it sits beside, is
the one point it may touch. The check (scene_checks.labels_on_arrows) is part of every layout
run: the presets, every look, random examples and the lecturer's examples; here, that it can
fail."""

from manim import Arrow

from scene_checks import labels_on_arrows


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
