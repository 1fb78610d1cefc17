"""``attn-explain watch``: render an example, then again each time its file is saved.

The file is looked at every ``interval`` seconds (its size, modification time and, when those
change, its bytes: an editor that saves the same text renders nothing). Content keys decide what
changed; the same warm worker processes (:class:`scenes.pipeline.workers.Pool`, Manim imported
once) render every round, so an edit costs its render only. Each round prints the scenes it
rendered on stderr (unless quiet; errors always) and their output paths on stdout. No Manim
import here.
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Callable
from pathlib import Path

from scenes.pipeline.jobs import plan
from scenes.pipeline.run import Progress, Report, default_jobs, run_jobs, warm_up
from scenes.pipeline.workers import DEFAULT_TIMEOUT, Pool


def _signature(path: Path | None):
    if path is None:
        return None
    try:
        st = path.stat()
        return st.st_size, st.st_mtime_ns
    except OSError:
        return None


def _content(path: Path | None) -> str | None:
    try:
        return None if path is None else hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def watch(
    make_requests: Callable[[], list],
    path: Path | None,
    *,
    jobs: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    force: bool = False,
    quiet: bool = False,
    interval: float = 0.2,
    rounds: int | None = None,
    out=None,
    err=None,
) -> None:
    """Render, then re-render after each change of ``path`` until interrupted (or ``rounds``
    renders). ``make_requests()`` re-reads the example; its error is shown and waited out."""
    out, err = out or sys.stdout, err or sys.stderr
    workers = jobs or default_jobs()
    done = 0
    seen = content = None
    first = True
    with Pool(workers, timeout, warm_up) as pool:
        while rounds is None or done < rounds:
            now = _signature(path)
            if not first and (path is None or now == seen):
                time.sleep(interval)
                continue
            seen = now
            new_content = _content(path)
            if not first and new_content == content:
                continue
            started = time.monotonic()
            try:
                planned = [job for r in make_requests() for job in plan(r)]
            except Exception as exc:  # noqa: BLE001 - a half-saved file: say so, wait for the next
                print(f"watch: {exc}", file=err, flush=True)
                first = False
                continue  # the last good content stays: the same bytes saved again render nothing
            content = new_content
            report = Report()
            progress = Progress(len(planned), quiet, stream=err, show_starts=workers > 1)
            run_jobs(
                planned, pool, report, progress, force=force and first, workers=workers, quiet=quiet
            )
            first = False
            done += 1
            rendered = [e for e in report.entries if e.status == "rendered"]
            for e in report.failed:
                print(f"watch: {e.label} failed: {e.error}", file=err, flush=True)
            names = ", ".join(e.label for e in rendered) or "nothing"
            if not quiet:
                print(
                    f"watch: changed: {names} ({time.monotonic() - started:.1f} s)"
                    + ("" if path is None else f"; watching {path} (Ctrl-C ends)"),
                    file=err,
                    flush=True,
                )
            for e in rendered:
                print(e.output, file=out, flush=True)
            if path is None:
                return
