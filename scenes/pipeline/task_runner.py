"""Run one render job in a fresh process: ``python -m scenes.pipeline.task_runner`` reads the
pickled :class:`scenes.pipeline.jobs.Job` from stdin and writes the pickled record to stdout.

The Dask executor runs each task this way, so a hung render can be killed at its time limit
(a Dask worker cannot fork worker processes of its own) and dies with the worker that ran it.
"""

from __future__ import annotations

import pickle
import sys


def main() -> int:
    from scenes.pipeline.execute import execute
    from scenes.pipeline.workers import die_with_parent, first_line

    die_with_parent()
    job = pickle.load(sys.stdin.buffer)
    try:
        record = execute(job)
    except Exception as exc:  # noqa: BLE001 - one line back to the caller
        print(first_line(exc), file=sys.stderr)
        return 1
    sys.stdout.buffer.write(pickle.dumps(record))
    return 0


if __name__ == "__main__":
    sys.exit(main())
