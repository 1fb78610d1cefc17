"""How a render looks: quality, language, theme, aspect ratio, transparency, font.

Everything that changes the picture lives in one :class:`Look`; its :meth:`Look.folder` name
tells variants apart (``480p15``, ``480p15-en-light``, ``720p30-4x3-alpha``), so different
looks never overwrite each other. Importing this module does not import Manim.

:data:`OPTIONS` is the one table of look options: for each field of :class:`Look`, its
command-line flags and help (the CLI builds its options from it), how a value is checked, its
part of the folder name and its ``ATTN_*`` variable for plain ``manim render``
(:func:`from_environment`). Adding a look option is a field of :class:`Look` and a row here.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from dataclasses import dataclass

from attention_core import DEFAULT_PRESET, Example, load_example
from scenes.kit.captions import LANGS, default_lang
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
EXAMPLE_VARIABLE = "ATTN_EXAMPLE"


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
    narrate: bool = False
    voice: str | None = None  # None: the language's default voice (scenes/kit/narration.py)

    @classmethod
    def for_example(cls, example: Example, **asked) -> Look:
        """The look asked for (by field name; None or absent: the option's default), validated
        as :data:`OPTIONS` says (ValueError names the option)."""
        return cls.for_facts(facts(example), **asked)

    @classmethod
    def for_facts(cls, example_facts: tuple, **asked) -> Look:
        """:meth:`for_example` for an example whose :func:`facts` are ``example_facts`` (one
        look serves every example with the same facts: a course plans one per distinct ones)."""
        unknown = [name for name in asked if name not in OPTIONS]
        if unknown:
            raise TypeError(f"Look.for_example: no look option {unknown[0]!r}")
        values = {}
        for (name, option), fact in zip(OPTIONS.items(), example_facts, strict=True):
            values[name] = option.resolve(asked.get(name), fact)
        from scenes.kit.narration import settle_voice  # the voice fits the language

        values["voice"] = settle_voice(values["voice"], values["narrate"], values["lang"])
        return cls(**values)

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
        return self.folder_for(facts(example))

    def folder_for(self, example_facts: tuple) -> str:
        """:meth:`folder` for an example whose :func:`facts` are ``example_facts``."""
        parts = (
            o.folder(getattr(self, name), fact)
            for (name, o), fact in zip(OPTIONS.items(), example_facts, strict=True)
        )
        return "-".join(p for p in parts if p)

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
        """Every field (part of each output's content key)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}  # all flat


# -- the table of look options ---------------------------------------------------------------------
def _no_part(value, fact) -> str:  # noqa: ARG001 - the default folder part: none
    return ""


@dataclass(frozen=True)
class LookOption:
    """One field of :class:`Look` as the user sets it.

    ``flags``/``help``/``metavar``/``cli_default`` make its click option (``multiple``: given
    once per value, as ``--lang``; ``shared``: on every rendering command, else a command adds it
    by name); ``check(value)`` raises ValueError naming the option; ``fact(example)`` is all it
    reads of an example (None: nothing), ``default(fact)`` its value when none is given,
    ``folder(value, fact)`` its part of the folder name ("" for none); ``env`` its variable for
    plain ``manim render``.
    """

    name: str
    flags: tuple[str, ...]
    help: str | None = None
    metavar: str | None = None
    cli_default: object = None
    multiple: bool = False
    is_flag: bool = False
    shared: bool = True
    check: Callable[[object], None] = lambda value: None  # noqa: ARG005
    fact: Callable[[Example], object] = lambda example: None  # noqa: ARG005
    default: Callable[[object], object] = lambda fact: None  # noqa: ARG005
    folder: Callable[[object, object], str] = _no_part
    env: str | None = None
    convert: Callable[[object], object] = lambda value: value
    # in a course file (scenes/pipeline/course.py): its key (a list of values, each rendered),
    # the values it takes, and its default there ("default": the option's default per example)
    course_key: str | None = None
    course_choices: tuple = ()
    course_default: tuple = ()

    def resolve(self, value, fact):
        """``value`` checked, or the default for an example with ``fact`` when it is None."""
        if value is None:
            return self.default(fact)
        self.check(value)
        return self.convert(value)


def _check_font(font) -> None:
    if not font.strip() or len(font) > 100:
        raise ValueError("--font: give a font family name, such as 'Noto Sans CJK SC'")


def _quality_part(quality, fact) -> str:  # noqa: ARG001
    _, height, rate = QUALITIES[quality]
    return f"{height}p{rate}"


_ON = {True: True, False: False, "on": True, "off": False, "1": True, "0": False}


def _check_narrate(value) -> None:
    if value not in _ON:
        raise ValueError(f"--narrate: {value!r} is not one of on, off")


def _check_voices(names) -> None:
    for name in (names,) if isinstance(names, str) else names:
        if not (isinstance(name, str) and name.isascii() and name.replace("_", "").isalnum()):
            raise ValueError(
                f"--voice: {name!r} is not a voice name, such as af_heart or zf_xiaoyi"
            )


def _font_part(font, fact) -> str:  # noqa: ARG001
    if font == DEFAULT_FONT:
        return ""
    return "font-" + "".join(c if c.isalnum() else "_" for c in font)[:40]


OPTIONS: dict[str, LookOption] = {
    o.name: o
    for o in (
        LookOption(
            "quality",
            ("-q", "--quality"),
            help="l 480p15, m 720p30, h 1080p60, p 1440p60, k 2160p60.",
            metavar="l|m|h|p|k",
            cli_default="l",
            check=lambda v: _choice("-q/--quality", v, QUALITIES),
            default=lambda fact: "l",  # noqa: ARG005
            folder=_quality_part,
            course_key="qualities",
            course_choices=tuple(QUALITIES),
            course_default=("l",),
        ),
        LookOption(
            "lang",
            ("--lang",),
            help="Language of every word on screen and in captions (default: zh for "
            "CJK examples, else en); repeat it for both: --lang zh --lang en.",
            metavar="zh|en",
            multiple=True,
            check=lambda v: _choice("--lang", v, LANGS),
            fact=default_lang,  # the example's own language
            default=lambda lang: lang,
            folder=lambda v, lang: v if v != lang else "",
            env="ATTN_LANG",
            course_key="langs",
            course_choices=(*LANGS, "default"),
            course_default=("default",),
        ),
        LookOption(
            "theme",
            ("--theme",),
            help="light: dark text on white, for projectors and handouts.",
            metavar="dark|light",
            cli_default="dark",
            check=lambda v: _choice("--theme", v, THEME_NAMES),
            default=lambda fact: "dark",  # noqa: ARG005
            folder=lambda v, fact: v if v != "dark" else "",  # noqa: ARG005
            env="ATTN_THEME",
            course_key="themes",
            course_choices=THEME_NAMES,
            course_default=("dark",),
        ),
        LookOption(
            "aspect",
            ("--aspect",),
            metavar="16:9|4:3|1:1",
            cli_default="16:9",
            check=lambda v: _choice("--aspect", v, ASPECTS),
            default=lambda fact: "16:9",  # noqa: ARG005
            folder=lambda v, fact: v.replace(":", "x") if v != "16:9" else "",  # noqa: ARG005
            env="ATTN_ASPECT",
            course_key="aspects",
            course_choices=tuple(ASPECTS),
            course_default=("16:9",),
        ),
        LookOption(
            "transparent",
            ("--transparent",),
            help="Alpha background (with --format webm, mov or png).",
            is_flag=True,
            shared=False,  # render only: `render` adds it beside --format
            convert=bool,
            default=lambda fact: False,  # noqa: ARG005
            folder=lambda v, fact: "alpha" if v else "",  # noqa: ARG005
        ),
        LookOption(
            "font",
            ("--font",),
            help="Font family (default: Noto Sans CJK SC); a missing one falls back "
            "with a warning.",
            metavar="FAMILY",
            check=_check_font,
            default=lambda fact: DEFAULT_FONT,  # noqa: ARG005
            folder=_font_part,
            env="ATTN_FONT",
        ),
        LookOption(
            "narrate",
            ("--narrate",),
            help="Speak each caption (an offline voice) and hold each step until it is said; "
            "subtitles (--captions) follow the voice.",
            is_flag=True,
            check=_check_narrate,
            convert=lambda v: _ON[v],
            default=lambda fact: False,  # noqa: ARG005
            folder=lambda v, fact: "voiced" if v else "",  # noqa: ARG005
            env="ATTN_NARRATE",
            course_key="narration",
            course_choices=("off", "on"),
            course_default=("off",),
        ),
        LookOption(
            "voice",
            ("--voice",),
            help="The narrating voice of its language (with --narrate; repeat for each "
            "language: --voice am_adam --voice zm_yunxi); default af_heart (en), zf_xiaoyi (zh).",
            metavar="NAME",
            multiple=True,
            check=_check_voices,
            convert=lambda v: (v,) if isinstance(v, str) else tuple(v),
            default=lambda fact: (),  # noqa: ARG005
            folder=lambda v, fact: v or "",  # noqa: ARG005 - None: the language's default
            env="ATTN_VOICE",
        ),
    )
}


def facts(example: Example) -> tuple:
    """All that the look options read of ``example`` (each option's ``fact``, in table order):
    examples with the same facts get the same looks and the same folders."""
    return tuple([read(example) for read in _READS])


_READS = tuple(o.fact for o in OPTIONS.values())


# For plain `manim render scenes/<module>.py <Scene>`: the one place the environment is read.
ENVIRONMENT = {
    "example": EXAMPLE_VARIABLE,
    **{name: o.env for name, o in OPTIONS.items() if o.env},
}


def from_environment(example: Example | None = None) -> tuple[Example, Look]:
    """The example and look that ``$ATTN_EXAMPLE`` and each look option's variable name
    (``ATTN_LANG``, ``ATTN_THEME``, ``ATTN_ASPECT``, ``ATTN_FONT``, ``ATTN_NARRATE`` (1 or
    on), ``ATTN_VOICE``; an unset or empty one:
    the default), validated like the command line's options."""
    if example is None:
        example = load_example(os.environ.get(EXAMPLE_VARIABLE) or DEFAULT_PRESET)
    asked = {name: os.environ.get(o.env) or None for name, o in OPTIONS.items() if o.env}
    return example, Look.for_example(example, **asked)
