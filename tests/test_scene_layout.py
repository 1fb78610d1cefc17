"""Layout and numbers, checked on every step's final still: for the presets and random examples,
every text lies inside the frame, none overlaps another, none is below the minimum size, every
number on screen is the core's and no label lies on an arrow. Every look is in test_pictures.py,
the lecturer's examples in test_lecturer_examples.py."""

import itertools

import numpy as np
import pytest
from test_pictures import colour_problems

import attention_core as ac
from lecturer_examples import run_at, shared_case, stills_of
from scene_checks import dropped_or_distant_labels, final_frame_problems, geometry_problems
from scenes.kit.registry import SCENES, find
from scenes.pipeline.stills import run_steps


def check(scene_info, example, also=None, last=None, **kw):
    """Layout, numbers and arrow-label problems on every step (plus what ``also(scene)`` lists),
    and what ``last(scene)`` lists on the last step."""
    stills = run_steps(
        scene_info.load(), example, frames=False, snapshot=layout_check(also, last), **kw
    )
    return assert_laid_out(stills)


def layout_check(also=None, last=None):
    """The snapshot :func:`check` takes at every step."""
    return lambda s: (geometry_problems(s) + (also(s) if also else []), last(s) if last else [])


def assert_laid_out(stills):
    assert stills, "the scene has no steps"
    problems = [f"{st.key}: {p}" for st in stills for p in st.snapshot[0]]
    problems += [f"last still, {stills[-1].key}: {p}" for p in stills[-1].snapshot[1]]
    assert not problems, "\n".join(problems[:20])
    return stills


def _preset_cases() -> list:
    """The (preset, scene) pairs where the scene does not apply (it still runs, and must say so
    cleanly): every pair where it applies is run once, with every check and a still drawn, in
    test_pictures.py's test_every_scene_in_every_look (no case run twice)."""
    return [
        pytest.param(preset, scene, id=f"{preset}-{scene.name}")
        for preset in ac.PRESETS
        for scene in SCENES
        if scene.why_not(ac.PRESETS[preset]) is not None
    ]


@pytest.mark.parametrize("preset,scene", _preset_cases())
def test_presets_lay_out_cleanly(preset, scene):
    """And any cell it draws on its one colour scale (test_pictures.colour_problems)."""
    check(scene, ac.PRESETS[preset], also=colour_problems)


WORDS = [
    "早",
    "上",
    "好",
    "morning",
    "attention",
    "数据",
    "x",
    "longlabel12c",
    "汉字汉字汉字汉字汉字汉字",
    "Ünïcødé",
    "a b c",
    "[PAD]",
]


def random_example(k: int) -> ac.Example:
    rng = np.random.default_rng(1000 + k)
    n = int(rng.integers(1, 13))
    d = int(rng.integers(2, 7))
    tokens = []
    for i in range(n):
        t = str(rng.choice(WORDS))
        tokens.append(t if t not in tokens else (t + str(i))[-12:])
    scale = float(rng.choice([0.3, 1.0, 3.0]))
    extra = {}
    if k % 2:  # seeded weights: for d = 2 the Projections scene then moves the grid by W
        extra.update(seed=k, d_k=int(rng.integers(2, 5)) if d > 2 else 2)
    if k % 3 == 0:
        extra["mask"] = "causal"
    if k % 4 == 2 and d % 2 == 0:
        extra["heads"] = 2  # the single-head scenes explain head 1
    if k % 8 == 6 and d == 4:
        extra["heads"] = 4
    if k % 5 == 4:  # cross-attention: a second sequence of 1–12 tokens
        m = int(rng.integers(1, 13))
        extra["source_tokens"] = [f"s{j}" for j in range(m)]
        extra["source_embeddings"] = rng.normal(size=(m, d)).round(2)
        extra.pop("mask", None)
    return ac.Example(
        name=f"random{k}",
        tokens=tokens,
        embeddings=(rng.normal(size=(n, d)) * scale).round(2),
        **extra,
    )


# A fixed matrix of random examples, each on every scene: one token with a 12-character label
# (7), 11 and 12 tokens (1, 17), causal masks (3, 18), source sequences (9, 14), 2 and 4 heads
# (18, 22, 14), seeded weights (1, 3, 9, 17), d = 2 … 6.
RANDOM = (1, 3, 7, 9, 14, 17, 18, 22)


def _random_cases() -> list:
    """Each random example on every other scene, the halves alternating: every scene meets four."""
    return [
        pytest.param(k, scene, id=f"random{k}-{scene.name}")
        for r, k in enumerate(RANDOM)
        for j, scene in enumerate(SCENES)
        if (r + j) % 2 == 0
    ]


@pytest.mark.slow
@pytest.mark.parametrize("k,scene", _random_cases())
def test_random_examples_lay_out_cleanly(k, scene):
    """Random examples (1–12 tokens, 2–6 dims, long labels; seeded weights, causal masks,
    2 or 4 heads and source sequences among them) on the scenes: nothing outside the frame,
    overlapping or too small, every number the core's, no label on an arrow."""
    check(scene, random_example(k))


def test_a_single_key_keeps_its_label_clear_of_the_row_sums():
    """Random example 7 (one token, a 12-character label) once put the weight matrix's only
    column label, wider than its cell, over the row-sum heading "行和" in AttentionMatrix and
    CausalMask: a single column is now as wide as its (shortened) label."""
    ex = random_example(7)
    assert ex.n_keys == 1 and len(ex.key_tokens[0]) == 12
    for name in ("AttentionMatrix", "CausalMask"):
        check(find(name), ex)


def test_english_and_light_theme_lay_out_cleanly():
    stills = check(find("DotProducts"), ac.PRESETS["zao-shang-hao"], lang="en", theme="light")
    assert all(
        not any(
            "\u4e00" <= c <= "\u9fff"
            for c in st.caption.replace("早", "").replace("上", "").replace("好", "")
        )
        for st in stills
    )


def test_every_step_has_a_caption_in_both_languages():
    from scenes.kit import captions

    for scene in SCENES:
        assert scene.name in captions.TITLES
        for key, (zh, en) in captions.CAPTIONS[scene.name].items():
            assert zh.strip() and en.strip(), (scene.name, key)
            assert not any("\u4e00" <= c <= "\u9fff" for c in en), (scene.name, key)


def test_captions_do_not_repeat_the_seed_errors():
    """docs/design.md's seed corrections: none of the wrong figures appears in any caption."""
    from scenes.kit import captions

    text = " ".join(
        zh + " " + en for steps in captions.CAPTIONS.values() for zh, en in steps.values()
    )
    for wrong in ("0.34, 0.33, 0.33", "0.93, 1.05", "66%", "66 %", "球面", "sphere"):
        assert wrong not in text
    stills = run_steps(find("Softmax").load(), ac.PRESETS["zao-shang-hao"], frames=False)
    share = [s.caption for s in stills if s.key == "share"][0]
    assert "0.359" in share and "0.34、" not in share


EXTREMES = {
    "zeros": [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
    "tiny": [[1e-300, 2e-300], [3e-300, -1e-300], [0.0, 1e-300]],
    "huge": [[1e6, -1e6], [-1e6, 5e5], [2e5, 1e6]],
    "mixed": [[1e-9, 1e6], [0.0, 0.0], [-3.0, 2e-7]],
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(EXTREMES))
def test_extreme_but_valid_values_keep_every_text_in_the_frame(kind):
    """All-zero, sub-normal and ±1e6 embeddings (valid input): compact ticks, nothing outside
    the frame or overlapping, every number the core's — in every scene."""
    ex = ac.Example(name=kind, tokens=["a", "b", "c"], embeddings=EXTREMES[kind])
    for scene in SCENES:
        check(scene, ex)


def hidden_cells(scene) -> list[str]:
    """Rows or columns of a matrix on screen that are elided, or unlabelled, or whose labels
    overlap (a matrix's cell backgrounds know their matrix): :func:`matrix_problems`."""
    from manim import VGroup

    from scene_checks import on_screen

    out = []
    for group in on_screen(scene, VGroup):
        m = getattr(group, "of_matrix", lambda: None)()
        if m is not None:
            out += matrix_problems(m)
    return out


def matrix_problems(m) -> list[str]:
    """A matrix that does not draw every cell, or a row or column without its label, or two
    row labels (on one side) or two column labels that overlap."""
    from scenes.mobjects.layout import box_of

    rows, cols = m.shape
    if m.shown_rows != list(range(rows)) or m.shown_columns != list(range(cols)):
        return [f"{m.shape} matrix shows rows {m.shown_rows}, columns {m.shown_columns}"]
    out = [] if len(m.backgrounds) == rows * cols else [f"{m.shape} matrix: cells missing"]
    unlabelled = [i for i in range(rows) if not _has_text(m.row_label_of.get(i))]
    unlabelled_cols = [j for j in range(cols) if not _has_text(m.col_label_of.get(j))]
    if unlabelled or (cols > 1 and unlabelled_cols):
        out.append(f"{m.shape} matrix: rows {unlabelled}, columns {unlabelled_cols} unlabelled")
    for name, group in (("row", m.row_labels), ("column", m.col_labels)):
        boxes = [box_of(t) for t in group]
        for a, b in itertools.combinations(range(len(boxes)), 2):
            if boxes[a].overlaps(boxes[b], pad=-0.03):
                out.append(f"{m.shape} matrix: {name} labels {a} and {b} overlap")
    return out


def _has_text(mob) -> bool:
    return mob is not None and mob.width > 0.01


ASPECTS = ("16:9", "4:3", "1:1")


def _english(name: str, scene: str, aspect: str) -> tuple:
    """The run of ``scene`` on the lecturer's example ``name`` in English at ``aspect``: a test
    takes its stills from it (``stills_of``), shared with every other test that checks it."""
    return (name, scene, "en", aspect)


def _limits_cases(scenes, aspects, check: str, snapshot) -> list:
    """(scene, aspect) params whose test checks ``snapshot`` on the limits' run of each."""
    return [
        shared_case(
            _english("at-the-limits", scene, aspect),
            check,
            snapshot,
            *(scene, aspect),
            id=f"{scene}-{aspect}",
        )
        for scene in scenes
        for aspect in aspects
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    "name,aspect",
    _limits_cases(
        ("AttentionMatrix", "CausalMask"),
        ASPECTS,
        "every weight",
        layout_check(also=hidden_cells, last=final_frame_problems),
    ),
)
def test_at_the_limits_every_weight_is_on_screen(name, aspect):
    """The example at the limits (lecturer_examples: 24 tokens, a 12-character label, repeated
    labels, 4 heads, causal): every row and column of the weights (and CausalMask's scores) on
    screen, as numbers or as squares, laid out cleanly, at every aspect."""
    assert_laid_out(stills_of(_english("at-the-limits", name, aspect), "every weight"))


def embedding_table_keyed(scene) -> list[str]:
    """Embeddings' table of squares without its colour key."""
    table, on = scene.table, {id(m) for m in scene.mobjects}
    if not table.style.squares or id(table.backgrounds) not in on:
        return []
    return [] if id(table.colorbar) in on else ["squares without their key"]


# and (issue 32) every arrow labelled, a label away from its tip with a leader
EMBEDDINGS_CHECK = layout_check(
    also=lambda s: hidden_cells(s) + embedding_table_keyed(s) + dropped_or_distant_labels(s)
)


def _embeddings_run(aspect: str) -> tuple:
    """The limits' Embeddings at ``aspect``: the run test_lecturer_examples.py makes there
    (the check reads no word: either language)."""
    return run_at("at-the-limits", "Embeddings", aspect)


@pytest.mark.slow
@pytest.mark.parametrize(
    "aspect",
    [
        shared_case(_embeddings_run(a), "every embedding", EMBEDDINGS_CHECK, a, id=a)
        for a in ("16:9", "4:3")
    ],
)
def test_at_the_limits_every_embedding_is_on_screen(aspect):
    """24 tokens × 8 dimensions: the table shows all of X, as squares on a keyed scale where
    the numbers do not fit (at 4:3 it showed x₁ and "…"; the squares had no key)."""
    assert_laid_out(stills_of(_embeddings_run(aspect), "every embedding"))


def badge_problems(scene) -> list[str]:
    """On a grid of squares, each kept number's badge: clear of every named cell, joined to its
    own cell (touching its frame, or by a straight leader), the leader crossing no other named
    cell."""
    from manim import BackgroundRectangle, Line

    from scenes.mobjects.layout import box_of

    out = []
    family = [mob for top in scene.mobjects for mob in top.get_family()]
    # a matrix's parts go on screen, not the matrix: its cells say which one they are
    matrices = {id(m): m for mob in family if (m := getattr(mob, "of_matrix", lambda: None)())}
    squares = [m for m in matrices.values() if m.style.squares]
    if squares and scene.steps[-1]["key"] == "reading":  # its numbers on a line of their own,
        on = {id(mob) for mob in family}  # or on badges
        readout = getattr(scene, "readout", ())
        if not (len(readout) and id(readout) in on) and not all(m.badge_of for m in squares):
            out.append("the reading's numbers are neither on a line of their own nor on badges")
    for m in matrices.values():
        named = {k: box_of(m.cell_rect(*k)) for k in m.badge_of}
        for k, parts in m.badge_of.items():
            badge = box_of(next(p for p in parts if isinstance(p, BackgroundRectangle)))
            own = named[k].inset(-0.02)
            if any(badge.overlaps(b.inset(0.01)) for b in named.values()):
                out.append(f"badge of {k} over a named cell")
            leaders = [p for p in parts if isinstance(p, Line)]
            if not leaders:
                if not badge.overlaps(own, 0.04):
                    out.append(f"badge of {k} neither touches its cell nor has a leader")
                continue
            a, b = leaders[0].get_start(), leaders[0].get_end()
            if min(abs(a[0] - b[0]), abs(a[1] - b[1])) > 1e-3:
                out.append(f"badge of {k}: its leader is not straight")
            for t in np.linspace(0.05, 0.95, 19):
                p = a + (b - a) * t
                for other, box in named.items():
                    inside = box.x0 < p[0] < box.x1 and box.y0 < p[1] < box.y1
                    if other != k and inside:
                        out.append(f"badge of {k}: its leader crosses {other}")
    return sorted(set(out))


@pytest.mark.slow
@pytest.mark.parametrize(
    "name,aspect",
    [
        shared_case(
            _english(name, "AttentionMatrix", aspect),
            "badges",
            badge_problems,
            *(name, aspect),
            id=f"{name}-{aspect}",
        )
        for name in ("at-the-limits", "minilm-layer1")
        for aspect in ASPECTS
    ],
)
def test_numbers_on_a_grid_of_squares_say_which_cell_is_theirs(name, aspect):
    """A kept number's badge sat over a neighbouring row's cells (read as that row's number, by
    a reviewer, twice): the numbers the reading names go on a line of their own ("students →
    when 1.000"), or where there is no room for one, on badges where they hide least, in their
    own row first, joined to their cells by straight leaders where they cannot touch them."""
    stills = stills_of(_english(name, "AttentionMatrix", aspect), "badges")
    assert not [f"{s.key}: {p}" for s in stills for p in s.snapshot]


def _grid_of_24(width: float, **kw):
    """A 24 × 24 weight matrix of the trophy sentence's tokens (random weights: only the layout
    matters), fitted as AttentionMatrix fits it to a box ``width`` wide and 5.27 tall (the
    content region of an 8-unit-tall frame)."""
    from conftest import ROOT

    from scenes.mobjects.layout import Box
    from scenes.mobjects.matrix import LabelledMatrix
    from scenes.mobjects.theme import THEMES

    tokens = ac.load_example(ROOT / "examples" / "smollm2-trophy.toml").tokens
    weights = np.random.default_rng(0).dirichlet(np.ones(24), 24)
    box = Box(0.0, 0.0, width, 5.27)
    args = (weights, ("weights", 0), THEMES["dark"], tokens, tokens)
    return LabelledMatrix.fitted(*args, box, sizes=(25, 22), digits=3, heat=True, **kw), box


def test_a_24_token_grid_labels_every_row_and_column_at_1_1():
    """Issue 32: at 24 tokens in a 1:1 frame's width (7.5) the weights are a grid of squares
    with every cell drawn and every row and column labelled (rows split between the grid's
    sides, numbered columns in tiers), no two labels overlapping, inside the box. It fell back
    to an elided matrix (rows 1–4 and 24, columns 1–3 and 24). Its row sums alternate between
    two columns, none over another."""
    m, box = _grid_of_24(7.5)
    assert m.style.squares and m.style.split, (m.style.squares, m.style.split)
    assert matrix_problems(m) == []
    assert m.width <= box.width + 1e-6 and m.height + 0.45 <= box.height + 1e-6
    rows = {i for i in range(24) if m.row_label_of[i] in m.right_labels}
    assert rows == set(range(1, 24, 2)), "even rows (2nd, 4th, …) right of the grid"
    # Manim keeps a text without its spaces
    assert [m.row_label_of[i].text for i in (0, 10)] == ["1The", "11because"]
    # the row sums (as AttentionMatrix and CausalMask place them) alternate between two columns,
    # each level with its row, none over another or over a label
    from scenes.mobjects.layout import box_of
    from scenes.mobjects.text import label

    sums = [label("1.000", 22) for _ in range(24)]
    m.place_row_notes(sums, buff=0.25, stagger=True)
    boxes = [box_of(n) for n in [*sums, *m.row_labels]]
    assert not [
        (a, b) for a, b in itertools.combinations(range(48), 2) if boxes[a].overlaps(boxes[b])
    ]
    for i, note in enumerate(sums):
        assert abs(note.get_center()[1] - m.cell_rect(i, 0).get_center()[1]) < 1e-6


def test_matrix_problems_names_an_elided_or_crowded_matrix():
    """The check every matrix scene runs fails on an elided matrix (too narrow a box) and on a
    grid whose row labels overlap (24 rows on one side at a side of 0.15)."""
    from scenes.mobjects.matrix import LabelledMatrix

    elided, _ = _grid_of_24(6.0)
    assert any("shows rows" in p for p in matrix_problems(elided))
    crowded = LabelledMatrix(
        elided.values,
        ("weights", 0),
        elided.theme,
        [f"{i + 1} w" for i in range(24)],
        [str(j + 1) for j in range(24)],
        heat=True,
        squares=0.15,
    )
    assert any("row labels" in p and "overlap" in p for p in matrix_problems(crowded))
