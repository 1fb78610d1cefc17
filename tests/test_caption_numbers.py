"""Issue 20: every number a caption names is on its still, at every aspect, and the scenes that
named numbers they did not show now show them (or name the ones they show). Each test below
failed on the code before the fix; none needs OCR (test_scene_ocr.py reads the numbers back at
1080p) or any pixel, so no frame is drawn. A run of a lecturer example at a look another test
also checks is shared with it (lecturer_examples.stills_of)."""

from __future__ import annotations

import pytest
from test_grouped_query_scenes import grouped_example

import lecturer_examples
from lecturer_examples import look_of, on_run, run_at, shared_case, stills_of
from scene_checks import (
    describe,
    dropped_or_distant_labels,
    final_frame_problems,
    on_screen,
    texts,
    unshown_caption_numbers,
)
from scenes.kit.look import Look
from scenes.kit.registry import find
from scenes.pipeline.stills import run_steps

ASPECTS = ("16:9", "4:3", "1:1")


def _stills(example, scene: str, lang="en", aspect="16:9", snapshot=unshown_caption_numbers):
    look = Look.for_example(example, lang=lang, aspect=aspect)
    return run_steps(find(scene).load(), example, look=look, frames=False, snapshot=snapshot)


def _english(name: str, scene: str, aspect: str = "16:9") -> tuple:
    """The run of ``scene`` on the lecturer's example ``name`` in English at ``aspect``: a test
    takes its stills from it (``stills_of``), shared with every other test that checks it."""
    return (name, scene, "en", aspect)


def _unshown(example, scene: str, aspect: str, lang: str = "en") -> list[str]:
    return [f"{s.key}: {p}" for s in _stills(example, scene, lang, aspect) for p in s.snapshot]


# the limits' scenes these tests take at 4:3 and 1:1; at 16:9 (English) test_scene_ocr.py's run
# reads their caption numbers back, and checks their labels and last still, in one run
AT_THE_LIMITS = ("Projections", "DotProducts", "Scaling", "Softmax", "WeightedSum", "EncoderBlock")
NARROW = ("4:3", "1:1")


def limits_lang(scene: str, aspect: str) -> str:
    """The language the limits' ``scene`` is taken in at ``aspect`` (4:3 or 1:1): both
    languages over the two aspects; at the look test_lecturer_examples.py's clean case takes,
    that case's language, so the two checks share one run (lecturer_examples.look_of)."""
    lang, taken = look_of("at-the-limits", scene)
    if aspect == taken:
        return lang
    if taken in NARROW:
        return "en" if lang == "zh" else "zh"
    return "zh" if aspect == "4:3" else "en"


def caption_numbers_and_labels(scene: str, aspect: str):
    """Every caption number on screen; issue 32 item 3: no arrow without its label, no label far
    from its arrow without a leader line (Projections at 1:1, three 2-unit planes of 12 arrows
    each, still has no room for 4 of its 36 labels: the one case left out); and the last still
    holds its picture."""
    labels = (scene, aspect) != ("Projections", "1:1")

    def snapshot(s):
        found = unshown_caption_numbers(s) + (dropped_or_distant_labels(s) if labels else [])
        return found, final_frame_problems(s)

    return snapshot


def _limits_caption_cases() -> list:
    return [
        shared_case(
            ("at-the-limits", scene, limits_lang(scene, aspect), aspect),
            "caption numbers",
            caption_numbers_and_labels(scene, aspect),
            *(scene, limits_lang(scene, aspect), aspect),
            id=f"{scene}-{aspect}",
        )
        for scene in AT_THE_LIMITS
        for aspect in NARROW
    ]


@pytest.mark.slow
@pytest.mark.parametrize("scene,lang,aspect", _limits_caption_cases())
def test_at_the_limits_every_caption_number_is_on_screen(scene, lang, aspect):
    """Before: Scaling named four scores of a row whose columns 2–4 were elided, Softmax named
    √d_k and the largest weight, WeightedSum listed no weight at 12 keys, DotProducts named a
    weight, Projections a "2-D view" with no view, EncoderBlock a seed with no room. Projections
    labelled 6 of 11 arrows (issue 32). On the same run, the last still holds its picture."""
    stills = stills_of(("at-the-limits", scene, lang, aspect), "caption numbers")
    assert not [f"{s.key}: {p}" for s in stills for p in s.snapshot[0]]
    assert not stills[-1].snapshot[1], f"last still: {stills[-1].snapshot[1]}"


def widths_snapshot(limits: bool):
    """Every caption number on screen; on the limits, the last still holds its picture."""

    def snapshot(s):
        return unshown_caption_numbers(s), final_frame_problems(s) if limits else []

    return snapshot


def _widths_cases() -> list:
    """The limits' cases take their stills from the run test_multi_head_limits.py checks too."""
    limits = [
        shared_case(
            _english("at-the-limits", "MultiHeadSplit", aspect),
            "widths named",
            widths_snapshot(True),
            *("at-the-limits", aspect),
            id=f"at-the-limits-{aspect}",
        )
        for aspect in NARROW
    ]
    return limits + [pytest.param("minilm-layer1", a, id=f"minilm-layer1-{a}") for a in NARROW]


@pytest.mark.slow
@pytest.mark.parametrize("name,aspect", _widths_cases())
def test_multi_head_split_shows_the_widths_it_names(name, aspect):
    """384 = 12 × 32, the concatenation's 384 columns, W_O's 384 × 384: on a line under the
    content (a 384-wide grid drawn by colour shows its width to no one). At 16:9 (English)
    test_scene_ocr.py reads them back, and checks the limits' last still, in one run."""
    if name == "at-the-limits":  # and the last still holds its picture there (one run)
        stills = stills_of(_english(name, "MultiHeadSplit", aspect), "widths named")
    else:
        ex = lecturer_examples.load(name)
        stills = _stills(ex, "MultiHeadSplit", aspect=aspect, snapshot=widths_snapshot(False))
    assert not [f"{s.key}: {p}" for s in stills for p in s.snapshot[0]]
    assert not stills[-1].snapshot[1], f"last still: {stills[-1].snapshot[1]}"


def test_grouped_query_split_names_its_widths():
    stills = _stills(grouped_example(6, 2, d_k=2, n=5), "MultiHeadSplit", aspect="4:3")
    assert {s.key for s in stills} >= {"project", "split", "concat", "mix"}
    assert not [f"{s.key}: {p}" for s in stills for p in s.snapshot]


def score_matrix_shown(s):
    """(rows, columns) of the score matrix shown at the matrix step."""
    m = s.matrix
    return (len(m.shown_rows), len(m.shown_columns)) if s.steps[-1]["key"] == "matrix" else None


def _score_matrix_run(name: str, aspect: str) -> tuple:
    """The run the whole score matrix is checked on: the limits' at 4:3 and 1:1 that of
    test_at_the_limits_every_caption_number_is_on_screen (the check reads no word)."""
    if name == "at-the-limits" and aspect in NARROW:
        return (name, "DotProducts", limits_lang("DotProducts", aspect), aspect)
    return lecturer_examples.run_at(name, "DotProducts", aspect) or _english(
        name, "DotProducts", aspect
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "name,aspect",
    [
        shared_case(
            _score_matrix_run(name, aspect),
            "whole score matrix",
            score_matrix_shown,
            *(name, aspect),
            id=f"{name}-{aspect}",
        )
        for name in ("at-the-limits", "minilm-painting")
        for aspect in ASPECTS
    ],
)
def test_dot_products_ends_on_the_whole_score_matrix(name, aspect):
    """The matrix step's caption says "the score matrix Q Kᵀ (12×12)": it ends on all of it
    (numbers, or a grid of squares). Before: 3 × 4 of the 12 × 12 at 16:9, one column at 1:1."""
    ex = lecturer_examples.load(name)
    stills = stills_of(_score_matrix_run(name, aspect), "whole score matrix")
    last = [s.snapshot for s in stills if s.key == "matrix"][-1]  # (1:1: then the plane again)
    assert last == (ex.n, ex.n_keys)


@on_run(_english("at-the-limits", "Projections"), "planes exact", None)
def test_projections_says_when_its_planes_are_exact():
    """d_k = d_v = 2 (the limits): the planes are the heads' whole q, k and v, and the caption
    and the notes say so; before, the caption called them "a 2-D view" with no view on screen.
    With d_k = 3 each plane is a view, with its share kept."""
    exact = stills_of(_english("at-the-limits", "Projections"), "planes exact")
    caption = [s.caption for s in exact if s.key == "maps_nd"][0]
    assert "2 dimensions, drawn exactly" in caption

    three = grouped_example(2, 2, d_k=3, n=4, rotary=False)

    def notes(s):
        bar = {id(m) for m in s.caption_mob.get_family()}
        return [describe(t) for t in texts(s) if "2-D" in describe(t) and id(t) not in bar]

    viewed = _stills(three, "Projections", snapshot=notes)
    step = [s for s in viewed if s.key == "maps_nd"][0]
    assert "2-D view" in step.caption and "exactly" not in step.caption
    assert step.snapshot and all("keeps" in n for n in step.snapshot)


def narrowest_sharper_bar(s):
    """The narrowest bar's width at the sharper step."""
    from scenes.mobjects.bars import ProportionBar

    if s.steps[-1]["key"] != "sharper":
        return None
    return min(b.outline.width for b in on_screen(s, ProportionBar))


@pytest.mark.slow
@on_run(_english("at-the-limits", "Softmax", "1:1"), "sharper bars", narrowest_sharper_bar)
def test_softmax_sharper_bars_are_not_stubs_in_a_square_frame():
    """At 1:1 the sharper panel had bars a few pixels wide beside the twelve rows; the rows
    now take the frame one step, the panel the next."""
    stills = stills_of(_english("at-the-limits", "Softmax", "1:1"), "sharper bars")
    assert [s.snapshot for s in stills if s.key == "sharper"][0] >= 1.5


def test_the_match_step_never_takes_a_pair_the_mask_blocks():
    """The match step's example was q(first)·k(second), which a causal mask blocks."""
    import attention_core as ac
    from scenes.projections import _allowed_pair

    for name in ("causal", "zao-shang-hao", "two-heads"):
        head = ac.trace_example(ac.PRESETS[name]).attention
        i, j = _allowed_pair(head)
        assert head.mask is None or head.mask[i, j], name
        assert i != j
    limits = ac.trace_example(lecturer_examples.load("at-the-limits")).attention
    assert _allowed_pair(limits) == (1, 0)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_caption_lines_never_break_inside_a_formula(lang):
    """ "Y = | LayerNorm(H + F)" and "Σ | s(1−s)" were split across lines: the layout text keeps
    a formula's spaces unbreakable, at every width; the plain text (subtitles) has plain spaces."""
    from scenes.kit import captions
    from scenes.mobjects.text import balanced_lines
    from scenes.mobjects.theme import CAPTION
    from scenes.mobjects.unimath import NO_BREAK

    cases = [
        ("EncoderBlock", "norm2", {}, 'Y = LayerNorm(H + F)'),
        ("EncoderBlock", "attention", {}, "A = MultiHead(X)"),
        ("Softmax", "sharper_more", dict(dk=2, sqrt="1.41", g1="0.030", graw="0.004",
                                         g10="0.000", g100="0.000"), "Σ s(1−s)"),
    ]  # fmt: skip
    for scene, step, values, formula in cases:
        plain_text = captions.caption(scene, step, lang, **values)
        assert NO_BREAK not in plain_text and formula in plain_text
        layout = captions.caption(scene, step, lang, whole_formulas=True, **values)
        for width in (3.0, 3.5, 4.0, 4.5, 5.0, 6.0, 7.0):
            lines = [ln.replace(NO_BREAK, " ") for ln in balanced_lines(layout, width, CAPTION, 9)]
            assert any(formula in ln for ln in lines), (scene, step, width, lines)


class _Filler:
    """Any caption value: a number-like word, whatever its format spec."""

    def __format__(self, spec):
        return "0.53"


_RELATION = r"[^\s\u3000-\u9fff\uff00-\uffef]+ [=≈≠≤≥<>→] [^\s\u3000-\u9fff\uff00-\uffef]+"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_caption_of_any_scene_breaks_inside_a_formula_or_an_equation(lang):
    """Issue 32 item 5: every caption template of every scene, its values filled in, laid out at
    two widths and sizes: each typeset formula ($…$) and each "a = b" outside one (q = k =
    v = x, |q| = 1.41, d = 16) lies whole on one line. "q = k = v = x" was split at its signs;
    a pair "it₁ → trophy" at its arrow (zh)."""
    import re
    import string

    from scenes.kit import captions
    from scenes.mobjects.text import balanced_lines
    from scenes.mobjects.theme import CAPTION, SMALL
    from scenes.mobjects.unimath import MATH_MARK, NO_BREAK, plain, unicode_math

    split = []
    for scene, steps in captions.CAPTIONS.items():
        for step, pair in steps.items():
            template = captions.pick(pair, lang)
            names = {f for _, f, _, _ in string.Formatter().parse(template) if f}
            values = dict.fromkeys(names, _Filler())
            text = captions.caption(scene, step, lang, **values)
            layout = captions.caption(scene, step, lang, whole_formulas=True, **values)
            wholes = [
                unicode_math(m.group(1)).format(**values) for m in MATH_MARK.finditer(template)
            ]
            outside = plain(template).format(**values)
            wholes += [m.group(0) for m in re.finditer(_RELATION, outside)]
            for width, size in ((3.0, CAPTION), (4.5, SMALL)):
                lines = [ln.replace(NO_BREAK, " ") for ln in balanced_lines(layout, width, size, 9)]
                flat = text.replace(NO_BREAK, " ").replace(" ", "")
                assert "".join(lines).replace(" ", "") == flat
                split += [
                    (scene, step, w, lines) for w in wholes if not any(w in ln for ln in lines)
                ]
    assert not split, split[:3]


@pytest.mark.slow
def test_a_trained_layers_encoder_block_does_not_call_its_y_the_models():
    """Without the layer's own feed-forward (a layer file made before its ``[block]``), W₁ and W₂
    are illustrative: Y is not the model's block output, and the last caption says so (it said
    "is the block's output")."""
    from dataclasses import replace

    ex = replace(lecturer_examples.load("minilm-layer1"), block=None)
    last = _stills(ex, "EncoderBlock", snapshot=None)[-1]
    assert last.key == "norm2" and "not the model's block output" in last.caption


def words_on_screen(scene) -> list[str]:
    return [describe(m) for m in texts(scene)]


@pytest.mark.slow
@on_run(_english("minilm-layer1", "EncoderBlock"), "own feed-forward", words_on_screen)
def test_a_trained_layer_with_its_own_feed_forward_says_so():
    """Issue 30 item 8: with the layer's own W₁, W₂, biases and LayerNorms (from-model
    --all-heads), the feed-forward is the model's GELU, not "illustrative, seed 7", and Y is the
    output of the model's layer (it said Y was not the model's)."""
    run = _english("minilm-layer1", "EncoderBlock")
    stills = {s.key: s for s in stills_of(run, "own feed-forward")}
    ffn = stills["ffn"]
    assert "the model's own feed-forward (GELU, its W₁, W₂)" in ffn.caption
    assert "GELU(H W_1 + b_1) W_2 + b_2" in ffn.caption.replace("₁", "_1").replace("₂", "_2")
    assert "seed" not in ffn.caption and not any("seed" in t for t in ffn.snapshot)
    assert any("the model's own" in t for t in ffn.snapshot)
    last = stills["norm2"].caption
    assert "not the model's" not in last and "output of the model's layer" in last
    assert "γ" in stills["norm1"].caption


@pytest.mark.slow
@pytest.mark.parametrize("aspect", ["4:3", "1:1"])
def test_encoder_block_keeps_every_row_of_a_trained_layer_in_a_narrow_frame(aspect):
    """8 tokens: each stage's matrices show every token's row (before: two rows of eight, in
    half-height slots two above and one below)."""
    from scene_checks import on_screen
    from scenes.mobjects.matrix import LabelledMatrix

    ex = lecturer_examples.load("minilm-layer1")

    def rows(s):
        return [len(m.shown_rows) for m in on_screen(s, LabelledMatrix)]

    for still in _stills(ex, "EncoderBlock", aspect=aspect, snapshot=rows):
        assert still.snapshot and min(still.snapshot) == ex.n, (still.key, still.snapshot)


def blocked_shown(s):
    """How many −∞ cells the masked note's still shows."""
    if s.steps[-1]["key"] != "masked_note":
        return None
    return sum(1 for t in texts(s) if describe(t) == "−∞")  # cells, not the title's "−∞ ="


def _limits_overview(check: str, snapshot) -> list:
    """The limits' Overview at each aspect, on the run test_lecturer_examples.py or
    test_scene_ocr.py makes there (these checks read no word: either language)."""
    runs = [run_at("at-the-limits", "Overview", a) for a in ASPECTS]
    return [shared_case(run, check, snapshot, run, id=run[3]) for run in runs]


@pytest.mark.slow
@pytest.mark.parametrize("run", _limits_overview("blocked cells", blocked_shown))
def test_overview_shows_the_blocked_cells_its_caption_names(run):
    """ "This example is masked: blocked cells are −∞": at least one −∞ on the still (before, at
    16:9 the limits' masked matrix showed its first column only, which the mask never blocks)."""
    stills = stills_of(run, "blocked cells")
    assert [s.snapshot for s in stills if s.key == "masked_note"][0] > 0


class _Followed(Exception):
    """Raised from a snapshot at a scene's first step, with the query it follows."""


@pytest.mark.parametrize("name", ["at-the-limits", "minilm-layer1"])
def test_dot_products_follows_one_query_at_every_aspect(name):
    """The query followed is the core's choice among every query (the matrix keeps its row
    where it elides others, or the row is a list of its scores), as Softmax and WeightedSum
    follow: before, it was chosen among the rows the elided matrix showed, so "of the queries
    followed here" changed with the aspect."""
    import attention_core as ac

    ex = lecturer_examples.load(name)

    def followed(scene):
        listed = scene.matrix is None and bool(scene.listed)  # its row of scores, as a list
        raise _Followed(scene.i, listed or scene.i in scene.matrix.shown_rows)

    seen = set()
    for aspect in ASPECTS:
        with pytest.raises(_Followed) as got:
            _stills(ex, "DotProducts", aspect=aspect, snapshot=followed)
        seen.add(got.value.args)
    assert seen == {(ac.head_demo_row(ac.trace_example(ex)).row, True)}


@pytest.mark.parametrize("name", ["at-the-limits", "minilm-layer1"])
def test_scaling_reads_the_followed_query(name):
    """Scaling's caption reads the row DotProducts and Softmax follow (on, explanations), in
    both languages; it read the widest of the rows its matrices showed (sat, the₁), a row no
    other scene had followed."""
    import attention_core as ac

    ex = lecturer_examples.load(name)

    def followed(scene):
        raise _Followed(scene.row, ex.tokens[scene.row] in scene.steps[-1]["caption"])

    want = ac.head_demo_row(ac.trace_example(ex)).row
    for lang, aspect in (("en", "16:9"), ("zh", "1:1")):
        with pytest.raises(_Followed) as got:
            _stills(ex, "Scaling", lang=lang, aspect=aspect, snapshot=followed)
        assert got.value.args == (want, True)


def number_roles(scene) -> set:
    """The roles of the numbers on screen."""
    from scenes.mobjects.text import Num

    return {tuple(m.role) for m in on_screen(scene, Num)}


@pytest.mark.slow
@pytest.mark.parametrize("run", _limits_overview("number roles", number_roles))
def test_overview_keeps_the_followed_querys_largest_weight(run):
    """The limits' Overview elides columns: it showed explanations' row as 0.00 … 0.00, its
    0.985 (on notes, column 11) left out. The followed query's row and its largest weight's
    column are kept."""
    import numpy as np

    import attention_core as ac

    ex = lecturer_examples.load("at-the-limits")
    head = ac.trace_example(ex).heads[0]
    i = ac.head_demo_row(ac.trace_example(ex)).row
    want = ("weights", 0, i, int(np.argmax(head.weights[i])))
    stills = stills_of(run, "number roles")
    assert want in [s for st in stills if st.key == "softmax" for s in st.snapshot]


@on_run(_english("at-the-limits", "Softmax"), "mask deferred", None)
def test_softmax_does_not_defer_a_mask_its_row_never_meets():
    """The limits follow explanations, the row the causal mask leaves whole: "the mask leaves
    its weights as they are" was followed by "No mask yet: masks come later"."""
    run = _english("at-the-limits", "Softmax")
    captions = {s.key: s.caption for s in stills_of(run, "mask deferred")}
    assert "mask leaves its weights" in captions["exp"]
    assert "No mask yet" not in captions["share"]


def _asked(key: int = 2):
    """SmolLM2's induction head with a pair asked for, as `from-model --find` writes it: green₂
    → blue₁ (key 2: its 10th largest weight) or → tree₁ (key 5: the head's own habit)."""
    from dataclasses import replace

    from attention_core import load_example
    from attention_core.readings.head_search import label_ref

    ex = load_example(lecturer_examples.ROOT / "examples" / "smollm2-induction.toml")
    return replace(ex, query=label_ref(ex.tokens, ex.n - 2), key=label_ref(ex.tokens, key))


def _story_example(name):
    from attention_core import load_example

    path = lecturer_examples.ROOT / "examples" / f"{name}.toml"
    asked = {"asked": 2, "asked-habit": 5}
    return _asked(asked[name]) if name in asked else load_example(path)


@pytest.mark.slow
@pytest.mark.parametrize("aspect", ("16:9", "4:3"))
@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("smollm2-induction", "an induction head"),
        ("smollm2-previous", "a previous-token head"),
        ("asked", "The pair asked for: green₂ → blue₁ 0.000, only the 10th largest weight"),
        ("asked-habit", "is this head's habit: green₂ looks at tree₁, the token after the earlier"),
    ],
)
def test_attention_matrix_tells_the_heads_story_with_its_number(name, words, aspect):
    """Issue 30: the reading told a first-token fact of an induction head ("marble₁ attends most
    to viol (0.999), not to itself"); now the followed pair, its weight on screen, and the head."""

    def snap(scene):
        caption = scene.steps[-1]["caption"] if scene.steps else ""
        return [caption, *unshown_caption_numbers(scene)]

    stills = _stills(_story_example(name), "AttentionMatrix", aspect=aspect, snapshot=snap)
    reading = next(s for s in stills if s.key == "reading")
    caption, *unshown = reading.snapshot
    assert words in caption and " → " in caption and not unshown


@pytest.mark.slow
@pytest.mark.parametrize("aspect", ("16:9", "4:3"))
@pytest.mark.parametrize("scene", ["DotProducts", "Softmax", "WeightedSum"])
def test_the_followers_name_the_followed_query_and_show_its_numbers(scene, aspect):
    """A trained head: each per-query scene follows the followed pair's query, and says what
    the head does (issue 30: it said "this head's habit")."""
    ex = _story_example("smollm2-induction")

    def snap(scene_obj):
        caption = scene_obj.steps[-1]["caption"] if scene_obj.steps else ""
        return [caption, *unshown_caption_numbers(scene_obj)]

    stills = _stills(ex, scene, aspect=aspect, snapshot=snap)
    first = stills[0].snapshot[0]
    assert "an induction head" in first and "habit" not in first, first
    assert not [f"{s.key}: {p}" for s in stills for p in s.snapshot[1:]]


def test_softmax_rows_show_the_mask_on_a_masked_example():
    """The rows step showed every row "before any mask" on a causal example, so the first word
    seemed to weigh later words it never sees: each row's bar now shares out the weights
    attention uses, the blocked keys' parts empty, and the caption says so."""
    import numpy as np

    import attention_core as ac
    from scenes.mobjects.bars import ProportionBar

    ex = ac.PRESETS["causal"]
    weights = ac.trace_example(ex).heads[0].weights

    def shares(scene):  # each bar on screen, as the shares its parts' widths draw
        bars = on_screen(scene, ProportionBar)
        return [[p.width / b.outline.width for p in b.parts] for b in bars]

    stills = run_steps(find("Softmax").load(), ex, frames=False, lang="en", snapshot=shares)
    rows = next(s for s in stills if s.key == "rows")
    assert "the keys it blocks get no share" in rows.caption
    assert np.allclose(rows.snapshot, weights, atol=1e-3)
