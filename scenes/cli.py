"""``attn-explain``: the command line. Parses arguments, loads the example, dispatches.

Manim is imported only by commands that render; ``numbers``, ``scenes``, ``--help`` and every
validation run without it.
"""

from __future__ import annotations

import signal
import sys

import click

from attention_core import DEFAULT_PRESET, PRESETS
from scenes.pipeline.jobs import check_writable
from scenes.pipeline.kinds import FORMATS
from scenes.pipeline.workers import DEFAULT_TIMEOUT

EXIT_BAD_INPUT = 2


class BadInput(Exception):
    """A user mistake: shown as one line, exit code 2."""


class RenderFailed(Exception):
    """A render that broke (not the user's input): one line, exit code 1."""


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP: handled like Ctrl-C (workers stopped, scratch removed)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _stop(signum, _frame):
    raise Stopped(signum)


def _warn(text: str) -> None:
    click.echo(f"attn-explain: warning: {text}", err=True)


def _load(example: str):
    from attention_core import load_example

    try:
        return load_example(example)
    except ValueError as exc:
        raise BadInput(str(exc)) from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="attention-explainer", prog_name="attn-explain")
def cli():
    """Self-attention, explained geometrically: numbers and Manim videos for an example.

    EXAMPLE is a preset name (see `attn-explain presets`) or a .toml/.json file.
    """


@cli.command()
@click.argument("example", default=DEFAULT_PRESET)
@click.option("--json", "as_json", is_flag=True, help="One JSON object, full float precision.")
@click.option("--markdown", is_flag=True, help="Markdown tables (labels escaped).")
@click.option(
    "--digits",
    type=click.IntRange(0, 12),
    default=3,
    show_default=True,
    help="Decimals in the table and Markdown forms.",
)
def numbers(example, as_json, markdown, digits):
    """Print every step of the computation for EXAMPLE: Q, K, V, scores, weights, output."""
    from attention_core import trace_example
    from scenes.outputs import numbers_report as report

    if as_json and markdown:
        raise BadInput("--json, --markdown: choose one output form")
    trace = trace_example(_load(example))
    if as_json:
        text = report.as_json(trace)
    elif markdown:
        text = report.as_markdown(trace, digits)
    else:
        text = report.as_text(trace, digits)
    click.echo(text, nl=False)


@cli.command("scenes")
@click.argument("example", required=False)
def list_scenes(example):
    """List the scenes, in teaching order, one line each; with EXAMPLE, which apply to it (the
    ones `render EXAMPLE` renders by default) and why the others do not."""
    from scenes.registry import SCENES

    width = max(len(s.name) for s in SCENES) + 2
    ex = _load(example) if example else None
    for s in SCENES:
        if ex is None:
            click.echo(f"{s.name:<{width}}{s.summary}")
            continue
        why = s.why_not(ex)
        state = "applies" if why is None else "skipped"
        click.echo(f"{s.name:<{width}}{state:<9}{s.summary if why is None else why}")


def look_options(f):
    """The options that change the picture, shared by ``render`` and ``pack``."""
    options = [
        click.option(
            "--scene",
            "scene_names",
            multiple=True,
            metavar="NAME",
            help="A scene (repeatable); default: all. See `attn-explain scenes`.",
        ),
        click.option(
            "-q",
            "--quality",
            default="l",
            show_default=True,
            metavar="l|m|h|p|k",
            help="l 480p15, m 720p30, h 1080p60, p 1440p60, k 2160p60.",
        ),
        click.option(
            "--lang",
            "langs",
            multiple=True,
            metavar="zh|en",
            help="Language of every word on screen and in captions (default: zh for "
            "CJK examples, else en); repeat it for both: --lang zh --lang en.",
        ),
        click.option(
            "--theme",
            default="dark",
            show_default=True,
            metavar="dark|light",
            help="light: dark text on white, for projectors and handouts.",
        ),
        click.option("--aspect", default="16:9", show_default=True, metavar="16:9|4:3|1:1"),
        click.option(
            "--font",
            default=None,
            metavar="FAMILY",
            help="Font family (default: Noto Sans CJK SC); a missing one falls back "
            "with a warning.",
        ),
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
        click.option(
            "--timeout",
            type=click.FloatRange(min=1),
            default=DEFAULT_TIMEOUT,
            show_default=True,
            help="Seconds one scene may take before its worker is killed.",
        ),
        click.option("--force", is_flag=True, help="Re-render even what is up to date."),
        click.option("--quiet", is_flag=True, help="No progress lines; errors still show."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _requests(example, scene_names, quality, langs, theme, aspect, font, out, **kinds):
    """One request per language asked for (each its own folder)."""
    return [
        _request(example, scene_names, quality, lang, theme, aspect, font, out, **kinds)
        for lang in dict.fromkeys(langs or [None])
    ]


def _request(example, scene_names, quality, lang, theme, aspect, font, out, **kinds):
    from pathlib import Path

    from scenes.look import Look
    from scenes.mobjects import fonts
    from scenes.pipeline.jobs import Request, validate
    from scenes.registry import applicable, find

    ex = _load(example)
    try:
        chosen = [find(n) for n in scene_names] if scene_names else applicable(ex)
        for s in chosen:
            why = s.why_not(ex)
            if why is not None:
                raise ValueError(
                    f"--scene: {s.name} does not apply to {ex.name}: it {why} "
                    f"(`attn-explain scenes {ex.name}` lists the ones that do)"
                )
        look = Look.for_example(
            ex,
            quality=quality,
            lang=lang,
            theme=theme,
            aspect=aspect,
            transparent=kinds.pop("transparent", False),
            font=font,
        )
        request = Request(ex, chosen, look, Path(out), **kinds)
        validate(request.fmt, look, request.out)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    family = fonts.checked(look.font)  # warns once here; the forked workers know it was said
    if family != look.font:  # the fallback's own folder: the font asked for is not in the picture
        from dataclasses import replace

        request.look = replace(look, font=family)
    return request


def _run(request, jobs, timeout, force, quiet, slide_formats=("html",)):
    from scenes.pipeline.run import run_request

    report = run_request(
        request, jobs=jobs, timeout=timeout, force=force, quiet=quiet, slide_formats=slide_formats
    )
    if not quiet:
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


@cli.command()
@click.argument("example", default=DEFAULT_PRESET)
@look_options
@click.option(
    "--format",
    "fmt",
    default=None,
    metavar="|".join(FORMATS),
    help="Video format, or png for each scene's final frame (default: mp4, or none "
    "when only --stills/--slides are asked for).",
)
@click.option("--transparent", is_flag=True, help="Alpha background (with --format webm or mov).")
@click.option("--captions", is_flag=True, help="Write .srt and .vtt subtitles beside each video.")
@click.option("--stills", is_flag=True, help="One PNG per step in <folder>/stills/ (no video).")
@click.option(
    "--slides",
    is_flag=True,
    help="Every step a slide: one deck of all scenes in <example>/slides/ (manim-slides).",
)
@click.option(
    "--slides-format",
    "slide_formats",
    default=None,
    metavar="html,pdf,pptx",
    help="Deck format(s), comma-separated (default: html); implies --slides.",
)
@click.option(
    "--preview",
    is_flag=True,
    help="Render nothing: print each output path and whether it is up to date.",
)
@click.option(
    "--verify",
    is_flag=True,
    help="Render nothing: hash every output against its record and report each one "
    "(exit code 1 if any is missing, truncated or changed).",
)
def render(
    example,
    fmt,
    transparent,
    captions,
    stills,
    slides,
    slide_formats,
    preview,
    verify,
    jobs,
    timeout,
    force,
    quiet,
    **look,
):
    """Render the explainer scenes for EXAMPLE (a preset or a .toml/.json file)."""
    from scenes.outputs.slides import SLIDE_FORMATS, missing_assets

    slides = slides or slide_formats is not None  # a deck format asks for the deck
    slide_formats = slide_formats if slide_formats is not None else "html"
    videos = fmt is not None or captions or not (stills or slides)
    formats = tuple(f.strip() for f in slide_formats.split(",") if f.strip())
    bad = [f for f in formats if f not in SLIDE_FORMATS]
    if bad or not formats:
        raise BadInput(
            f"--slides-format: {','.join(bad) or slide_formats!r} is not one of "
            f"{', '.join(SLIDE_FORMATS)} (comma-separated)"
        )
    if captions and fmt == "png":
        raise BadInput("--captions: png is a still; captions need a video --format (mp4, webm…)")
    requests = _requests(
        example,
        fmt=fmt or "mp4",
        videos=videos,
        captions=captions,
        stills=stills,
        slides=slides,
        transparent=transparent,
        **look,
    )
    if slides and "html" in formats and missing_assets() and not (preview or verify):
        from scenes.outputs.slides import assets_dir

        raise BadInput(
            f"--slides: the reveal.js files for the offline deck are missing from "
            f"{assets_dir()}; run `make setup` (it fetches them with npm)"
        )
    if preview:
        return _preview(requests, formats if slides else ())
    if verify:
        return _verify(requests)
    _run(requests, jobs, timeout, force, quiet, formats if slides else ())


def _preview(requests, formats) -> None:
    from scenes.pipeline.jobs import plan
    from scenes.pipeline.run import deck_jobs

    for request in requests:
        for job in plan(request):
            state = "up to date" if job.fresh() else "to render"
            click.echo(f"{state:<10}  {job.output}")
        for deck in deck_jobs(request, formats):
            click.echo(f"{'up to date' if deck.fresh() else 'to render':<10}  {deck.dest}")


def _verify(requests) -> None:
    from scenes.pipeline import cache
    from scenes.pipeline.jobs import plan

    bad = 0
    for request in requests:
        for job in plan(request):
            record = cache.read_record(job.out_dir, job.name)
            if record is None or record.get("key") != job.key:
                state, why = "to render", ""
            else:
                why = cache.problem(job.out_dir, record, verify=True)
                state = "ok" if why is None else "BAD"
            bad += state != "ok"
            click.echo(f"{state:<10}  {job.output}" + (f"  ({why})" if why else ""))
    if bad:
        raise RenderFailed(f"--verify: {bad} output(s) to render again (run render without it)")


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
    type=click.FloatRange(min=0.05),
    default=0.2,
    show_default=True,
    help="Seconds between looks at the example file.",
)
def watch(example, stills, fmt, interval, jobs, timeout, force, quiet, **look):
    """Render EXAMPLE, then again each time its file is saved: content keys decide what
    changed, warm workers render it; prints the scenes that changed (stderr) and their output
    paths (stdout). Ctrl-C ends it."""
    from pathlib import Path

    from scenes.pipeline.watch import watch as run_watch

    def requests():
        return _requests(
            example,
            fmt=fmt or "png",
            videos=fmt is not None or not stills,
            stills=stills,
            **look,
        )

    requests()  # bad input: one line and exit code 2 before anything starts
    path = Path(example) if Path(example).is_file() else None
    if path is None and not quiet:
        _warn(f"{example!r} is a preset: rendered once, nothing to watch")
    try:
        run_watch(
            requests, path, jobs=jobs, timeout=timeout, force=force, quiet=quiet, interval=interval
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
def pack(example, digits, jobs, timeout, force, quiet, **look):
    """Write a lecture page, OUT/<example>/index.html: every scene's video with captions, each
    step's text, and the example's numbers. Works offline; renders what is missing first."""
    from scenes.outputs.lecture_page import build

    requests = _requests(example, fmt="mp4", videos=True, captions=True, **look)
    posters = _requests(example, fmt="png", videos=True, **look)  # each video's last step
    _run(requests + posters, jobs, timeout, force, quiet)
    for request in requests:
        try:
            page = build(request, digits)
        except (OSError, RuntimeError) as exc:
            raise RenderFailed(f"writing the lecture page failed: {exc}") from None
        click.echo(str(page))


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Overwrite FILE if it exists.")
def init(file, force):
    """Write FILE: the default example as a commented TOML file to edit and render."""
    from pathlib import Path

    from attention_core.template import example_toml

    path = Path(file)
    if path.suffix.lower() != ".toml":
        raise BadInput(f"FILE: {file!r} should end in .toml (the commented example format)")
    if path.exists() and not force:
        raise BadInput(f"FILE: {file!r} exists; choose another name or add --force")
    if not path.parent.is_dir():
        raise BadInput(f"FILE: folder {str(path.parent)!r} does not exist")
    try:
        from scenes.pipeline.files import atomic_write

        atomic_write(path, example_toml())
    except OSError as exc:
        raise BadInput(f"FILE: cannot write {file!r} ({exc.strerror})") from None
    click.echo(
        f"wrote {path}: edit it, then `attn-explain numbers {path}` or "
        f"`attn-explain render {path}`",
        err=True,
    )
    click.echo(str(path))


@cli.command("from-model")
@click.argument("text")
@click.option(
    "--model",
    type=click.Choice(["minilm", "smollm2"]),
    default="minilm",
    show_default=True,
    help="minilm: all-MiniLM-L6-v2 (BERT encoder); smollm2: SmolLM2-135M-Instruct (a Llama "
    "decoder: causal, rotary positions, 9 query heads over 3 key/value heads).",
)
@click.option(
    "--layer",
    type=int,
    required=True,
    help="The layer: 1–6 (minilm; its input hidden states are used) or 1–30 (smollm2; its "
    "attention input after RMSNorm).",
)
@click.option(
    "--head",
    type=int,
    default=None,
    help="The head: 1–12 (minilm) or 1–9 (smollm2); required without --all-heads.",
)
@click.option(
    "--all-heads",
    is_flag=True,
    help="All heads of the layer with W_O: a multi-head example (smollm2: 9 query heads, "
    "3 key/value heads).",
)
@click.option(
    "-o",
    "--output",
    "file",
    type=click.Path(dir_okay=False),
    default=None,
    help="The example file to write (default: <slug of TEXT>.toml); its arrays go to "
    "<stem>.npz beside it.",
)
@click.option("--force", is_flag=True, help="Overwrite FILE (and its .npz) if they exist.")
def from_model(model, text, layer, head, all_heads, file, force):
    """Write an example from a trained model, offline (the [model] extra): TEXT through
    all-MiniLM-L6-v2 (default) or SmolLM2-135M-Instruct (--model smollm2), one head of one layer
    (or --all-heads): the tokens, the layer's hidden states as embeddings, the head's W_q, W_k,
    W_v (and biases, or the rotary base, positions and causal mask of the decoder)."""
    from pathlib import Path

    from attention_core import from_model as fm

    heads = "1–9" if model == "smollm2" else "1–12"
    if all_heads and head is not None:
        raise BadInput("--head: not used with --all-heads (that writes all the layer's heads)")
    if not all_heads and head is None:
        raise BadInput(f"--head: give the head, {heads}, or --all-heads")
    path = Path(file) if file else Path(fm.slug(text) + ".toml")
    if path.suffix.lower() != ".toml":
        raise BadInput(f"FILE: {str(path)!r} should end in .toml")
    npz = path.with_suffix(".npz")
    for p in (path, npz):
        if p.exists() and not force:
            raise BadInput(f"FILE: {str(p)!r} exists; choose another name or add --force")
    if not path.parent.is_dir():
        raise BadInput(f"FILE: folder {str(path.parent)!r} does not exist")
    try:
        made = fm.model_example(text, layer, head, all_heads=all_heads, model=model)
        made.example(path.stem)  # refuse here what the loader would refuse later
        fm.write_example(path, made)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    except OSError as exc:
        raise BadInput(f"FILE: cannot write {str(path)!r} ({exc.strerror or exc})") from None
    click.echo(
        f"wrote {path} and {npz.name}: `attn-explain numbers {path}` or "
        f"`attn-explain render {path}`",
        err=True,
    )
    click.echo(str(path))


@cli.command()
@click.argument("course_file", metavar="COURSE", type=click.Path(dir_okay=False))
@click.option(
    "--executor",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="local: a process pool; dask: a Dask cluster.",
)
@click.option(
    "--scheduler",
    metavar="tcp://HOST:8786",
    help="The Dask scheduler's address (with --executor dask).",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(1, 64),
    default=None,
    help="Local processes (default: one per core).",
)
@click.option("--out", default="renders", show_default=True, type=click.Path())
@click.option(
    "--retries",
    type=click.IntRange(0, 10),
    default=2,
    show_default=True,
    help="Times a failed task is tried again before it is reported.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=1),
    default=DEFAULT_TIMEOUT,
    show_default=True,
    help="Seconds one task may take before it is killed.",
)
@click.option(
    "--collect",
    is_flag=True,
    help="Workers send the finished files back to this "
    "machine, which writes them (for workers without a shared disk).",
)
@click.option("--dry-run", is_flag=True, help="Print the plan only.")
@click.option("--force", is_flag=True, help="Re-render even what is up to date.")
@click.option("--quiet", is_flag=True, help="No progress lines.")
def batch(
    course_file, executor, scheduler, jobs, out, retries, timeout, collect, dry_run, force, quiet
):
    """Render a course: every example × scene × language × theme × quality × format in COURSE
    (a TOML file, see the README), skipping what is up to date; writes
    OUT/<course>/manifest.json. Exit code 0 only when every task succeeded."""
    from pathlib import Path

    from scenes.pipeline.batch import label_of, run_batch
    from scenes.pipeline.course import expand, load_course

    if executor == "dask" and not scheduler:
        raise BadInput("--scheduler: give the Dask scheduler's address, e.g. tcp://HOST:8786")
    if scheduler and executor != "dask":
        raise BadInput("--scheduler: only with --executor dask")
    if collect and executor != "dask":
        _warn("--collect does nothing without --executor dask (local workers share this disk)")
    try:
        course = load_course(course_file)
        check_writable(Path(out))
        job_list, broken = expand(course, Path(out))
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    fresh = sum(1 for j in job_list if not force and j.fresh())
    click.echo(
        f"plan: {course.name}: {len(job_list)} tasks ({fresh} up to date, "
        f"{len(job_list) - fresh} to render), {len(broken)} broken example(s), "
        f"executor {executor}",
        err=True,
    )
    if dry_run:
        for job in job_list:
            state = "up to date" if not force and job.fresh() else "to render"
            click.echo(f"{state:<10}  {label_of(job)}")
        for label, error in broken:
            click.echo(f"{'broken':<10}  {label}: {error}")
        return
    try:
        report = run_batch(
            course.name,
            job_list,
            broken,
            Path(out),
            executor=executor,
            scheduler=scheduler,
            workers=jobs,
            timeout=timeout,
            retries=retries,
            collect=collect,
            force=force,
            quiet=quiet,
        )
    except OSError as exc:  # e.g. the scheduler cannot be reached
        raise RenderFailed(f"batch: {exc}") from None
    counts = report.counts()
    click.echo(
        f"done: {counts['rendered']} rendered, {counts['reused']} up to date, "
        f"{counts['failed']} failed in {report.wall:.1f} s; manifest: "
        f"{Path(out) / course.name / 'manifest.json'}",
        err=True,
    )
    if report.failed:
        first = report.failed[0]
        more = f" (and {len(report.failed) - 1} more)" if len(report.failed) > 1 else ""
        raise RenderFailed(f"{first.label}: {first.error}{more}")


@cli.command()
def presets():
    """List the built-in examples."""
    width = max(len(name) for name in PRESETS) + 2
    for name, ex in PRESETS.items():
        extra = []
        if ex.heads > 1:
            extra.append(f"{ex.heads} heads")
        if ex.mask_matrix is not None:
            extra.append("masked")
        if ex.is_cross:
            extra.append("cross-attention")
        tail = f" ({', '.join(extra)})" if extra else ""
        click.echo(
            f"{name:<{width}}{ex.title}: {' '.join(ex.tokens)}, d_model = {ex.d_model}{tail}"
        )


def main(argv=None) -> int:
    """Entry point: every user mistake is one line on stderr and exit code 2, never a traceback.

    Ctrl-C, SIGTERM and SIGHUP stop the workers, remove their scratch and exit 130, 143, 129."""
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _stop)
    try:
        cli.main(args=argv, prog_name="attn-explain", standalone_mode=False)
    except BadInput as exc:
        click.echo(f"attn-explain: error: {exc}", err=True)
        return EXIT_BAD_INPUT
    except RenderFailed as exc:
        click.echo(f"attn-explain: error: {exc}", err=True)
        return 1
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
        return 0
    except click.UsageError as exc:
        hint = f" (see `{exc.ctx.command_path} --help`)" if exc.ctx else ""
        click.echo(f"attn-explain: error: {exc.format_message()}{hint}", err=True)
        return EXIT_BAD_INPUT
    except click.exceptions.Abort as exc:
        return _interrupted(exc.__cause__ or exc.__context__)
    except click.ClickException as exc:
        click.echo(f"attn-explain: error: {exc.format_message()}", err=True)
        return exc.exit_code
    except KeyboardInterrupt as exc:
        return _interrupted(exc)
    except BrokenPipeError:
        return 0
    return 0


def _interrupted(exc) -> int:
    if isinstance(exc, Stopped):
        name = signal.Signals(exc.signum).name
        click.echo(f"attn-explain: interrupted ({name})", err=True)
        return 128 + exc.signum
    click.echo("attn-explain: interrupted", err=True)
    return 130


if __name__ == "__main__":
    sys.exit(main())
