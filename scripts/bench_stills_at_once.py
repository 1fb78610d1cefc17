"""Stills with transforms from a copy ended at once, against Manim's own skipped transforms, side
by side in one run (CPU seconds, frames off, as the layout tests run them).

    .venv/bin/python scripts/bench_stills_at_once.py [--repeat 2]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import attention_core as ac
import scenes.pipeline.stills as stills
from scenes.kit.look import Look
from scenes.kit.registry import find


def cases():
    rng = np.random.default_rng(7)
    heads = ac.Example(
        name="many-heads",
        tokens=[f"word{i:02d}" for i in range(12)],
        embeddings=rng.normal(size=(12, 16)).round(2),
        seed=3,
        heads=8,
    )
    yield "MultiHeadSplit, 12 tokens, 8 heads", "MultiHeadSplit", heads
    yield "CrossAttention, cross-zh-en", "CrossAttention", ac.PRESETS["cross-zh-en"]
    yield "Overview, zao-shang-hao", "Overview", ac.PRESETS["zao-shang-hao"]


def cpu(scene: str, ex, at_once: bool) -> float:
    stills.AT_ONCE = at_once
    look = Look.for_example(ex, lang="en", aspect="16:9")
    t = time.process_time()
    stills.run_steps(find(scene).load(), ex, look=look, frames=False)
    return time.process_time() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    print(f"{'case':40} {'Manim s':>8} {'at once s':>10} {'ratio':>6}")
    for name, scene, ex in cases():
        cpu(scene, ex, True)  # warm: fonts, Typst, imports
        manim = min(cpu(scene, ex, False) for _ in range(args.repeat))
        fast = min(cpu(scene, ex, True) for _ in range(args.repeat))
        print(f"{name:40} {manim:8.1f} {fast:10.1f} {manim / fast:6.2f}")


if __name__ == "__main__":
    main()
