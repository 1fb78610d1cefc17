"""Colours and text sizes: one colour per token, one accent, one output style, and the two colour
scales every matrix uses, in a dark and a light variant.

Colour means one thing (DESIGN.md, "Pictures"):

- each token has its colour (:meth:`Theme.token`), used only for that token;
- the accent (``theme.accent``), which is no token's colour, marks derived quantities (shadows,
  sums, highlights); outputs have their own colour (``theme.output``) and are labelled o(…);
- attention weights are coloured by one fixed 0 → 1 scale (:func:`heat`), the same in every
  scene, head and example — never stretched min → max, so near-uniform weights look near-uniform;
- scores (signed, unbounded) by a diverging scale around 0 (:func:`diverging`), with its bar;
- text on a coloured cell is dark or light, whichever contrasts more (:func:`text_on`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
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
    output: ManimColor
    panel: ManimColor
    dark_text: ManimColor  # on light cells
    light_text: ManimColor  # on dark cells
    tokens: tuple[ManimColor, ...]

    def token(self, i: int) -> ManimColor:
        """The colour of token ``i`` (cycled past 12)."""
        return self.tokens[i % len(self.tokens)]

    # kept for old call sites: the ends of the weight scale
    @property
    def heat_low(self) -> ManimColor:
        return heat(0.0)

    @property
    def heat_high(self) -> ManimColor:
        return heat(1.0)


# Twelve token colours with no yellow or orange in them: that hue is the accent's alone.
_DARK_TOKENS = (
    "#58C4DD",  # blue
    "#FC6255",  # red
    "#83C167",  # green
    "#B189C6",  # purple
    "#5CD0B3",  # teal
    "#E07FBF",  # pink
    "#A3C4F3",  # periwinkle
    "#C5E384",  # lime
    "#8C9EFF",  # indigo
    "#FF9E9E",  # salmon
    "#7FDBFF",  # sky
    "#D7B4F3",  # lavender
)
_LIGHT_TOKENS = (
    "#1F6FB2",
    "#C62828",
    "#2E7D32",
    "#6A1B9A",
    "#00796B",
    "#AD1457",
    "#3949AB",
    "#33691E",
    "#283593",
    "#BF360C",
    "#01579B",
    "#7B1FA2",
)

DARK = Theme(
    "dark",
    background=ManimColor("#0E1117"),
    text=ManimColor("#ECEFF4"),
    muted=ManimColor("#9AA3B2"),
    grid=ManimColor("#2A3340"),
    axis=ManimColor("#8892A0"),
    accent=ManimColor("#FFD166"),
    output=ManimColor("#FFFFFF"),
    panel=ManimColor("#1A2130"),
    dark_text=ManimColor("#000000"),
    light_text=ManimColor("#FFFFFF"),
    tokens=tuple(ManimColor(c) for c in _DARK_TOKENS),
)
LIGHT = Theme(
    "light",
    background=ManimColor("#FFFFFF"),
    text=ManimColor("#111111"),
    muted=ManimColor("#4A5260"),
    grid=ManimColor("#D5DAE1"),
    axis=ManimColor("#5A6270"),
    accent=ManimColor("#A35400"),
    output=ManimColor("#000000"),
    panel=ManimColor("#F1F3F6"),
    dark_text=ManimColor("#000000"),
    light_text=ManimColor("#FFFFFF"),
    tokens=tuple(ManimColor(c) for c in _LIGHT_TOKENS),
)

THEMES = {"dark": DARK, "light": LIGHT}


def get_theme(name: str) -> Theme:
    try:
        return THEMES[name]
    except KeyError:
        raise ValueError(f"theme: {name!r} is not one of {', '.join(THEMES)}") from None


# -- colour scales ------------------------------------------------------------------------------
# viridis (perceptually uniform, reads on black and on white), 0 → 1
_VIRIDIS = np.array(
    [
        [0.267, 0.005, 0.329],
        [0.283, 0.141, 0.458],
        [0.254, 0.265, 0.530],
        [0.207, 0.372, 0.553],
        [0.164, 0.471, 0.558],
        [0.128, 0.567, 0.551],
        [0.135, 0.659, 0.518],
        [0.267, 0.749, 0.441],
        [0.478, 0.821, 0.318],
        [0.741, 0.873, 0.150],
        [0.993, 0.906, 0.144],
    ]
)
# a diverging blue – grey – red scale for signed scores
_DIVERGING = np.array(
    [
        [0.129, 0.400, 0.674],
        [0.263, 0.576, 0.765],
        [0.573, 0.773, 0.871],
        [0.820, 0.898, 0.941],
        [0.878, 0.878, 0.878],
        [0.992, 0.859, 0.780],
        [0.957, 0.647, 0.510],
        [0.839, 0.376, 0.302],
        [0.698, 0.094, 0.169],
    ]
)


def _ramp(stops: np.ndarray, t: float) -> ManimColor:
    t = float(np.clip(t, 0.0, 1.0))
    x = t * (len(stops) - 1)
    k = min(int(x), len(stops) - 2)
    rgb = stops[k] + (stops[k + 1] - stops[k]) * (x - k)
    return ManimColor.from_rgb(tuple(float(c) for c in rgb))


def heat(weight: float) -> ManimColor:
    """The colour of an attention weight on the one fixed 0 → 1 scale."""
    return _ramp(_VIRIDIS, weight)


def diverging(score: float, limit: float) -> ManimColor:
    """The colour of a signed score on a scale from −``limit`` (blue) through 0 to +``limit``."""
    limit = float(limit) if limit and np.isfinite(limit) and limit > 0 else 1.0
    return _ramp(_DIVERGING, 0.5 + 0.5 * float(score) / limit)


def score_limit(values) -> float:
    """A round bound for the diverging scale of ``values``: the largest |finite value|, rounded
    up to 1, 2 or 5 × 10^k, so the bar's ticks read cleanly."""
    v = np.asarray(values, dtype=float)
    v = np.abs(v[np.isfinite(v)])
    top = float(v.max()) if v.size else 1.0
    if top <= 0:
        return 1.0
    power = 10 ** np.floor(np.log10(top))
    for m in (1, 2, 5, 10):
        if m * power >= top - 1e-12 * top:
            return float(m * power)
    return float(10 * power)


def luminance(color) -> float:
    """WCAG relative luminance of a colour."""
    rgb = np.asarray(ManimColor(color).to_rgb(), dtype=float)
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return float(0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2])


def contrast(a, b) -> float:
    """WCAG contrast ratio between two colours (1 … 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(fill, theme: Theme) -> ManimColor:
    """Dark or light text for a cell of colour ``fill``: whichever contrasts more."""
    dark, light = theme.dark_text, theme.light_text
    return dark if contrast(dark, fill) >= contrast(light, fill) else light
