"""``heads``: every head of a real model on one text, with its reading; ``--find SRC->DST`` ranks
them by the weight from one word to another (:mod:`attention_core.readings.head_search`)."""

from __future__ import annotations

import json

import click

from attention_core.readings.head_search import group_heads
from scenes.cli.app import BadInput, check_text, cli

WIDTH = 118  # a listed line at most this wide (a lecturer's terminal); --json keeps it all
LISTED = 5  # heads listed one a line in a group; the rest on one line


def habit_note(key: str) -> str:
    """ "its habit: the previous token" (the reading's phrase: readings.head_kinds)."""
    from attention_core.readings.head_kinds import reading

    phrase = reading(key).phrase
    return f"its habit: {'that one token' if key == 'fixed' else phrase}"


def run_search(text: str, model: str, find: str | None):
    """The model's heads on ``text`` and the ranked hits (and the pair with ``find``), each read
    knowing the model's scores (attention_core.model_scores); BadInput (one line) for what the
    core refuses."""
    import attention_core as ac
    from attention_core.models.model_heads import model_heads
    from attention_core.readings import head_search as hs

    check_text(text, as_title=True)  # the check from-model makes (the core's check_model_text)
    try:
        run = model_heads(text, model)
        pair = None
        if find is not None:
            words = hs.text_words(text, run.spans)
            pair = hs.find_pair(find, words, run.labels, causal=run.causal)
        scores = ac.model_scores(model)  # computed once per model, then read from the cache
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
        return run, pair, hs.search_heads(run.layers, run.labels, pair, run.head_values, scores)


def hit_dict(hit) -> dict:
    """One head in --json: ``layer``, ``head`` (from 1), ``reading`` (its key), ``text``,
    ``scores`` (model-level), ``strength`` (the mass in this sentence), ``entropy`` (its rows'
    mean normalised entropy), ``score`` (the model-level score that names it, else null); with
    --find the pair's numbers too."""
    from dataclasses import asdict

    r = hit.reading
    out = {"layer": hit.layer, "head": hit.head, "reading": r.pattern, "text": r.text}
    out["scores"] = asdict(hit.scores) if hit.scores is not None else None
    out.update({"strength": r.mass, "entropy": r.entropy, "score": r.score})
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
    """A --find row's numbers: weight, without the first token, moved, share, the scores."""
    w1 = "—" if hit.weight_without_first is None else f"{hit.weight_without_first:.3f}"
    row = f"{hit.weight:>6.3f}  {w1:>7}  {hit.moved:>6.3f}  {hit.moved_share * 100:>3.0f} %  "
    s = hit.scores
    return row + f"{s.previous:4.2f} {s.duplicate:4.2f} {s.induction:4.2f} {s.copying:+5.2f}  "


def find_table(run, pair, hits) -> str:
    """--find: every head, ranked by the pair's weight."""
    from attention_core.readings.head_search import pieces_text

    key = pieces_text([run.labels[k] for k in pair.keys])
    summed = " (its pieces' weights summed)" if len(pair.keys) > 1 else ""
    lines = [
        f"{run.model}: {len(run.labels)} tokens: " + " ".join(run.labels),
        f"--find {pair.src}->{pair.dst}: query {run.labels[pair.query]!r} (token "
        f"{pair.query + 1}), key {key}{summed}; best first",
        "w/o 1st: the weight renormalised over tokens 2…n; moved: ‖Σ α·v·W_Oʰ‖ over DST's "
        "pieces; share: of the row's Σⱼ ‖αⱼ·vⱼ·W_Oʰ‖",
        "prev dup ind copy: the head's model-level scores (attention on the pattern over repeated "
        "random tokens; copying: Σλ/Σ|λ| of W_V·W_O)",
        f"{'rank':>4}  {'layer':>5}  {'head':>4}  {'weight':>6}  {'w/o 1st':>7}  "
        f"{'moved':>6}  {'share':>5}  prev  dup  ind  copy  reading",
    ]
    for i, hit in enumerate(hits, 1):
        row = f"{i:>4}  {hit.layer:>5}  {hit.head:>4}  " + _find_row(hit) + hit.reading.text
        notes = [habit_note(hit.habit)] if hit.habit is not None else []
        notes += [resting(hit)] if resting(hit) else []
        lines.append(row + "".join(f"  [{note}]" for note in notes))
    return "\n".join(lines) + "\n"


# -- without --find: the heads grouped by what they do --------------------------------------------
def _fit(line: str, width: int = WIDTH) -> str:
    return line if len(line) <= width else line[: width - 1] + "…"


def _named(hits, lead: str) -> str:
    """``lead`` and the heads' names, "19/9, 19/8, …", cut to one line."""
    names = ", ".join(f"{h.layer}/{h.head}" for h in hits)
    return _fit(f"{lead}{names}")


def _line(hit) -> str:
    """One listed head: its name, then what the heading does not already say."""
    r = hit.reading
    if r.score is not None:
        what = f"score {r.score:.2f}; here: {r.here.text}"
    elif r.pattern == "sharp":
        what = f"entropy {r.entropy:.2f}: {r.said}"
    else:
        what = r.text
    return _fit(f"  {hit.layer:>2}/{hit.head:<3} {what}")


def _heading(group, n: int) -> str:
    """A group's heading: its words (the registry's) and how many heads."""
    from attention_core.readings.head_kinds import reading
    from attention_core.readings.sharpness import SHARP_BELOW

    words = reading(group.pattern).words.heads[1]
    if group.group == "score":
        key = reading(group.pattern).score
        return f"{words} ({n}; model-level {key} score ≥ {reading(group.pattern).score_at_least})"
    if group.group == "links":
        return f"{words} ({n}; rows' mean entropy < {SHARP_BELOW}), most linked first"
    return f"{words} in this sentence ({n})"


def _collapsed(group) -> str:
    """A group on one line: "67 heads resting on the first token: 19/9, 19/8, …"."""
    from attention_core.readings.head_kinds import reading
    from attention_core.readings.sharpness import SHARP_BELOW

    n, words = len(group.hits), reading(group.pattern).words.heads[1]
    words = words.replace("heads", "head", 1) if n == 1 else words
    extra = f" (rows' mean entropy ≥ {SHARP_BELOW})" if group.group == "diffuse" else ""
    return _named(group.hits, f"{n} {words}{extra}: ")


def listing(run, hits) -> str:
    """``heads TEXT`` for a lecturer: the heads grouped by what they do (group_heads), at most
    LISTED a group one a line, the diffuse heads and those resting on a first token, [CLS] or
    [SEP] each on one line: one screen for either model."""
    import textwrap

    from attention_core.readings.head_kinds import SCORE_AT_LEAST
    from attention_core.readings.head_scores import RECIPE

    tokens = f"{run.model}: {len(run.labels)} tokens: " + " ".join(run.labels)
    lines = [
        *textwrap.wrap(tokens, WIDTH, subsequent_indent="  ", break_on_hyphens=False),
        "Heads as layer/head (from 1), grouped by what they do. Induction, previous-token and "
        "duplicate-token heads",
        f"are named by their model-level scores (≥ {SCORE_AT_LEAST}: the share of their "
        f"attention on the pattern over {RECIPE.count}",
        "sequences of repeated random tokens, the first token left out); the rest by their rows "
        "in this sentence.",
    ]
    for group in group_heads(hits):
        if group.group in ("diffuse", "rest"):
            continue
        lines.append(_heading(group, len(group.hits)))
        lines += [_line(hit) for hit in group.hits[:LISTED]]
        if len(group.hits) > LISTED:
            lines.append(_named(group.hits[LISTED:], f"  and {len(group.hits) - LISTED} more: "))
    lines += [_collapsed(g) for g in group_heads(hits) if g.group in ("diffuse", "rest")]
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
    "weight that moves little is a resting place, and the head's model-level scores (previous, "
    "duplicate, induction, copying). Rows whose weight is the head's habit (DST is the previous "
    "token of a previous-token head, the first token of a sink head …) say so. A weight the "
    "causal mask forces (SRC the first token: it sees only itself) is refused, not ranked.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="A JSON list of every head (layer, head, reading, text, scores …), in the listing's "
    "order (with --find best first), full precision.",
)
def heads_command(text, model, find, as_json):
    """List every head of every layer of a trained model on TEXT (one forward pass, up to 64
    tokens), grouped by what it does: induction, previous-token and duplicate-token heads by
    their model-level scores, sharp heads by their strongest links in TEXT, other habits,
    diffuse heads, and the heads resting on the first token last; with --find, every head
    ranked by the weight from one word to another."""
    run, pair, hits = run_search(text, model, find)
    if pair is None:  # every head, in the listing's order
        hits = [hit for group in group_heads(hits) for hit in group.hits]
    if as_json:
        text_out = json.dumps([hit_dict(h) for h in hits], ensure_ascii=False, indent=1) + "\n"
    elif pair is not None:
        text_out = find_table(run, pair, hits)
    else:
        text_out = listing(run, hits)
    click.echo(text_out, nl=False)
