"""``attn-explain watch``: render an example, then again each time its file is saved.

The file and every file it names (its ``arrays`` .npz) are looked at every ``interval`` seconds
(their sizes, modification times and, when those change, their bytes: an editor that saves the
same text renders nothing). Content keys decide what
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

_NAMED: dict = {}  # example path → (its size and time, the files it names): parsed once a save


def _watched(path: Path | None) -> list[Path]:
    """The example file and every file it names (its ``arrays`` .npz): saving any renders. The
    file is parsed for the names only when it changed, not at every look."""
    if path is None:
        return []
    from attention_core.example.loading import named_files

    try:
        st = path.stat()
        stamp = (st.st_size, st.st_mtime_ns)
    except OSError:
        return [path]
    held = _NAMED.get(path)
    if held is None or held[0] != stamp:
        held = _NAMED[path] = (stamp, named_files(path))
    return [path, *held[1]]


def _signature(path: Path | None):
    if path is None:
        return None
    out = []
    for p in _watched(path):
        try:
            st = p.stat()
            out.append((str(p), st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((str(p), None))
    return tuple(out)


def _content(path: Path | None) -> str | None:
    """A hash of the watched files' bytes, or None when one is not a regular file (a FIFO, a
    folder: never opened, so never a hang), cannot be read or is over the loader's limit: the
    loader then says why, once, and the next save is watched for."""
    from attention_core.example.loading import MAX_ARRAYS_BYTES
    from attention_core.example.user_files import read_user_file

    if path is None:
        return None
    h = hashlib.sha256()
    for p in _watched(path):
        try:
            data = read_user_file(p, MAX_ARRAYS_BYTES, "watch")
        except ValueError:
            return None
        h.update(f"{p}\0".encode() + hashlib.sha256(data).digest())
    return h.hexdigest()


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
    renders). ``make_requests()`` re-reads the example; its error is shown and waited out, and
    when the file is valid again that is said too (even when it is the last good content)."""
    out, err = out or sys.stdout, err or sys.stderr
    workers = jobs or default_jobs()
    state = _State()
    with Pool(workers, timeout, warm_up) as pool:
        while rounds is None or state.done < rounds:
            planned = _next_round(state, make_requests, path, interval, err)
            if planned is None:
                continue
            started = time.monotonic()
            report = Report()
            progress = Progress(len(planned), quiet, stream=err, show_starts=workers > 1)
            first = state.done == 0
            run_jobs(
                planned, pool, report, progress, force=force and first, workers=workers, quiet=quiet
            )
            state.done += 1
            _say(report, path, time.monotonic() - started, quiet, out, err)
            if path is None:
                return


class _State:
    """What the loop remembers: the file's signature and last good content, whether the last
    look found it broken, and the rounds rendered."""

    def __init__(self) -> None:
        self.seen = self.content = None
        self.first = True
        self.broken = False
        self.done = 0


def _next_round(state: _State, make_requests, path, interval: float, err) -> list | None:
    """The jobs to render now, or None (nothing changed, or the file is not valid)."""
    now = _signature(path)
    if not state.first and (path is None or now == state.seen):
        time.sleep(interval)
        return None
    state.seen = now
    new_content = _content(path)
    if not state.first and new_content == state.content:
        if state.broken:  # the last good content restored: no render, but say it is valid
            state.broken = False
            print(f"watch: {path} is valid again (unchanged)", file=err, flush=True)
        return None
    try:
        planned = [job for r in make_requests() for job in plan(r)]
    except Exception as exc:  # noqa: BLE001 - a half-saved file: say so, wait for the next
        print(f"watch: {exc}", file=err, flush=True)
        state.first, state.broken = False, True
        return None  # the last good content stays: the same bytes saved again render nothing
    if state.broken:
        print(f"watch: {path} is valid again", file=err, flush=True)
    state.content, state.first, state.broken = new_content, False, False
    return planned


def _say(report: Report, path, seconds: float, quiet: bool, out, err) -> None:
    """A round's lines: failures, what changed (stderr), the new outputs' paths (stdout)."""
    rendered = [e for e in report.entries if e.status == "rendered"]
    for e in report.failed:
        print(f"watch: {e.label} failed: {e.error}", file=err, flush=True)
    names = ", ".join(e.label for e in rendered) or "nothing"
    if not quiet:
        print(
            f"watch: changed: {names} ({seconds:.1f} s)"
            + ("" if path is None else f"; watching {path} (Ctrl-C ends)"),
            file=err,
            flush=True,
        )
    for e in rendered:
        print(e.output, file=out, flush=True)
