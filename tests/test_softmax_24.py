"""Softmax and DotProducts on the 24-token causal sentence (examples/smollm2-trophy.toml, it₁ →
trophy), as a reviewer found them (issues 32 and 30): share labels in rows away from their
segments, masked keys drawn as small positive bars beside "every share is positive", rows cut
into slivers, and DotProducts' last still at 4:3 and 1:1 with the matrix alone. No run of their
own: each check rides on the run test_lecturer_examples.py makes of the scene at that aspect
(lecturer_examples.run_at; the captions on test_scene_ocr.py's English one at 16:9); the
sentences are the core's (``exp_claim``, ``labelled_keys``), checked in tests/test_claims.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from manim import DL, UR

from lecturer_examples import OCR_LOOK, on_run, run_at, stills_of
from scenes.kit.captions import CAPTIONS

# the runs these tests read: Softmax at 1:1 (the narrowest frame), its captions in English
SQUARE = run_at("trophy-24", "Softmax", "1:1")
WORDS_RUN = ("trophy-24", "Softmax", *OCR_LOOK)


def _dot_products_run(aspect: str) -> tuple:
    return run_at("trophy-24", "DotProducts", aspect)


def _visible(scene) -> set[int]:
    return {id(m) for m in scene.get_mobject_family_members()}


def _label_problems(scene) -> list[str]:
    """Each key label (``key_index``) on screen must sit over or under its own bar or segment
    (``scene.marks``) or be led to it by a line of its own (``leader_lines``)."""
    from manim import Line

    on = _visible(scene)
    lines = [m for m in scene.get_mobject_family_members() if isinstance(m, Line)]
    problems = []
    for mob in scene.get_mobject_family_members():
        j = getattr(mob, "key_index", None)
        if j is None or id(mob) not in on:
            continue
        mark = scene.marks[j]
        x0, x1 = mark.get_left()[0], mark.get_right()[0]
        over = x0 - 0.05 <= mob.get_center()[0] <= x1 + 0.05
        led = any(
            getattr(ln, "label", None) is mob and x0 - 0.05 <= ln.get_end()[0] <= x1 + 0.05
            for ln in lines
        )
        if not (over or led):
            problems.append(f"key {j}'s label is away from its bar with no line to it")
    return problems


def softmax_facts(scene):
    """Each Softmax step's facts, gathered while it is on screen."""
    from manim import Rectangle

    from scenes.softmax_scene import MIN_ROW

    key = scene.steps[-1]["key"]
    facts = {"labels": _label_problems(scene)}
    if key == "exp":
        facts["marks"] = dict(scene.marks)
        facts["row"] = np.array(scene.row)
        facts["labelled"] = sum(
            1 for m in scene.get_mobject_family_members() if hasattr(m, "key_index")
        )
        facts["chosen"] = scene.labelled.keys
    if key == "rows":  # the proportion bars of every row: none a sliver
        bars = [
            m
            for m in scene.get_mobject_family_members()
            if isinstance(m, Rectangle) and getattr(m, "fill_opacity", 0) == 1
        ]
        facts["lowest"] = min(b.height for b in bars) if bars else 0.0
        facts["min_row"] = MIN_ROW
    return facts


ON_SQUARE = on_run(SQUARE, "softmax facts", softmax_facts)
ON_WORDS = on_run(WORDS_RUN, "softmax words", None)


@pytest.fixture
def softmax_steps():
    """Softmax at 1:1 (the narrowest frame): each step's facts."""
    return {s.key: s.snapshot for s in stills_of(SQUARE, "softmax facts")}


@pytest.fixture
def softmax_captions():
    """Softmax's captions (English, 16:9: a caption says the facts, whatever the frame)."""
    return {s.key: s.caption for s in stills_of(WORDS_RUN, "softmax words")}


@ON_SQUARE
def test_masked_keys_are_drawn_blocked_not_as_bars(softmax_steps):
    """The 12 keys after it₁ have score −∞: each gets the mask's marker (a group: outline and
    diagonal), never a bar; every key it may see gets a bar."""
    from manim import Rectangle

    exp = softmax_steps["exp"]
    row = exp["row"]
    blocked = np.isneginf(row)
    assert blocked.sum() == 12
    for j, mark in exp["marks"].items():
        if blocked[j]:
            assert not isinstance(mark, Rectangle) and len(mark) == 2, j
        else:
            assert isinstance(mark, Rectangle) and mark.height > 0, j


@ON_WORDS
def test_the_exp_caption_says_what_the_masked_keys_get(softmax_captions):
    caption = softmax_captions["exp"]
    assert "every share is positive" not in caption
    assert "positive for each key it sees, 0 for the 12 later keys (−∞)" in caption


@ON_SQUARE
def test_every_softmax_label_sits_on_its_own_bar_or_is_led_to_it(softmax_steps):
    """At 24 keys the exp step labels the followed key, the caption's five and the cast's keys
    with a share (not 24 labels on four staggered rows; issue 38: a segment in colour is a
    labelled one), the share step the same keys on their segments, none away."""
    exp = softmax_steps["exp"]
    assert exp["labelled"] == len(exp["chosen"]) and 1 in exp["chosen"]  # trophy
    assert 5 <= len(exp["chosen"]) <= 9
    for key in ("exp", "share"):
        assert not softmax_steps[key]["labels"], (key, softmax_steps[key]["labels"])


@ON_SQUARE
def test_the_rows_step_keeps_every_row_readable(softmax_steps):
    """24 rows in one column were slivers (0.07 units); now each row's bar is at least
    MIN_ROW · 0.7 tall (the bar's share of its row)."""
    rows = softmax_steps["rows"]
    assert rows["lowest"] >= rows["min_row"] * 0.7 - 1e-9


def test_the_exp_shares_words_exist_for_every_claim_kind():
    """Every kind of ``exp_claim`` has its words in both languages, saying the count."""
    from scenes.kit.captions import WORDS

    for kind in ("positive", "later", "blocked", "underflow"):
        zh, en = WORDS[f"exp_shares_{kind}"]
        if kind in ("later", "blocked"):
            assert "{n}" in zh and "{n}" in en
    for key, (zh, en) in CAPTIONS["Softmax"].items():
        if key.startswith("exp"):
            assert "{shares}" in zh and "{shares}" in en and "positive" not in en, key


def last_plane(scene):
    """Whether DotProducts' plane is on screen, the names of its tip labels, layout problems."""
    from scene_checks import describe, layout_problems, tip_labels_on_screen

    names = " ".join(describe(m) for m in tip_labels_on_screen(scene))
    on = {id(m) for m in scene.get_mobject_family_members()}
    return id(scene.plane.plane) in on, names, layout_problems(scene)


@pytest.mark.parametrize(
    "aspect",
    [
        pytest.param(a, id=a, marks=on_run(_dot_products_run(a), "plane kept", last_plane))
        for a in ("4:3", "1:1")
    ],
)
def test_dot_products_last_still_keeps_the_plane_beside_the_scores(aspect):
    """The last still held the matrix alone at 4:3 and 1:1 (the plane made way); now the
    followed query's arrow and its keys' arrows stay, each labelled, beside the scores."""
    plane, names, problems = stills_of(_dot_products_run(aspect), "plane kept")[-1].snapshot
    assert plane and "q(it₁)" in names and names.count("k(") >= 3, names
    assert "trophy" in names, names  # the followed key among them
    assert not problems, problems


def plane_room(scene):
    """DotProducts' plane at its last step (beside the whole matrix, or again beside the list of
    scores where the matrix took the frame): its column's width, its grid's width on screen, and
    the lines of its note and legend (their texts and widths)."""
    if scene.steps[-1]["key"] not in ("matrix", "again"):
        return None
    legend, note = scene.plane_parts[2], scene.plane_parts[3]
    lines = [m for m in note.get_family() if hasattr(m, "source_text")]
    return {
        "column": scene.plane_box.width,
        "grid": scene.plane.plane.width,
        "note": [m.source_text for m in lines],
        "foot": max([m.width for m in lines] + [entry.width for entry in legend]),
    }


ZH_NARROW = ("trophy-24", "DotProducts", "zh", "4:3")  # test_lecturer_examples.py's run


@on_run(ZH_NARROW, "plane room", plane_room)
def test_dot_products_side_plane_has_room_and_a_whole_legend():
    """Issue 38, zh 4:3: beside the 24 × 24 scores the plane's column was 2.4 wide (its grid
    1.9), its note broken as "q 与" / "k 的平面（精确）". Now the last still's plane column is at
    least 2.8 wide (where the matrix leaves it less, the matrix takes the frame and the plane
    comes back in a step of its own) and holds its legend and note, the note whole on one line
    or broken only before its parenthesis."""
    assert run_at("trophy-24", "DotProducts", "4:3") == ZH_NARROW
    room = stills_of(ZH_NARROW, "plane room")[-1].snapshot
    assert room["column"] >= 2.8 and room["grid"] >= 2.2, room
    assert room["foot"] <= room["column"] + 1e-6, room
    note = room["note"]
    assert len(note) in (1, 2) and "q" in note[0] and "k" in note[0], note
    assert len(note) == 1 or note[1].startswith(("(", "（")), note


def test_the_plane_note_breaks_only_before_its_parenthesis():
    from scenes.kit.captions import WORDS
    from scenes.parts.dot_products_layout import note_lines

    for key in ("pair_plane", "pair_plane_short"):
        for text in WORDS[key]:
            head, tail = note_lines(text)
            assert "q" in head and "k" in head and tail in ("(exact)", "（精确）"), text


def _empty_band(scene) -> float:
    """The tallest band of the content with nothing visible in it, as a share of the content's
    height (a blank half: 0.5)."""
    from manim import VMobject

    c, spans = scene.regions.content, []
    for m in scene.get_mobject_family_members():
        if not isinstance(m, VMobject) or m.submobjects or not len(m.points):
            continue
        stroke = m.get_stroke_opacity() if m.get_stroke_width() > 0 else 0.0
        if max(m.get_fill_opacity(), stroke) < 0.05:
            continue
        y0, y1 = m.get_bottom()[1], m.get_top()[1]
        if y1 > c.y0 and y0 < c.y1:
            spans.append((max(y0, c.y0), min(y1, c.y1)))
    cur, big = c.y1, 0.0
    for y0, y1 in sorted(spans, key=lambda s: -s[1]):  # from the top down
        big, cur = max(big, cur - y1), min(cur, y0)
    return max(big, cur - c.y0) / c.height


def share_step_facts(scene):
    """At the exp and share steps: the tallest empty band of the content; at the share step the
    boxes of the share labels on screen (each a key's, ``key_index``) and the frame's."""
    key = scene.steps[-1]["key"]
    if key not in ("exp", "share"):
        return None
    facts = {"empty": _empty_band(scene)}
    if key == "share":
        on = _visible(scene)
        boxes = []
        for m in scene.get_mobject_family_members():
            if getattr(m, "key_index", None) is not None and id(m) in on:
                boxes.append((m.key_index, m.get_corner(DL)[:2], m.get_corner(UR)[:2]))
        facts["labels"] = boxes
        facts["frame"] = (scene.camera.frame_width / 2, scene.camera.frame_height / 2)
    return facts


def _share_runs():
    params = []
    for name in ("trophy-24", "minilm-painting"):
        for aspect in ("16:9", "4:3", "1:1"):
            run = run_at(name, "Softmax", aspect)
            marks = on_run(run, "share step", share_step_facts)
            params.append(pytest.param(run, id=f"{name}-{aspect}", marks=marks))
    return params


@pytest.mark.parametrize("run", _share_runs())
def test_softmax_share_labels_whole_apart_and_no_blank_half(run):
    """Issue 38 ("Softmax's share steps with the top half blank"): at 24 and 21 keys, at 16:9,
    4:3 and 1:1, the exp and share steps leave no band of the content a third of its height
    empty, and the share step's labels (the cast's keys and their weights) are inside the
    frame and apart, none touching another."""
    facts = {s.key: s.snapshot for s in stills_of(run, "share step")}
    for key in ("exp", "share"):
        assert facts[key]["empty"] < 1 / 3, (key, facts[key]["empty"])
    share = facts["share"]
    labels, (half_w, half_h) = share["labels"], share["frame"]
    assert len(labels) >= 5, labels
    for j, lo, hi in labels:
        assert -half_w <= lo[0] and hi[0] <= half_w and -half_h <= lo[1] and hi[1] <= half_h, j
    for a, (j, lo, hi) in enumerate(labels):
        for k, lo2, hi2 in labels[a + 1 :]:
            gap = max(lo2[0] - hi[0], lo[0] - hi2[0], lo2[1] - hi[1], lo[1] - hi2[1])
            assert gap >= 0.02, (j, k, round(gap, 3))


@ON_WORDS
def test_the_last_step_shows_the_followed_row_saturating(softmax_captions):
    """Item 5: the last step repeated Scaling's random d = 64 row; on a row that itself
    saturates unscaled (it₁'s, d_k = 64) it shows that row, its numbers in the caption."""
    assert "saturation" not in softmax_captions and "saturation_followed" in softmax_captions
    caption = softmax_captions["saturation_followed"]
    assert "it₁ saturates" in caption and "1.000" in caption


# -- a 21-token causal row at 16:9 whose numbers fit their columns (a reviewer's sentence) -------
# SmolLM2 layer 17 head 6, he → sailor (tests/data/smollm2-sailor.toml): 21 keys leave the scores
# and e^s room at 16:9, where 24 keys (trophy-24) drop them, and only a few keys are labelled
# (on stems); the labels were set on the scores' row ("The" over 3.95, "he" over 2.51) and the
# bars took the top third of the frame. The lecturer examples never met that case.
SAILOR = Path(__file__).resolve().parent / "data" / "smollm2-sailor.toml"
# SmolLM2 layer 14 head 9, it → essay 0.937 (a reviewer's sentence): at 1:1 the share bar kept
# "it 0.002" and "handed 0.003" and left out "student 0.034", the caption's second weight
ESSAY = SAILOR.with_name("smollm2-essay.toml")


def _exp_facts(aspect: str, name: str = "sailor") -> dict:
    """Softmax's exp step on the sailor row (the essay row, or the lecturer example ``name``)
    at ``aspect``: the text overlaps the still checks find, the numbers shown, the tallest bar's
    and the content's heights; the gap from the title to the heading under it (at the first two
    steps); at the share step the keys labelled on the bar, the row's weights and the keys the
    caption names."""
    import attention_core as ac
    from lecturer_examples import load
    from scene_checks import layout_problems
    from scenes.kit.look import Look
    from scenes.kit.registry import find
    from scenes.mobjects.layout import box_of
    from scenes.pipeline.stills import run_steps

    def snap(scene):
        heading = scene.clear_of[0] if scene.steps[-1]["key"] == "share" else scene.exp_head
        facts = {"title_gap": box_of(scene.title_mob).y0 - box_of(heading).y1}
        if scene.steps[-1]["key"] == "exp":
            family = scene.get_mobject_family_members()
            scores = [m for m in family if m.__class__.__name__ == "Num"]
            facts["overlaps"] = [p for p in layout_problems(scene) if p.startswith("overlap")]
            facts["numbers"] = len(scores)
            facts["tallest"] = max(b.height for b in scene.marks.values())
            facts["content"] = scene.regions.content.height
        else:
            on = _visible(scene)
            family = scene.get_mobject_family_members()
            facts["shown"] = {
                m.key_index for m in family if hasattr(m, "key_index") and id(m) in on
            }
            facts["w"] = ac.softmax(scene.row)
            facts["named"] = set(ac.named_weights(facts["w"]).keys)
        return facts

    paths = {"sailor": SAILOR, "essay": ESSAY}
    ex = ac.load_example(paths[name]) if name in paths else load(name)
    look = Look.for_example(ex, lang="en", aspect=aspect)
    stills = run_steps(find("Softmax").load(), ex, look=look, frames=False, snapshot=snap)
    return {s.key: s.snapshot for s in stills if s.key in ("exp", "share")}


@pytest.mark.parametrize(
    ("name", "aspect"), [("sailor", "16:9"), ("sailor", "1:1"), ("essay", "1:1")]
)
def test_softmax_exp_labels_clear_of_the_numbers_and_the_bars_tall(name, aspect):
    """Issue 38, a reviewer's 21-token sentence at 16:9: the few keys' labels sat on the row of
    scores, and the tallest bar was a sixth of the content's height. Now no text overlaps
    another at the exp step, the tallest bar is at least a quarter of the content's height,
    and the heading keeps 0.2 from the title over it. The share bar labels every key its
    caption names, and where it labels more, no key it leaves out has a larger share than one
    it labels (the essay row at 1:1 labelled "it 0.002", not "student 0.034")."""
    from scenes.softmax_scene import TITLE_GAP

    facts = _exp_facts(aspect, name)
    share = facts["share"]
    shown, w = share["shown"], share["w"]
    assert share["named"] <= shown, (sorted(share["named"] - shown), sorted(shown))
    left_out = [w[j] for j in range(len(w)) if j not in shown and w[j] > 0]
    if shown - share["named"] and left_out:
        assert max(left_out) <= min(w[j] for j in shown - share["named"]), sorted(shown)
    exp = facts["exp"]
    assert exp["overlaps"] == [], exp["overlaps"]
    if aspect == "16:9":  # the case the review found: the scores are shown
        assert exp["numbers"] >= 2 * 9, exp["numbers"]
    assert exp["tallest"] >= exp["content"] / 4, (exp["tallest"], exp["content"])
    for key in ("exp", "share"):
        assert facts[key]["title_gap"] >= TITLE_GAP - 1e-6, (key, facts[key]["title_gap"])


def test_softmax_heading_clear_of_a_two_line_title():
    """Issue 38, a 9-head layer at 1:1: the title on two lines ("head 6 of 9" under it) came
    0.1 from the heading e^s / Σ e^s, its "9" on the "/". The 4 heads at the limits: the
    same two-line title; the heading keeps :data:`TITLE_GAP` from it at both steps."""
    from scenes.softmax_scene import TITLE_GAP

    facts = _exp_facts("1:1", "at-the-limits")
    for key in ("exp", "share"):
        assert facts[key]["title_gap"] >= TITLE_GAP - 1e-6, (key, facts[key]["title_gap"])
