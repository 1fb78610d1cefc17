"""The narration's voice (scenes/speech: issue 42): a short sentence of each language really
spoken (a plausible length, not silent), kept in the clip cache and read back the second time
without synthesising, keyed by text, language, voice and speed; a damaged or missing model or
voices file refused in one line naming the fix; a voice of the wrong language refused.

The model and voices are those ``make setup`` put in the user cache; each test points
XDG_CACHE_HOME at a folder of its own holding links to them (or damaged copies), so its clips
never touch the user's. One worker loads the model once (xdist_group)."""

from __future__ import annotations

import subprocess
import sys
import time
import wave

import numpy as np
import pytest
from conftest import ROOT

from scenes.speech import assets, voice

pytestmark = pytest.mark.xdist_group("voice")

INSTALLED = assets.voice_dir()  # the user's cache, read before any test moves XDG_CACHE_HOME


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A voice folder of this test's own: links to the installed model and voices."""
    for name in (assets.MODEL_FILE, assets.VOICES_FILE):
        if not (INSTALLED / name).exists():
            pytest.fail(f"{INSTALLED / name} is missing: run `make setup` (make voices)")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    folder = assets.voice_dir()
    folder.mkdir(parents=True)
    for name in (assets.MODEL_FILE, assets.VOICES_FILE):
        (folder / name).symlink_to(INSTALLED / name)
    return folder


def _samples(path):
    with wave.open(str(path), "rb") as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 24_000)
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2") / 32768.0


@pytest.mark.parametrize(
    "text,lang",
    [
        ("Queries meet keys.", "en"),
        ("权重加起来等于一。", "zh"),
    ],
)
def test_a_short_sentence_is_spoken_in_each_language(cache, text, lang):
    c = voice.clip(text, lang)
    assert c.path.parent == cache / "clips" and c.path.suffix == ".wav"
    audio = _samples(c.path)
    assert c.seconds == pytest.approx(len(audio) / 24_000)
    assert 0.5 < c.seconds < 10, c.seconds
    rms = float(np.sqrt(np.mean(audio**2)))
    assert rms > 0.02, f"{lang}: the clip is (nearly) silent, RMS {rms:.4f}"
    assert not list(c.path.parent.glob(".tmp-*")), "a temporary file was left behind"


def test_the_second_call_reads_the_cache_and_a_new_speed_speaks_again(cache, monkeypatch):
    first = voice.clip("Each weight is at most one.", "en")
    made = first.path.stat().st_mtime_ns
    fast = voice.clip("Each weight is at most one.", "en", speed=1.5)
    assert fast.path != first.path and fast.seconds < 0.85 * first.seconds

    def no_synthesis():
        raise AssertionError("synthesised again")

    monkeypatch.setattr(voice, "_engine", no_synthesis)
    start = time.perf_counter()
    again = voice.clip("  Each weight is at most one. ", "en", voice="AF_HEART")
    took = time.perf_counter() - start
    assert again == first and first.path.stat().st_mtime_ns == made
    assert took < 0.05, f"a cached clip took {took:.3f} s"
    # a clip cut short (a full disk) is not a clip: said again, whole
    first.path.write_bytes(first.path.read_bytes()[:1000])
    with pytest.raises(AssertionError, match="synthesised again"):
        voice.clip("Each weight is at most one.", "en")


def test_a_clip_cut_short_by_a_full_disk_leaves_nothing_behind(cache, monkeypatch):
    """A clip is written to a temporary file and renamed into place: a write that fails half
    way (a full disk) is refused in one line and leaves neither half a clip nor the temporary
    file, so no other worker ever reads half a clip."""
    import errno

    class Tone:
        def speak(self, text, lang, voice_name, speed):
            return 0.5 * np.sin(np.arange(48_000) / 10.0)

    def half_then_full(self, data):
        self.writeframesraw(bytes(data)[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(voice, "_engine", Tone)
    with monkeypatch.context() as m:
        m.setattr(wave.Wave_write, "writeframes", half_then_full)
        with pytest.raises(assets.VoiceUnavailable, match="cannot write the clip cache") as info:
            voice.clip("Said on a full disk.", "en")
    assert "\n" not in str(info.value) and "No space left on device" in str(info.value)
    assert list((cache / "clips").iterdir()) == []
    whole = voice.clip("Said on a full disk.", "en")
    assert whole.seconds == 2.0 and list((cache / "clips").iterdir()) == [whole.path]


def test_the_key_changes_with_the_text_language_voice_and_speed():
    base = voice.clip_key("the weights", "en", "af_heart", 1.0)
    assert base == voice.clip_key("the weights", "en", "af_heart", 1)
    others = {
        voice.clip_key("the weight", "en", "af_heart", 1.0),
        voice.clip_key("the weights", "zh", "af_heart", 1.0),
        voice.clip_key("the weights", "en", "af_bella", 1.0),
        voice.clip_key("the weights", "en", "af_heart", 1.1),
    }
    assert len(others) == 4 and base not in others


def _refused(match):
    return pytest.raises(assets.VoiceUnavailable, match=match)


def _one_line_with_fix(exc_info):
    text = str(exc_info.value)
    assert "\n" not in text and text.startswith("voice: ") and "run `make setup`" in text, text


@pytest.mark.parametrize("damage", ["missing", "truncated", "one byte changed"])
def test_a_missing_or_damaged_model_is_refused_in_one_line(cache, monkeypatch, damage):
    model = cache / assets.MODEL_FILE
    model.unlink()
    if damage != "missing":
        data = bytearray((INSTALLED / assets.MODEL_FILE).read_bytes())
        if damage == "truncated":
            data = data[: len(data) // 2]
        else:
            data[len(data) // 2] ^= 0xFF
        model.write_bytes(bytes(data))
    monkeypatch.setattr(voice, "_loaded", None)  # this process loads the model again
    with _refused("the model file .*kokoro-v1.0.int8.onnx (is missing|is damaged)") as info:
        voice.clip("Nothing is said.", "en")
    _one_line_with_fix(info)


def test_a_damaged_or_missing_voice_is_refused_in_one_line(cache, monkeypatch):
    voices = dict(np.load(INSTALLED / assets.VOICES_FILE))
    voices["zf_xiaoyi"] = voices["zf_xiaoyi"].copy()
    voices["zf_xiaoyi"][3, 0, 7] += 0.5
    (cache / assets.VOICES_FILE).unlink()
    np.savez(cache / assets.VOICES_FILE, **voices)
    monkeypatch.setattr(voice, "_loaded", None)
    with _refused("the voice zf_xiaoyi in .* is damaged") as info:
        voice.clip("没有声音。", "zh")
    _one_line_with_fix(info)
    del voices["af_heart"]
    np.savez(cache / assets.VOICES_FILE, **voices)
    with _refused("has no voice af_heart") as info:
        assets.load_voices()
    _one_line_with_fix(info)
    (cache / assets.VOICES_FILE).write_bytes(b"not a zip")
    with _refused("the voices file .* is damaged") as info:
        assets.load_voices()
    _one_line_with_fix(info)


def test_the_setup_check_is_quiet_and_quick_when_all_is_there(cache):
    """`make voices` (part of `make setup`) when both files are whole: checks, fetches nothing,
    writes the manifest."""
    env = {"XDG_CACHE_HOME": str(cache.parent.parent), "PATH": "/usr/bin:/bin"}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "scenes.speech.assets"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == "" and done.stdout == "", done.stderr
    assert time.perf_counter() - start < 5
    assert '"sha256"' in (cache / assets.MANIFEST).read_text(encoding="utf-8")


def test_check_voice_takes_a_voice_of_the_language_and_refuses_others():
    assert voice.check_voice(" ZF_Xiaoyi ", "zh") == "zf_xiaoyi"
    assert voice.check_voice("bm_george", "en") == "bm_george"
    assert voice.voices("zh")[0] == "zf_xiaoyi" and "zm_yunxi" in voice.voices("zh")
    with pytest.raises(ValueError, match=r"^voice: zf_xiaoyi speaks zh, not en; .*af_heart"):
        voice.check_voice("zf_xiaoyi", "en")
    with pytest.raises(ValueError, match=r"^voice: af_heart speaks en, not zh; .*zf_xiaoyi"):
        voice.check_voice("af_heart", "zh")
    with pytest.raises(ValueError, match=r"^voice: there is no voice 'nobody'; .*zf_xiaoyi"):
        voice.check_voice("nobody", "zh")
    with pytest.raises(ValueError, match=r"^lang: 'fr' cannot be spoken"):
        voice.check_voice("af_heart", "fr")
    for bad in (dict(speed=3.0), dict(voice="jf_alpha")):
        with pytest.raises(ValueError, match=r"^(speed|voice): "):
            voice.clip("hello", "en", **bad)
    with pytest.raises(ValueError, match=r"^text: nothing to say"):
        voice.clip("   ", "en")


def test_the_narration_never_imports_manim():
    """scenes/speech runs in `make setup` and in the render's workers: text and audio only."""
    import ast

    for path in (ROOT / "scenes" / "speech").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                assert not any(n.split(".")[0] == "manim" for n in names), path


def test_a_chinese_label_inside_english_is_said_in_chinese(cache, monkeypatch):
    """An English caption naming a token 猫 or 早上好: espeak alone says "Chinese letter" for
    each; the voice says the Han run with misaki's Chinese phonemes, the rest in English."""
    engine = voice._engine()
    sent = {}

    def create(phonemes, style, speed=1.0, **kw):  # what the model would be asked to say
        sent.clear()
        sent.update(kw, phonemes=phonemes)
        return np.zeros(2400, dtype=np.float32), 24_000

    monkeypatch.setattr(engine.kokoro, "create", create)
    engine.speak("the first piece of 猫, then 早上好 again", "en", "af_heart", 1.0)
    english = engine.kokoro.tokenizer.phonemize
    assert sent.get("is_phonemes") is True, sent
    said = sent["phonemes"]
    assert engine._zh_g2p()("猫")[0] in said and engine._zh_g2p()("早上好")[0] in said, said
    assert english("Chinese letter", "en-us").split()[0] not in said, said
    assert said.startswith(english("the first piece of", "en-us")), said
    assert said.endswith(
        english(", then", "en-us")
        + " "
        + engine._zh_g2p()("早上好")[0]
        + " "
        + english("again", "en-us")
    ), said
    engine.speak("Queries meet keys.", "en", "bf_emma", 1.0)  # no Han: espeak says it all
    assert sent == {"lang": "en-gb", "phonemes": "Queries meet keys."}, sent


def test_a_setup_step_says_a_refusal_in_one_line_and_where_what_it_fetched_is(capsys):
    """`make voices` and `make hearing` share one step: a refusal is one line and exit 1; what
    it fetched is said with its folder; nothing fetched, nothing said."""

    def refused():
        raise assets.VoiceUnavailable("voice: the model file x is missing; run `make setup`")

    assert assets.setup_step(refused, assets.VoiceUnavailable, "the voice", lambda: "/v") == 1
    err = capsys.readouterr().err
    assert err == "setup: voice: the model file x is missing; run `make setup`\n"
    assert assets.setup_step(lambda: ["model"], RuntimeError, "the voice", lambda: "/v") == 0
    assert capsys.readouterr().err == "setup: the voice is in /v\n"
    assert assets.setup_step(lambda: [], RuntimeError, "the voice", lambda: "/v") == 0
    assert capsys.readouterr().err == ""
