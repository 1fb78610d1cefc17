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

from manim import VGroup
from manim.mobject.text.typst_mobject import MathTypst

from scenes.mobjects.text import clone, label
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
