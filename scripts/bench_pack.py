"""`pack` with nothing to render against `render` with nothing to render, side by side in one
run (issue 31): CPU seconds of each command in a child process, and their ratio.

    .venv/bin/python scripts/bench_pack.py [EXAMPLE] [--scene NAME …] [--repeat 3]

First, as after `make demo`, the example's videos are rendered (`render EXAMPLE -q l`, without
captions) and packed once (the posters rendered, the speaker notes worked out); then each
command is timed `--repeat` times, alternating, with nothing left to render. Prints a Markdown
row for BENCHMARKS.md; the issue's target is a ratio ≤ 2.
"""

from __future__ import annotations

import argparse
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


def cpu_seconds(cmd, env) -> tuple[float, float]:
    """(CPU seconds of the finished children, wall seconds) of running ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([str(c) for c in cmd], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"bench_pack: {' '.join(map(str, cmd))} failed:\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("example", nargs="?", default="zao-shang-hao")
    ap.add_argument("--scene", action="append", default=[])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=None, help="Renders folder (default: a temporary one).")
    args = ap.parse_args()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = Path(args.out or tempfile.mkdtemp(prefix="bench-pack-"))
    cli = [BIN / "attn-explain"]
    scene_args = [a for s in args.scene for a in ("--scene", s)]
    common = [args.example, "-q", "l", "--out", out, *scene_args]
    render, pack = [*cli, "render", *common], [*cli, "pack", *common]
    cpu_seconds(render, env)  # as `make demo`: the videos, without captions
    cpu_seconds(pack, env)  # the posters and the notes, once
    times: dict[str, list[tuple[float, float]]] = {"render": [], "pack": []}
    for _ in range(args.repeat):
        times["render"].append(cpu_seconds(render, env))
        times["pack"].append(cpu_seconds(pack, env))
    cpu = {k: statistics.median(c for c, _ in v) for k, v in times.items()}
    wall = {k: statistics.median(w for _, w in v) for k, v in times.items()}
    print(f"render, nothing to render: {cpu['render']:.2f} CPU s ({wall['render']:.2f} s wall)")
    print(f"pack, nothing to render:   {cpu['pack']:.2f} CPU s ({wall['pack']:.2f} s wall)")
    scenes = ", ".join(args.scene) or "all scenes"
    ratio = cpu["pack"] / cpu["render"]
    print(
        f"| (g) pack ÷ render, nothing to render ({args.example}, {scenes}, -q l; CPU s, median "
        f"of {args.repeat}) | {cpu['pack']:.2f} s | {cpu['render']:.2f} s | {ratio:.2f} | ≤ 2 |"
    )


if __name__ == "__main__":
    main()
