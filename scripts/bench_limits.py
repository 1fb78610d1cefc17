"""Speed at the limits (issues 20 and 32), side by side in one run: CPU seconds of all stills of
`examples/at-the-limits.toml` (the file format's limits: 24 tokens, 4 heads, causal; 12 tokens
and a target of 3 × until 2026-12-07) and of `examples/smollm2-trophy.toml` (24 tokens of a real
sentence, SmolLM2, causal, RoPE) against all stills of zao-shang-hao; issue 38's target for a
24-token example: ≤ 4 ×.

    .venv/bin/python scripts/bench_limits.py [--jobs 1] [--repeat 1] [--only limits|24-tokens]

Each render is `attn-explain render EXAMPLE --stills` in a child process; its CPU seconds are the
children's user + system time (the render's worker processes included). "cold" renders with an
empty text cache of their own (every number a new Pango text, as a new example in `watch`),
"warm" the same again with `--force` (the texts cached, as when a lecturer re-renders).
Prints a Markdown table for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
EXAMPLES = {
    "limits": ROOT / "examples" / "at-the-limits.toml",
    "24-tokens": ROOT / "examples" / "smollm2-trophy.toml",
    "zao-shang-hao": "zao-shang-hao",
}
TARGETS = {"limits": 4, "24-tokens": 4}  # the most CPU time, in multiples of zao-shang-hao's


def cpu_seconds(cmd, env) -> tuple[float, float]:
    """(CPU seconds of the finished children, wall seconds) of running ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([str(c) for c in cmd], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"bench_limits: {' '.join(map(str, cmd))} failed:\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def measure(work: Path, jobs: int, repeat: int, names) -> dict:
    """{(example, run): [(cpu, wall), …]} for run in cold, warm."""
    out: dict = {}
    for k in range(repeat):
        for name in [*names, "zao-shang-hao"]:
            example = EXAMPLES[name]
            cache = work / f"cache-{name}-{k}"
            env = {**os.environ, "ATTN_TEXT_CACHE": str(cache)}
            folder = work / f"out-{name}-{k}"
            base = [BIN / "attn-explain", "render", example, "--stills", "--quiet"]
            base += ["--jobs", jobs, "--out", folder]
            out.setdefault((name, "cold"), []).append(cpu_seconds(base, env))
            out.setdefault((name, "warm"), []).append(cpu_seconds([*base, "--force"], env))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--only", choices=sorted(TARGETS), help="one example (default: both)")
    args = parser.parse_args()
    names = [args.only] if args.only else list(TARGETS)
    work = Path(tempfile.mkdtemp(prefix="attn-bench-limits-"))
    try:
        # warm-up: imports and fonts, for both sides alike
        cpu_seconds(
            [BIN / "attn-explain", "render", "zao-shang-hao", "--stills", "--quiet", "--scene",
             "Softmax", "--out", work / "warm-up"],
            {**os.environ, "ATTN_TEXT_CACHE": str(work / "cache-warm-up")},
        )  # fmt: skip
        got = measure(work, args.jobs, args.repeat, names)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    flags = f"--jobs {args.jobs} --repeat {args.repeat}" + (
        f" --only {args.only}" if args.only else ""
    )
    print(f"command: python scripts/bench_limits.py {flags}\n")
    print("| example | measure | its CPU s | zao-shang-hao CPU s | ratio | target |")
    print("|---|---|---:|---:|---:|---|")
    for name in names:
        for run in ("cold", "warm"):
            lim = min(c for c, _ in got[(name, run)])
            zao = min(c for c, _ in got[("zao-shang-hao", run)])
            walls = ", ".join(f"{w:.1f}" for _, w in got[(name, run)] + got[("zao-shang-hao", run)])
            print(
                f"| {name} | all stills, {run} text cache (wall s: {walls}) | {lim:.1f} | "
                f"{zao:.1f} | {lim / zao:.2f} | ≤ {TARGETS[name]} |"
            )


if __name__ == "__main__":
    main()
