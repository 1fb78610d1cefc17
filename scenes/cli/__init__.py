"""``attn-explain``: the command line. Parses arguments, loads the example, dispatches.

One module per family of commands, each adding its commands to the group in :mod:`.app`:
:mod:`.info` (``numbers``, ``scenes``, ``presets``), :mod:`.render` (``render``, ``watch``,
``pack``), :mod:`.example_files` (``init``, ``from-model``), :mod:`.heads_search` (``heads``),
:mod:`.batch` (``batch``); the
options shared by the rendering commands, built from :data:`scenes.kit.look.OPTIONS`, are in
:mod:`.options`. Manim is imported only by commands that render; ``numbers``, ``scenes``,
``--help`` and every validation run without it.
"""

from __future__ import annotations

import signal
import sys

import click

from scenes.cli import (  # noqa: F401 - they add the commands
    batch,
    example_files,
    heads_search,
    info,
    render,
)
from scenes.cli.app import EXIT_BAD_INPUT, BadInput, RenderFailed, Stopped, cli

__all__ = ["BadInput", "RenderFailed", "Stopped", "cli", "main"]


def _stop(signum, _frame):
    raise Stopped(signum)


def main(argv=None) -> int:
    """Entry point: every user mistake is one line on stderr and exit code 2, never a traceback.

    Ctrl-C, SIGTERM and SIGHUP stop the workers, remove their scratch and exit 130, 143, 129."""
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _stop)
    try:
        cli.main(args=argv, prog_name="attn-explain", standalone_mode=False)
    except (BadInput, RenderFailed) as exc:
        click.echo(f"attn-explain: error: {exc}", err=True)
        return EXIT_BAD_INPUT if isinstance(exc, BadInput) else 1
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
