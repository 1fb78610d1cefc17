"""One colour per token, used everywhere, in a dark and a light variant; fonts and text sizes."""

from __future__ import annotations

from dataclasses import dataclass

from manim import ManimColor

# Text sizes (Manim font sizes at the default 8-unit frame height). MIN_FONT_SIZE makes a digit or
# capital 1/36 of the frame height tall: no text on screen is smaller.
MIN_FONT_SIZE = 22
SMALL = 22
BODY = 26
CAPTION = 26
TITLE = 32


@dataclass(frozen=True)
class Theme:
    name: str
    background: ManimColor
    text: ManimColor
    muted: ManimColor
    grid: ManimColor
    axis: ManimColor
    accent: ManimColor
    panel: ManimColor
    heat_low: ManimColor
    heat_high: ManimColor
    tokens: tuple[ManimColor, ...]

    def token(self, i: int) -> ManimColor:
        """The colour of token ``i`` (cycled past 12)."""
        return self.tokens[i % len(self.tokens)]


_DARK_TOKENS = (
    "#58C4DD",
    "#F4D345",
    "#83C167",
    "#FC6255",
    "#B189C6",
    "#5CD0B3",
    "#FF862F",
    "#E07FBF",
    "#C7A64F",
    "#A3C4F3",
    "#D9A07A",
    "#9EE493",
)
_LIGHT_TOKENS = (
    "#1F6FB2",
    "#B8860B",
    "#2E7D32",
    "#C62828",
    "#6A1B9A",
    "#00796B",
    "#E65100",
    "#AD1457",
    "#7B6000",
    "#3949AB",
    "#8D4E22",
    "#33691E",
)

DARK = Theme(
    "dark",
    ManimColor("#0E1117"),
    ManimColor("#ECEFF4"),
    ManimColor("#9AA3B2"),
    ManimColor("#2A3340"),
    ManimColor("#8892A0"),
    ManimColor("#FFD166"),
    ManimColor("#1A2130"),
    ManimColor("#16324F"),
    ManimColor("#F2A541"),
    tuple(ManimColor(c) for c in _DARK_TOKENS),
)
LIGHT = Theme(
    "light",
    ManimColor("#FFFFFF"),
    ManimColor("#111111"),
    ManimColor("#4A5260"),
    ManimColor("#D5DAE1"),
    ManimColor("#5A6270"),
    ManimColor("#B25E00"),
    ManimColor("#F1F3F6"),
    ManimColor("#E8F0FA"),
    ManimColor("#D9822B"),
    tuple(ManimColor(c) for c in _LIGHT_TOKENS),
)

THEMES = {"dark": DARK, "light": LIGHT}


def get_theme(name: str) -> Theme:
    try:
        return THEMES[name]
    except KeyError:
        raise ValueError(f"theme: {name!r} is not one of {', '.join(THEMES)}") from None
