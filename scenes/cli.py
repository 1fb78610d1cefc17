"""``attn-explain``: the command line. Parses arguments, loads the example, dispatches.

Manim is imported only by commands that render; ``numbers``, ``scenes``, ``--help`` and every
validation run without it.
"""

from __future__ import annotations

import sys

import click

from attention_core import DEFAULT_PRESET, PRESETS

EXIT_BAD_INPUT = 2


class BadInput(Exception):
    """A user mistake: shown as one line, exit code 2."""


class RenderFailed(Exception):
    """A render that broke (not the user's input): one line, exit code 1."""


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
@click.option("--digits", type=click.IntRange(0, 12), default=3, show_default=True,
              help="Decimals in the table and Markdown forms.")
def numbers(example, as_json, markdown, digits):
    """Print every step of the computation for EXAMPLE: Q, K, V, scores, weights, output."""
    from attention_core import trace_example

    from . import numbers_report as report

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
def list_scenes():
    """List the scenes, in teaching order, one line each."""
    from .registry import SCENES

    for s in SCENES:
        click.echo(f"{s.name:<16} {s.summary}")


@cli.command()
@click.argument("example", default=DEFAULT_PRESET)
@click.option("--scene", "scene_names", multiple=True, metavar="NAME",
              help="A scene to render (repeatable); default: all. See `attn-explain scenes`.")
@click.option("-q", "--quality", default="l", show_default=True, metavar="l|m|h|p|k",
              help="Manim quality: l 480p15, m 720p30, h 1080p60, p 1440p60, k 2160p60.")
@click.option("--format", "fmt", default="mp4", show_default=True,
              metavar="mp4|webm|mov|gif|png", help="Video format, or png for each scene's "
              "final frame.")
@click.option("--out", default="renders", show_default=True, type=click.Path(),
              help="Output folder: files go to OUT/<example>/<quality>/<Scene>.<ext>.")
@click.option("--lang", default=None, metavar="zh|en",
              help="Language of every word on screen (default: zh for CJK examples, else en).")
@click.option("--theme", default="dark", show_default=True, metavar="dark|light")
def render(example, scene_names, quality, fmt, out, lang, theme):
    """Render the explainer scenes for EXAMPLE (a preset or a .toml/.json file)."""
    from pathlib import Path

    from .captions import LANGS
    from .registry import SCENES, find
    from .render import plan, render_job, say
    from .theme import THEMES

    ex = _load(example)
    try:
        chosen = [find(n) for n in scene_names] if scene_names else list(SCENES)
        if lang is not None and lang not in LANGS:
            raise ValueError(f"--lang: {lang!r} is not one of {', '.join(LANGS)}")
        if theme not in THEMES:
            raise ValueError(f"--theme: {theme!r} is not one of {', '.join(THEMES)}")
        jobs = plan(ex, chosen, quality, fmt, Path(out), lang=lang, theme=theme)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    done = []
    for k, job in enumerate(jobs, 1):
        say(f"[{k}/{len(jobs)}] {job.scene.name} → {job.output}")
        try:
            done.append(render_job(job))
        except (KeyboardInterrupt, BadInput):
            raise
        except Exception as exc:  # a failed render: one line, never a half-written file
            raise RenderFailed(f"rendering {job.scene.name} failed: {type(exc).__name__}: "
                               f"{str(exc).splitlines()[0] if str(exc) else ''}") from None
    say(f"done: {len(done)} file(s) in {jobs[0].out_dir}" if jobs else "nothing to render")
    for path in done:
        click.echo(str(path))


@cli.command()
def presets():
    """List the built-in examples."""
    for name, ex in PRESETS.items():
        extra = []
        if ex.heads > 1:
            extra.append(f"{ex.heads} heads")
        if ex.mask_matrix is not None:
            extra.append("masked")
        if ex.is_cross:
            extra.append("cross-attention")
        tail = f" ({', '.join(extra)})" if extra else ""
        click.echo(f"{name:<14} {ex.title}: {' '.join(ex.tokens)}, d_model = {ex.d_model}{tail}")


def main(argv=None) -> int:
    """Entry point: every user mistake is one line on stderr and exit code 2, never a traceback."""
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
    except click.exceptions.Abort:
        click.echo("attn-explain: interrupted", err=True)
        return 130
    except click.ClickException as exc:
        click.echo(f"attn-explain: error: {exc.format_message()}", err=True)
        return exc.exit_code
    except KeyboardInterrupt:
        click.echo("attn-explain: interrupted", err=True)
        return 130
    except BrokenPipeError:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
