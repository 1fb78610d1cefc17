"""The command group and what every command shares: its errors and how an example is loaded.

A :class:`BadInput` is the user's mistake (one line, exit code 2), a :class:`RenderFailed` a
render that broke (one line, exit code 1); :func:`scenes.cli.main` turns them into those lines.
"""

from __future__ import annotations

import click

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


def warn(text: str) -> None:
    click.echo(f"attn-explain: warning: {text}", err=True)


def load(example: str):
    """The example ``example`` names (a preset or a file); BadInput when it cannot be loaded."""
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


def check_text(text: str, as_title: bool = False) -> None:
    """TEXT as one line of valid UTF-8 (a shell passes undecodable bytes as surrogates);
    ``as_title``: also as an example's title and tokens may be (no invisible, bidi or emoji
    character), named as TEXT, the argument the user gave."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raw = text[exc.start].encode("utf-8", "surrogateescape")
        raise BadInput(
            f"TEXT: not valid UTF-8 (byte 0x{raw.hex()} at character {exc.start + 1}); "
            "give the sentence as UTF-8 text"
        ) from None
    bad = next((c for c in text if ord(c) < 32 or 0x7F <= ord(c) < 0xA0), None)
    if bad is not None:
        what = "a line break" if bad in "\r\n" else f"the control character {bad!r}"
        raise BadInput(f"TEXT: holds {what}; give the sentence as one line")
    if not as_title:
        return
    from attention_core.models.model_example import check_model_text

    try:  # what a model's text (and an example's title) is refused for: one check, the core's
        check_model_text(text)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
