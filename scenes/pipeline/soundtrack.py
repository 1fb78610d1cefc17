"""The voice of a narrated video: every step's speech mixed into one track beside the picture.

The step records say when each caption page was said (``speech``: ``at`` seconds, its ``clip``
file; :mod:`scenes.kit.narration`). :func:`add_voice` mixes the clips at those times into one
mono track exactly as long as the video (silence where nothing is said), encodes it (AAC in mp4
and mov, Opus in webm) and writes the video's packets beside it unchanged (no re-encoding of
the picture), the index first in mp4 and mov. A video rendered whole and one joined from parts
get their voice the same way, after the picture is final; so does each slide of a narrated deck
(:func:`voice_slides`: its step's speech in its own video). No Manim: PyAV and NumPy.
"""

from __future__ import annotations

import heapq
from fractions import Fraction
from pathlib import Path

RATE = 48_000  # samples a second: Opus's own rate, and AAC's frames of 1024 are 21 ms
CODECS = {".mp4": "aac", ".mov": "aac", ".webm": "libopus"}
SOUND_FORMATS = ("mp4", "webm", "mov")


def speech(steps: list[dict]) -> list[tuple[float, str]]:
    """(seconds, clip file) of every page said, in the order of the steps."""
    return [(float(p["at"]), p["clip"]) for s in steps for p in s.get("speech", ())]


def without_clips(steps: list[dict]) -> list[dict]:
    """The steps as a record keeps them: when each page was said, not where its clip was."""
    out = []
    for s in steps:
        if "speech" in s:
            s = dict(s, speech=[{k: v for k, v in p.items() if k != "clip"} for p in s["speech"]])
        out.append(s)
    return out


def samples(path, rate: int = RATE):
    """A sound file as mono float32 samples at ``rate``."""
    import av
    import numpy as np

    chunks = []
    with av.open(str(path)) as src:
        resampler = av.AudioResampler(format="flt", layout="mono", rate=rate)
        for frame in src.decode(audio=0):
            chunks += [f.to_ndarray().reshape(-1) for f in resampler.resample(frame)]
        chunks += [f.to_ndarray().reshape(-1) for f in resampler.resample(None)]
    return np.concatenate(chunks).astype(np.float32) if chunks else np.zeros(0, np.float32)


def mix(said: list[tuple[float, str]], seconds: float, rate: int = RATE):
    """One track of ``seconds``: each clip from its time on (cut at the end, never past it)."""
    import numpy as np

    track = np.zeros(round(seconds * rate), np.float32)
    for at, clip in said:
        start = max(0, round(at * rate))
        sound = samples(clip, rate)[: max(0, len(track) - start)]
        track[start : start + len(sound)] += sound
    return np.clip(track, -1.0, 1.0)


def video_seconds(path: Path, fps: float) -> float:
    """The length of the video ``path`` of constant frame rate ``fps``: its frames / ``fps``."""
    import av

    with av.open(str(path)) as src:
        frames = sum(1 for p in src.demux(src.streams.video[0]) if p.dts is not None)
    return frames / fps


def add_voice(video: Path, steps: list[dict], out: Path, fps: float, since: float = 0.0) -> Path:
    """Write ``out``: ``video``'s picture with the voice of ``steps`` as its sound track (the
    video starting ``since`` seconds into the scene: a slide's)."""
    import av

    track = mix([(at - since, clip) for at, clip in speech(steps)], video_seconds(video, fps))
    suffix = Path(out).suffix
    options = {"movflags": "+faststart"} if suffix in (".mp4", ".mov") else {}  # index first
    with (
        av.open(str(video)) as src,
        av.open(str(out), "w", format=suffix[1:], options=options) as dst,
    ):
        picture = dst.add_stream_from_template(src.streams.video[0])
        voice = dst.add_stream(CODECS[suffix], rate=RATE, layout="mono")
        sound = _encoded(voice, track)
        frames = (p for p in src.demux(src.streams.video[0]) if p.dts is not None)
        for packet in heapq.merge(_onto(frames, picture), sound, key=_when):  # by time
            dst.mux(packet)
    return out


def voice_slides(videos: list[Path], steps: list[dict], fps: float) -> None:
    """Each slide's video (one a step, in order, as manim-slides wrote them) with its step's
    speech as its sound, in place: a page said ``at`` seconds into the scene is said that long
    after the slide's start, the slides before it played through (their frames / ``fps``)."""
    import os

    since = 0.0
    for video, step in zip(videos, steps, strict=True):
        video = Path(video)
        seconds = video_seconds(video, fps)
        voiced = video.with_name(f".tmp-voiced-{video.name}")
        try:
            os.replace(add_voice(video, [step], voiced, fps, since), video)
        finally:
            voiced.unlink(missing_ok=True)
        since += seconds


def _onto(packets, stream):
    for packet in packets:
        packet.stream = stream
        yield packet


def _encoded(stream, track) -> list:
    """``track`` encoded by ``stream``'s codec: its packets, in order."""
    import av

    frame = av.AudioFrame.from_ndarray(track.reshape(1, -1), format="flt", layout="mono")
    frame.sample_rate, frame.pts, frame.time_base = RATE, 0, Fraction(1, RATE)
    return [*stream.encode(frame), *stream.encode(None)]


def _when(packet) -> float:
    at = packet.dts if packet.dts is not None else packet.pts or 0
    return float(at * packet.time_base)
