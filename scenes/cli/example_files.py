"""``init`` and ``from-model``: the commands that write an example file to edit and render."""

from __future__ import annotations

from pathlib import Path

import click

from scenes.cli.app import BadInput, check_text, cli


def check_new_file(
    path: Path, force: bool, *, also: tuple[Path, ...] = (), shown: str = "", why: str = ""
) -> None:
    """BadInput naming FILE (as ``shown``, default: the path) unless ``path`` and each of
    ``also`` (written beside it) may be written: a .toml name (``why`` says which format), not
    there yet (or ``force``), in a folder that exists."""
    from attention_core.example.user_files import length_problem

    shown = shown or str(path)
    why = length_problem(path)  # a name over 255 bytes: refused here, not an OSError later
    if why:
        raise BadInput(f"FILE: {why}; choose a shorter name")
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
    from attention_core.example.template import example_toml
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
    default=None,
    help="The layer: 1–6 (minilm; its input hidden states are used) or 1–30 (smollm2; its "
    "attention input after RMSNorm); required without --find.",
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
@click.option(
    "--find",
    metavar="SRC->DST",
    default=None,
    help="Follow word SRC looking at word DST (as `heads --find`): without --layer/--head the "
    "head that links them best (not by habit) is written; the file names the followed query "
    "and key.",
)
@click.option("--force", is_flag=True, help="Overwrite FILE (and its .npz) if they exist.")
def from_model(model, text, layer, head, all_heads, file, force, find):
    """Write an example from a trained model, offline (the [model] extra): TEXT through
    all-MiniLM-L6-v2 (default) or SmolLM2-135M-Instruct (--model smollm2), one head of one layer
    (or --all-heads): the tokens, the layer's hidden states as embeddings, the head's W_q, W_k,
    W_v (and biases, or the rotary base, positions and causal mask of the decoder)."""
    from attention_core.models import from_model as fm

    heads = "1–9" if model == "smollm2" else "1–12"
    if all_heads and head is not None:
        raise BadInput("--head: not used with --all-heads (that writes all the layer's heads)")
    if find is None and layer is None:
        layers = "1–30" if model == "smollm2" else "1–6"
        raise BadInput(f"--layer: give the layer, {layers}, or --find SRC->DST")
    if find is None and not all_heads and head is None:
        raise BadInput(f"--head: give the head, {heads}, or --all-heads")
    check_text(text, as_title=True)
    path = Path(file) if file else Path(fm.slug(text) + ".toml")
    npz = path.with_suffix(".npz")
    check_new_file(path, force, also=(npz,))
    followed, found = {}, ""
    if find is not None:
        layer, head, followed, found = found_head(text, model, find, layer, head, all_heads)
    try:
        made = fm.model_example(text, layer, head, all_heads=all_heads, model=model)
        made.fields.update(followed)
        made.fields["head_scores"] = head_scores_field(model, layer, head, all_heads)
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
    if found:
        click.echo(found, err=True)
    _wrote(path, f"{path} and {npz.name}:")


def head_scores_field(model: str, layer: int, head, all_heads: bool) -> list[dict]:
    """The example's ``head_scores``: each of its heads' model-level scores (previous,
    duplicate, induction, copying), so that its scenes name an induction head by the model's
    measure on any sentence; computed once per model, then read from the model cache."""
    import dataclasses

    import attention_core as ac

    scores = ac.model_scores(model)
    heads = range(scores.shape[1]) if all_heads else [head - 1]
    return [dataclasses.asdict(scores.of(layer - 1, h)) for h in heads]


def found_head(text: str, model: str, find: str, layer, head, all_heads: bool):
    """The layer and head ``from-model --find`` writes (the best link where not given; with
    --all-heads, the best head's layer) and the example's ``query`` and ``key`` fields."""
    from attention_core.readings.head_search import best_link, followed_fields, pieces_text
    from scenes.cli.heads_search import run_search

    run, pair, hits = run_search(text, model, find)
    if layer is not None:
        if isinstance(layer, bool) or not 1 <= layer <= len(run.layers):
            raise BadInput(f"--layer: {layer!r} is outside 1 … {len(run.layers)} (counted from 1)")
        hits = [h for h in hits if h.layer == layer]
    if head is not None:
        count = run.layers[0].shape[0]
        if isinstance(head, bool) or not 1 <= head <= count:
            raise BadInput(f"--head: {head!r} is outside 1 … {count} (counted from 1)")
        hits = [h for h in hits if h.head == head]
    best = best_link(hits)
    W = run.layers[best.layer - 1][best.head - 1]
    note = (
        f", all the layer's heads written (the scenes explain head {best.head})"
        if all_heads
        else ""
    )
    # the query, the key (DST's heaviest piece) and, for a DST cut into pieces, its pieces
    fields = followed_fields(run.labels, pair, W)
    if all_heads:  # the head the single-head scenes explain, among the layer's
        fields["head"] = best.head
    key = pieces_text([run.labels[k] for k in pair.keys])
    found = (
        f"--find {pair.src}->{pair.dst}: layer {best.layer}, head {best.head} "
        f"(weight {best.weight:.3f}{', the sum of its pieces' if len(pair.keys) > 1 else ''})"
        f"{note}; followed: query {fields['query']!r}, key {key!r}"
    )
    return best.layer, (None if all_heads else best.head), fields, found


def _blame_text(message: str) -> str:
    """A message about the written example's title or a token named as the argument the user
    gave, TEXT (the user never wrote ``title:`` or ``tokens[1]:``)."""
    import re

    m = re.match(r"(?:title|tokens\[(\d+)\]): (.*)", message, flags=re.S)
    if m is None:
        return message
    return f"TEXT{'' if m[1] is None else f' (token {int(m[1]) + 1})'}: {m[2]}"
