"""What a user sees, as data: the text on screen at each step's end, its layout problems, and a
geometry snapshot for frame tests."""

from __future__ import annotations

import math

import numpy as np
from manim import config

from scenes.mobjects.layout import box_of, frame_box
from scenes.mobjects.text import Num
from scenes.mobjects.theme import MIN_FONT_SIZE
from scenes.roles import resolve


def on_screen(scene, cls=None):
    """Every mobject of ``cls`` (default: text-like) currently in the scene, each once."""
    from manim import MarkupText, Text
    from manim.mobject.text.typst_mobject import Typst

    cls = cls or (Text, MarkupText, Typst)
    seen, out = set(), []
    for top in scene.mobjects:
        for mob in top.get_family():
            if isinstance(mob, cls) and id(mob) not in seen:
                seen.add(id(mob))
                out.append(mob)
    return out


def texts(scene):
    """Visible text-like mobjects (Pango Text, Typst), each once."""
    out = []
    for mob in on_screen(scene):
        if mob.get_fill_opacity() < 0.05 and mob.get_stroke_opacity() < 0.05:
            continue
        if mob.width < 1e-6 and mob.height < 1e-6:
            continue
        out.append(mob)
    return out


def describe(mob) -> str:
    return getattr(mob, "source_text", None) or getattr(mob, "text", None) or type(mob).__name__


def layout_problems(scene, overlap_tol: float = 0.01) -> list[str]:
    """Texts outside the frame, overlapping another text, or smaller than the minimum size."""
    problems = []
    frame = frame_box()
    items = texts(scene)
    boxes = [box_of(m) for m in items]
    min_size = MIN_FONT_SIZE * config.frame_height / 8.0
    for mob, b in zip(items, boxes):
        if not frame.contains(b, tol=1e-3):
            problems.append(f"outside the frame: {describe(mob)!r} at {b}")
        size = getattr(mob, "font_size", None)
        if size is not None and size < min_size - 1e-3:
            problems.append(f"too small ({size:.1f} < {min_size:.1f}): {describe(mob)!r}")
    for a in range(len(items)):
        for b in range(a + 1, len(items)):
            if boxes[a].inset(overlap_tol).overlaps(boxes[b].inset(overlap_tol)):
                problems.append(f"overlap: {describe(items[a])!r} and {describe(items[b])!r}")
    return problems


def numbers_problems(scene) -> list[str]:
    """Every Num on screen must show its role's value from the core, rounded for display."""
    problems = []
    for mob in on_screen(scene, Num):
        try:
            truth = resolve(scene.trace, mob.role)
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            problems.append(f"unresolvable role {mob.role!r}: {exc!r}")
            continue
        same = (math.isinf(truth) and math.isinf(mob.value) and truth == mob.value) or math.isclose(
            truth, mob.value, rel_tol=1e-12, abs_tol=1e-12
        )
        if not same:
            problems.append(f"{mob.role!r}: shows {mob.value!r}, core says {truth!r}")
        from scenes.mobjects.numfmt import fmt

        if mob.shown != fmt(truth, mob.digits):
            problems.append(f"{mob.role!r}: text {mob.shown!r} ≠ {fmt(truth, mob.digits)!r}")
    return problems


def snapshot(scene) -> list[dict]:
    """Geometry of every visible text and shape leaf: kind, text, box, colour — the frame data."""
    items = []
    for mob in texts(scene):
        b = box_of(mob)
        items.append(
            {
                "kind": "text",
                "text": describe(mob),
                "box": [round(v, 3) for v in (b.x0, b.y0, b.x1, b.y1)],
                "color": mob.get_color().to_hex(),
            }
        )
    from manim import Text, VMobject
    from manim.mobject.text.typst_mobject import Typst

    for top in scene.mobjects:
        for mob in top.get_family():
            if isinstance(mob, (Text, Typst)) or any(
                isinstance(p, (Text, Typst)) for p in _parents(top, mob)
            ):
                continue
            if isinstance(mob, VMobject) and not mob.submobjects and mob.has_points():
                if mob.get_fill_opacity() < 0.05 and mob.get_stroke_opacity() < 0.05:
                    continue
                b = box_of(mob)
                items.append(
                    {
                        "kind": type(mob).__name__,
                        "box": [round(v, 3) for v in (b.x0, b.y0, b.x1, b.y1)],
                        "color": mob.get_color().to_hex(),
                    }
                )
    items.sort(key=lambda d: (d["kind"], d.get("text", ""), d["box"]))
    return items


def _parents(top, target):
    """Ancestors of ``target`` under ``top`` (for skipping glyphs of a text)."""
    path = []

    def walk(node, trail):
        if node is target:
            path.extend(trail)
            return True
        return any(walk(c, trail + [node]) for c in node.submobjects)

    walk(top, [])
    return path


def pooled(frame: np.ndarray, cols: int = 48, rows: int = 27) -> np.ndarray:
    """The frame averaged into a small grid of RGB cells (robust to text rasterisation)."""
    img = frame[..., :3].astype(np.float64)
    h, w = img.shape[:2]
    ys = np.linspace(0, h, rows + 1).astype(int)
    xs = np.linspace(0, w, cols + 1).astype(int)
    out = np.zeros((rows, cols, 3))
    for r in range(rows):
        for c in range(cols):
            out[r, c] = img[ys[r] : ys[r + 1], xs[c] : xs[c + 1]].mean(axis=(0, 1))
    return out
