"""`batch COURSE --dry-run` on a course of many JSONL example lines (issue 31, BENCHMARKS.md (j)):
CPU seconds and wall seconds of the command in a child process.

    .venv/bin/python scripts/bench_batch.py [--lines 60000] [--repeat 3] [--tree OTHER …]

Writes ``e60000.toml`` and ``e60000.jsonl`` into a temporary folder (removed after):
60,000 lines such as ``{"tokens":["a","b","c"],"embeddings":[[1,0],[0,0.5],[1,1]]}``, every
line different (the middle number is line / 100; 3.8 MB), ``scenes = ["Softmax"]``,
``formats = ["png"]``; then times ``attn-explain batch e60000.toml --dry-run --out o`` on this
tree and on each ``--tree`` (another checkout, e.g. ``git archive COMMIT | tar -x -C /tmp/old``),
alternating, and prints the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def write_course(folder: Path, lines: int) -> Path:
    """The course file (its JSONL beside it): ``lines`` examples, every one different."""
    stem = f"e{lines}"
    with open(folder / f"{stem}.jsonl", "w", encoding="utf-8") as f:
        for i in range(lines):
            emb = [[1, 0], [0, i / 100], [1, 1]]
            line = {"tokens": ["a", "b", "c"], "embeddings": emb}
            f.write(json.dumps(line, separators=(",", ":")) + "\n")
    course = folder / f"{stem}.toml"
    course.write_text(f'examples_jsonl = "{stem}.jsonl"\nscenes = ["Softmax"]\nformats = ["png"]\n')
    return course


def measure(tree: Path, course: Path) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of ``batch COURSE --dry-run`` with ``tree``'s code."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = [str(BIN / "attn-explain"), "batch", course.name, "--dry-run", "--out", "o"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=course.parent, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"bench_batch: {tree}: failed:\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=60000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tree", action="append", default=[], help="Another checkout to time.")
    args = ap.parse_args()
    trees = [ROOT, *(Path(t).resolve() for t in args.tree)]
    times: dict[Path, list[tuple[float, float]]] = {t: [] for t in trees}
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as folder:
        course = write_course(Path(folder), args.lines)
        for _ in range(args.repeat):
            for tree in trees:  # alternating: a change in the machine's load meets both
                times[tree].append(measure(tree, course))
    for tree, runs in times.items():
        cpu = statistics.median(c for c, _ in runs)
        wall = statistics.median(w for _, w in runs)
        print(
            f"{tree}: batch {course.name} --dry-run ({args.lines} lines): {cpu:.2f} CPU s, "
            f"{wall:.2f} s wall (median of {args.repeat})"
        )


if __name__ == "__main__":
    main()
