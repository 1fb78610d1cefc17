"""Narration (issue 42): each caption page spoken as it comes on screen, held until it is said.

:class:`Narrated` is a mixin of :class:`scenes.kit.base.ExplainerScene`. With ``look.narrate``,
each caption page, when it is fully on screen, is said aloud: its text as spoken
(:func:`scenes.speech.spoken.spoken`) is synthesised once (:func:`scenes.speech.voice.clip`,
cached) and the page holds ``max(reading time, clip + BREATH)``, on whole frames as ever. The
clip is not mixed here: the open step's record gets ``speech`` (per page: ``at`` in seconds,
``seconds``, the page's ``caption`` and its ``clip`` file), and the pipeline mixes every clip
into one track as long as the video after the video is written
(:mod:`scenes.pipeline.soundtrack`), the same way for a video rendered whole and one rendered
in parts and joined. (Manim's own ``add_sound`` would not serve: the section videos of a split
render carry no sound, and its track ends with the last sound, not with the video.) A page of a
step that is not rendered (a split render's other parts; stills, png) is not spoken: its timing
is nominal there. Importing this module does not import Manim.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from scenes.kit import captions


class Voiced(Protocol):
    """What :func:`voice_of` reads of a look (scenes.kit.look.Look, which imports this module)."""

    voice: str | None
    lang: str


BREATH = 0.4  # seconds of silence after a page's speech before the next page comes


def settle_voice(names: Iterable[str] | None, narrate: bool, lang: str) -> str | None:
    """The voice of a look in ``lang`` from the ``--voice`` names asked (each a voice of one
    language): the one of them that speaks ``lang``; None for the language's default voice (or
    no narration). ValueError naming ``--voice`` for a voice without ``--narrate`` or a name no
    language has; a voice of another language is left to that language's look (the command
    checks that each voice asked speaks a language rendered)."""
    names = tuple(names or ())
    if names and not narrate:
        raise ValueError("--voice: a voice speaks only in a narrated render; add --narrate")
    if not narrate:
        return None
    from scenes.speech.voice import DEFAULT_VOICES, check_voice

    fits, why = [], ""
    for name in names:
        try:
            fits.append(check_voice(name, lang))
        except ValueError as exc:
            why = why or str(exc)
            if not any(_speaks(name, other) for other in captions.LANGS if other != lang):
                raise ValueError("--voice: " + str(exc).removeprefix("voice: ")) from None
    voice = fits[0] if fits else None
    return None if voice == DEFAULT_VOICES.get(lang) else voice


def _speaks(name: str, lang: str) -> bool:
    from scenes.speech.voice import check_voice

    try:
        check_voice(name, lang)
    except ValueError:
        return False
    return True


def voice_of(look: Voiced) -> str:
    """The voice that speaks ``look``'s narration (its own, or its language's default)."""
    from scenes.speech.voice import DEFAULT_VOICES

    return look.voice or DEFAULT_VOICES[look.lang]


def _seen(page: str) -> str:
    """A caption page as text: its layout marks (a label's word joiners, a formula's bounds)
    dropped."""
    return "".join(c for c in page if c not in "\u2060\ue000\ue001")


class Narrated:
    """The narration of an :class:`~scenes.kit.base.ExplainerScene` (see the module)."""

    _speech_hold = 0.0  # seconds the page on screen holds for its speech (0: not spoken)
    # plain `manim render` (ATTN_NARRATE=1): Manim mixes each clip itself (add_sound); the
    # pipeline sets this False and mixes the clips into a track as long as the video
    adds_own_sound = True

    @property
    def narrating(self) -> bool:
        """Whether the page now on screen is spoken: a narrated look, a video being written,
        and this part of it rendered (not skipped)."""
        from manim import config

        skipped = (
            self.renderer.skip_animations or self.renderer.file_writer.sections[-1].skip_animations
        )
        return bool(self.look.narrate) and config.write_to_movie and not skipped

    def speak_page(self) -> None:
        """Say the caption page that has just come fully on screen (``_page_text``, at
        ``_caption_shown``): its clip and time go into the open step's ``speech``."""
        self._speech_hold = 0.0
        if not self.narrating:
            return
        from scenes.speech.spoken import spoken
        from scenes.speech.voice import clip

        said = spoken(self._page_text, self.lang).strip()
        if not said:
            return
        sound = clip(said, self.lang, voice_of(self.look))
        self._open_step.setdefault("speech", []).append(
            {
                "at": round(self._caption_shown, 4),
                "seconds": round(sound.seconds, 4),
                "caption": _seen(self._page_text),  # as the subtitles show it
                "clip": str(sound.path),
            }
        )
        self._speech_hold = sound.seconds + BREATH
        if self.adds_own_sound:
            self.add_sound(str(sound.path))

    def page_seconds(self) -> float:
        """How long the page on screen holds: its reading time, or its speech and a breath
        where that is longer."""
        return max(captions.reading_time(self._page_text, self.lang), self._speech_hold)
