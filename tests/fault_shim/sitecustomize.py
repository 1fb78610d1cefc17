"""Fault injection for the tests, outside the production code: put this folder first on the
PYTHONPATH of the ``attn-explain`` process under test (``faults.env``) and set ``ATTN_FAULT`` to
``hang:<Scene>`` (sleep far past any --timeout) or ``fail:<Scene>`` (raise) for that scene's
jobs, or ``slow-warm:<seconds>`` (every worker's warm-up hangs; the warm-up limit is that many
seconds), or ``unreadable:<path>`` (opening that file fails with EACCES, as a file of mode 000
does for a user who is not root: the tests run as root, which reads any file). Python imports
``sitecustomize`` at start-up, before the CLI imports the runner, so the runner and the worker
processes it forks see the patched ``execute``."""

import os

_SPEC = os.environ.get("ATTN_FAULT", "")

if _SPEC.startswith("unreadable:"):
    import builtins
    import errno
    import io

    _TARGET = os.path.realpath(_SPEC.partition(":")[2])
    _builtin_open, _os_open = builtins.open, os.open

    def _check(file) -> None:
        if isinstance(file, int):
            return
        try:
            denied = os.path.realpath(os.fspath(file)) == _TARGET
        except (TypeError, ValueError):
            return
        if denied:
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(file))

    def _open(file, *args, **kwargs):
        _check(file)
        return _builtin_open(file, *args, **kwargs)

    def _open_fd(path, *args, **kwargs):
        _check(path)
        return _os_open(path, *args, **kwargs)

    builtins.open = io.open = _open  # pathlib's read_bytes and read_text open through io.open
    os.open = _open_fd
elif _SPEC.startswith("slow-warm:"):
    import time

    import scenes.pipeline.run as _run_module
    import scenes.pipeline.workers as _workers_module

    def _hang() -> None:
        time.sleep(10_000)

    _workers_module.WARM_UP_LIMIT = float(_SPEC.partition(":")[2])
    _run_module.warm_up = _hang
elif _SPEC:
    import time

    import scenes.pipeline.execute as _execute_module

    _original = _execute_module.execute

    def execute(job):
        what, _, scene = _SPEC.partition(":")
        if scene == job.scene.name:
            if what == "hang":  # as a hung Typst or encoder: mid-render, its media folder made
                from scenes.pipeline.stills import private_media_dir

                private_media_dir()
                time.sleep(10_000)
            elif what == "fail":
                raise RuntimeError("injected failure (ATTN_FAULT)")
        return _original(job)

    execute.__module__ = _execute_module.__name__  # pickled by name to the workers
    execute.__qualname__ = "execute"
    _execute_module.execute = execute
