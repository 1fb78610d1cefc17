"""Typeset math on screen through Typst (``manim[typst]``): the project's own formula strings only.

User text (token labels, titles) never reaches Typst — Typst *executes* code (docs/design.md,
"Platform facts"). :func:`rich` takes a template in which ``$…$`` marks math, splits it before any
value is filled in, and sets the text parts (where labels go) with Pango and the math parts with
Typst, so a label such as ``#read("/etc/passwd")`` can only ever be drawn as text.

Typst's math conventions give italic variables and upright names (``"softmax"``), √ with its bar,
subscripts and superscripts; Latin letters come from Typst's math font, CJK stays in Pango.

Examples
--------
::

    class Demo(Scene):
        def construct(self):
            self.add(math("sqrt(d_k)", 32))
            self.add(rich("Why divide by $sqrt(d_k)$", 32).shift(DOWN))
"""

from __future__ import annotations

from manim import RIGHT, UP, VGroup
from manim.mobject.text.typst_mobject import MathTypst

from scenes.mobjects.text import clone, label, text_baseline, text_width
from scenes.mobjects.theme import BODY
from scenes.mobjects.token_text import Token, quoted
from scenes.mobjects.unimath import MATH_MARK, plain

_PROTOTYPES: dict[tuple, MathTypst] = {}

# Typst math at the same font size comes out smaller than Pango text (x-height 0.123 vs 0.196 at
# 26): scaled so that its letters match the text around them
MATH_SCALE = 1.55


def _share_fonts() -> None:
    """Make ``typst.compile`` reuse one scan of the system fonts. Manim compiles each new
    formula with ``typst.compile(path, format="svg", font_paths=[])``, which scans every system
    font again (0.2 s a formula here, with Noto CJK installed); given a loaded ``typst.Fonts`` it
    takes milliseconds and writes the same SVG (tests/test_typeset_math.py). Calls that name
    font folders of their own are passed on unchanged."""
    import typst

    if getattr(typst.compile, "shares_fonts", False):
        return
    plain, fonts = typst.compile, []

    def compile_with_shared_fonts(input, *args, font_paths=None, **kwargs):
        if font_paths:
            return plain(input, *args, font_paths=font_paths, **kwargs)
        if not fonts:
            fonts.append(typst.Fonts())
        return plain(input, *args, font_paths=fonts[0], **kwargs)

    compile_with_shared_fonts.shares_fonts = True
    typst.compile = compile_with_shared_fonts


_share_fonts()  # before any formula of any scene (Overview builds its own MathTypst)


def math(expr: str, size: float = BODY, color=None) -> MathTypst:
    """The formula ``expr`` (Typst math syntax, e.g. ``"q_i dot k_j"``) at text size ``size``.

    Only the project's own strings: never pass user text here.
    """
    key = (expr, float(size))
    proto = _PROTOTYPES.get(key)
    if proto is None:
        proto = MathTypst(expr, font_size=size * MATH_SCALE)
        _PROTOTYPES[key] = proto
    mob = clone(proto)
    if color is not None:
        mob.set_color(color)
    mob.source_text = f"${expr}$"
    return mob


def split_math(template: str) -> list[tuple[str, bool]]:
    """``template`` as (piece, is_math) parts: ``"a $x$ b"`` → [("a ", False), ("x", True),
    (" b", False)]."""
    parts, at = [], 0
    for m in MATH_MARK.finditer(template):
        if m.start() > at:
            parts.append((template[at : m.start()], False))
        parts.append((m.group(1), True))
        at = m.end()
    if at < len(template):
        parts.append((template[at:], False))
    return parts


def rich(template: str, size: float = BODY, color=None, weight: str = "NORMAL", **values):
    """A line of text with typeset math: ``template``'s ``$…$`` parts through Typst, the rest
    through Pango with ``values`` filled in (labels and numbers go only into text parts).

    Without ``$`` it is one plain :func:`label`.
    """
    values = {k: quoted(v) if isinstance(v, Token) else v for k, v in values.items()}  # “。”
    parts = split_math(template)
    if not any(is_math for _, is_math in parts):
        return label(template.format(**values), size, color, weight=weight)
    group = VGroup()
    for piece, is_math in parts:
        if is_math:
            group.add(math(piece, size, color))
        elif piece.strip():
            group.add(label(piece.strip().format(**values), size, color, weight=weight))
    group.arrange(buff=0.12)
    group.source_text = plain(template).format(**values)
    return group


WIDE_CLOSE, WIDE_OPEN = frozenset("，、。：；！？）」』》"), frozenset("（「『《")
TOUCH = 0.04  # the gap between a formula and the text it touches ("÷√dₖ", "Wq:")
_ON_BASELINE: dict[tuple, MathTypst] = {}


def _set_on_baseline(expr: str, size: float):
    """The formula ``expr`` knowing its baseline (``baseline``: how far above its centre):
    typeset after an upright "x" (which sits on the baseline), the x then taken away."""
    key = (expr, float(size))
    proto = _ON_BASELINE.get(key)
    if proto is None:
        proto = MathTypst(f'"x" quad {expr}', font_size=size * MATH_SCALE)
        marker = min(proto.submobjects, key=lambda m: m.get_left()[0])
        proto.remove(marker)
        proto.baseline = marker.get_bottom()[1] - proto.get_center()[1]
        _ON_BASELINE[key] = proto
    mob = clone(proto)
    mob.source_text = f"${expr}$"
    return mob


def typeset_line(pieces, size: float = BODY, color=None):
    """A caption's line from its pieces (:func:`scenes.mobjects.unimath.line_pieces`): each
    (Unicode text, Typst source or None); a formula's source through Typst, the text (token
    labels, numbers) through Pango, set on one baseline with a space where the line has one.
    Its ``source_text`` is the line's Unicode text."""
    line = "".join(text for text, _ in pieces)
    if not any(src for _, src in pieces):
        return label(line, size, color)
    # a space between inks: its advance and the letters' side bearings ("a b": 0.14 at 26)
    group, gaps, space = VGroup(), [], 1.6 * text_width(" ", size)
    for k, (text, src) in enumerate(pieces):
        if src is None and not text.strip():
            continue
        mob = _set_on_baseline(src, size) if src else label(text.strip(), size, color)
        if src and color is not None:
            mob.set_color(color)
        after = pieces[k - 1][0] if k else ""
        gap = space if text[:1].isspace() or after[-1:].isspace() else TOUCH
        # a full-width mark's blank half ("W_q，K"): Pango sets it, its ink does not show it
        half = 0.5 * text_width("一", size) * (after[-1:] in WIDE_CLOSE or text[:1] in WIDE_OPEN)
        gaps.append(gap + half)
        group.add(mob)
    base, prev = baseline(group[0]), group[0]
    for mob, gap in zip(group[1:], gaps[1:]):
        mob.next_to(prev, RIGHT, buff=gap)
        mob.shift(UP * (base - baseline(mob)))
        prev = mob
    group.source_text = line
    group.baseline = base - group.get_center()[1]
    return group


def baseline(mob) -> float:
    """Where ``mob``'s letters sit: a formula knows it (:func:`_set_on_baseline`), a label too
    (``scenes.mobjects.text.text_baseline``); for other text, the bottom most of its letters
    share (a descender's tail hangs below it)."""
    if hasattr(mob, "baseline"):  # a formula, or a line of text and formulas
        return mob.get_center()[1] + mob.baseline
    on_line = text_baseline(mob)
    if on_line is not None:
        return on_line
    glyphs = [m for m in mob.family_members_with_points() if m.height > 1e-6] or [mob]
    tall = max(g.height for g in glyphs)
    bottoms = [g.get_bottom()[1] for g in glyphs if g.height >= 0.3 * tall]
    return max(bottoms, key=lambda b: sum(abs(b - o) < 0.08 * tall for o in bottoms))


def stack_lines(lines, pitch: float, buff: float) -> None:
    """Set ``lines`` (a caption's, from the top) ``pitch`` apart from baseline to baseline, as
    lines of plain text are; further only where a formula's script or root would come nearer
    than ``buff`` to a text or formula of the line above."""
    for above, line in zip(lines, lines[1:]):
        line.shift(UP * (baseline(above) - pitch - baseline(line)))
        near = [
            a.get_bottom()[1] - b.get_top()[1]
            for a in _parts(above)
            for b in _parts(line)
            if abs(a.get_x() - b.get_x()) < (a.width + b.width) / 2
        ]
        if near and min(near) < buff:
            line.shift(UP * (min(near) - buff))


def _parts(line) -> list:
    """A line's texts and formulas (a plain line is one text)."""
    return list(line.submobjects) if hasattr(line, "baseline") and len(line) else [line]
