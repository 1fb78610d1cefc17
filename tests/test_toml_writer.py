"""The one TOML writer (attention_core/example/file_format.py: toml_string, toml_key,
toml_value) and the files written through it: `init`'s template, from-model's example file and
the lecture page's explorable read back by ``tomllib`` as exactly the values written."""

from __future__ import annotations

import math
import tomllib

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from attention_core.example.file_format import toml_key, toml_string, toml_value
from attention_core.example.loading import load_example
from attention_core.example.presets import PRESETS
from attention_core.example.template import example_toml
from attention_core.models.from_model import example_toml as model_toml

# any text TOML can hold: every code point but the lone surrogates (UTF-8 has no form for them)
TEXT = st.text(st.characters(blacklist_categories=("Cs",)))
SCALARS = (
    TEXT
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=True, allow_infinity=True)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


def same(a, b) -> bool:
    """Equal, with nan equal to nan (and -0.0 told from 0.0)."""
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or (
            a == b and math.copysign(1, a) == math.copysign(1, b)
        )
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


@given(TEXT)
@example("\x7f")  # DEL: JSON leaves it bare, TOML refuses it
@example('"\\\x00\x1b\t\n😀\u2028')
def test_any_string_reads_back_as_itself(text):
    assert tomllib.loads("a = " + toml_string(text))["a"] == text


@given(TEXT, VALUES)
@example("a b", {"é": [math.nan, -math.inf, -0.0]})
def test_any_value_under_any_key_reads_back_as_itself(key, value):
    """Strings with quotes, backslashes, control characters, DEL and emoji beyond the BMP;
    every double (nan and ±inf as TOML's nan and inf); nested arrays and inline tables whose
    keys need quoting."""
    back = tomllib.loads(f"{toml_key(key)} = {toml_value(value)}\n")
    assert list(back) == [key] and same(back[key], value)


def test_the_written_forms_are_toml_s_own():
    assert toml_value([1.0, 1e-05, 0.1, -2, True]) == "[1.0, 1e-05, 0.1, -2, true]"
    assert toml_value([math.nan, math.inf, -math.inf]) == "[nan, inf, -inf]"
    assert toml_string('a"b\\c\x7f\n😀') == '"a\\"b\\\\c\\u007F\\u000A😀"'
    assert toml_key("previous") == "previous" and toml_key("a b") == '"a b"'
    assert toml_value({"previous": 0.5, "é": 1}) == '{previous = 0.5, "é" = 1}'
    with pytest.raises(TypeError, match="null"):
        toml_value(None)
    with pytest.raises(ValueError, match="surrogate"):
        toml_string("\ud800")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_init_s_template_is_the_preset(name):
    ex = PRESETS[name].to_dict()
    back = tomllib.loads(example_toml(name))
    for key in ("title", "tokens", "embeddings", "heads", "mask"):
        assert back[key] == ex[key], key


def test_from_model_s_file_is_pinned_and_reads_back():
    """The text from-model writes (the same bytes as before the writers were made one), and
    every field read back from it."""
    fields = {
        "title": 'A “quoted” \\ "title" 😀',
        "source": "src: x",
        "tokens": ["a", '"b', "c\\", "😀", "é", "[CLS]"],
        "heads": 3,
        "model_text": "The chef's soup",
        "mask": "causal",
        "rotary_base": 100000.0,
        "positions": [0, 1, 2],
        "key_pieces": ["so", "up"],
        "head_scores": [{"previous": 0.1, "duplicate": 1e-05, "induction": 0.5, "copying": -0.25}],
        "block": {"eps": 1e-12},
    }
    text = model_toml(fields, "x.npz", ["embeddings", "W_q"])
    assert text == (
        "# Made by `attn-explain from-model`: src: x.\n"
        "# The arrays (embeddings, W_q) are in x.npz, beside this file.\n"
        'title = "A “quoted” \\\\ \\"title\\" 😀"\n'
        'source = "src: x"\n'
        'tokens = ["a", "\\"b", "c\\\\", "😀", "é", "[CLS]"]\n'
        "heads = 3\n"
        'model_text = "The chef\'s soup"\n'
        'mask = "causal"\n'
        "rotary_base = 100000.0\n"
        "positions = [0, 1, 2]\n"
        'key_pieces = ["so", "up"]\n'
        "head_scores = [\n"
        "  {previous = 0.1, duplicate = 1e-05, induction = 0.5, copying = -0.25},\n"
        "]\n"
        'arrays = "x.npz"\n'
        "\n[block]\neps = 1e-12\n"
    )
    back = tomllib.loads(text)
    assert {k: back[k] for k in fields} == fields


def test_the_explorable_s_toml_is_the_example(tmp_path):
    from scenes.outputs import explorer

    ex = load_example("rotary")
    head, tail = explorer.toml_parts(ex)
    rows = ",\n".join(f"  {toml_value(r)}" for r in ex.embeddings.tolist())
    back = tomllib.loads(head + f"embeddings = [\n{rows}\n]\n" + tail)
    assert {**back, "embeddings": 0} == {**ex.to_dict(), "embeddings": 0}
