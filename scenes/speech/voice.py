"""The narration's voice: a text (already written for the ear) → a spoken clip, cached.

Kokoro-82M v1.0 (int8 ONNX) on onnxruntime with one thread (faster than two here: the matrices
are small), loaded once per process on the first clip that is not in the cache. Chinese is turned
into phonemes by misaki (jieba, pypinyin, cn2an; a run of Latin letters inside it, "softmax",
through espeak-ng's English), English by espeak-ng as shipped by espeakng-loader (through
kokoro-onnx). Default voices: ``af_heart`` (en), ``zf_xiaoyi`` (zh).

A clip is a mono 16-bit WAV at 24 kHz in ``<user cache>/attention-explainer/voice/clips/``,
named by the SHA-256 of its text, language, voice (and that voice's SHA-256), speed and the
model's SHA-256: synthesised once, then reused by every render. A clip is written to a temporary
file and renamed into place, so two worker processes saying the same text never leave half a
file. The model and voices are never fetched here (:mod:`.assets`, ``make setup``). No Manim.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
import wave
from dataclasses import dataclass
from pathlib import Path

from attention_core._files import atomic_file

from .assets import (
    MODEL_SHA256,
    VOICE_SHA256,
    VoiceUnavailable,
    check_model,
    load_voices,
    voices_path,
)
from .assets import voice_dir as _voice_dir

__all__ = ["DEFAULT_VOICES", "Clip", "VoiceUnavailable", "check_voice", "clip", "voices"]

DEFAULT_VOICES = {"en": "af_heart", "zh": "zf_xiaoyi"}
# a voice's language is the first letter of its name (kokoro's convention)
VOICE_LANG = {"a": "en", "b": "en", "z": "zh"}
SAMPLE_RATE = 24_000
MIN_SPEED, MAX_SPEED = 0.5, 2.0
CLIP_FORMAT = 2  # bumped when a clip's content changes for the same key (2: Han inside English)
_LATIN = re.compile(r"[A-Za-z][A-Za-z'\- ]*[A-Za-z]|[A-Za-z]")
# a run of Han characters (a token label such as 猫 inside an English caption)
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]+")


@dataclass(frozen=True)
class Clip:
    path: Path  # a mono WAV (24 kHz from Kokoro), in the clip cache
    seconds: float  # its length


def voices(lang: str) -> list[str]:
    """The voices that speak ``lang``, default first."""
    lang = _check_lang(lang)
    rest = sorted(n for n in VOICE_SHA256 if VOICE_LANG.get(n[0]) == lang)
    rest.remove(DEFAULT_VOICES[lang])
    return [DEFAULT_VOICES[lang], *rest]


def _check_lang(lang: str) -> str:
    if lang not in DEFAULT_VOICES:
        raise ValueError(f"lang: {lang!r} cannot be spoken; pick one of: zh, en")
    return lang


def check_voice(name: str, lang: str) -> str:
    """The clean voice name, or ValueError("voice: <what>; <fix>") for an unknown voice or a
    voice of another language."""
    lang = _check_lang(lang)
    clean = str(name).strip().lower()
    if clean not in VOICE_SHA256:
        raise ValueError(
            f"voice: there is no voice {name!r}; pick one of the {lang} voices: "
            + ", ".join(voices(lang))
        )
    speaks = VOICE_LANG[clean[0]]
    if speaks != lang:
        raise ValueError(
            f"voice: {clean} speaks {speaks}, not {lang}; pick a voice of {lang} such as "
            f"{DEFAULT_VOICES[lang]} (one of: {', '.join(voices(lang))})"
        )
    return clean


def clips_dir() -> Path:
    """Where the spoken clips are kept: ``<user cache>/attention-explainer/voice/clips``."""
    return _voice_dir() / "clips"


def clip_key(text: str, lang: str, voice: str, speed: float) -> str:
    """The SHA-256 naming a clip: its text, language, voice, speed and the model's SHA-256."""
    fields = {
        "format": CLIP_FORMAT,
        "text": text,
        "lang": lang,
        "voice": voice,
        "voice_sha256": VOICE_SHA256[voice],
        "speed": round(float(speed), 4),
        "model_sha256": MODEL_SHA256,
    }
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode("utf-8")).hexdigest()


def _cached(path: Path) -> Clip | None:
    """The clip at ``path`` when it is a whole WAV this module wrote, else None."""
    try:
        with wave.open(str(path), "rb") as w:
            frames, rate = w.getnframes(), w.getframerate()
            whole = w.getnchannels() == 1 and w.getsampwidth() == 2
        if whole and frames > 0 and path.stat().st_size == 44 + 2 * frames:
            return Clip(path, frames / rate)
    except (OSError, EOFError, wave.Error):
        pass
    return None


def clip(text: str, lang: str, voice: str | None = None, speed: float = 1.0) -> Clip:
    """The spoken clip of ``text`` (already its spoken form): from the clip cache, or
    synthesised once and kept there. ValueError (one line) for an empty text, a bad language,
    voice or speed; VoiceUnavailable when the model or voices are missing or damaged."""
    lang = _check_lang(lang)
    voice = check_voice(DEFAULT_VOICES[lang] if voice is None else voice, lang)
    if not MIN_SPEED <= float(speed) <= MAX_SPEED:
        raise ValueError(f"speed: {speed} is outside {MIN_SPEED}–{MAX_SPEED}; pick one inside")
    text = " ".join(str(text).split())
    if not text:
        raise ValueError("text: nothing to say (the text is empty); give the words to speak")
    folder = clips_dir()
    path = folder / f"{clip_key(text, lang, voice, speed)}.wav"
    found = _cached(path)
    if found is not None:
        return found
    samples = _engine().speak(text, lang, voice, float(speed))
    _write_wav(path, samples)
    return Clip(path, len(samples) / SAMPLE_RATE)


def _write_wav(path: Path, samples) -> None:
    """Write 16-bit mono PCM to a temporary file beside ``path``, then rename it into place."""
    import numpy as np

    pcm = (np.clip(samples, -1.0, 1.0) * 32767.0).round().astype("<i2")
    try:
        with atomic_file(path) as f, wave.open(f, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(SAMPLE_RATE)
            w.writeframes(pcm.tobytes())
    except OSError as exc:
        raise VoiceUnavailable(
            f"voice: cannot write the clip cache {path.parent} ({exc.strerror or exc}); "
            "point XDG_CACHE_HOME at a writable folder"
        ) from None


class _Engine:
    """Kokoro on one onnxruntime thread, the checked voices, and the Chinese phonemizer."""

    def __init__(self):
        try:
            import onnxruntime as rt
            from kokoro_onnx import Kokoro
        except ImportError as exc:
            raise VoiceUnavailable(
                f"voice: {exc.name or 'kokoro-onnx'} is not installed; run `make setup`"
            ) from None
        model = check_model()
        self.voices = load_voices()
        # espeak splits a text into words otherwise than phonemizer counts them and phonemizer
        # warns of it ("words count mismatch on 300.0% of the lines") on every render's console
        logging.getLogger("phonemizer").setLevel(logging.ERROR)
        options = rt.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        session = rt.InferenceSession(
            str(model), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self.kokoro = Kokoro.from_session(session, str(voices_path()))
        self._zh = None

    def _zh_g2p(self):
        if self._zh is None:
            try:
                import jieba
                from misaki import zh
            except ImportError as exc:
                raise VoiceUnavailable(
                    f"voice: {exc.name or 'misaki'} is not installed; run `make setup`"
                ) from None
            jieba.setLogLevel(logging.WARNING)
            self._zh = zh.ZHG2P()
        return self._zh

    def phonemes_zh(self, text: str) -> str:
        """Chinese through misaki; a run of Latin letters (q, softmax) through espeak's English."""
        english = self.kokoro.tokenizer.phonemize
        return _mixed(text, _LATIN, lambda run: english(run, "en-us"), self._zh_said)

    def phonemes_en(self, text: str, code: str = "en-us") -> str:
        """English through espeak (``code``: en-us or en-gb); a run of Han characters (a token
        label such as 猫, which espeak says as "Chinese letter") through misaki's Chinese."""
        english = self.kokoro.tokenizer.phonemize
        return _mixed(text, _HAN, self._zh_said, lambda rest: english(rest, code))

    def _zh_said(self, text: str) -> str:
        return self._zh_g2p()(text)[0] or ""

    def speak(self, text: str, lang: str, voice: str, speed: float):
        style = self.voices[voice]
        if lang == "zh":
            phonemes = self.phonemes_zh(text)
            create = {"is_phonemes": True}
        elif _HAN.search(text):
            phonemes = self.phonemes_en(text, "en-us" if voice[0] == "a" else "en-gb")
            create = {"is_phonemes": True}
        else:
            phonemes = text
            create = {"lang": "en-us" if voice[0] == "a" else "en-gb"}
        try:
            audio, _ = self.kokoro.create(phonemes, style, speed=speed, **create)
        except ValueError as exc:  # no phoneme of the text is in the model's vocabulary
            raise ValueError(
                f"text: {text[:40]!r} gives nothing to say ({exc}); reword it"
            ) from None
        return audio


def _mixed(text: str, runs: re.Pattern, say_run, say_rest) -> str:
    """The phonemes of ``text``: each match of ``runs`` through ``say_run``, the text between
    through ``say_rest``, joined by spaces."""
    out, at = [], 0
    for m in runs.finditer(text):
        if text[at : m.start()].strip():
            out.append(say_rest(text[at : m.start()]))
        out.append(say_run(m.group()))
        at = m.end()
    if text[at:].strip():
        out.append(say_rest(text[at:]))
    return " ".join(p.strip() for p in out if p.strip())


_loaded: _Engine | None = None
_lock = threading.Lock()


def _engine() -> _Engine:
    """The process's one engine, loaded on first use (about 1 s)."""
    global _loaded
    with _lock:
        if _loaded is None:
            _loaded = _Engine()
        return _loaded
