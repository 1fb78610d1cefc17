"""How a render looks: quality, language, theme, aspect ratio, transparency, font.

Everything that changes the picture lives in one :class:`Look`; its :meth:`Look.folder` name
tells variants apart (``480p15``, ``480p15-en-light``, ``720p30-4x3-alpha``), so different
looks never overwrite each other. Importing this module does not import Manim.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from attention_core import DEFAULT_PRESET, Example, load_example
from scenes.captions import LANGS, default_lang
from scenes.mobjects.fonts import DEFAULT_FONT

# Manim's quality flags → (Manim's quality name, pixel height, frame rate)
QUALITIES = {
    "l": ("low_quality", 480, 15),
    "m": ("medium_quality", 720, 30),
    "h": ("high_quality", 1080, 60),
    "p": ("production_quality", 1440, 60),
    "k": ("fourk_quality", 2160, 60),
}
ASPECTS = {"16:9": (16, 9), "4:3": (4, 3), "1:1": (1, 1)}
THEME_NAMES = ("dark", "light")
FRAME_HEIGHT = 8.0  # Manim's frame height in scene units; the width follows the aspect


def _choice(option: str, value, choices) -> None:
    if value not in choices:
        raise ValueError(f"{option}: {value!r} is not one of {', '.join(choices)}")


@dataclass(frozen=True)
class Look:
    quality: str = "l"
    lang: str = "zh"
    theme: str = "dark"
    aspect: str = "16:9"
    transparent: bool = False
    font: str = DEFAULT_FONT

    @classmethod
    def for_example(
        cls,
        example: Example,
        *,
        quality="l",
        lang=None,
        theme="dark",
        aspect="16:9",
        transparent=False,
        font=None,
    ) -> Look:
        """The look asked for on the command line, validated (ValueError names the option)."""
        _choice("-q/--quality", quality, QUALITIES)
        if lang is not None:
            _choice("--lang", lang, LANGS)
        _choice("--theme", theme, THEME_NAMES)
        _choice("--aspect", aspect, ASPECTS)
        if font is not None and (not font.strip() or len(font) > 100):
            raise ValueError("--font: give a font family name, such as 'Noto Sans CJK SC'")
        return cls(
            quality,
            lang or default_lang(example),
            theme,
            aspect,
            bool(transparent),
            font or DEFAULT_FONT,
        )

    @property
    def pixel_height(self) -> int:
        return QUALITIES[self.quality][1]

    @property
    def frame_rate(self) -> int:
        return QUALITIES[self.quality][2]

    @property
    def frame_size(self) -> tuple[float, float]:
        """The frame in scene units: (width, height)."""
        return self.frame_width, FRAME_HEIGHT

    @property
    def frame_width(self) -> float:
        w, h = ASPECTS[self.aspect]
        return FRAME_HEIGHT * w / h

    def folder(self, example: Example) -> str:
        """``480p15`` for the defaults; each other choice adds a part (``-en``, ``-light``…)."""
        parts = [f"{self.pixel_height}p{self.frame_rate}"]
        if self.lang != default_lang(example):
            parts.append(self.lang)
        if self.theme != "dark":
            parts.append(self.theme)
        if self.aspect != "16:9":
            parts.append(self.aspect.replace(":", "x"))
        if self.transparent:
            parts.append("alpha")
        if self.font != DEFAULT_FONT:
            parts.append("font-" + "".join(c if c.isalnum() else "_" for c in self.font)[:40])
        return "-".join(parts)

    def manim_config(self, pixel_height: int | None = None) -> dict:
        """Manim config values for this look (``pixel_height`` overrides the quality's)."""
        height = pixel_height or self.pixel_height
        w, h = ASPECTS[self.aspect]
        cfg = {
            "pixel_height": height,
            "pixel_width": 2 * round(height * w / h / 2),  # even: the encoders need it
            "frame_height": FRAME_HEIGHT,
            "frame_width": self.frame_width,
            "frame_rate": self.frame_rate,
        }
        if self.transparent:
            cfg["transparent"] = True
        return cfg

    def as_dict(self) -> dict:
        return {
            "quality": self.quality,
            "lang": self.lang,
            "theme": self.theme,
            "aspect": self.aspect,
            "transparent": self.transparent,
            "font": self.font,
        }


# For plain `manim render scenes/<module>.py <Scene>`: the one place the environment is read.
ENVIRONMENT = {
    "example": "ATTN_EXAMPLE",
    "lang": "ATTN_LANG",
    "theme": "ATTN_THEME",
    "aspect": "ATTN_ASPECT",
    "font": "ATTN_FONT",
}


def from_environment(example: Example | None = None) -> tuple[Example, Look]:
    """The example and look that ``$ATTN_EXAMPLE``, ``$ATTN_LANG``, ``$ATTN_THEME``,
    ``$ATTN_ASPECT`` and ``$ATTN_FONT`` name (defaults: zao-shang-hao, its own language, dark,
    16:9, the default font), validated like the command line's options."""
    env = {k: os.environ.get(v) or None for k, v in ENVIRONMENT.items()}
    if example is None:
        example = load_example(env["example"] or DEFAULT_PRESET)
    look = Look.for_example(
        example,
        lang=env["lang"],
        theme=env["theme"] or "dark",
        aspect=env["aspect"] or "16:9",
        font=env["font"],
    )
    return example, look
