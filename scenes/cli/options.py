"""The options of the rendering commands, and the requests they make.

The look options come from the table :data:`scenes.kit.look.OPTIONS` (flags, help, checks): a row
there is an option of ``render``, ``watch`` and ``pack`` with no edit here. The command gets
what was asked as one :class:`Asked` (the look values by field name) and one :class:`Running`
(how to run); :func:`requests` turns an ``Asked`` into one request per language.
"""

from __future__ import annotations

import functools
import math
import sys
from dataclasses import dataclass, field

import click

from scenes.cli.app import BadInput, RenderFailed, load
from scenes.kit.look import OPTIONS
from scenes.pipeline.workers import DEFAULT_TIMEOUT


@dataclass
class Asked:
    """What a rendering command was asked for: the example, its scenes, the look values by
    :class:`scenes.kit.look.Look` field (None: the default; each language its own request) and the
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
    """The click option of the look option ``name`` (a row of :data:`scenes.kit.look.OPTIONS`)."""
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


class Seconds(click.FloatRange):
    """A finite number of seconds, at least ``minimum`` (``nan`` and ``inf`` are refused: no
    limit would apply, and the supervisor would busy-wait)."""

    def __init__(self, minimum: float) -> None:
        super().__init__(min=minimum)

    def convert(self, value, param, ctx):
        seconds = super().convert(value, param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        return seconds


def timeout_option(what: str):
    return click.option(
        "--timeout",
        type=Seconds(1),
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


def requests(asked: Asked, *, force: bool = False, **kinds) -> list:
    """One request per language asked for (each its own folder). The example's folder under
    --out must not hold the renders of another file of the same name (unless ``force``);
    :func:`claim` marks it as this file's once something is rendered."""
    made = [request(asked, lang, **kinds) for lang in dict.fromkeys(asked.langs or [None])]
    claim(asked, made[0], write=False, force=force)
    check_voices(asked, made)
    return made


def check_voices(asked: Asked, made: list) -> None:
    """BadInput naming --voice for a voice asked that speaks none of the languages rendered
    (each look takes the voice of its own language: :func:`scenes.kit.narration.settle_voice`)."""
    names = asked.look.get("voice") or ()
    if not names or not made[0].look.narrate:
        return
    from scenes.kit.narration import voice_of

    used = {voice_of(r.look) for r in made}
    langs = ", ".join(r.look.lang for r in made)
    for name in names:
        if name not in used:
            raise BadInput(
                f"--voice: {name} speaks none of the languages rendered ({langs}); give a voice "
                "of each language (af_heart for en, zf_xiaoyi for zh), or add its --lang"
            )


def check_narration(asked: Asked, fmt: str | None, videos: bool = True, deck: tuple = ()):
    """BadInput naming --narrate where nothing asked could speak: a still (png, stills alone),
    a gif, a pdf deck alone. ``videos``: whether videos are rendered; ``deck``: the slide deck's
    formats (an html or pptx deck speaks: each slide's video carries its step's voice)."""
    if not asked.look.get("narrate"):
        return
    from scenes.pipeline.soundtrack import SOUND_FORMATS

    if deck and not set(deck) - {"pdf"} and not videos:
        raise BadInput("--narrate: a pdf deck has no sound; ask for --slides-format html or pptx")
    if (videos or not deck) and (not videos or (fmt or "mp4") not in SOUND_FORMATS):
        raise BadInput(
            f"--narrate: {'a ' + fmt if fmt else 'a still'} has no sound; ask for a video with "
            f"--format {', '.join(SOUND_FORMATS)}"
        )
    from scenes.speech.assets import VoiceUnavailable, model_path, voices_path

    try:  # there (their hashes are checked where the voice is loaded, in the workers)
        missing = [p for p in (model_path(), voices_path()) if not p.is_file()]
    except VoiceUnavailable as exc:
        raise BadInput(f"--narrate: {str(exc).removeprefix('voice: ')}") from None
    if missing:
        raise BadInput(
            f"--narrate: the voice's file {missing[0]} is missing; run `make setup` (it fetches "
            "the model and the voices)"
        )


def claim(asked: Asked, made, *, write: bool = True, force: bool = False) -> None:
    """Check (and with ``write``, record) that the example folder of request ``made`` belongs
    to the file (or preset) ``asked`` names (:func:`scenes.pipeline.jobs.claim`)."""
    from pathlib import Path

    from attention_core import PRESETS
    from scenes.pipeline import jobs

    if asked.example in PRESETS:
        source = f"preset:{asked.example}"
    else:
        source = str(Path(asked.example).resolve())
    try:
        jobs.claim(made.out_dir.parent, source, write=write, force=force)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    except OSError as exc:
        where = str(made.out_dir.parent)
        raise BadInput(f"--out: cannot write to {where!r} ({exc.strerror})") from None


def request(asked: Asked, lang: str | None, **kinds):
    """The request of ``asked`` in ``lang`` with the output ``kinds`` (a BadInput if it cannot
    be made)."""
    from pathlib import Path

    from scenes.kit.look import Look
    from scenes.mobjects import fonts
    from scenes.pipeline.jobs import Request, check_out_name, plan, validate

    check_environment()
    ex = load(asked.example)
    try:
        check_out_name(asked.out)  # before Path(), which reads "" as "."
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
    try:
        plan(made)  # its folders of records, checked before any work (jobs.check_records)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    return made


def check_environment() -> None:
    """BadInput naming the variable for a setting of the environment that every render would
    trip over (or silently misread): ``ATTN_TEXT_CACHE_MB`` must be a finite number ≥ 0; and
    every file of the code must be readable (each output's content key hashes it)."""
    import os

    from scenes.pipeline import cache

    try:
        cache.code_digest()
    except ValueError as exc:
        raise BadInput(str(exc)) from None

    value = os.environ.get("ATTN_TEXT_CACHE_MB", "")
    if not value.strip():
        return
    try:
        mb = float(value)
    except ValueError:
        mb = float("nan")
    if not math.isfinite(mb) or mb < 0:
        raise BadInput(
            f"ATTN_TEXT_CACHE_MB: {value[:40]!r} is not a size; give the text cache's cap in "
            "megabytes, a finite number ≥ 0 (unset: 200)"
        )


def _scenes(ex, names) -> list:
    """The scenes asked for by name (ValueError for one that does not apply), or all that apply."""
    from scenes.kit.registry import applicable, find

    names = list(dict.fromkeys(names))  # the same --scene twice is one scene
    chosen = [find(n) for n in names] if names else applicable(ex)
    for s in chosen:
        why = s.why_not(ex)
        if why is not None:
            raise ValueError(
                f"--scene: {s.name} does not apply to {ex.name}: it {why} "
                f"(`attn-explain scenes {ex.name}` lists the ones that do)"
            )
    return chosen


def run(made: list, running: Running, stages=(), asked: Asked | None = None):
    """Render ``made`` (requests) and then ``stages`` (e.g. the slide decks); print each output
    path on stdout and a summary on stderr; RenderFailed naming the first failure. With
    ``asked``, the example's folder is claimed for its file once an output is there."""
    from scenes.pipeline.run import run_request

    report = run_request(
        made,
        jobs=running.jobs,
        timeout=running.timeout,
        force=running.force,
        quiet=running.quiet,
        stages=stages,
    )
    if asked is not None and report.outputs:
        claim(asked, made[0], force=True)  # checked before the run: now it is this file's
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


def verify(jobs: list, command: str) -> None:
    """``--verify``: hash every output of ``jobs`` against its record; one line per output
    (a folder of stills is one output: its worst state), then RenderFailed if any is not ok."""
    from scenes.pipeline import cache

    rank = {"ok": 0, "to render": 1, "BAD": 2}
    lines: dict = {}
    for job in jobs:
        record = cache.read_record(job.out_dir, job.name)
        if record is None or record.get("key") != job.key:
            state, why = "to render", ""
        else:
            why = cache.problem(job.out_dir, record, verify=True)
            state = "ok" if why is None else "BAD"
            if why is not None:  # the next render makes it again (it may not hash it)
                cache.mark_bad(job.out_dir, job.name, record, why)
        held = lines.get(job.output)
        if held is None or rank[state] > rank[held[0]]:
            lines[job.output] = (state, why)
    for output, (state, why) in lines.items():
        click.echo(f"{state:<10}  {output}" + (f"  ({why})" if why else ""))
    bad = sum(state != "ok" for state, _ in lines.values())
    if bad:
        raise RenderFailed(f"--verify: {bad} output(s) to render again (run {command} without it)")
