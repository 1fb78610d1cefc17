"""Typst formulas with and without one shared scan of the system fonts, side by side in one run.

    .venv/bin/python scripts/bench_typst.py [--formulas 40]

Manim compiles each new formula with ``typst.compile(path, format="svg", font_paths=[])``, which
scans every system font again; ``scenes/mobjects/math.py`` hands it one loaded ``typst.Fonts``
instead. Each formula here is new (a different number), as a scene's formulas are; the two ways
alternate so that a loaded machine slows both alike. Prints seconds per formula and the ratio.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import typst

PAGE = "#set page(width: auto, height: auto, margin: 0pt)\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--formulas", type=int, default=40)
    n = parser.parse_args().formulas
    compile_plain = typst.compile  # this script does not import scenes: the plain function
    fonts = typst.Fonts()
    times = {"a fresh font scan each": 0.0, "one shared scan": 0.0}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(n):
            source = Path(tmp) / f"f{i}.typ"
            source.write_text(PAGE + f"$ (q dot k) / sqrt(d_k) = {i}.{i:02d} $", encoding="utf-8")
            for name, paths in (("a fresh font scan each", []), ("one shared scan", fonts)):
                start = time.perf_counter()
                compile_plain(str(source), format="svg", font_paths=paths)
                times[name] += time.perf_counter() - start
    for name, total in times.items():
        print(f"{name:24s} {1000 * total / n:8.1f} ms a formula")
    ratio = times["a fresh font scan each"] / times["one shared scan"]
    print(f"ratio                    {ratio:8.1f} ×")


if __name__ == "__main__":
    main()
