"""A long-lived render process for a Dask worker: ``python -m scenes.pipeline.task_runner``.

It imports Manim once, then serves jobs until its stdin closes: each request is a pickled
:class:`scenes.pipeline.jobs.Job`, each reply a pickled ``("ok", record)`` or ``("error", one
line)``, both framed by an 8-byte length. Whatever a render prints goes to stderr, so the replies
on stdout stay clean. The Dask executor (:mod:`scenes.pipeline.batch`) keeps one per Dask worker
(a Dask worker cannot fork worker processes of its own), kills it at a task's time limit and
starts another; it dies with the worker that started it.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import struct
import sys

HEADER = struct.Struct(">Q")


def frame(obj) -> bytes:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(data)) + data


def _read_exact(stream, n: int) -> bytes | None:
    data = b""
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def main() -> int:
    from scenes.pipeline.workers import die_with_parent, first_line

    die_with_parent()
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a render's prints go to stderr
    requests = sys.stdin.buffer
    from scenes.pipeline.run import warm_up

    with contextlib.suppress(Exception):  # a failing import shows up as the task's own error
        warm_up()
    from scenes.pipeline.execute import execute

    while True:
        header = _read_exact(requests, HEADER.size)
        if header is None:
            return 0
        body = _read_exact(requests, HEADER.unpack(header)[0])
        if body is None:
            return 0
        try:
            reply = ("ok", execute(pickle.loads(body)))
        except Exception as exc:  # noqa: BLE001 - one line back to the caller
            reply = ("error", first_line(exc))
        replies.write(frame(reply))
        replies.flush()


if __name__ == "__main__":
    sys.exit(main())
