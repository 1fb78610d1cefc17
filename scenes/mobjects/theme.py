"""Colours and text sizes: one colour per token, one accent, one output style, and the two colour
scales every matrix uses, in a dark and a light variant.

Colour means one thing (docs/design.md, "Pictures"):

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
        """The colour of token ``i`` (cycled past 24)."""
        return self.tokens[i % len(self.tokens)]

    @property
    def role(self) -> ManimColor:
        """The tone of the roles query, key and value where a scene names them (Projections'
        cards): neutral, the role told by its name, never a token's colour (issue 38: "value" in
        the third token colour read as that token's, the query's card in the followed query's
        cyan). At least 20 from every token colour in CIEDE2000 and 4.5 : 1 on the panel."""
        return self.text

    # kept for old call sites: the ends of the weight scale
    @property
    def heat_low(self) -> ManimColor:
        return heat(0.0)

    @property
    def heat_high(self) -> ManimColor:
        return heat(1.0)


# Twenty-four token colours per theme that a viewer can tell apart (for examples of up to 24
# tokens): each at least 4.5 : 1 against its theme's background, none grey (chroma ≥ 30), none in
# the accent's yellow–orange hues, none near the text or output colour (ΔE ≥ 20), on the light
# theme none near black (L* ≥ 28), on the dark none near white (L* ≤ 88).
# The first CAST_COLOURS are the cast's (attention_core.story_cast: the followed query, its key,
# then the story's tokens, in this order; issue 38: at real size cyan and blue, green and teal
# could not be told apart). Under the same rules, and at least 4.5 : 1 against the theme's panel
# too (a legend on a panel is drawn in them) and at least 15 from the quiet tone (muted) the
# other tokens take, they are the best of many farthest-point searches in CIEDE2000 over a
# 30-level sRGB grid, a pair of near hues kept apart in lightness too: every pair at least 27.4
# apart on the dark theme and 23.4 on the light (the earlier first eight: 17.3 and 17.2). On the
# light theme no eight colours dark enough for its panel reach 25 under these rules (the
# searches' best without the panel: 25.1, with four under 4.5 : 1 there). The query's colour
# (cyan on the dark theme, blue on the light) and the key's red come first; last the dark
# theme's lime (nearest the accent) and the light theme's royal blue (nearest the query's hue).
# Each next one is the grid's colour farthest in CIEDE2000 from all before it, so every prefix
# is spread as far as it can be: the closest pair is ≥ 17 apart among the first 12 and ≥ 12
# among all 24 (ΔE ≈ 2: just noticeable).
CAST_COLOURS = 8
_DARK_TOKENS = (
    "#2CEDFF",
    "#FF357B",
    "#008DE5",
    "#099E6A",
    "#FFCAFF",
    "#B061FF",
    "#FFB095",
    "#B9ED00",  # the nearest the accent's yellow of the eight (ΔE 22.7): last
    "#E53E09",
    "#61F6B9",
    "#23959E",
    "#7B9E00",
    "#A7B9FF",
    "#B984B0",
    "#B0CA8D",
    "#B9726A",
    "#727BB0",
    "#00CA3E",
    "#23C1FF",
    "#E500B9",
    "#FF95A7",
    "#58C1B0",
    "#FF84FF",
    "#6A844F",
)
_LIGHT_TOKENS = (
    "#0072B0",
    "#DC093E",
    "#354F00",
    "#007B72",
    "#84004F",
    "#6A3523",
    "#7B619E",
    "#0000E5",  # a second blue (41° of hue from the first, darker): last
    "#DC129E",
    "#1A8435",
    "#A71AFF",
    "#2C467B",
    "#A76172",
    "#7B2395",
    "#DC3500",
    "#3E58F6",
    "#004F35",
    "#95092C",
    "#A7614F",
    "#617B09",
    "#A70900",
    "#95467B",
    "#583561",
    "#CA0061",
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
    up to one of :data:`SCALE_STEPS` × 10^k, so the bar's ticks read cleanly and the largest
    value keeps most of its colour (1-2-5 gave ±200 for −105…62: every cell looked pale)."""
    v = np.asarray(values, dtype=float)
    v = np.abs(v[np.isfinite(v)])
    top = float(v.max()) if v.size else 1.0
    if top <= 0:
        return 1.0
    power = 10 ** np.floor(np.log10(top))
    for m in SCALE_STEPS:
        if m * power >= top - 1e-12 * top:
            return float(m * power)
    return float(10 * power)


SCALE_STEPS = (1, 1.5, 2, 3, 4, 5, 6, 8, 10)  # a score scale's bound: one of these × 10^k


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


def lab(color) -> np.ndarray:
    """CIELAB (D65) of a colour."""
    rgb = np.asarray(ManimColor(color).to_rgb(), dtype=float)
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = m @ lin / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def delta_e(a, b) -> float:
    """CIEDE2000 colour difference of two colours (≈ 2: just noticeable)."""
    (l1, a1, b1), (l2, a2, b2) = lab(a), lab(b)
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean**7 / (c_mean**7 + 25.0**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = np.hypot(a1, b1), np.hypot(a2, b2)
    h1, h2 = np.degrees(np.arctan2(b1, a1)) % 360, np.degrees(np.arctan2(b2, a2)) % 360
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    big_dh = 2 * np.sqrt(c1 * c2) * np.sin(np.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    h_mean = _hue_mean(h1, h2, c1 * c2)
    t = (
        1
        - 0.17 * np.cos(np.radians(h_mean - 30))
        + 0.24 * np.cos(np.radians(2 * h_mean))
        + 0.32 * np.cos(np.radians(3 * h_mean + 6))
        - 0.20 * np.cos(np.radians(4 * h_mean - 63))
    )
    rotation = (
        -np.sin(np.radians(60 * np.exp(-(((h_mean - 275) / 25) ** 2))))
        * 2
        * np.sqrt(c_mean**7 / (c_mean**7 + 25.0**7))
    )
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / np.sqrt(20 + (l_mean - 50) ** 2)
    sc, sh = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    dl, dc, dh_ = (l2 - l1) / sl, (c2 - c1) / sc, big_dh / sh
    return float(np.sqrt(dl**2 + dc**2 + dh_**2 + rotation * dc * dh_))


def _hue_mean(h1: float, h2: float, chroma_product: float) -> float:
    if chroma_product == 0:
        return h1 + h2
    if abs(h1 - h2) <= 180:
        return (h1 + h2) / 2
    return (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
