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
