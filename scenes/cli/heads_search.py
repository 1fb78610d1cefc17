"""``heads``: every head of a real model on one text, with its reading; ``--find SRC->DST`` ranks
them by the weight from one word to another (:mod:`attention_core.readings.head_search`)."""

from __future__ import annotations

import json

import click

from scenes.cli.app import BadInput, check_text, cli

HABITS = {
    "previous": "its habit: the previous token",
    "next": "its habit: the next token",
    "first": "its habit: the first token",
    "sink": "its habit: the first token (sink)",
    "cls": "its habit: [CLS]",
    "sep": "its habit: [SEP]",
    "self": "its habit: itself",
    "fixed": "its habit: that one token",
    "induction": "its habit: the token after an earlier occurrence",
}


def run_search(text: str, model: str, find: str | None):
    """The model's heads on ``text`` and the ranked hits (and the pair with ``find``);
    BadInput (one line) for what the core refuses."""
    from attention_core.models.model_heads import model_heads
    from attention_core.readings import head_search as hs

    check_text(text, as_title=True)  # the check from-model makes (the core's check_model_text)
    try:
        run = model_heads(text, model)
        pair = None
        if find is not None:
            words = hs.text_words(text, run.spans)
            pair = hs.find_pair(find, words, run.labels, causal=run.causal)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    except OSError as exc:
        raise BadInput(
            f"XDG_CACHE_HOME: cannot use the model cache {exc.filename or ''!r} "
            f"({exc.strerror or exc}); point XDG_CACHE_HOME at a writable folder"
        ) from None
    from threadpoolctl import threadpool_limits

    # what each weight moves is 270 small products, where BLAS threads only wait on one
    # another (as in the forward pass, attention_core.models.model_heads): one thread
    with threadpool_limits(limits=1, user_api="blas"):
        return run, pair, hs.search_heads(run.layers, run.labels, pair, run.head_values)


def hit_dict(hit) -> dict:
    r = hit.reading
    out = {"layer": hit.layer, "head": hit.head, "reading": r.pattern, "strength": r.mass}
    out["text"] = r.text
    if hit.weight is not None:
        out["weight"], out["habit"] = hit.weight, hit.habit
        out["weight_without_first"] = hit.weight_without_first
        out["moved"], out["moved_share"] = hit.moved, hit.moved_share
    return out


def resting(hit) -> str:
    """For a large weight that moves little (attention_core.readings.moved.is_resting): "0.99
    of the weight, 3 % of what it moves: a resting place"; else ""."""
    from attention_core.readings.moved import is_resting

    if hit.moved_share is None or not is_resting(hit.weight, hit.moved_share):
        return ""
    share = f"{hit.moved_share * 100:.0f} %"
    return f"{hit.weight:.2f} of the weight, {share} of what it moves: a resting place"


def _find_row(hit) -> str:
    """A --find row's numbers: weight, without the first token, moved, share."""
    w1 = "—" if hit.weight_without_first is None else f"{hit.weight_without_first:.3f}"
    return f"{hit.weight:>6.3f}  {w1:>7}  {hit.moved:>6.3f}  {hit.moved_share * 100:>3.0f} %  "


def table(run, pair, hits) -> str:
    n = len(run.labels)
    lines = [f"{run.model}: {n} tokens: " + " ".join(run.labels)]
    if pair is not None:
        from attention_core.readings.head_search import pieces_text

        key = pieces_text([run.labels[k] for k in pair.keys])
        summed = " (its pieces' weights summed)" if len(pair.keys) > 1 else ""
        lines.append(
            f"--find {pair.src}->{pair.dst}: query {run.labels[pair.query]!r} (token "
            f"{pair.query + 1}), key {key}{summed}; best first"
        )
        lines.append(
            "w/o 1st: the weight renormalised over tokens 2…n; moved: ‖Σ α·v·W_Oʰ‖ over DST's "
            "pieces; share: of the row's Σⱼ ‖αⱼ·vⱼ·W_Oʰ‖"
        )
        lines.append(
            f"{'rank':>4}  {'layer':>5}  {'head':>4}  {'weight':>6}  {'w/o 1st':>7}  "
            f"{'moved':>6}  {'share':>5}  reading"
        )
    else:
        lines.append(f"{'rank':>4}  {'layer':>5}  {'head':>4}  reading (strongest first)")
    for i, hit in enumerate(hits, 1):
        row = f"{i:>4}  {hit.layer:>5}  {hit.head:>4}  "
        if hit.weight is not None:
            row += _find_row(hit)
        row += hit.reading.text
        notes = [HABITS[hit.habit]] if hit.habit is not None else []
        notes += [resting(hit)] if hit.weight is not None and resting(hit) else []
        row += "".join(f"  [{note}]" for note in notes)
        lines.append(row)
    return "\n".join(lines) + "\n"


@cli.command("heads")
@click.argument("text")
@click.option(
    "--model",
    type=click.Choice(["minilm", "smollm2"]),
    default="minilm",
    show_default=True,
    help="minilm: all-MiniLM-L6-v2 (6 layers × 12 heads); smollm2: SmolLM2-135M-Instruct "
    "(30 layers × 9 heads, causal).",
)
@click.option(
    "--find",
    metavar="SRC->DST",
    default=None,
    help="Rank the heads by the weight from word SRC to word DST. A word cut into pieces: the "
    "query is its last piece, the key weight sums its pieces. Words match as written, else "
    "in any case (both in Unicode NFC); word₂ or word#2 picks a later occurrence; a token label "
    "such as [CLS] works too; in text without spaces (Chinese …) SRC and DST name characters "
    "of it (它, 狗₂). Each row also gives the weight without the first token (renormalised), "
    "what the pair moves into the output, ‖Σ α·v·W_Oʰ‖, and its share of the row's: a large "
    "weight that moves little is a resting place. Rows whose weight is the head's habit (DST is "
    "the previous token of a previous-token head, the first token of a sink head …) say so. A "
    "weight the causal "
    "mask forces (SRC the first token: it sees only itself) is refused, not ranked.",
)
@click.option("--json", "as_json", is_flag=True, help="A JSON list, best first, full precision.")
def heads_command(text, model, find, as_json):
    """List every head of every layer of a trained model on TEXT (one forward pass, up to 64
    tokens) with its reading and the reading's strength; with --find, ranked by the weight
    from one word to another."""
    run, pair, hits = run_search(text, model, find)
    if as_json:
        text_out = json.dumps([hit_dict(h) for h in hits], ensure_ascii=False, indent=1) + "\n"
    else:
        text_out = table(run, pair, hits)
    click.echo(text_out, nl=False)
