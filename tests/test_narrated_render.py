"""A narrated render (issue 42): each caption page said as it comes, the step held until it is
said (and a breath), the voice mixed into the video (mp4, webm; whole, or split at its steps and
joined) with sound and picture of one length, and the subtitles timed to the voice.

Cheap by design: the starter scene (two steps) at 128×72, 15 frames a second. The pacing and
mixing tests use a stand-in voice (a tone as long as its text says); one test renders with the
real voice, on the worker of the other voice tests."""

from __future__ import annotations

import hashlib
import json
import re
import sys
import types
import wave
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pytest

import attention_core as ac
from scenes.kit.look import Look
from scenes.kit.narration import BREATH
from scenes.kit.registry import SceneInfo
from scenes.pipeline import execute as execute_module
from scenes.pipeline.jobs import Job

STARTER = SceneInfo("StarterScene", "_template", "the starter scene")
FPS = 15
SECONDS_A_CHAR = 0.12  # the stand-in voice: slower than reading (1/12 s a character in English)


@dataclass(frozen=True)
class _Clip:
    path: Path
    seconds: float


def _tone(path: Path, seconds: float, rate: int = 24_000) -> None:
    t = np.arange(round(seconds * rate)) / rate
    pcm = (0.5 * np.sin(2 * np.pi * 330 * t) * 32767).astype(np.int16)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.tobytes())


@pytest.fixture
def stand_in_voice(monkeypatch, tmp_path):
    """``clip`` as a tone of SECONDS_A_CHAR a character; ``spoken`` as the text itself (the
    real ones where they are installed are replaced; where not, stand-in modules)."""
    folder = tmp_path / "clips"
    folder.mkdir()
    said = []

    def clip(text, lang, voice=None, speed=1.0):  # noqa: ARG001
        path = folder / f"{hashlib.sha256(text.encode()).hexdigest()[:16]}.wav"
        seconds = round(SECONDS_A_CHAR * len(text), 3)
        _tone(path, seconds)
        said.append(text)
        return _Clip(path, seconds)

    def check_voice(name, lang):
        if name[:1] in {"en": "ab", "zh": "z"}[lang] and name.replace("_", "").isalnum():
            return name
        raise ValueError(f"voice: {name!r} is not a {lang} voice; pick one such as af_heart")

    for name, attrs in (
        ("scenes.speech.voice", {"DEFAULT_VOICES": {"en": "af_heart", "zh": "zf_xiaoyi"}}),
        ("scenes.speech.spoken", {}),
    ):
        try:
            module = __import__(name, fromlist=["_"])
        except ImportError:
            module = types.ModuleType(name)
            for k, v in attrs.items():
                setattr(module, k, v)
            monkeypatch.setitem(sys.modules, name, module)
    voice, spoken = sys.modules["scenes.speech.voice"], sys.modules["scenes.speech.spoken"]
    monkeypatch.setattr(voice, "clip", clip, raising=False)
    monkeypatch.setattr(voice, "check_voice", check_voice, raising=False)
    monkeypatch.setattr(spoken, "spoken", lambda text, lang: text, raising=False)  # noqa: ARG005
    return said


@pytest.fixture
def tiny(monkeypatch):
    """Every render of the pipeline at 128×72 (the look's quality: 15 frames a second)."""
    made = execute_module._manim_config

    def small(job, tmp):
        return {**made(job, tmp), "pixel_height": 72, "pixel_width": 128}

    monkeypatch.setattr(execute_module, "_manim_config", small)


def _job(tmp_path, fmt="mp4", narrate=True, **kw) -> Job:
    look = Look(quality="l", lang="en", narrate=narrate)
    ex = ac.PRESETS["zao-shang-hao"]
    return Job(STARTER, ex, look, tmp_path / "out", "video", fmt, captions=True, **kw)


def streams(path: Path) -> dict:
    """Each stream's codec and (start, end) in seconds, from its packets (as ffprobe counts)."""
    import av

    out = {}
    with av.open(str(path)) as c:
        for packet in c.demux():
            if packet.pts is None:
                continue
            kind, tb = packet.stream.type, packet.time_base
            start, end = float(packet.pts * tb), float((packet.pts + packet.duration) * tb)
            codec, (a, b) = packet.stream.codec_context.name, out.get(kind, ("", (start, end)))[1]
            out[kind] = (codec, (min(a, start), max(b, end)))
        durations = {s.type: s.duration and float(s.duration * s.time_base) for s in c.streams}
    return {k: (codec, span, durations.get(k)) for k, (codec, span) in out.items()}


def loudness(path: Path, at: float, seconds: float = 0.1) -> float:
    """The mean absolute sample of the video's sound from ``at`` for ``seconds``."""
    from scenes.pipeline.soundtrack import RATE, samples

    x = samples(path)
    return float(np.abs(x[round(at * RATE) : round((at + seconds) * RATE)]).mean())


def check_narrated(video: Path, steps: list[dict], fmt: str, stand_in: bool = True) -> None:
    """What a viewer gets: sound beside the picture, as long as it (within a frame), each
    page's speech inside its step, loud where it is said and silent before the first, and
    every step held until its speech and a breath are over."""
    found = streams(video)
    assert "audio" in found, found
    codec, (a0, a1), audio_length = found["audio"]
    _, (v0, v1), video_length = found["video"]
    assert codec == {"mp4": "aac", "webm": "opus", "mov": "aac"}[fmt]
    if fmt != "webm":  # mp4's priming samples start before 0, trimmed by the edit list
        assert abs(audio_length - video_length) <= 1 / FPS, (audio_length, video_length)
    assert abs((a1 - max(a0, 0)) - (v1 - v0)) <= 1 / FPS, found
    spoken = [(s, p) for s in steps for p in s.get("speech", ())]
    assert len(spoken) >= len(steps) == 2
    for step, page in spoken:
        assert step["start"] <= page["at"]
        assert page["at"] + page["seconds"] + BREATH <= step["end"] + 1e-3, (step, page)
        if stand_in:
            assert page["seconds"] >= SECONDS_A_CHAR * len(page["caption"]) - 1e-3
        assert loudness(video, page["at"] + 0.1, page["seconds"] - 0.2) > 0.01, page
        assert "clip" not in page  # the record keeps no path of the voice's cache
    assert steps[0]["speech"][0]["at"] == pytest.approx(steps[0]["shown"], abs=1e-3)
    assert loudness(video, 0.0, steps[0]["speech"][0]["at"] - 0.02) < 1e-3


def srt_starts(path: Path) -> list[float]:
    import srt

    return [c.start.total_seconds() for c in srt.parse(path.read_text(encoding="utf-8"))]


@pytest.mark.slow
def test_a_narrated_video_speaks_each_page_inside_its_step(tmp_path, stand_in_voice, tiny):
    from scenes.outputs import lecture_page
    from scenes.pipeline.jobs import Request

    job = _job(tmp_path)
    request = Request(job.example, [STARTER], job.look, tmp_path / "page", captions=True)
    job = replace(job, out_dir=request.out_dir)
    record = execute_module.execute(job)
    steps = record["steps"]
    check_narrated(job.output, steps, "mp4")
    # the subtitles: one cue a page, from when it is said
    starts = [p["at"] for s in steps for p in s["speech"]]
    assert srt_starts(job.out_dir / "StarterScene.srt") == pytest.approx(starts, abs=1e-3)
    assert "StarterScene.srt" in record["files"]
    assert len(stand_in_voice) == len(starts)
    # the lecture page of a narrated look plays this video, sound on (issue 42, point 5)
    page = lecture_page.build(request).read_text(encoding="utf-8")
    (tag,) = re.findall(r"<video [^>]*>", page)
    assert f'src="480p15-en-voiced/{job.output.name}"' in tag and "muted" not in tag, tag
    assert (request.out_dir.parent / "480p15-en-voiced" / job.output.name) == job.output


@pytest.mark.slow
def test_a_narrated_video_split_at_its_steps_joins_with_its_voice(tmp_path, stand_in_voice, tiny):
    """Two processes' parts (here one after the other), joined: webm with Opus."""
    job = _job(tmp_path, "webm", run_id=1)
    records = [execute_module.execute(replace(job, part=(k, 2))) for k in range(2)]
    assert sum(len(r["steps"][k].get("speech", ())) for k, r in enumerate(records)) >= 2
    assert all("speech" not in r["steps"][1 - k] for k, r in enumerate(records))  # skipped
    record = execute_module.join_parts(job, records)
    check_narrated(job.output, record["steps"], "webm")
    starts = [p["at"] for s in record["steps"] for p in s["speech"]]
    assert srt_starts(job.out_dir / "StarterScene.srt") == pytest.approx(starts, abs=1e-3)


@pytest.mark.slow
def test_a_narrated_slide_deck_speaks_each_slide(tmp_path, stand_in_voice, tiny):
    """The HTML deck of a narrated render (issue 42, point 5): each slide's video carries its
    step's speech (sound beside the picture, loud from where the page is said, from the
    slide's own start), none of the deck's videos is muted, and the speaker notes are there."""
    import base64

    from scenes.outputs import slides
    from scenes.outputs.slides import missing_assets

    if missing_assets():  # `make setup` fetches reveal.js: a skipped test would check nothing
        pytest.fail("reveal.js assets missing: run make setup")
    job = replace(_job(tmp_path), kind="slides")
    steps = execute_module.execute(job)["steps"]
    deck = json.loads((job.out_dir / "slides-src" / "StarterScene.json").read_text())
    since = 0.0
    for slide, step in zip(deck["slides"], steps, strict=True):
        video = Path(slide["file"])
        found = streams(video)
        assert found["audio"][0] == "aac", found
        for page in step["speech"]:
            assert loudness(video, page["at"] - since + 0.1, page["seconds"] - 0.2) > 0.01
        assert loudness(video, 0.0, step["speech"][0]["at"] - since - 0.02) < 1e-3
        since += found["video"][2]
    dest = tmp_path / "deck.html"
    src = job.out_dir / "slides-src"
    lecture = (job.example, "en", True)
    slides.convert_deck((("StarterScene",), str(src), str(dest), "html", lecture))
    html = dest.read_text(encoding="utf-8")
    videos = re.findall(r"data-background-video=\"data:video/mp4;base64,([^\"]+)\"", html)
    sections = re.findall(r"<section[^>]*>", html)
    assert len(videos) == len(steps) and not [s for s in sections if "-video-muted" in s]
    for k, data in enumerate(videos):  # the deck's own copy of each slide's video speaks
        (tmp_path / f"{k}.mp4").write_bytes(base64.b64decode(data))
        assert streams(tmp_path / f"{k}.mp4")["audio"][0] == "aac"
    notes = re.findall(r'<aside class="notes" data-markdown[^>]*>([^<]+)</aside>', html)
    assert len(notes) == len(steps) and all(n.strip() for n in notes)  # the notes kept


def test_narration_has_its_own_folder_and_key(tmp_path, stand_in_voice):
    """A narrated and an unnarrated render never share a file; another voice is another."""
    ex = ac.PRESETS["zao-shang-hao"]
    plain = Look.for_example(ex, lang="en")
    told = Look.for_example(ex, lang="en", narrate=True)
    other = Look.for_example(ex, lang="en", narrate=True, voice=("am_adam",))
    same = Look.for_example(ex, lang="en", narrate=True, voice=("af_heart",))
    assert same == told  # the default voice asked by name: the same render
    folders = {look.folder(ex) for look in (plain, told, other)}
    assert folders == {"480p15-en", "480p15-en-voiced", "480p15-en-voiced-am_adam"}
    keys = {replace(_job(tmp_path), look=look).key for look in (plain, told, other)}
    assert len(keys) == 3
    # a voice of the other language is that language's: zh keeps its default here
    assert Look.for_example(ex, lang="zh", narrate=True, voice=("am_adam",)).voice is None
    with pytest.raises(ValueError, match="^--voice: .*add --narrate"):
        Look.for_example(ex, lang="en", voice=("am_adam",))
    with pytest.raises(ValueError, match="^--voice: .*xx_nobody"):
        Look.for_example(ex, lang="en", narrate=True, voice=("xx_nobody",))


def test_a_course_and_the_environment_ask_for_narration(tmp_path, monkeypatch, stand_in_voice):
    from scenes.kit.look import from_environment
    from scenes.pipeline.course import expand, load_course

    course = tmp_path / "week.toml"
    course.write_text(
        'examples = ["zao-shang-hao"]\nscenes = ["Softmax"]\nlangs = ["en"]\n'
        'narration = ["off", "on"]\n'
    )
    jobs, broken = expand(load_course(course), tmp_path / "out")
    assert [(j.out_dir.name, j.look.narrate) for j in jobs] == [
        ("480p15-en", False),
        ("480p15-en-voiced", True),
    ]
    monkeypatch.setenv("ATTN_NARRATE", "1")
    monkeypatch.setenv("ATTN_VOICE", "bm_george")
    _, look = from_environment(ac.PRESETS["zao-shang-hao"])
    assert (look.lang, look.narrate, look.voice) == ("zh", True, None)  # george speaks en
    monkeypatch.setenv("ATTN_LANG", "en")
    assert from_environment(ac.PRESETS["zao-shang-hao"])[1].voice == "bm_george"


def test_subtitles_of_a_narrated_step_follow_its_pages():
    from scenes.pipeline.subtitles import cues

    steps = [
        {
            "caption": "A. B.",
            "start": 0.0,
            "shown": 0.6,
            "end": 9.0,
            "speech": [
                {"at": 0.6, "seconds": 2.0, "caption": "A."},
                {"at": 3.6, "seconds": 1.0, "caption": "B."},
            ],
        },
        {"caption": "C.", "start": 9.0, "shown": 9.5, "end": 12.0},
    ]
    assert cues(steps) == [(0.6, 3.6, "A."), (3.6, 9.0, "B."), (9.5, 12.0, "C.")]


@pytest.mark.slow
@pytest.mark.xdist_group("voice")
def test_the_real_voice_speaks_a_narrated_video(tmp_path, tiny, monkeypatch, capfd, caplog):
    """The installed voice (Kokoro, offline): its clips said inside their steps, mixed into
    the video with sound and picture of one length, the subtitles starting with the speech;
    said afresh (a clip cache of its own) with nothing on the console from the phonemizer
    (espeak's "words count mismatch", once a clip)."""
    from scenes.speech import voice
    from scenes.speech.voice import VoiceUnavailable

    monkeypatch.setattr(voice, "clips_dir", lambda: tmp_path / "clips")
    job = _job(tmp_path)
    try:
        record = execute_module.execute(job)
    except VoiceUnavailable as exc:  # `make setup` fetches it: a skipped test would check nothing
        pytest.fail(str(exc))
    steps = record["steps"]
    check_narrated(job.output, steps, "mp4", stand_in=False)
    starts = [p["at"] for s in steps for p in s["speech"]]
    assert srt_starts(job.out_dir / "StarterScene.srt") == pytest.approx(starts, abs=1e-3)
    assert all(p["seconds"] > 1.0 for s in steps for p in s["speech"])  # words, not a click
    assert len(list((tmp_path / "clips").glob("*.wav"))) == len(starts)  # said, not cached
    heard = capfd.readouterr().err + caplog.text
    assert "words count mismatch" not in heard, heard


def test_narrate_refuses_what_cannot_speak_in_one_line(cli, tmp_path):
    """Through the real entry point: an unknown voice, a voice of no language rendered, a
    gif and a pdf deck, each one line naming the option, exit code 2, nothing written."""
    out = tmp_path / "r"
    cases = {
        ("--narrate", "--voice", "xx_nobody"): "--voice: there is no voice 'xx_nobody'",
        ("--narrate", "--voice", "zf_xiaoyi"): "--voice: zf_xiaoyi speaks none of the languages",
        ("--narrate", "--format", "gif"): "--narrate: a gif has no sound",
        ("--narrate", "--slides-format", "pdf"): "--narrate: a pdf deck has no sound",
        ("--voice", "af_heart"): "--voice: a voice speaks only in a narrated render",
    }
    for args, line in cases.items():
        r = cli("render", "zao-shang-hao", "--lang", "en", *args, "--out", out, "--preview")
        assert r.returncode == 2, (args, r.stderr)
        assert r.stderr.strip().startswith(f"Error: {line}") or line in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not out.exists()
