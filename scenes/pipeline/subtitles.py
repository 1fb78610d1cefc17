"""Subtitles from a scene's steps: one cue per step, its caption, timed to the animation.

The step records (``key``, ``caption``, ``start``, ``end`` in seconds, and ``shown``: when the
caption came, after the step's picture) come from the scene
itself (``ExplainerScene.steps``), so the cues follow the real timing of every render. A narrated
step (``speech``: each caption page, when it was said) has one cue per page, from when its speech
starts until the next page's (the last until the step ends). ``.srt``
is written with the ``srt`` package that Manim uses for its subcaptions; ``.vtt`` (WebVTT) is
what a browser's ``<track>`` needs. Both are plain text: a label such as ``<b>x</b>`` is escaped
in WebVTT (where ``<`` starts a tag) and stays literal in SRT players that read plain text.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path


def cues(steps: list[dict]) -> list[tuple[float, float, str]]:
    """(start, end, text) per step that lasts at least a millisecond (as both formats write
    it: a shorter one would be a cue in one file and none in the other), from when the step's
    caption came on screen (``shown``; a record without it: the step's start); a narrated step's
    per caption page, from when it was said."""
    timed = []
    for s in steps:
        if s.get("speech"):  # narrated: each page from its voice on
            said = s["speech"]
            ends = [float(p["at"]) for p in said[1:]] + [float(s["end"])]
            timed += [(float(p["at"]), end, p["caption"]) for p, end in zip(said, ends)]
        else:
            timed.append((float(s.get("shown", s["start"])), float(s["end"]), s["caption"]))
    return [(a, b, text) for a, b, text in timed if to_ms(b) > to_ms(a)]


def to_ms(seconds: float) -> int:
    """The one rounding rule of both formats: to the nearest millisecond (``srt`` alone would
    truncate, so a cue's .srt and .vtt times could differ by 1 ms)."""
    return int(round(seconds * 1000))


def as_srt(steps: list[dict]) -> str:
    import srt

    subs = [
        srt.Subtitle(i, timedelta(milliseconds=to_ms(a)), timedelta(milliseconds=to_ms(b)), text)
        for i, (a, b, text) in enumerate(cues(steps), 1)
    ]
    return srt.compose(subs)


def _vtt_time(seconds: float) -> str:
    ms = to_ms(seconds)
    h, ms = divmod(ms, 3_600_000)
    m, ms = divmod(ms, 60_000)
    s, ms = divmod(ms, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}.{ms:03d}"


def vtt_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def as_vtt(steps: list[dict]) -> str:
    lines = ["WEBVTT", ""]
    for i, (a, b, text) in enumerate(cues(steps), 1):
        # "-->" inside a cue would end its timing line; a blank line would end the cue
        body = vtt_escape(text).replace("-->", "--&gt;").replace("\n\n", "\n")
        lines += [str(i), f"{_vtt_time(a)} --> {_vtt_time(b)}", body, ""]
    return "\n".join(lines)


def write(steps: list[dict], stem: Path) -> list[Path]:
    """Write ``stem.srt`` and ``stem.vtt`` (each whole or not at all); return their paths."""
    from scenes.pipeline.files import atomic_write

    return [
        atomic_write(Path(stem).with_suffix(suffix), text)
        for suffix, text in ((".srt", as_srt(steps)), (".vtt", as_vtt(steps)))
    ]
