"""``render``, ``watch`` and ``pack``: the commands that render an example's scenes."""

from __future__ import annotations

import click

from attention_core import DEFAULT_PRESET
from scenes.cli.app import BadInput, RenderFailed, Stopped, cli, warn
from scenes.cli.options import (
    Asked,
    Running,
    Seconds,
    check_narration,
    claim,
    look_option,
    look_options,
    requests,
    run,
    verify,
)
from scenes.pipeline.kinds import FORMATS


def _render_options(f):
    options = [
        click.option(
            "--format",
            "fmt",
            default=None,
            metavar="|".join(FORMATS),
            help="Video format, or png for each scene's final frame (default: mp4, or none "
            "when only --stills/--slides are asked for).",
        ),
        look_option("transparent"),
        click.option(
            "--captions", is_flag=True, help="Write .srt and .vtt subtitles beside each video."
        ),
        click.option(
            "--stills", is_flag=True, help="One PNG per step in <folder>/stills/ (no video)."
        ),
        click.option(
            "--slides",
            is_flag=True,
            help="Every step a slide: one deck of all scenes in <example>/slides/ (manim-slides).",
        ),
        click.option(
            "--slides-format",
            "slide_formats",
            default=None,
            metavar="html,pdf,pptx",
            help="Deck format(s), comma-separated (default: html); implies --slides.",
        ),
        click.option(
            "--preview",
            is_flag=True,
            help="Render nothing: print each output path and whether it is up to date.",
        ),
        click.option(
            "--verify",
            is_flag=True,
            help="Render nothing: hash every output against its record and report each one "
            "(exit code 1 if any is missing, truncated or changed).",
        ),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _deck_formats(slides: bool, slide_formats: str | None) -> tuple:
    """The deck formats asked for (none without --slides); BadInput for an unknown one."""
    from scenes.outputs.slides import SLIDE_FORMATS

    text = slide_formats if slide_formats is not None else "html"
    formats = tuple(f.strip() for f in text.split(",") if f.strip())
    bad = [f for f in formats if f not in SLIDE_FORMATS]
    if bad or not formats:
        raise BadInput(
            f"--slides-format: {','.join(bad) or text!r} is not one of "
            f"{', '.join(SLIDE_FORMATS)} (comma-separated)"
        )
    return formats if slides else ()


@cli.command()
@click.argument("example", default=DEFAULT_PRESET)
@look_options
@_render_options
def render(
    asked: Asked,
    running: Running,
    fmt,
    captions,
    stills,
    slides,
    slide_formats,
    preview,
    verify,
):
    """Render the explainer scenes for EXAMPLE (a preset or a .toml/.json file)."""
    slides = slides or slide_formats is not None  # a deck format asks for the deck
    formats = _deck_formats(slides, slide_formats)
    if captions and fmt == "png":
        raise BadInput("--captions: png is a still; captions need a video --format (mp4, webm…)")
    videos = fmt is not None or captions or not (stills or slides)
    check_narration(asked, fmt, videos, formats)
    made = requests(
        asked,
        fmt=fmt or "mp4",
        videos=videos,
        captions=captions,
        stills=stills,
        slides=slides,
        force=running.force,
    )
    if preview:
        return _preview(made, formats)
    if verify:
        return _verify(made)
    _check_deck_assets(formats)
    from scenes.outputs.deck import Decks

    run(made, running, stages=[Decks(made, formats)], asked=asked)


def _check_deck_assets(formats) -> None:
    from scenes.outputs.slides import assets_dir, missing_assets

    if "html" in formats and missing_assets():
        raise BadInput(
            f"--slides: the reveal.js files for the offline deck are missing from "
            f"{assets_dir()}; run `make setup` (it fetches them with npm)"
        )


def _preview(made, formats) -> None:
    """One line per output (a folder of stills is one): up to date, or to render."""
    from scenes.outputs.deck import deck_jobs
    from scenes.pipeline.jobs import plan

    for request in made:
        lines: dict = {}
        for job in plan(request):
            lines[job.output] = lines.get(job.output, True) and job.fresh() is not None
        lines.update({deck.dest: deck.fresh() for deck in deck_jobs(request, formats)})
        for output, fresh in lines.items():
            click.echo(f"{'up to date' if fresh else 'to render':<10}  {output}")


def _verify(made) -> None:
    from scenes.pipeline.jobs import plan

    verify([job for request in made for job in plan(request)], "render")


@cli.command()
@click.argument("example", default=DEFAULT_PRESET)
@look_options
@click.option("--stills", is_flag=True, help="Step stills (the quickest to look at).")
@click.option(
    "--format",
    "fmt",
    default=None,
    metavar="|".join(FORMATS),
    help="Videos in this format (default: png, each scene's final frame, unless --stills).",
)
@click.option(
    "--interval",
    type=Seconds(0.05),
    default=0.2,
    show_default=True,
    help="Seconds between looks at the example file.",
)
def watch(asked: Asked, running: Running, stills, fmt, interval):
    """Render EXAMPLE, then again each time its file is saved: content keys decide what
    changed, warm workers render it; prints the scenes that changed (stderr) and their output
    paths (stdout). Ctrl-C ends it."""
    import signal
    from pathlib import Path

    from scenes.pipeline.watch import watch as run_watch

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:  # started in a script's background
        signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C (SIGINT) still ends it

    check_narration(asked, fmt or "png", fmt is not None or not stills)

    def made():
        kinds = {"fmt": fmt or "png", "videos": fmt is not None or not stills, "stills": stills}
        return requests(asked, force=running.force, **kinds)

    claim(asked, made()[0], force=running.force)  # bad input: one line, exit 2, before anything
    path = Path(asked.example) if Path(asked.example).is_file() else None
    if path is None and not running.quiet:
        warn(f"{asked.example!r} is a preset: rendered once, nothing to watch")
    try:
        run_watch(
            made,
            path,
            jobs=running.jobs,
            timeout=running.timeout,
            force=running.force,
            quiet=running.quiet,
            interval=interval,
        )
    except KeyboardInterrupt as exc:
        if isinstance(exc, Stopped):
            raise
        click.echo("watch: stopped", err=True)


@cli.command()
@click.argument("example", default=DEFAULT_PRESET)
@look_options
@click.option(
    "--digits",
    type=click.IntRange(0, 12),
    default=3,
    show_default=True,
    help="Decimals in the page's numbers tables.",
)
def pack(asked: Asked, running: Running, digits):
    """Write a lecture page, OUT/<example>/index.html: every scene's video with captions, each
    step's text, and the example's numbers. Works offline; renders what is missing first."""
    from scenes.outputs import page_record
    from scenes.outputs.lecture_page import build, page_path

    videos = requests(asked, fmt="mp4", videos=True, captions=True, force=running.force)
    posters = requests(asked, fmt="png", videos=True, force=running.force)  # last steps
    run(videos + posters, running, asked=asked)
    for request in videos:
        try:
            _keep_notes(request)
            page, key = page_path(request), page_record.page_key(request, digits)
            if running.force or not page_record.fresh(page, key):  # else: as it was
                page = build(request, digits)
                page_record.keep(page, key)
        except (OSError, RuntimeError) as exc:
            raise RenderFailed(f"writing the lecture page failed: {exc}") from None
        click.echo(str(page))


def _keep_notes(request) -> None:
    """The speaker notes of the page's videos, worked out by dry runs where a video was rendered
    without them (``render`` without ``--captions``), kept in their records: once, not at every
    ``pack``."""
    from scenes.pipeline import step_notes
    from scenes.pipeline.jobs import plan

    for job in plan(request):
        record = job.fresh() if job.kind == "video" else None
        if record is not None:
            step_notes.keep(job, record)
