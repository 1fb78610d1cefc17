"""Render what a user gets at two commits and compare: every preset's step stills (pixels), its
captions (.srt text) and `numbers --json`. A refactoring that changes none of them prints
"identical" and exits 0; any difference is listed and the exit code is 1.

    .venv/bin/python scripts/compare_outputs.py BASE [HEAD]      # HEAD defaults to the work tree

Each commit is checked out into a temporary git worktree and run with this venv's packages
(PYTHONPATH puts that tree first), so the comparison needs no second install. Videos are
rendered at 480p15 with captions (the .srt timing comes from the real render), stills at 480p15.
Set PRESETS=zao-shang-hao,causal to compare a few presets only.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent


def presets(tree: Path) -> list[str]:
    code = "import attention_core as ac; print(' '.join(ac.PRESETS))"
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tree,
        env=env_for(tree),
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.split()


def env_for(tree: Path) -> dict:
    # a text cache of this tree's own (made afresh), so neither tree is served the other's texts
    cache = (
        Path(tempfile.gettempdir())
        / f"attn-compare-text-{hashlib.sha1(bytes(tree)).hexdigest()[:8]}"
    )
    return {**os.environ, "PYTHONPATH": str(tree), "ATTN_TEXT_CACHE": str(cache)}


def cli(tree: Path, *args: str) -> subprocess.CompletedProcess:
    code = "import sys; from scenes.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=tree,
        env=env_for(tree),
        capture_output=True,
        text=True,
    )


def outputs(tree: Path, out: Path, names: list[str]) -> dict[str, object]:
    """{relative name: bytes digest or parsed value} of everything compared, for one tree."""
    found: dict[str, object] = {}
    for name in names:
        done = cli(tree, "numbers", name, "--json")
        if done.returncode != 0:
            raise SystemExit(f"{tree}: numbers {name} failed: {done.stderr.strip()}")
        found[f"{name}/numbers.json"] = json.loads(done.stdout)
        for args in (["--captions", "--format", "mp4"], ["--stills"]):
            done = cli(tree, "render", name, "--quiet", "--out", str(out), *args)
            if done.returncode != 0:
                raise SystemExit(f"{tree}: render {name} {args} failed: {done.stderr.strip()}")
    for path in sorted(out.rglob("*")):
        rel = str(path.relative_to(out))
        if path.suffix == ".srt":
            found[rel] = path.read_text(encoding="utf-8")
        elif path.suffix == ".png" and "/stills/" in f"/{rel}":
            found[rel] = path
    return found


def worktree(commit: str, where: Path) -> Path:
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(where), commit],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return where


def compare(a: dict, b: dict) -> list[str]:
    problems = []
    for name in sorted(set(a) | set(b)):
        if name not in a or name not in b:
            problems.append(f"only in {'head' if name in b else 'base'}: {name}")
            continue
        x, y = a[name], b[name]
        if isinstance(x, Path):
            px, py = np.asarray(Image.open(x)), np.asarray(Image.open(y))
            if px.shape != py.shape or not np.array_equal(px, py):
                diff = (
                    np.abs(px.astype(int) - py.astype(int)).max()
                    if px.shape == py.shape
                    else "shape"
                )
                problems.append(f"pixels differ: {name} (largest difference {diff})")
        elif x != y:
            problems.append(f"differs: {name}")
    return problems


def main(argv: list[str]) -> int:
    if not argv or len(argv) > 2:
        print(__doc__, file=sys.stderr)
        return 2
    base = argv[0]
    with tempfile.TemporaryDirectory(prefix="attn-compare-") as tmp:
        tmp = Path(tmp)
        trees = [worktree(base, tmp / "base")]
        trees.append(worktree(argv[1], tmp / "head") if len(argv) == 2 else ROOT)
        try:
            names = (
                os.environ.get("PRESETS", "").split(",")
                if os.environ.get("PRESETS")
                else presets(trees[0])
            )
            results = []
            for label, tree in zip(("base", "head"), trees):
                print(f"rendering {len(names)} presets at {label} ({tree}) …", file=sys.stderr)
                results.append(outputs(tree, tmp / f"out-{label}", names))
            problems = compare(*results)
            counts = {
                k: sum(1 for n in results[0] if n.endswith(k)) for k in (".png", ".srt", ".json")
            }
            print(
                f"compared {counts['.png']} stills, {counts['.srt']} caption files and "
                f"{counts['.json']} numbers reports of {len(names)} presets"
            )
            for p in problems:
                print("  " + p)
            print("identical" if not problems else f"{len(problems)} differences")
            return 1 if problems else 0
        finally:
            for tree in trees:
                if tree != ROOT:
                    subprocess.run(
                        ["git", "worktree", "remove", "--force", str(tree)],
                        cwd=ROOT,
                        capture_output=True,
                    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
