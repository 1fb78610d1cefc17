"""Issue 32 item 1 at 24 tokens: planes, bars and captions that cannot show every token draw what
the story needs and say what they leave out. The order a crowded plane draws tokens in and the
weights a caption names are decided in the core (``story_order``, ``named_weights``); a plane
that cannot label every arrow draws the story's, all labelled; and the scenes that failed on the
24-token SmolLM2 sentence (examples/smollm2-trophy.toml) pass the geometry checks, one run each
without frames (the contrast fix of RotaryPositions is pinned by its control data)."""

from pathlib import Path

import numpy as np
import pytest

import attention_core as ac

RNG = np.random.default_rng(32)


def _geometry(scene: str, ex, aspect: str, snapshot) -> list:
    """``scene`` on ``ex`` in English at ``aspect``, without frames (geometry only): its steps'
    stills, each with ``snapshot(scene)``."""
    from scenes.kit.look import Look
    from scenes.kit.registry import find
    from scenes.pipeline.stills import run_steps

    look = Look.for_example(ex, lang="en", aspect=aspect)
    return run_steps(
        find(scene).load(), ex, look=look, pixel_height=180, frames=False, snapshot=snapshot
    )


def _rows(n: int, m: int, causal: bool) -> np.ndarray:
    w = RNG.random((n, m)) ** 3
    if causal:
        w = np.tril(w)
    w[RNG.random((n, m)) < 0.1] = 0.0  # ties at 0
    w[np.arange(min(n, m)), np.arange(min(n, m))] += 1e-3
    return w / w.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("trial", range(20))
def test_story_order_is_the_followed_key_then_the_heaviest(trial):
    n = int(RNG.integers(1, 25))
    m = n if trial % 2 else int(RNG.integers(1, 25))
    w = _rows(n, m, causal=trial % 3 == 0 and n == m)
    q, k = int(RNG.integers(n)), int(RNG.integers(m))
    keys = ac.story_order(w, q, k, "keys")
    assert sorted(keys) == list(range(m)) and keys[0] == k
    rest = [w[q, j] for j in keys[1:]]
    assert rest == sorted(rest, reverse=True)  # the heaviest first
    ties = [(w[q, a], a) for a in keys[1:]]
    assert all(x[1] < y[1] for x, y in zip(ties, ties[1:]) if x[0] == y[0])  # lower index first
    queries = ac.story_order(w, q, k, "queries")
    assert sorted(queries) == list(range(n)) and queries[0] == q
    if n == m:  # self-attention: the same tokens as the keys, the followed query first
        assert queries[1:] == [j for j in keys if j != q]
    else:
        col = [w[i, k] for i in queries[1:]]
        assert col == sorted(col, reverse=True)
    # the rows that do what the head does come right after the followed query, in their order
    rows = tuple(int(i) for i in RNG.permutation(n)[: n // 2])
    fitted = ac.story_order(w, q, k, "queries", rows)
    first = [q, *dict.fromkeys(i for i in rows if i != q)]
    assert sorted(fitted) == list(range(n)) and fitted[: len(first)] == first
    assert fitted[len(first) :] == [i for i in queries if i not in first]


def test_story_order_refuses_what_does_not_index_the_weights():
    w = _rows(3, 3, False)
    for bad in ((3, 0, "keys"), (0, 3, "keys"), (0, 0, "rows")):
        with pytest.raises(ValueError):
            ac.story_order(w, *bad)


@pytest.mark.parametrize("m", [1, 5, 12, 13, 24])
def test_named_weights_names_every_weight_up_to_twelve_else_the_five_largest(m):
    row = _rows(1, m, False)[0]
    named = ac.named_weights(row)
    if m <= 12:
        assert named == ac.NamedWeights("all", tuple(range(m)), 0, 0.0)
        return
    assert named.kind == "largest" and len(named.keys) == 5 and named.others == m - 5
    smallest_named = min(row[j] for j in named.keys)
    assert all(row[j] <= smallest_named for j in range(m) if j not in named.keys)
    assert [row[j] for j in named.keys] == sorted((row[j] for j in named.keys), reverse=True)
    assert named.rest == pytest.approx(1.0 - sum(row[j] for j in named.keys))


def test_a_plane_with_no_room_to_label_every_arrow_draws_the_story_s_all_labelled():
    """24 arrows in a small plane: labels were left out (Projections at 1:1: eight arrows with
    no label); now the first of the story's order are drawn, each with its label, the followed
    token among them, and the checks find no arrow without its label."""
    from manim import Scene

    from scene_checks import dropped_or_distant_labels, labels_on_arrows
    from scenes.mobjects.layout import Box
    from scenes.mobjects.plane import VectorPlane
    from scenes.mobjects.theme import THEMES

    theme = THEMES["dark"]
    coords = np.random.default_rng(24).normal(size=(24, 2))
    box = Box(-1.4, -1.4, 1.4, 1.4)
    plane = VectorPlane(coords, box, theme, ticks=False)
    colors = [theme.token(i) for i in range(24)]
    texts = [f"word{i}" for i in range(24)]
    order = [7, *(i for i in range(24) if i != 7)]
    drawn, arrows, labels = plane.story_arrows(coords, texts, colors, order, box)
    assert 7 in drawn and len(drawn) < 24 and drawn == sorted(order[: len(drawn)])
    assert len(arrows) == len(drawn)
    named = {m.source_text for m in labels.get_family() if getattr(m, "is_tip_label", False)}
    assert named == {texts[i] for i in drawn}
    scene = Scene()
    scene.add(arrows, labels)
    assert not dropped_or_distant_labels(scene) and not labels_on_arrows(scene)
    roomy = VectorPlane(coords[:3], Box(-4, -4, 4, 4), theme, ticks=False)
    assert roomy.story_arrows(coords[:3], texts, colors, [2, 0, 1], Box(-4, -4, 4, 4))[0] == [
        0,
        1,
        2,
    ]  # room for every label: every arrow drawn


# the scenes and aspects where the 24-token sentence failed, each run once without frames
CASES = [
    ("Projections", "4:3"),  # an arrow with no label; the last still text alone
    ("WeightedSum", "1:1"),  # six values with no label; the caption's 12 on no still
    ("WeightedSum", "4:3"),  # o(it₁) 1.1 from its output's tip, no leader line
    ("Softmax", "1:1"),  # the share caption out of the frame; key labels overlapping
    ("Overview", "4:3"),  # five outputs with no label
    ("Overview", "16:9"),  # o(The) 0.31 off its tip among 24 outputs, with no line
    ("Overview", "1:1"),  # no value named (issue 38, he → farmer)
]
# SmolLM2 L14 H9, it → essay 0.937 (22 tokens): o(it) ≈ 0.94·v(essay), the two arrows one; at
# 16:9 and 4:3 o(it) was printed over v(essay) ("v(ess o(it))"), at 1:1 v(essay) not named
ESSAY = Path(__file__).resolve().parent / "data" / "smollm2-essay.toml"
ESSAY_CASES = [("Overview", "16:9"), ("Overview", "1:1")]


def named_values_problems(scene) -> list[str]:
    """Issue 38, a review of he → farmer (22 tokens): Overview's values step showed coloured
    arrows with no name, v(When) far from its stub, and at 1:1 no value named at all. At its
    values step the followed key's value and those the followed row weighs at least 0.1 are
    named v(token), whole, each within 0.75 of its own arrow's tip and overlapping no other
    label; every other value drawn is grey. A review of it → essay: no named value's label
    overlaps another label (o(it) was printed over v(essay)) or another arrow's head."""
    from scenes.mobjects.layout import box_of

    if scene.steps[-1]["key"] != "values":
        return []
    row = scene.followed_query().row
    w = scene.head.weights[row]
    values = sorted(scene.values_fitted()[0])
    want = [scene.followed_key(row), *(j for j in np.argsort(-w) if w[j] >= 0.1)]
    want = [int(j) for j in dict.fromkeys(want) if j in values][:3]
    drawn = [m for top in scene.mobjects for m in top.get_family()]
    texts = {getattr(m, "source_text", ""): m for m in drawn if getattr(m, "is_tip_label", 0)}
    problems = []
    for j in values:
        arrow = scene.values_drawn[values.index(j)]
        name = f"v({scene.k_tokens[j]})"
        if j not in want:
            if arrow.get_color().to_hex().lower() != scene.theme.muted.to_hex().lower():
                problems.append(f"{name} in colour, not named")
            continue
        if name not in texts:
            problems.append(f"{name} not named")
            continue
        box, tip = box_of(texts[name]), np.asarray(arrow.get_end())[:2]
        gap = np.hypot(
            max(box.x0 - tip[0], 0, tip[0] - box.x1), max(box.y0 - tip[1], 0, tip[1] - box.y1)
        )
        if gap > 0.75:
            problems.append(f"{name} {gap:.2f} from its tip")
        others = [(t, box_of(m)) for t, m in texts.items() if t != name]
        problems += [f"{name} overlaps {t}" for t, o in others if box.overlaps(o, 0.0)]
        if any(_on_head(box, m) for m in drawn if m is not arrow and _has_tip(m)):
            problems.append(f"{name} overlaps another arrow's head")
    return problems


def _has_tip(m) -> bool:
    return callable(getattr(m, "has_tip", None)) and m.has_tip()


def _on_head(box, arrow) -> bool:
    """Whether ``box`` covers a point of ``arrow``'s head (its triangle, sampled)."""
    a, b, c = (np.asarray(v, dtype=float)[:2] for v in arrow.get_tip().get_vertices()[:3])
    uv = [(u, v) for u in np.linspace(0, 1, 11) for v in np.linspace(0, 1, 11) if u + v <= 1]
    points = [a + u * (b - a) + v * (c - a) for u, v in uv]
    return any(box.x0 < x < box.x1 and box.y0 < y < box.y1 for x, y in points)


@pytest.mark.parametrize(
    "name,aspect,example",
    [(*c, "trophy-24") for c in CASES] + [(*c, "essay") for c in ESSAY_CASES],
    ids=[f"{n}-{a}" for n, a in CASES] + [f"{n}-{a}-essay" for n, a in ESSAY_CASES],
)
def test_the_24_token_sentence_draws_what_the_story_needs(name, aspect, example):
    from lecturer_examples import load
    from scene_checks import (
        dropped_or_distant_labels,
        final_frame_problems,
        labels_off_their_tips,
        layout_problems,
        unshown_caption_numbers,
    )

    ex = ac.load_example(ESSAY) if example == "essay" else load(example)

    def snap(scene):
        found = layout_problems(scene) + unshown_caption_numbers(scene)
        if name == "Overview":  # o(The) sat 0.31 from its tip among 24 outputs, with no line
            found += labels_off_their_tips(scene, 0.25) + named_values_problems(scene)
        return found + dropped_or_distant_labels(scene), final_frame_problems(scene)

    stills = _geometry(name, ex, aspect, snap)
    problems = [f"{s.key}: {p}" for s in stills for p in s.snapshot[0]]
    problems += [f"last {stills[-1].key}: {p}" for p in stills[-1].snapshot[1]]
    assert not problems, "\n".join(problems[:10])


@pytest.mark.slow
@pytest.mark.parametrize("name", ["Projections", "Overview"])
def test_a_plane_says_how_many_it_left_out_as_it_drew_them(monkeypatch, name):
    """A review counted the arrows of a plane: "N others not drawn" said one number while the
    plane, fitted again clear of that longer note, drew fewer. Each plane's line now says the
    count of the arrows it left out, or drew grey (the 24-token sentence at 1:1, where the room
    is least), and no plane of its tokens draws more than eight in colour."""
    import re

    from lecturer_examples import load
    from scenes.kit.drawing import Kit
    from scenes.kit.look import Look
    from scenes.kit.registry import find
    from scenes.pipeline.stills import run_steps

    told = []
    story_arrows, cast_arrows = Kit.story_arrows, Kit.cast_arrows

    def count(texts, drawn, note):
        said = " ".join(getattr(m, "source_text", "") for m in note.get_family())
        # "15 others not drawn", short "15 not drawn", or (drawn grey) "15 others, grey"
        m = re.search(r"(\d+|one)(?: others?)?(?:\s+not drawn|, grey)", said)
        told.append((len(texts) - len(drawn), 0 if m is None else {"one": 1}.get(m[1], m[1])))

    def spy(self, plane, coords, texts, *args, **kw):
        drawn, arrows, labels, note = story_arrows(self, plane, coords, texts, *args, **kw)
        count(texts, drawn, note)
        return drawn, arrows, labels, note

    def spy_cast(self, plane, coords, texts, *args, **kw):
        drawn, arrows, grey, labels, note = cast_arrows(self, plane, coords, texts, *args, **kw)
        count(texts, drawn, note)
        return drawn, arrows, grey, labels, note

    monkeypatch.setattr(Kit, "story_arrows", spy)
    monkeypatch.setattr(Kit, "cast_arrows", spy_cast)
    ex = load("trophy-24")
    look = Look.for_example(ex, lang="en", aspect="1:1")
    run_steps(find(name).load(), ex, look=look, pixel_height=180, frames=False)
    assert told and any(left for left, _ in told)
    assert [(left, int(n)) for left, n in told] == [(left, left) for left, _ in told]
    # and past 12 tokens no plane draws more than the story's few (three planes of 24 arrows
    # each were unreadable)
    from scenes.mobjects.plane import CROWDED_TOKENS

    assert all(ex.n - left <= CROWDED_TOKENS for left, _ in told), told


def test_embeddings_among_24_tokens_draws_the_story_s_few_and_says_how_many_it_left():
    """A review at 24 tokens: Embeddings drew every token, a tangle of 24 arrows with long
    leader lines round it. Past 12 tokens it draws the cast in colour (at most eight, the
    followed query and its key among them), every one named at its tip or in a key, and the
    others as thin grey arrows, counted ("16 others, grey"; issue 38)."""
    import re

    from lecturer_examples import load
    from scene_checks import dropped_or_distant_labels, layout_problems
    from scenes.mobjects.plane import CROWDED_TOKENS

    ex = load("trophy-24")
    pair = ac.followed_pair(ac.trace_example(ex))

    def snap(scene):
        said = " ".join(getattr(m, "source_text", "") for m in scene.note.get_family())
        found = layout_problems(scene) + dropped_or_distant_labels(scene)
        return list(getattr(scene, "drawn", [])), said, found

    stills = _geometry("Embeddings", ex, "16:9", snap)
    drawn, said, _ = stills[-1].snapshot
    assert 1 < len(drawn) <= CROWDED_TOKENS and {pair.query, pair.key} <= set(drawn)
    m = re.search(r"(\d+) others, grey", said)
    assert m and int(m[1]) == ex.n - len(drawn), said
    problems = [f"{s.key}: {p}" for s in stills for p in s.snapshot[2]]
    assert not problems, "\n".join(problems[:10])


def test_an_output_label_touches_its_tip_or_has_a_line_to_it():
    """A review of an induction head (12 tokens, 16:9): o(blue₂) sat 0.31 from its tip, with no
    line, nearer another output's white arrow. All outputs are drawn alike, so each label now
    touches its own tip or is joined to it, at every size of example (it was so past 12)."""
    from pathlib import Path

    from scene_checks import labels_off_their_tips

    ex = ac.load_example(Path(__file__).parents[1] / "examples" / "smollm2-induction.toml")
    stills = _geometry("Overview", ex, "16:9", lambda s: labels_off_their_tips(s, 0.25))
    assert [s.snapshot for s in stills if s.key == "values"] == [[]]


def test_overview_keeps_each_shown_row_s_largest_weight():
    """A review (SmolLM2's previous-token head at 4:3): Overview's elided weights showed tree₂'s
    row as 0.03 … 0.00, its 0.94 hidden, so the row visibly did not sum to 1. The first and
    last rows keep their largest weights, as the followed row does."""
    from pathlib import Path

    from scene_checks import on_screen
    from scenes.mobjects.matrix import LabelledMatrix

    ex = ac.load_example(Path(__file__).parents[1] / "examples" / "smollm2-previous.toml")
    w = ac.trace_example(ex).attention.weights

    def hidden(s):
        out = []
        for m in on_screen(s, LabelledMatrix):
            if m.values.shape == w.shape and np.array_equal(m.values, w):
                cols = set(m.shown_columns)
                out += [i for i in m.shown_rows if int(np.argmax(w[i])) not in cols]
        return out

    stills = _geometry("Overview", ex, "4:3", hidden)
    last = [s.snapshot for s in stills if s.key == "values"]
    assert last == [[]], last


@pytest.mark.parametrize("name", ["cross-zh-en", "zao-shang-hao"])
def test_the_input_tokens_order_holds_every_token_once(name):
    """The order a crowded plane of input tokens draws them in (Embeddings, Overview's X):
    every token once, the followed query first. Cross-attention's keys are the source's
    tokens: their order had stood for the queries', and a 3-token plane left 好 out."""
    ex = ac.PRESETS[name]
    first = _geometry("Embeddings", ex, "16:9", lambda s: s.story_inputs())[0]
    order = first.snapshot
    assert sorted(order) == list(range(ex.n))
    assert order[0] == ac.followed_pair(ac.trace_example(ex)).query


def _row_of_24(long_at: int | None, **kw):
    """The followed row (5) of a 24-token weight matrix in a 4:3 panel's width (6.8), its keys
    named in two tiers, the followed key (17) kept; the token at ``long_at`` 12 characters."""
    from scenes.mobjects.matrix import LabelledMatrix
    from scenes.mobjects.theme import SMALL, THEMES

    names = [f"t{i}" for i in range(24)]
    if long_at is not None:
        names[long_at] = "explanations"
    w = _rows(24, 24, causal=False)
    args = (w, ("weights", 0), THEMES["dark"], names, names)
    return LabelledMatrix(
        *args,
        size=SMALL,
        digits=2,
        heat=True,
        tiers=2,
        keep_rows=[5],
        keep_cols=[17, 3, 4],
        max_width=6.8,
        max_height=2.0,
        last_column=False,
        **kw,
    )


@pytest.mark.parametrize("long_at", [8, 20])
def test_an_elided_long_label_takes_no_room_from_the_kept_columns(long_at):
    """Issue 38, Overview at 4:3 on the 24-token limits: the row labels were as wide as the
    longest label of all 24 rows, and a column label too wide for its tier numbered every column
    (the row labels then "24 explanations"), though neither was drawn: two columns of weights
    shown where four fit. Elided, a long label changes nothing; the followed key stays."""
    plain, long = _row_of_24(None), _row_of_24(long_at)
    assert long_at not in long.shown_rows and long_at not in long.shown_columns
    assert 17 in long.shown_columns and long.shown_rows[0] == 5
    assert not long.indexed
    assert len(long.shown_columns) == len(plain.shown_columns) >= 4


def test_elision_keeps_each_wanted_index_that_fits_before_the_first_ones():
    """A wanted index with no room is passed over for the next that fits (the cast's columns
    of Overview's followed row, issue 38), and the slots left go to the first ones."""
    from scenes.mobjects.elision import elide

    assert elide(24, 4, 1, [11, 5, 12], last=False) == [None, 11, 12, None]  # was 0 … 11 …
    assert elide(24, 6, 1, [11, 5, 12], last=False) == [None, 5, None, 11, 12, None]
    assert elide(24, 6, 1, [11], last=False) == [0, 1, 2, None, 11, None]


@pytest.mark.parametrize("lang", [0, 1])
def test_overview_s_formula_caption_has_one_pair_of_brackets(lang):
    """Issue 38: the first caption read softmax((Q Kᵀ) / √dₖ) V; said as a set phrase still."""
    from scenes.kit.captions.overview import STEPS
    from scenes.mobjects.unimath import plain
    from scenes.speech.spoken import spoken

    text = plain(STEPS["formula"][lang])
    assert "softmax(Q Kᵀ / √dₖ) V" in text and "((" not in text
    said = spoken(text, ("zh", "en")[lang])
    assert "softmax" in said and ("取 softmax" in said if lang == 0 else ", times V" in said)


def test_a_cast_label_left_out_is_no_success():
    """Kit.cast_arrows took a try whose labels left one out (no leader line) for a success: an
    arrow of the cast drawn in colour with no name. A label left out counts as a leader does."""
    from manim import VGroup

    from scenes.kit.drawing import Kit
    from scenes.mobjects.text import label

    class Crowded:  # a plane whose tips have room for one label of two
        near, radii = None, None

        def tip_labels(self, coords, texts, colors, *args, **kw):
            one = label(texts[0], 22)
            one.is_tip_label = True
            return VGroup(one)

    coords = np.array([[1.0, 0.0], [0.0, 1.0]])
    led, labels = Kit._cast_labels(Crowded(), coords, [0, 1], ["a", "b"], ["#fff"] * 2, (0, []), {})
    assert led == 1 and len(labels) == 1


@pytest.mark.parametrize("aspect", ["16:9", "4:3"])
def test_overview_values_plane_takes_the_body_on_a_flat_fan(aspect):
    """Issue 38, a review's 21-token he → sailor sentence (SmolLM2 L17 H6, its values a flat
    fan): Overview's last still drew the values' plane in the tokens' column, 130 × 80 px at
    1080p, its arrows 15 px long, the followed row's weights wide beside it. Among many tokens
    the values' step now takes the whole body, the plane as wide as the fan asks: the drawn
    values span at least ``VALUES_SPAN`` of the content (11–14 % before), and the plane's
    labels are on screen with nothing overlapping."""
    from pathlib import Path

    from room_checks import room_problems

    from scene_checks import layout_problems, plane_label_problems

    ex = ac.load_example(Path(__file__).parent / "data" / "smollm2-sailor.toml")
    checks = (room_problems, layout_problems, plane_label_problems)
    stills = _geometry("Overview", ex, aspect, lambda s: [p for f in checks for p in f(s)])
    assert [s.snapshot for s in stills if s.key == "values"] == [[]]
