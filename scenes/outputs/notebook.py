"""Render a scene from a Jupyter cell and show it there. Two lines::

    from scenes.outputs.notebook import show
    show("Softmax", "zao-shang-hao")        # or a .toml file; lang=, theme=, quality= …

The render goes through the same pipeline as ``attn-explain render`` (worker processes, content
keys: an unchanged cell re-runs at once). In a notebook the result displays as a video (or an
image for ``fmt="png"``); elsewhere ``show`` returns the file's path.
"""

from __future__ import annotations

from pathlib import Path

from attention_core import DEFAULT_PRESET, load_example


def render_file(
    scene: str,
    example: str = DEFAULT_PRESET,
    *,
    quality: str = "l",
    fmt: str = "mp4",
    lang: str | None = None,
    theme: str = "dark",
    aspect: str = "16:9",
    out: str = "renders",
    jobs: int | None = None,
) -> Path:
    """Render ``scene`` of ``example`` (quietly) and return the output's path."""
    from scenes.kit.look import Look
    from scenes.kit.registry import find
    from scenes.pipeline.jobs import Request
    from scenes.pipeline.run import run_request

    ex = load_example(example)
    look = Look.for_example(ex, quality=quality, lang=lang, theme=theme, aspect=aspect)
    request = Request(ex, [find(scene)], look, Path(out), fmt=fmt)
    report = run_request(request, jobs=jobs, quiet=True)
    if report.failures:
        label, error = report.failures[0]
        raise RuntimeError(f"rendering {label} failed: {error}")
    return report.outputs[0][1]


def show(scene: str, example: str = DEFAULT_PRESET, **options):
    """Render and display in Jupyter (IPython's Video/Image); the path outside a notebook."""
    path = render_file(scene, example, **options)
    try:
        from IPython.display import Image, Video
    except ImportError:
        return path
    return Image(filename=str(path)) if path.suffix == ".png" else Video(str(path), embed=True)
