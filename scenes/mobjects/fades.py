"""Fades that change opacity (and position) in place, without copying the mobject.

Manim's ``FadeIn``/``FadeOut`` are ``Transform``s: each builds two or three deep copies of the
faded mobject, and deep-copying a group of Pango texts costs tens of milliseconds per character
group. Profiling showed those copies to be most of a scene's run time, in videos and in stills
alike (BENCHMARKS.md). These two animations draw the same frames — alpha ramps from 0 to each
part's own opacity, optionally while moving by ``shift`` — by scaling the stored colour alphas
of every part directly, so they cost almost nothing when skipped (stills) and little when played.

Examples
--------
::

    class Demo(Scene):
        def construct(self):
            dot = Dot()
            self.play(FadeIn(dot, shift=0.2 * UP))
            self.play(FadeOut(dot))
"""

from __future__ import annotations

import numpy as np
from manim import Animation, Group, Mobject, VMobject

from scenes.mobjects.text import clone

_ALPHA_FIELDS = ("fill_rgbas", "stroke_rgbas", "background_stroke_rgbas")


class _Fade(Animation):
    """Scales every part's colour alphas by ``alpha`` (fading in) or ``1 − alpha`` (out)."""

    fading_in = True

    def __init__(self, *mobjects: Mobject, shift=None, **kwargs):
        mobject = mobjects[0] if len(mobjects) == 1 else Group(*mobjects)
        self.shift_vector = None if shift is None else np.asarray(shift, dtype=float)
        super().__init__(mobject, introducer=self.fading_in, remover=not self.fading_in, **kwargs)

    def create_starting_mobject(self) -> Mobject:
        return self.mobject  # interpolation reads the saved alphas, never a copy

    def begin(self) -> None:
        self._alphas = [
            (part, field, getattr(part, field)[:, 3].copy())
            for part in self.mobject.family_members_with_points()
            if isinstance(part, VMobject)
            for field in _ALPHA_FIELDS
            if len(getattr(part, field))
        ]
        self._offset = np.zeros(3)
        super().begin()

    def _visibility(self, alpha: float) -> float:
        return alpha if self.fading_in else 1.0 - alpha

    def interpolate_mobject(self, alpha: float) -> None:
        alpha = self.rate_func(alpha)
        seen = self._visibility(alpha)
        for part, field, original in self._alphas:
            getattr(part, field)[:, 3] = original * seen
        if self.shift_vector is not None:
            # fading in arrives at the mobject's place from −shift; fading out leaves by +shift
            target = (alpha - 1.0 if self.fading_in else alpha) * self.shift_vector
            self.mobject.shift(target - self._offset)
            self._offset = target

    def clean_up_from_scene(self, scene) -> None:
        if not self.fading_in and isinstance(scene, RemovesAfterPlay):
            self._on_finish(scene)
            scene.remove_after_play(self.mobject)  # with the play's other fade-outs, at once
        else:
            super().clean_up_from_scene(scene)
        if not self.fading_in:  # gone from the scene: leave it as it was, ready to be re-added
            self._restore()

    def _restore(self) -> None:
        for part, field, original in self._alphas:
            getattr(part, field)[:, 3] = original
        if self.shift_vector is not None:
            self.mobject.shift(-self._offset)
            self._offset = np.zeros(3)


class RemovesAfterPlay:
    """A scene mixin: the mobjects a play's fade-outs remove leave the scene in one
    ``remove`` when the play ends, not one each. Each ``Scene.remove`` walks the whole scene,
    so a step that fades out a 24 × 24 grid cell by cell walked it hundreds of times
    (CausalMask at 24 tokens: 909 removals, 4.2 of its 14.9 CPU s). The frames are the same:
    nothing is drawn between a play's last frame and its end."""

    _leaving: list | None = None

    def play(self, *args, **kwargs):
        if self._leaving is not None:  # a play inside a play: the outer one removes them
            return super().play(*args, **kwargs)
        self._leaving = []
        try:
            return super().play(*args, **kwargs)
        finally:
            leaving, self._leaving = self._leaving, None
            if leaving:
                self.remove(*leaving)

    def remove_after_play(self, mobject: Mobject) -> None:
        if self._leaving is None:  # outside a play: at once
            self.remove(mobject)
        else:
            self._leaving.append(mobject)


class FadeIn(_Fade):
    """Fade ``mobjects`` in where they are (from ``−shift`` if given); adds them to the scene."""

    fading_in = True


class FadeOut(_Fade):
    """Fade ``mobjects`` out (moving by ``shift`` if given); removes them from the scene."""

    fading_in = False


class Slide(Animation):
    """Move ``mobject`` so that its centre ends at ``to``, without copying it: Manim's
    ``MoveToTarget`` deep-copies the mobject and aligns every point of the copy with the
    original, which for a matrix of a few hundred numbers cost seconds a move (EncoderBlock
    at the limits spent 11 s of its 25 in five such moves)."""

    def __init__(self, mobject: Mobject, to, **kwargs):
        self.destination = np.asarray(to, dtype=float)
        super().__init__(mobject, **kwargs)

    def create_starting_mobject(self) -> Mobject:
        return self.mobject  # the motion is a shift: nothing to interpolate from

    def begin(self) -> None:
        self._start = self.mobject.get_center().copy()
        self._offset = np.zeros(3)
        super().begin()

    def interpolate_mobject(self, alpha: float) -> None:
        target = self.rate_func(alpha) * (self.destination - self._start)
        self.mobject.shift(target - self._offset)
        self._offset = target


def carry(source: Mobject, target: Mobject) -> list:
    """A copy of ``source`` slides onto ``target`` and leaves as ``target`` fades in: a value
    carried into the next matrix, without Manim aligning glyph with glyph (a ``Transform``
    between two rows of numbers aligns every point of every digit)."""
    ghost = source.copy()
    return [Slide(ghost, target.get_center(), remover=True), FadeIn(target)]


def slide_into(mobject: Mobject, box, align: str = "center") -> Slide:
    """A :class:`Slide` of ``mobject`` to where :func:`scenes.mobjects.layout.place` would put
    it in ``box``."""
    from scenes.mobjects.layout import place

    start = mobject.get_center().copy()
    end = place(mobject, box, align).get_center().copy()
    mobject.shift(start - end)  # back where it is: the animation moves it
    return Slide(mobject, end)


def morph(a: Mobject, b: Mobject) -> list:
    """``a`` turning into ``b`` (which replaces it): piece by piece where Manim can align the
    two, else a cross-fade. Some pairs of structures (a grid of squares against numbers, parts
    with and without points) leave their families of different lengths after Manim's
    alignment, and the transform then fails as it starts."""
    from manim import ReplacementTransform

    if _alignable(a, b):
        return [ReplacementTransform(a, b)]
    return [FadeOut(a), FadeIn(b)]


def _alignable(a: Mobject, b: Mobject) -> bool:
    """Whether Manim's alignment of ``a`` with ``b`` leaves their families as long: tried on
    cheap copies (:func:`~scenes.mobjects.text.clone`), the structure alone. Aligning the points
    too (their curves, a third of a 24-token MultiHeadSplit's run) never changes which parts
    have points: a part without points is aligned only with one without (Manim's
    ``null_point_align`` sees to it)."""
    x, y = clone(a), clone(b)
    try:
        x.align_data(y, skip_point_alignment=True)
    except (ValueError, IndexError):
        return False
    return len(x.family_members_with_points()) == len(y.family_members_with_points())
