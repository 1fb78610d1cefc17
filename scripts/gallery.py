"""Writes the pictures of the README and docs/ into renders/gallery/: each scene's final frame,
a light-theme still, a square English still, and screenshots of the lecture page and its
explorable in headless Chromium.

    .venv/bin/python scripts/gallery.py [EXAMPLE] [--lang zh|en] [--theme dark|light]
        [--only scenes,variants,limits,long,moved,trained,explorer,decoder,found,page]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import attention_core as ac
from scenes.kit.look import Look
from scenes.kit.registry import SCENES, find
from scenes.pipeline.stills import run_steps, save_png


def variant_stills(out: Path, height: int) -> None:
    ex = ac.PRESETS["zao-shang-hao"]
    for name, scene, look in (
        ("light-Softmax", "Softmax", Look.for_example(ex, theme="light")),
        ("square-en-DotProducts", "DotProducts", Look.for_example(ex, lang="en", aspect="1:1")),
    ):
        stills = run_steps(
            find(scene).load(),
            ex,
            look=look,
            pixel_height=height,
        )
        save_png(stills[-2 if scene == "Softmax" else 1].frame, out / f"{name}.png")
        print(out / f"{name}.png")


def lecture_page_screenshot(out: Path) -> None:
    """`attn-explain pack` for two scenes, opened in Debian's Chromium via Playwright."""
    import subprocess
    import sys
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from browser import chromium_page

    with tempfile.TemporaryDirectory() as tmp:
        cli = Path(sys.executable).parent / "attn-explain"
        subprocess.run(
            [
                str(cli),
                "pack",
                "--scene",
                "Embeddings",
                "--scene",
                "Softmax",
                "--quiet",
                "--out",
                tmp,
            ],
            check=True,
            capture_output=True,
        )
        with chromium_page() as page:
            page.set_viewport_size({"width": 1100, "height": 900})
            page.goto((Path(tmp) / "zao-shang-hao" / "index.html").as_uri())
            page.evaluate("""() => new Promise(ok => { const v = document.getElementById('v0');
                v.addEventListener('seeked', () => setTimeout(ok, 1500));
                v.currentTime = 9.5; })""")
            page.screenshot(path=str(out / "lecture-page.png"))
    print(out / "lecture-page.png")


EXPLORED = [[1.2, 0.8], [0.9, 1.1], [-0.35, 1.35]]  # zao-shang-hao with 好 dragged left


def explorer_screenshot(out: Path, lang: str = "en") -> Path:
    """The explorable on zao-shang-hao's lecture page (`pack --lang LANG`), after a drag."""
    import subprocess
    import sys
    import tempfile

    from PIL import Image

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from browser import chromium_page

    name = "lecture-explorer.png" if lang == "en" else f"lecture-explorer-{lang}.png"
    with tempfile.TemporaryDirectory() as tmp:
        cli = Path(sys.executable).parent / "attn-explain"
        args = ["pack", "--scene", "Embeddings", "--lang", lang, "--quiet", "--out", tmp]
        done = subprocess.run([str(cli), *args], check=True, capture_output=True, text=True)
        page_path = Path(done.stdout.strip().splitlines()[-1])
        with chromium_page() as page:
            page.set_viewport_size({"width": 1000, "height": 1000})
            page.goto(page_path.as_uri())
            page.evaluate("E => window.attnExplorer.set({embeddings: E})", EXPLORED)
            page.evaluate("window.attnExplorer.choose(2)")
            shot = Path(tmp) / name
            page.locator("#explorer").screenshot(path=str(shot))
        Image.open(shot).convert("RGB").save(out / name, optimize=True)
    print(out / name)
    return out / name


def real_model_stills(out: Path, height: int) -> None:
    """A trained head (examples/minilm-cat.toml, layer 1 head 3: the previous token) and every
    head of layer 1 (written with `from-model --all-heads` into a scratch folder)."""
    import subprocess
    import sys
    import tempfile

    root = Path(__file__).resolve().parent.parent
    cat = ac.load_example(root / "examples" / "minilm-cat.toml")
    stills = run_steps(find("AttentionMatrix").load(), cat, pixel_height=height)
    save_png(stills[2].frame, out / "minilm-cat-AttentionMatrix.png")
    print(out / "minilm-cat-AttentionMatrix.png")
    with tempfile.TemporaryDirectory() as tmp:
        layer = Path(tmp) / "minilm-cat-layer1.toml"
        cli = Path(sys.executable).parent / "attn-explain"
        subprocess.run(
            [
                str(cli),
                "from-model",
                "the cat sat on the mat",
                "--layer",
                "1",
                "--all-heads",
                "-o",
                str(layer),
            ],
            check=True,
            capture_output=True,
        )
        stills = run_steps(find("HeadGallery").load(), ac.load_example(layer), pixel_height=height)
        save_png(stills[-1].frame, out / "minilm-cat-HeadGallery.png")
    print(out / "minilm-cat-HeadGallery.png")


def decoder_stills(out: Path, height: int) -> None:
    """SmolLM2 on repeated sentences (from-model --model smollm2, into a scratch folder): the
    induction head, layer 19 head 7, on an 8-token sentence (its matrix shows apple₂ → blue₁),
    and every head of layer 19 on the 12-token one (examples/smollm2-*.toml are its heads), in
    HeadGallery and in MultiHeadSplit's split (9 query heads over 3 key/value heads)."""
    import subprocess
    import sys
    import tempfile

    cli = Path(sys.executable).parent / "attn-explain"
    with tempfile.TemporaryDirectory() as tmp:
        ind, layer = Path(tmp) / "ind.toml", Path(tmp) / "layer19.toml"
        for text, args, path in (
            ("red apple blue sky red apple blue sky", ["--head", "7"], ind),
            ("red apple blue sky green tree red apple blue sky green tree", ["--all-heads"], layer),
        ):
            cmd = [str(cli), "from-model", text, "--model", "smollm2", "--layer", "19", *args]
            subprocess.run([*cmd, "-o", str(path)], check=True, capture_output=True)
        stills = run_steps(
            find("AttentionMatrix").load(), ac.load_example(ind), lang="en", pixel_height=height
        )
        save_png(stills[2].frame, out / "smollm2-induction-AttentionMatrix.png")
        stills = run_steps(
            find("HeadGallery").load(), ac.load_example(layer), lang="en", pixel_height=height
        )
        save_png(stills[-1].frame, out / "smollm2-layer19-HeadGallery.png")
        stills = run_steps(
            find("MultiHeadSplit").load(), ac.load_example(layer), lang="en", pixel_height=height
        )
        split = next(s for s in stills if s.key == "split")  # 9 query heads over 3 K/V heads
        save_png(split.frame, out / "smollm2-layer19-MultiHeadSplit.png")
    print(out / "smollm2-induction-AttentionMatrix.png")
    print(out / "smollm2-layer19-HeadGallery.png")
    print(out / "smollm2-layer19-MultiHeadSplit.png")


FOUND = (  # (name, text, SRC->DST): heads that `heads --find` ranks first, for docs/
    ("smollm2-fluffy", "a fluffy blue creature roamed the verdant forest", "creature->fluffy"),
    ("smollm2-it-cat", "The cat sat on the mat because it was tired", "it->cat"),
)


def found_stills(out: Path, height: int) -> None:
    """SmolLM2's heads found by `from-model --find` (an adjective → noun head, a pronoun → noun
    head): AttentionMatrix's reading step, where the asked pair is framed and named."""
    import subprocess
    import sys
    import tempfile

    cli = Path(sys.executable).parent / "attn-explain"
    with tempfile.TemporaryDirectory() as tmp:
        for name, text, pair in FOUND:
            path = Path(tmp) / f"{name}.toml"
            cmd = [str(cli), "from-model", text, "--model", "smollm2", "--find", pair]
            subprocess.run([*cmd, "-o", str(path)], check=True, capture_output=True)
            stills = run_steps(
                find("AttentionMatrix").load(),
                ac.load_example(path),
                lang="en",
                pixel_height=height,
            )
            reading = next(s for s in stills if s.key == "reading")
            save_png(reading.frame, out / f"{name}-AttentionMatrix.png")
            print(out / f"{name}-AttentionMatrix.png")


def limits_stills(out: Path, height: int) -> None:
    """The example at the documented limits (examples/at-the-limits.toml, 24 tokens): the last
    steps of AttentionMatrix and CausalMask, every weight labelled."""
    root = Path(__file__).resolve().parent.parent
    ex = ac.load_example(root / "examples" / "at-the-limits.toml")
    for scene in ("AttentionMatrix", "CausalMask"):
        stills = run_steps(find(scene).load(), ex, lang="en", pixel_height=height)
        save_png(stills[-1].frame, out / f"at-the-limits-{scene}.png")
        print(out / f"at-the-limits-{scene}.png")


def long_stills(out: Path, height: int) -> None:
    """The 24-token real sentence (examples/smollm2-trophy.toml, SmolLM2 L14 H9, it₁ → trophy):
    AttentionMatrix's reading (every row and column of the 24 × 24 grid labelled) and
    WeightedSum's values (the followed query's strongest keys drawn, the rest said)."""
    root = Path(__file__).resolve().parent.parent
    ex = ac.load_example(root / "examples" / "smollm2-trophy.toml")
    for scene, key in (("AttentionMatrix", "reading"), ("WeightedSum", "values")):
        stills = run_steps(find(scene).load(), ex, lang="en", pixel_height=height)
        save_png(next(s for s in stills if s.key == key).frame, out / f"smollm2-trophy-{scene}.png")
        print(out / f"smollm2-trophy-{scene}.png")


def moved_stills(out: Path, height: int) -> None:
    """HeadMoved's words on the committed SmolLM2 examples (E + ΔE, the terms, the readout):
    the baker sentence (layer 17: the readout says little) and the induction head (layer 19)."""
    root = Path(__file__).resolve().parent.parent
    for name in ("smollm2-baker", "smollm2-induction"):
        ex = ac.load_example(root / "examples" / f"{name}.toml")
        stills = run_steps(find("HeadMoved").load(), ex, lang="en", pixel_height=height)
        save_png(stills[-1].frame, out / f"{name}-HeadMoved.png")
        print(out / f"{name}-HeadMoved.png")


PARTS = (
    "scenes",
    "variants",
    "limits",
    "long",
    "moved",
    "trained",
    "explorer",
    "decoder",
    "found",
    "page",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "example", nargs="?", default=None, help="default: each scene's showcase preset"
    )
    parser.add_argument("--lang")
    parser.add_argument("--theme", default="dark")
    parser.add_argument("--height", type=int, default=540)
    parser.add_argument("--out", default="renders/gallery")
    parser.add_argument(
        "--only",
        default=",".join(PARTS),
        help=f"comma-separated parts to rewrite ({', '.join(PARTS)}; default: all)",
    )
    args = parser.parse_args()
    only = set(args.only.split(","))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for scene in SCENES if "scenes" in only else []:
        if scene.name == "HeadGallery" and not args.example:
            continue  # shown with a trained model's twelve heads (real_model_stills)
        example = ac.load_example(args.example or scene.showcase)
        stills = run_steps(
            scene.load(), example, lang=args.lang, theme=args.theme, pixel_height=args.height
        )
        path = out / f"{example.name}-{scene.name}.png"
        save_png(stills[-1].frame, path)
        print(path)
        split = [s for s in stills if s.key == "split"]
        if scene.name == "MultiHeadSplit" and split:  # the split itself, Q K V into the heads
            save_png(split[0].frame, out / f"{example.name}-{scene.name}-split.png")
    parts = {
        "variants": lambda: variant_stills(out, args.height),
        "limits": lambda: limits_stills(out, args.height),
        "long": lambda: long_stills(out, args.height),
        "moved": lambda: moved_stills(out, args.height),
        "trained": lambda: real_model_stills(out, args.height),
        "explorer": lambda: explorer_screenshot(out),
        "decoder": lambda: decoder_stills(out, args.height),
        "found": lambda: found_stills(out, args.height),
        "page": lambda: lecture_page_screenshot(out),
    }
    for name, make in parts.items():
        if name in only:
            make()


if __name__ == "__main__":
    main()
