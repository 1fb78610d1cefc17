"""``init`` and ``from-model``: the commands that write an example file to edit and render."""

from __future__ import annotations

from pathlib import Path

import click

from scenes.cli.app import BadInput, cli


def check_new_file(
    path: Path, force: bool, *, also: tuple[Path, ...] = (), shown: str = "", why: str = ""
) -> None:
    """BadInput naming FILE (as ``shown``, default: the path) unless ``path`` and each of
    ``also`` (written beside it) may be written: a .toml name (``why`` says which format), not
    there yet (or ``force``), in a folder that exists."""
    shown = shown or str(path)
    if any(ord(c) < 32 or ord(c) == 127 for c in str(path)):  # as --out: a path on two lines
        raise BadInput(
            f"FILE: {shown!r} holds a control character (a line break?); choose a plain name"
        )
    if path.name.lower() == ".toml":  # a hidden file with no name: the example's name is empty
        raise BadInput(f"FILE: {shown!r} has no name before .toml; give one, e.g. cat.toml")
    if path.suffix.lower() != ".toml":
        raise BadInput(f"FILE: {shown!r} should end in .toml{why}")
    for p, name in ((path, shown), *((p, str(p)) for p in also)):
        if p.is_dir():
            raise BadInput(f"FILE: {name!r} is a folder; choose another name")
        if p.exists() and not force:
            raise BadInput(f"FILE: {name!r} exists; choose another name or add --force")
    if not path.parent.is_dir():
        raise BadInput(f"FILE: folder {str(path.parent)!r} does not exist")


def _wrote(path: Path, lead: str) -> None:
    click.echo(
        f"wrote {lead} `attn-explain numbers {path}` or `attn-explain render {path}`", err=True
    )
    click.echo(str(path))


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Overwrite FILE if it exists.")
def init(file, force):
    """Write FILE: the default example as a commented TOML file to edit and render."""
    from attention_core.template import example_toml
    from scenes.pipeline.files import atomic_write

    path = Path(file)
    check_new_file(path, force, shown=file, why=" (the commented example format)")
    try:
        atomic_write(path, example_toml())
    except OSError as exc:
        raise BadInput(f"FILE: cannot write {file!r} ({exc.strerror})") from None
    _wrote(path, f"{path}: edit it, then")


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
    from attention_core import from_model as fm

    heads = "1–9" if model == "smollm2" else "1–12"
    if all_heads and head is not None:
        raise BadInput("--head: not used with --all-heads (that writes all the layer's heads)")
    if not all_heads and head is None:
        raise BadInput(f"--head: give the head, {heads}, or --all-heads")
    _check_text(text)
    path = Path(file) if file else Path(fm.slug(text) + ".toml")
    npz = path.with_suffix(".npz")
    check_new_file(path, force, also=(npz,))
    try:
        made = fm.model_example(text, layer, head, all_heads=all_heads, model=model)
        made.example(path.stem)  # refuse here what the loader would refuse later
    except ValueError as exc:
        raise BadInput(_blame_text(str(exc))) from None
    except OSError as exc:  # the model's files are unpacked into the user cache folder
        raise BadInput(
            f"XDG_CACHE_HOME: cannot use the model cache {exc.filename or ''!r} "
            f"({exc.strerror or exc}); point XDG_CACHE_HOME at a writable folder"
        ) from None
    try:
        fm.write_example(path, made)
    except (OSError, ValueError) as exc:
        where = getattr(exc, "filename", None) or str(path)
        why = getattr(exc, "strerror", None) or exc
        raise BadInput(f"FILE: cannot write {str(where)!r} ({why})") from None
    _wrote(path, f"{path} and {npz.name}:")


def _check_text(text: str) -> None:
    """TEXT as one line of valid UTF-8 (a shell passes undecodable bytes as surrogates)."""
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
    from attention_core.visible_text import refusal

    why = refusal(text, fonts=False)  # what the example's title (TEXT) would be refused for
    if why:
        raise BadInput(f"TEXT: {text!r} {why}")


def _blame_text(message: str) -> str:
    """A message about the written example's title or a token named as the argument the user
    gave, TEXT (the user never wrote ``title:`` or ``tokens[1]:``)."""
    import re

    m = re.match(r"(?:title|tokens\[(\d+)\]): (.*)", message, flags=re.S)
    if m is None:
        return message
    return f"TEXT{'' if m[1] is None else f' (token {int(m[1]) + 1})'}: {m[2]}"
