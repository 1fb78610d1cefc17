"""The options of the rendering commands, and the requests they make.

The look options come from the table :data:`scenes.look.OPTIONS` (flags, help, checks): a row
there is an option of ``render``, ``watch`` and ``pack`` with no edit here. The command gets
what was asked as one :class:`Asked` (the look values by field name) and one :class:`Running`
(how to run); :func:`requests` turns an ``Asked`` into one request per language.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass, field

import click

from scenes.cli.app import BadInput, RenderFailed, load
from scenes.look import OPTIONS
from scenes.pipeline.workers import DEFAULT_TIMEOUT


@dataclass
class Asked:
    """What a rendering command was asked for: the example, its scenes, the look values by
    :class:`scenes.look.Look` field (None: the default; each language its own request) and the
    output folder."""

    example: str
    scene_names: tuple = ()
    langs: tuple = ()
    look: dict = field(default_factory=dict)
    out: str = "renders"


@dataclass
class Running:
    """How to run: processes, the time limit of one task, re-render everything, no progress."""

    jobs: int | None = None
    timeout: float = DEFAULT_TIMEOUT
    force: bool = False
    quiet: bool = False


def look_option(name: str):
    """The click option of the look option ``name`` (a row of :data:`scenes.look.OPTIONS`)."""
    o = OPTIONS[name]
    if o.is_flag:
        return click.option(*o.flags, name, is_flag=True, help=o.help)
    return click.option(
        *o.flags,
        name + "s" if o.multiple else name,
        multiple=o.multiple,
        default=o.cli_default,
        show_default=o.cli_default is not None,
        metavar=o.metavar,
        help=o.help,
    )


def timeout_option(what: str):
    return click.option(
        "--timeout",
        type=click.FloatRange(min=1),
        default=DEFAULT_TIMEOUT,
        show_default=True,
        help=f"Seconds one {what} may take before {'its worker' if what == 'scene' else 'it'} "
        "is killed.",
    )


def _before_look(f):
    return click.option(
        "--scene",
        "scene_names",
        multiple=True,
        metavar="NAME",
        help="A scene (repeatable); default: all. See `attn-explain scenes`.",
    )(f)


def _after_look(f):
    options = [
        click.option(
            "--out",
            default="renders",
            show_default=True,
            type=click.Path(),
            help="Output folder: OUT/<example>/<quality>[-variant]/…",
        ),
        click.option(
            "-j",
            "--jobs",
            type=click.IntRange(1, 64),
            default=None,
            help="Processes rendering at once (default: one per core).",
        ),
        timeout_option("scene"),
        click.option("--force", is_flag=True, help="Re-render even what is up to date."),
        click.option("--quiet", is_flag=True, help="No progress lines; errors still show."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def look_options(f):
    """The options that change the picture (and where and how to render), shared by ``render``,
    ``watch`` and ``pack``. The command receives ``asked`` (:class:`Asked`) and ``running``
    (:class:`Running`) instead of one argument per option."""

    @functools.wraps(f)
    def command(*args, **kw):
        look = {}
        for name, o in OPTIONS.items():
            key = name + "s" if o.multiple else name
            if key in kw:
                look[name] = kw.pop(key)
        asked = Asked(
            kw.pop("example"),
            tuple(kw.pop("scene_names")),
            tuple(look.pop("lang", ())),
            look,
            kw.pop("out"),
        )
        running = Running(*(kw.pop(k) for k in ("jobs", "timeout", "force", "quiet")))
        return f(*args, asked=asked, running=running, **kw)

    decorated = _after_look(command)
    for name in reversed([name for name, o in OPTIONS.items() if o.shared]):
        decorated = look_option(name)(decorated)
    return _before_look(decorated)


def requests(asked: Asked, **kinds) -> list:
    """One request per language asked for (each its own folder)."""
    return [request(asked, lang, **kinds) for lang in dict.fromkeys(asked.langs or [None])]


def request(asked: Asked, lang: str | None, **kinds):
    """The request of ``asked`` in ``lang`` with the output ``kinds`` (a BadInput if it cannot
    be made)."""
    from pathlib import Path

    from scenes.look import Look
    from scenes.mobjects import fonts
    from scenes.pipeline.jobs import Request, validate

    ex = load(asked.example)
    try:
        chosen = _scenes(ex, asked.scene_names)
        look = Look.for_example(ex, **asked.look, lang=lang)
        made = Request(ex, chosen, look, Path(asked.out), **kinds)
        validate(made.fmt, look, made.out)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    family = fonts.checked(look.font)  # warns once here; the forked workers know it was said
    if family != look.font:  # the fallback's own folder: the font asked for is not in the picture
        from dataclasses import replace

        made.look = replace(look, font=family)
    return made


def _scenes(ex, names) -> list:
    """The scenes asked for by name (ValueError for one that does not apply), or all that apply."""
    from scenes.registry import applicable, find

    chosen = [find(n) for n in names] if names else applicable(ex)
    for s in chosen:
        why = s.why_not(ex)
        if why is not None:
            raise ValueError(
                f"--scene: {s.name} does not apply to {ex.name}: it {why} "
                f"(`attn-explain scenes {ex.name}` lists the ones that do)"
            )
    return chosen


def run(made: list, running: Running, stages=()):
    """Render ``made`` (requests) and then ``stages`` (e.g. the slide decks); print each output
    path on stdout and a summary on stderr; RenderFailed naming the first failure."""
    from scenes.pipeline.run import run_request

    report = run_request(
        made,
        jobs=running.jobs,
        timeout=running.timeout,
        force=running.force,
        quiet=running.quiet,
        stages=stages,
    )
    if not running.quiet:
        click.echo(
            f"done: {report.rendered} rendered, {report.reused} up to date, "
            f"{len(report.failures)} failed",
            err=True,
        )
    for path in dict.fromkeys(str(p) for _, p, _ in report.outputs):  # each once, in order
        click.echo(path)
    sys.stdout.flush()
    if report.failures:
        label, error = report.failures[0]
        more = f" (and {len(report.failures) - 1} more)" if len(report.failures) > 1 else ""
        raise RenderFailed(f"rendering {label} failed: {error}{more}")
    return report
