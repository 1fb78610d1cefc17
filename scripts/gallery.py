"""Writes the README's stills: each scene's final frame for an example, into renders/gallery/.

    .venv/bin/python scripts/gallery.py [EXAMPLE] [--lang zh|en] [--theme dark|light]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import attention_core as ac
from scenes.registry import SCENES
from scenes.stills import run_steps, save_png


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("example", nargs="?", default=None,
                        help="default: each scene's showcase preset")
    parser.add_argument("--lang")
    parser.add_argument("--theme", default="dark")
    parser.add_argument("--height", type=int, default=540)
    parser.add_argument("--out", default="renders/gallery")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for scene in SCENES:
        example = ac.load_example(args.example or scene.showcase)
        stills = run_steps(scene.load(), example, lang=args.lang, theme=args.theme,
                           pixel_height=args.height)
        path = out / f"{example.name}-{scene.name}.png"
        save_png(stills[-1].frame, path)
        print(path)


if __name__ == "__main__":
    main()
