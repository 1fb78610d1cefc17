"""`make bench`: the tool against plain Manim and against the encoder alone, measured side by side
in one run (these machines are noisy: compare ratios, not seconds across runs).

    (a) attn-explain render --jobs 2 -q l, all scenes   vs  plain `manim render -ql`, in a row
    (b) an unchanged re-run                             vs  the first run
    (c) all --stills                                    vs  all videos
    (d) render seconds per second of video at 3, 6 and 12 tokens
    (e) the floor: PyAV encoding the same number of blank frames, at 480p15 and 1080p60
    (f) `attn-explain batch` of a small course on a Dask LocalCluster: 2 workers vs 1
    (g) a batch of 16 stills (png) on a LocalCluster: per-task overhead (task wall time − render
        time, from the manifest) and 2 workers vs 1
    (h) `attn-explain watch`: an edit of the example file → the changed scene's stills on disk

`--only g,h` runs some rows only.

Prints a Markdown table (paste it into BENCHMARKS.md). Takes a few minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
sys.path.insert(0, str(ROOT))

from scenes.kit.registry import SCENES  # noqa: E402

TOKEN_SCENES = ("DotProducts", "Softmax", "AttentionMatrix", "WeightedSum")


def timed(cmd, cwd=None, env=None) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(
        [str(c) for c in cmd],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"bench: {' '.join(map(str, cmd))} failed:\n{done.stderr[-2000:]}")
    return time.perf_counter() - t0


def tool(*args, **kw) -> float:
    return timed([BIN / "attn-explain", "render", "--quiet", *args], **kw)


def video_stats(folder: Path) -> tuple[int, float]:
    """(frames, seconds) of every mp4 in ``folder``."""
    import av

    frames, seconds = 0, 0.0
    for path in sorted(folder.glob("*.mp4")):
        with av.open(str(path)) as c:
            s = c.streams.video[0]
            frames += s.frames or sum(1 for _ in c.demux(s) if _.size)
            seconds += float(c.duration) / av.time_base
    return frames, seconds


def encode_blank(frames: int, width: int, height: int, fps: int, out: Path) -> float:
    """Seconds PyAV/libx264 takes to encode ``frames`` blank frames (what Manim's writer uses)."""
    import av
    import numpy as np

    blank = np.zeros((height, width, 3), dtype=np.uint8)
    t0 = time.perf_counter()
    with av.open(str(out), "w") as c:
        s = c.add_stream("libx264", rate=fps)
        s.width, s.height, s.pix_fmt = width, height, "yuv420p"
        for _ in range(frames):
            for packet in s.encode(av.VideoFrame.from_ndarray(blank, format="rgb24")):
                c.mux(packet)
        for packet in s.encode():
            c.mux(packet)
    return time.perf_counter() - t0


def example_file(folder: Path, n: int) -> Path:
    import numpy as np

    rng = np.random.default_rng(n)
    emb = rng.normal(size=(n, 4)).round(2).tolist()
    path = folder / f"tokens{n}.toml"
    path.write_text(
        f"tokens = {[f't{i}' for i in range(n)]}\n".replace("'", '"')
        + f"embeddings = {emb}\nseed = 1\n",
        encoding="utf-8",
    )
    return path


DASK_COURSE = """name = "bench"
examples = ["zao-shang-hao", "two-heads"]
scenes = ["Embeddings", "Softmax", "AttentionMatrix", "CausalMask"]
langs = ["zh", "en"]
formats = ["mp4"]
"""


def dask_ratio(work: Path):
    """(f) The same course (16 videos) on a LocalCluster of 1 and of 2 worker processes."""
    from distributed import LocalCluster

    course = work / "course.toml"
    course.write_text(DASK_COURSE, encoding="utf-8")
    wall = {}
    for n in (1, 2):
        with LocalCluster(
            n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster:
            wall[n] = dask_batch(course, cluster.scheduler_address, work / f"dask{n}")
    return (
        "(f) batch of 16 videos on Dask: 2 workers ÷ 1 worker",
        f"{wall[2]:.1f} s",
        f"{wall[1]:.1f} s",
        wall[2] / wall[1],
        "< 1 (2 cores)",
    )


STILLS_COURSE = DASK_COURSE.replace('formats = ["mp4"]', 'formats = ["png"]')


def dask_stills(work: Path) -> list:
    """(g) 16 pngs on a LocalCluster of 1 and of 2 workers: wall times and per-task overhead."""
    from distributed import LocalCluster

    course = work / "stills-course.toml"
    course.write_text(STILLS_COURSE, encoding="utf-8")
    wall, overhead = {}, {}
    for n in ("fresh", 1, 2):
        out = work / f"dask-stills{n}"
        with LocalCluster(
            n_workers=2 if n == "fresh" else n,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            # 1 and 2: as `dask worker --preload scenes.pipeline.batch`, the render process starts
            # with the worker, before any batch
            preload=[] if n == "fresh" else ["scenes.pipeline.batch"],
        ) as cluster:
            if n != "fresh":
                time.sleep(5.0)  # workers up and idle 5 s, as a cluster waiting for work
            wall[n] = dask_batch(course, cluster.scheduler_address, out)
            overhead[n] = task_overheads(out)
            if n == 2:  # again on the same cluster (--force): its render processes are warm
                dask_batch(course, cluster.scheduler_address, out, "--force")
                overhead["again"] = task_overheads(out)
    local = {}
    for n in (1, 2):  # the control, side by side: the same course on the local pool
        local[n] = timed(
            [BIN / "attn-explain", "batch", course, "-j", n, "--quiet", "--out", work / f"local{n}"]
        )
    return dask_stills_rows(wall, overhead, local)


def dask_batch(course: Path, scheduler: str, out: Path, *extra) -> float:
    """Seconds `attn-explain batch COURSE --executor dask` takes on the cluster at ``scheduler``."""
    return timed(
        [
            BIN / "attn-explain",
            "batch",
            course,
            "--executor",
            "dask",
            "--scheduler",
            scheduler,
            "--quiet",
            *extra,
            "--out",
            out,
        ]
    )


def task_overheads(out: Path) -> list[float]:
    """Each task's wall time less its render time, from the batch's manifest."""
    import json

    tasks = json.loads((out / "bench" / "manifest.json").read_text())["tasks"]
    return [t["seconds"] - t["render_seconds"] for t in tasks]


def dask_stills_rows(wall: dict, overhead: dict, local: dict) -> list:
    """The (g) rows: the overheads (fresh, preloaded, warm) and the 2 ÷ 1 worker ratios."""
    import statistics

    o, again = overhead["fresh"], overhead["again"]
    return [
        (
            "(g) Dask, 16 stills on 2 workers, fresh cluster: per-task overhead (task wall − "
            f"render), mean (median {statistics.median(o):.3f} s; the first task on each worker "
            "waits for its one import)",
            f"{statistics.mean(o):.3f} s",
            "",
            statistics.mean(o),
            "≤ 0.3 s",
        ),
        (
            "(g) the same, workers started with `--preload scenes.pipeline.batch`: mean "
            f"(median {statistics.median(overhead[2]):.3f} s)",
            f"{statistics.mean(overhead[2]):.3f} s",
            "",
            statistics.mean(overhead[2]),
            "≤ 0.3 s",
        ),
        (
            "(g) the same, a second batch on the same cluster (render processes warm): mean "
            f"(max {max(again):.3f} s)",
            f"{statistics.mean(again):.3f} s",
            "",
            statistics.mean(again),
            "≤ 0.3 s",
        ),
        (
            "(g) Dask, batch of 16 stills: 2 workers ÷ 1 worker (both preloaded)",
            f"{wall[2]:.1f} s",
            f"{wall[1]:.1f} s",
            wall[2] / wall[1],
            "≤ 0.55",
        ),
        (
            "(g) control: the same batch on the local pool, -j 2 ÷ -j 1",
            f"{local[2]:.1f} s",
            f"{local[1]:.1f} s",
            local[2] / local[1],
            "",
        ),
    ]


def watch_latency(work: Path, edits: int = 5) -> tuple:
    """(h) `watch EXAMPLE --stills --scene Softmax`: save → the stills on disk, median of 5."""
    import statistics

    ex = example_file(work, 3)
    proc = subprocess.Popen(
        [BIN / "attn-explain", "watch", ex, "--stills", "--scene", "Softmax", "-j", "1",
         "--quiet", "--out", work / "watch"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )  # fmt: skip
    try:
        proc.stdout.readline()  # the first render
        text, times = ex.read_text(encoding="utf-8"), []
        for k in range(edits):
            time.sleep(0.5)
            t0 = time.perf_counter()
            ex.write_text(text.replace("seed = 1", f"seed = {k + 2}"), encoding="utf-8")
            proc.stdout.readline()  # printed once the stills are in place
            times.append(time.perf_counter() - t0)
    finally:
        proc.send_signal(2)
        proc.wait(30)
    med = statistics.median(times)
    return (
        f"(h) watch: edit → Softmax's stills on disk, median of {edits} (480p, one worker; "
        f"{', '.join(f'{t:.2f}' for t in times)} s)",
        f"{med:.2f} s",
        "",
        med,
        "≤ 2 s",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--skip-hq", action="store_true", help="leave out the 1080p60 floor")
    parser.add_argument("--only", default="", help="comma-separated rows, e.g. g,h")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    work = Path(tempfile.mkdtemp(prefix="attn-bench-"))
    rows = []
    try:
        if only:
            if "g" in only:
                rows += dask_stills(work)
            if "h" in only:
                rows.append(watch_latency(work))
            if "f" in only:
                rows.append(dask_ratio(work))
            return
        first = render_rows(work, args.jobs, rows)
        token_rows(work, args.jobs, rows)
        floor_rows(work, args.jobs, first, args.skip_hq, rows)
        rows.append(dask_ratio(work))
        rows += dask_stills(work)
        rows.append(watch_latency(work))
    finally:
        shutil.rmtree(work, ignore_errors=True)
        report(rows, args)


def render_rows(work: Path, jobs: int, rows: list) -> float:
    """(a)–(c), added to ``rows``: the tool against plain Manim, an unchanged re-run, stills
    against videos. Returns the first render's seconds (the (e) rows compare with it)."""
    # warm-up: imports and the text cache, for every contender alike
    tool("--stills", "--out", work / "warm")

    plain = 0.0
    (work / "plain").mkdir()
    for s in SCENES:
        plain += timed(
            [
                BIN / "manim",
                "render",
                "-ql",
                "--disable_caching",
                "-v",
                "ERROR",
                ROOT / s.path,
                s.name,
            ],
            cwd=work / "plain",
        )
    first = tool("--jobs", jobs, "-q", "l", "--out", work / "tool")
    rows.append(
        (
            "(a) render --jobs 2 -q l, all scenes ÷ plain manim, one after another",
            f"{first:.1f} s",
            f"{plain:.1f} s",
            first / plain,
            "≤ 0.6",
        )
    )

    again = tool("--jobs", jobs, "-q", "l", "--out", work / "tool")
    rows.append(
        (
            "(b) unchanged re-run ÷ first run",
            f"{again:.2f} s",
            f"{first:.1f} s",
            again / first,
            "≤ 0.05",
        )
    )

    stills = tool("--stills", "--jobs", jobs, "-q", "l", "--out", work / "stills")
    rows.append(
        (
            "(c) all --stills ÷ all videos",
            f"{stills:.1f} s",
            f"{first:.1f} s",
            stills / first,
            "≤ 0.2",
        )
    )
    return first


def token_rows(work: Path, jobs: int, rows: list) -> None:
    """(d), added to ``rows``: render seconds per second of video at 3, 6 and 12 tokens, first
    and again."""
    # first: a new example (its numbers are new texts); again: re-rendered (--force) with
    # the texts cached, as when a lecturer iterates on the same example
    per = {"first": {}, "again": {}}
    scene_args = [a for s in TOKEN_SCENES for a in ("--scene", s)]
    for n in (3, 6, 12):
        ex = example_file(work, n)
        for run, extra in (("first", ()), ("again", ("--force",))):
            secs = tool(ex, *scene_args, "--jobs", jobs, "--out", work / "tokens", *extra)
            _, video = video_stats(work / "tokens" / ex.stem / "480p15")
            per[run][n] = secs / video
            rows.append(
                (
                    f"(d) {n} tokens, {run}: render s per s of video ({', '.join(TOKEN_SCENES)})",
                    f"{secs:.1f} s",
                    f"{video:.1f} s video",
                    per[run][n],
                    "",
                )
            )
    for run in ("first", "again"):
        rows.append(
            (
                f"(d) 12 tokens ÷ 3 tokens, {run} (render s per s of video)",
                "",
                "",
                per[run][12] / per[run][3],
                "≤ 1.5",
            )
        )


def floor_rows(work: Path, jobs: int, first: float, skip_hq: bool, rows: list) -> None:
    """(e), added to ``rows``: the floor, PyAV encoding as many blank frames as the videos
    have (at 480p15 against ``first``, the first render's seconds; at 1080p60 against Overview)."""
    frames, _ = video_stats(work / "tool" / "zao-shang-hao" / "480p15")
    floor = encode_blank(frames, 854, 480, 15, work / "blank480.mp4")
    rows.append(
        (
            f"(e) 480p15: all scenes ÷ encoding {frames} blank frames (PyAV)",
            f"{first:.1f} s",
            f"{floor:.1f} s",
            first / floor,
            "floor",
        )
    )
    if not skip_hq:
        hq = tool("--scene", "Overview", "-q", "h", "--jobs", jobs, "--out", work / "hq")
        frames_hq, _ = video_stats(work / "hq" / "zao-shang-hao" / "1080p60")
        floor_hq = encode_blank(frames_hq, 1920, 1080, 60, work / "blank1080.mp4")
        rows.append(
            (
                f"(e) 1080p60: Overview ÷ encoding {frames_hq} blank frames (PyAV)",
                f"{hq:.1f} s",
                f"{floor_hq:.1f} s",
                hq / floor_hq,
                "floor",
            )
        )


def report(rows, args) -> None:
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, {platform.platform()}"
    )
    print(f"command: make bench  (python scripts/bench.py --jobs {args.jobs})\n")
    print("| measure | tool | reference | ratio | target |")
    print("|---|---:|---:|---:|---|")
    for name, a, b, ratio, target in rows:
        print(f"| {name} | {a} | {b} | {ratio:.3f} | {target} |")


if __name__ == "__main__":
    main()
