"""Issue 30 item 7: a label of 8 characters or fewer is never shortened with "…" (smaller type,
an index or an upright column come first), and byte pieces of one character (猫¹ 猫² 猫³, as
SmolLM2's labels show them) are explained once on screen. The lecturer examples' runs check
every still for a shortened short label (scene_checks.shortened_labels, in geometry_problems);
here the rule itself, and a SmolLM2 example in byte pieces at every aspect."""

from __future__ import annotations

from functools import cache

import pytest

from attention_core.models.token_labels import byte_level_labels, split_characters
from scene_checks import _shortened_forms, describe, geometry_problems, texts
from scenes.kit.captions import word
from scenes.mobjects.grid_labels import LABEL_WIDTH
from scenes.mobjects.text import ellipsize, fitted, text_width
from scenes.mobjects.theme import BODY, MIN_FONT_SIZE, SMALL


@pytest.mark.parametrize("word", ["when", "learn", "students", "猫¹", "the₂", "WWWWWWWW"])
def test_a_label_of_eight_characters_or_fewer_is_never_shortened(word):
    for width in (0.2, 0.6, 1.0):
        assert ellipsize(word, width, SMALL) == word


def test_a_longer_label_is_still_shortened_at_both_ends():
    short = ellipsize("explanations", 1.0, SMALL)
    assert "…" in short and short[0] == "e" and short[-1] == "s"
    assert text_width(short, SMALL) <= 1.0


def test_a_named_label_shortens_only_the_label():
    assert ellipsize("o([CLS])", 0.3, SMALL) == "o([CLS])"
    assert ellipsize("× v(students)", 0.5, SMALL) == "× v(students)"
    long = ellipsize("o(explanations)", 1.2, SMALL)
    assert long.startswith("o(e") and long.endswith("s)") and "…" in long


def test_a_numbered_row_shortens_only_its_label():
    assert ellipsize("students", LABEL_WIDTH / 3, SMALL, "10 ") == "10 students"
    long = ellipsize("explanations", LABEL_WIDTH / 2, SMALL, "12 ")
    assert long.startswith("12 e") and "…" in long


def test_smaller_type_comes_before_an_ellipsis():
    word = "students"
    room = text_width(word, BODY) * 0.95  # too wide at BODY, not at the minimum
    text, size = fitted(word, room, BODY)
    assert text == word and MIN_FONT_SIZE <= size < BODY
    assert fitted(word, 10.0, BODY) == (word, BODY)
    text, size = fitted("explanations", 0.8, BODY)
    assert size == MIN_FONT_SIZE and "…" in text


def test_the_check_knows_a_shortened_form():
    assert "w…n" in _shortened_forms("when")
    assert "st…ts" in _shortened_forms("students")
    assert "o(…])" in _shortened_forms("[CLS]")
    assert "when" not in _shortened_forms("when")


def test_split_characters_are_those_shown_in_pieces():
    # 早 (three bytes) cut over two tokens, 上 whole: 早¹ 早² 上
    labels = byte_level_labels(["æĹ", "©", "ä¸Ĭ"])
    assert labels == ["早¹", "早²", "上"]
    assert split_characters(labels) == ["早"]
    assert split_characters(["x²", "y", "area"]) == []  # a square is not a byte piece


# -- a SmolLM2 example in byte pieces, at every aspect --------------------------------------------
CAT_TEXT = "猫坐在垫子上"  # 猫¹ 猫² 猫³ 坐¹ 坐² 在 垫¹ 垫² 垫³ 子 上
LOOKS = [("zh", "16:9"), ("en", "4:3"), ("zh", "1:1"), ("en", "16:9"), ("zh", "4:3"), ("en", "1:1")]


@cache
def _cat():
    from attention_core.models.from_decoder import decoder_example

    return decoder_example(CAT_TEXT, 19, 7).example("cat")


@pytest.mark.slow
@pytest.mark.parametrize(
    "scene_name,lang,aspect",
    [("Embeddings", *look) for look in LOOKS[:3]]
    + [("AttentionMatrix", *look) for look in LOOKS[3:]],
)
def test_smollm2_byte_pieces_are_explained_and_kept_whole(scene_name, lang, aspect):
    from scenes.kit.look import Look
    from scenes.kit.registry import SCENES
    from scenes.pipeline.stills import run_steps

    ex = _cat()
    assert ex.tokens[:3] == ("猫¹", "猫²", "猫³")
    scene = next(s for s in SCENES if s.name == scene_name)

    def snapshot(s):
        return geometry_problems(s), "".join(describe(m) for m in texts(s))

    look = Look.for_example(ex, lang=lang, aspect=aspect)
    stills = run_steps(scene.load(), ex, look=look, pixel_height=540, snapshot=snapshot)
    problems = [f"{st.key}: {p}" for st in stills for p in st.snapshot[0]]
    assert not problems, "\n".join(problems[:20])
    note = word("byte_pieces", lang, c="猫")  # once, with the first step, on one or two lines
    assert "".join(note.split()) in "".join(stills[0].snapshot[1].split())


def test_flat_column_labels_keep_a_space_between_neighbours():
    """A review at 4:3: Scaling's headers "drum₁" and "lemon", each just narrower than its cell,
    read as one word "drum₁lemon" (0.04 apart). Neighbours in one tier keep a space; tiered
    numbers (24 tokens) keep the looser rule that lets them stay flat."""
    from scenes.mobjects.grid_labels import too_wide
    from scenes.mobjects.text import label
    from scenes.mobjects.theme import SMALL

    names = ["drum₁", "lemon"]
    widest = max(label(t, SMALL).width for t in names)
    assert too_wide(names, widest + 0.06, SMALL)  # each fits its cell, together they touch
    assert not too_wide(names, widest + 0.2, SMALL)
    assert not too_wide(["lemon"], 0.1, SMALL)  # one column: its cell widens instead
    numbers = [str(j + 1) for j in range(24)]
    two = max(label(t, SMALL).width for t in numbers)
    assert not too_wide(numbers, (two + 0.06) / 2, SMALL, tiers=2)


def test_the_followed_pair_is_named_whole_in_a_matrix():
    # issue 38: a matrix shortened the followed query "explanations" to "12 expla…ions"
    from scenes.mobjects.grid_labels import fit_label
    from scenes.mobjects.token_text import Followed

    assert fit_label(Followed("explanations"), 0.5, SMALL, "12 ") == "12 explanations"
    again = fit_label(fit_label(Followed("explanations"), 0.5, SMALL, "12 "), 0.5, SMALL)
    assert again == "12 explanations"  # a grid of squares sets its texts a second time
    assert "…" in fit_label("explanations", 0.5, SMALL, "12 ")


def test_the_check_knows_the_followed_pair():
    assert "ex…ns" in _shortened_forms("explanations")
    assert "o(e…ns)" in _shortened_forms("explanations")
