"""Readable labels for byte-level BPE tokens: no mojibake, characters cut in pieces numbered."""

from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core.models.gguf_weights import BYTE_TO_CHAR
from attention_core.models.token_labels import SUPERSCRIPTS, byte_level_labels, readable_labels


def _spell(data: bytes) -> str:
    """A byte run in the byte-level alphabet, as a tokenizer's vocabulary spells it."""
    return "".join(BYTE_TO_CHAR[b] for b in data)


def test_zao_shang_hao_reads_as_characters_with_piece_numbers():
    # SmolLM2's tokenizer: 早 = æĹ + ©, 上 = ä¸Ĭ, 好 = å¥ + ½
    assert byte_level_labels(["æĹ", "©", "ä¸Ĭ", "å¥", "½"]) == ["早¹", "早²", "上", "好¹", "好²"]


def test_spaces_glued_to_words_are_dropped_and_white_space_tokens_are_visible():
    tokens = ["the", "Ġcat", "Ġ", "Ġsat", "ĉ", "Ċ", "ĠcafÃ©", "<|im_start|>"]
    assert byte_level_labels(tokens) == ["the", "cat", "␣", "sat", "⇥", "↵", "café", "<|im_start|>"]
    # a no-break space or an ideographic space alone was drawn blank (HeadMoved's readout)
    nbsp, ideographic = _spell("\u00a0".encode()), _spell("\u3000".encode())
    assert byte_level_labels([nbsp, "Ġ" + nbsp, ideographic]) == ["␣", "␣", "␣"]


def test_a_token_holding_the_end_of_one_character_and_the_start_of_another():
    data = "早上".encode()  # e6 97 a9 | e4 b8 8a
    assert readable_labels([data[:2], data[2:4], data[4:]]) == ["早¹", "早²上¹", "上²"]


def test_bytes_that_are_no_utf8_show_as_replacement_characters():
    assert readable_labels([b"\xff", b"ok"]) == ["\ufffd", "ok"]


def _strip_marks(label: str) -> str:
    return "".join(c for c in label if c not in SUPERSCRIPTS)


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(
        st.characters(
            blacklist_categories=("Cc", "Cs", "Zs", "Zl", "Zp"), blacklist_characters=SUPERSCRIPTS
        ),
        min_size=1,
        max_size=12,
    ),
    cuts=st.lists(st.integers(1, 60), max_size=8),
)
def test_any_cut_of_any_text_reads_back_without_mojibake(text, cuts):
    data = text.encode("utf-8")
    points = sorted({c for c in cuts if c < len(data)})
    pieces = [data[a:b] for a, b in zip([0, *points], [*points, len(data)])]
    labels = byte_level_labels([_spell(p) for p in pieces])
    assert len(labels) == len(pieces)
    # every label is made of the text's own characters (plus piece numbers), never of the byte
    # alphabet's stand-ins, unless the text itself uses them
    for label in labels:
        assert set(_strip_marks(label)) <= set(text)
    # reading the labels in order, one character per run of pieces, gives the text back
    read = []
    for label in labels:
        k = 0
        while k < len(label):
            c = label[k]
            numbered = k + 1 < len(label) and label[k + 1] in SUPERSCRIPTS
            if not numbered or label[k + 1] == SUPERSCRIPTS[0]:
                read.append(c)
            k += 2 if numbered else 1
    assert "".join(read) == text
