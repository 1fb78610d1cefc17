"""Text on screen: every string goes through Pango ``Text`` (escaped), never markup or Typst.

:class:`Num` is a number shown on screen that remembers which trace value it shows (``role``), so
tests can check every number against the core.
"""

from __future__ import annotations

from manim import DOWN, LEFT, Text, VGroup

from scenes.numbers_report import fmt
from scenes.theme import BODY, FONT

__all__ = ["label", "Num", "wrap_lines", "text_block", "fmt"]


def label(text: str, size: float = BODY, color=None, weight="NORMAL") -> Text:
    """A plain text mobject. ``Text`` does not interpret markup: ``<b>x</b>`` shows literally."""
    kwargs = {"font": FONT, "font_size": size, "weight": weight}
    if color is not None:
        kwargs["color"] = color
    mob = Text(text, **kwargs)
    mob.source_text = text
    return mob


class Num(Text):
    """A number from the trace, shown rounded; ``role`` says where it comes from.

    ``role`` is a tuple such as ``("scores", head, i, j)``: see :mod:`scenes.roles`.
    """

    def __init__(self, value: float, role: tuple, digits: int = 2, size: float = BODY,
                 color=None, prefix: str = "", suffix: str = ""):
        self.value = float(value)
        self.role = role
        self.digits = digits
        self.shown = fmt(self.value, digits)
        kwargs = {"font": FONT, "font_size": size}
        if color is not None:
            kwargs["color"] = color
        super().__init__(prefix + self.shown + suffix, **kwargs)
        self.source_text = prefix + self.shown + suffix


def wrap_lines(text: str, max_width: float, size: float, max_lines: int = 3) -> list[str]:
    """Break ``text`` into lines no wider than ``max_width`` (measured by Pango).

    Latin text breaks at spaces, CJK between any two characters.
    """
    def width(s):
        return Text(s, font=FONT, font_size=size).width if s.strip() else 0.0

    if width(text) <= max_width:
        return [text]
    units = _break_units(text)
    lines, current = [], ""
    for unit in units:
        trial = current + unit
        if current and width(trial.rstrip()) > max_width:
            lines.append(current.rstrip())
            current = unit.lstrip()
        else:
            current = trial
    if current.strip():
        lines.append(current.rstrip())
    if len(lines) > max_lines:
        lines = lines[: max_lines - 1] + ["".join(lines[max_lines - 1:])]
    return lines


def _break_units(text: str) -> list[str]:
    units, word = [], ""
    for c in text:
        if ord(c) > 0x2E7F and not c.isspace():  # CJK and friends: a break anywhere
            if word:
                units.append(word)
                word = ""
            units.append(c)
        elif c == " ":
            units.append(word + c)
            word = ""
        else:
            word += c
    if word:
        units.append(word)
    return units


def text_block(lines: list[str], size: float, color=None, buff: float = 0.12) -> VGroup:
    group = VGroup(*(label(line, size, color) for line in lines))
    return group.arrange(DOWN, aligned_edge=LEFT, buff=buff)


def vector_row(nums, color, size: float = BODY) -> VGroup:
    """Numbers shown as a row vector "[a, b, …]", commas on the baseline."""
    from manim import RIGHT

    nums = list(nums)
    body = VGroup(*nums).arrange(RIGHT, buff=0.32, aligned_edge=DOWN)
    commas = VGroup()
    for n in nums[:-1]:
        c = label(",", size, color)
        c.next_to(n, RIGHT, buff=0.04, aligned_edge=DOWN).shift(DOWN * c.height * 0.35)
        commas.add(c)
    left, right = label("[", size, color), label("]", size, color)
    left.next_to(body, LEFT, buff=0.08)
    right.next_to(body, RIGHT, buff=0.08)
    return VGroup(left, body, commas, right)
