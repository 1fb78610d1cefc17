"""The explorable and every field of an example: each field the page models gives, in
Chromium, the core's numbers to 1e-9 (rotary positions, positional encoding, padding, biases,
random weights of other widths, no scaling, …) and "copy as example" reads back as the same
example; each value it does not model gets no explorable and the page says why, in the page's
language. Its API refuses bad arguments with a message and keeps its state."""

import dataclasses
import re
import tomllib
from html import unescape

import numpy as np
import pytest

import attention_core as ac
from attention_core.example.loading import load_example
from browser import chromium_page
from scenes.outputs import explorer

TOL = 1e-9
CJK = re.compile(r"[\u4e00-\u9fff]")

ZAO = [[1.2, 0.8], [0.9, 1.1], [0.7, 1.3]]
BIASED = {
    "W_q": [[1.0, 0.5], [-0.3, 0.8]],
    "W_k": [[0.2, -1.1], [0.9, 0.4]],
    "W_v": [[0.6, 0.1], [-0.5, 1.3]],
    "b_q": [0.1, -0.2],
    "b_k": [0.3, 0.05],
    "b_v": [-0.4, 0.2],
}
# examples that use the fields the page models, each field at least once
MODELLED = {
    "rotary": load_example("rotary"),
    "rotary-positions": ac.Example(
        tokens=["a", "b", "c"],
        embeddings=ZAO,
        rotary_base=37.5,
        positions=[5, 2, 100000],
        seed=3,
        d_k=4,
        d_v=2,
        scale=False,
        padding=[1, 1, 0],
        title="t",
        source="a note",
    ),
    "rotary-biases-kv": ac.Example(
        tokens=["早", "上", "好"],
        embeddings=ZAO,
        rotary_base=10000.0,
        kv_heads=1,
        weights=BIASED,
        mask="causal",
    ),
    "pe-independent": ac.Example(
        tokens=["我", "喜", "欢", "你"],
        embeddings=[[1.0, 0.2], [0.4, 1.1], [0.8, 0.9], [1.2, -0.3]],
        seed=5,
        d_k=3,
        d_v=1,
        head_form="independent",
        positional_encoding=True,
        mask="causal",
    ),
}
# a value of each field the page does not model
REFUSED = {
    "d_model": ac.Example(tokens=["a", "b"], embeddings=[[1, 0, 0], [0, 1, 0]]),
    "heads": load_example("two-heads"),
    "W_o": ac.Example(
        tokens=["a", "b"],
        embeddings=[[1, 0], [0, 1]],
        weights={
            "W_q": np.eye(2).tolist(),
            "W_k": np.eye(2).tolist(),
            "W_v": np.eye(2).tolist(),
            "W_o": np.eye(2).tolist(),
        },
    ),
    "cross": load_example("cross-zh-en"),
}


def standalone(tmp_path, example, lang="en"):
    """The explorable's section, style and script as the lecture page writes them, alone."""
    page = tmp_path / "explorer.html"
    page.write_text(
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        f"<style>{explorer.STYLE}</style></head><body>{explorer.section(example, lang)}"
        f"<script>{explorer.SCRIPT}</script></body></html>",
        encoding="utf-8",
    )
    return page


@pytest.fixture
def open_page(tmp_path):
    pages = []

    def open_(example, lang="en"):
        context = chromium_page()
        page = context.__enter__()
        pages.append((context, page))
        page.set_viewport_size({"width": 1100, "height": 1000})
        page.goto(standalone(tmp_path, example, lang).as_uri())
        return page

    yield open_
    for context, page in pages:
        errors = (page.console_errors, page.dialogs)
        context.__exit__(None, None, None)
        assert errors == ([], [])


def core_head(example, embeddings):
    changed = ac.Example.from_dict({**example.to_dict(), "embeddings": embeddings})
    return ac.trace_example(changed).heads[0]


def assert_state_is_core(example, state):
    head = core_head(example, state["embeddings"])
    for name in ("scores", "weights", "output"):
        page = np.array(state[name], dtype=float)
        assert np.isfinite(page).all() and page.shape == getattr(head, name).shape, name
        assert np.allclose(page, getattr(head, name), rtol=TOL, atol=TOL), (name, page)


def test_the_fields_table_lists_every_field_of_an_example():
    fields = {f.name for f in dataclasses.fields(ac.Example) if f.init}
    assert set(explorer.FIELDS) == fields
    for how, why in explorer.FIELDS.values():
        assert how or why
        assert why is None or why in explorer.WHY


@pytest.mark.parametrize("name", MODELLED)
def test_each_modelled_field_gives_the_core_numbers(open_page, name, tmp_path):
    example = MODELLED[name]
    assert explorer.why_not(example) is None
    page = open_page(example)
    assert_state_is_core(example, page.evaluate("window.attnExplorer.state()"))
    rng = np.random.default_rng(31)
    for _ in range(4):
        E = (rng.normal(size=(example.n, 2)) * 10.0 ** rng.uniform(-2, 2)).tolist()
        state = page.evaluate("E => window.attnExplorer.set({embeddings: E})", E)
        assert state["embeddings"] == E
        assert_state_is_core(example, state)
    # what a student found renders with the numbers the page showed
    path = tmp_path / "found.toml"
    path.write_text(page.evaluate("window.attnExplorer.toml()"), encoding="utf-8")
    found = load_example(str(path))
    assert {**found.to_dict(), "embeddings": 0} == {**example.to_dict(), "embeddings": 0}
    head = ac.trace_example(found).heads[0]
    assert np.allclose(head.weights, state["weights"], rtol=TOL, atol=TOL)


def test_the_rotary_preset_on_the_page_is_the_videos(open_page):
    """Issue 31: the page gave 好 [0.297, 0.337, 0.367] (no RoPE); the videos 0.045 …"""
    state = open_page(load_example("rotary")).evaluate("window.attnExplorer.state()")
    assert np.round(state["weights"][2], 3).tolist() == [0.045, 0.258, 0.697]


@pytest.mark.parametrize("key", REFUSED)
def test_each_field_it_does_not_model_is_explained_instead(key):
    example = REFUSED[key]
    assert explorer.why_not(example) is not None
    for lang in ("zh", "en"):
        html = explorer.unavailable(example, lang)
        assert "<script" not in html and 'id="explorer"' in html
        text = unescape(re.sub("<[^>]+>", "", html))
        why = explorer.why_not(example, lang)
        assert why in text
        if lang == "zh":
            assert CJK.search(why) and not re.search(
                r"\b[a-z]{4,}\b", why.replace("source_tokens", "")
            )


BAD_CHOICES = ["99", "-1", "1.5", "NaN", "'1'", "null", "3", ""]
BAD_CALLS = [
    ("set", "'x'"),
    ("set", "{embeddings: [[1, 2], [3, 4], [5, 6]], query: 1}"),
    ("set", ""),
    ("state", "1"),
    ("toml", "{}"),
]


def test_the_api_refuses_bad_arguments_and_keeps_its_state(open_page):
    page = open_page(load_example("zao-shang-hao"))
    before = page.evaluate("window.attnExplorer.state()")
    calls = [("choose", c) for c in BAD_CHOICES] + BAD_CALLS
    for name, arg in calls:
        error = page.evaluate(
            f"() => {{ try {{ window.attnExplorer.{name}({arg}); return null; }}"
            " catch (e) { return [e instanceof Error, e.constructor.name, e.message]; } }"
        )
        assert error and error[0] and error[1] == "Error", (name, arg, error)
        assert error[2].startswith(name + ": "), (name, arg, error)
        assert page.evaluate("window.attnExplorer.state()") == before, (name, arg)
    # and everything works after them
    state = page.evaluate("window.attnExplorer.set({embeddings: [[1, 0], [0, 1], [1, 1]]})")
    assert_state_is_core(load_example("zao-shang-hao"), state)
    assert page.evaluate("window.attnExplorer.choose(0)")["query"] == 0
    assert tomllib.loads(page.evaluate("window.attnExplorer.toml()"))["embeddings"][2] == [1, 1]
