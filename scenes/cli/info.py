"""``numbers``, ``scenes`` and ``presets``: what an example computes and what there is to render."""

from __future__ import annotations

import click

from attention_core import DEFAULT_PRESET, PRESETS
from scenes.cli.app import BadInput, cli, load


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
    trace = trace_example(load(example))
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
    from scenes.kit.registry import SCENES

    width = max(len(s.name) for s in SCENES) + 2
    ex = load(example) if example else None
    for s in SCENES:
        if ex is None:
            click.echo(f"{s.name:<{width}}{s.summary}")
            continue
        why = s.why_not(ex)
        state = "applies" if why is None else "skipped"
        click.echo(f"{s.name:<{width}}{state:<9}{s.summary if why is None else why}")


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
