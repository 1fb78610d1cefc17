"""The lecture page's explorable, driven in Chromium: random embeddings through its API, drags
through the handles with the mouse, keyboard moves, and extreme inputs all give the numbers of
attention_core on the same input (to 1e-9), and the numbers on screen are those numbers
rounded. "Copy as example" gives TOML that attn-explain reads back as the same example; the
steps list their speaker notes."""

import re
import tomllib

import numpy as np
import pytest

import attention_core as ac
from attention_core.example.loading import load_example
from attention_core.example.model import MAX_ABS
from browser import chromium, page_in
from scenes.mobjects.numfmt import fmt

TOL = 1e-9


@pytest.fixture(scope="module")
def zao_page(tmp_path_factory):
    """The lecture page of zao-shang-hao (one scene: the explorable does not need more)."""
    from conftest import run_cli

    out = tmp_path_factory.mktemp("explorer")
    r = run_cli("pack", "--scene", "Embeddings", "--out", out, timeout=900)
    assert r.returncode == 0, r.stderr
    return out / "zao-shang-hao" / "index.html"


# one worker takes this module: its page is packed once, its browser launched once
pytestmark = pytest.mark.xdist_group("lecture_explorer")


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture
def explorer(zao_page, browser):
    with page_in(browser) as page:
        page.set_viewport_size({"width": 1100, "height": 1000})
        page.goto(zao_page.as_uri())
        page.locator("#explorer").scroll_into_view_if_needed()
        yield page
        assert page.console_errors == [] and page.dialogs == []


def core_trace(embeddings, base="zao-shang-hao"):
    ex = load_example(base)
    return ac.trace_example(ac.Example.from_dict({**ex.to_dict(), "embeddings": embeddings}))


def assert_matches_core(state):
    """The page's numbers are the core's on the same embeddings, to 1e-9 (relative to the
    size of a number where it is large), and every one of them is finite."""
    tr = core_trace(state["embeddings"])
    head = tr.heads[0]
    for name, core in (
        ("scores", head.scores),
        ("weights", head.weights),
        ("output", head.output),
    ):
        page = np.array(state[name], dtype=float)
        assert np.isfinite(page).all(), (name, page)
        assert page.shape == core.shape
        assert np.allclose(page, core, rtol=TOL, atol=TOL), (name, page, core)
    assert np.allclose(np.sum(state["weights"], axis=1), 1.0, atol=1e-12)


def assert_screen_is_state(page, state):
    """Every number on screen is the state's number, rounded as the videos round."""
    tr = core_trace(state["embeddings"])
    head = tr.heads[0]
    arrays = {
        "x": np.array(state["embeddings"]),
        "q": head.Q,
        "k": head.K,
        "v": head.V,
        "scores": np.array(state["scores"]),
        "weights": np.array(state["weights"]),
        "bar": np.array(state["weights"]),
        "chain": np.array(state["weights"]),
        "output": np.array(state["output"]),
    }
    shown = page.evaluate(
        "[...document.querySelectorAll('#explorer .num')].map(e => [e.dataset.role, e.textContent])"
    )
    assert len(shown) >= 3 * 8 + 9 * 2 + 3 * 2 + 2
    for role, text in shown:
        kind, i, j = role.split(".")
        value = arrays[kind][int(i), int(j)]
        assert text == fmt(float(value)), (role, text, value)


def test_random_embeddings_through_the_api_equal_the_core(explorer):
    rng = np.random.default_rng(23)
    for trial in range(12):
        scale = 10.0 ** rng.uniform(-3, 3)
        E = (rng.normal(size=(3, 2)) * scale).tolist()
        state = explorer.evaluate("E => window.attnExplorer.set({embeddings: E})", E)
        assert state["embeddings"] == E  # exactly what was set
        assert_matches_core(state)
        if trial % 4 == 0:
            assert_screen_is_state(explorer, state)


def handle_centre(page, i):
    box = page.locator(f'#ex-plane .handle[data-token="{i}"]').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_mouse_drags_move_a_token_and_the_numbers_follow(explorer):
    before = explorer.evaluate("window.attnExplorer.state()")
    x, y = handle_centre(explorer, 1)
    explorer.mouse.move(x, y)
    explorer.mouse.down()
    for k in range(1, 6):  # right and down, in steps, as a hand would
        explorer.mouse.move(x + 12 * k, y + 8 * k)
        assert_matches_core(explorer.evaluate("window.attnExplorer.state()"))
    explorer.mouse.up()
    after = explorer.evaluate("window.attnExplorer.state()")
    e0, e1 = np.array(before["embeddings"][1]), np.array(after["embeddings"][1])
    assert e1[0] > e0[0] + 0.1 and e1[1] < e0[1] - 0.1  # right is +x, down is −y
    assert after["embeddings"][0] == before["embeddings"][0]  # the others stay
    assert after["query"] == 1  # the dragged token's output is the one built
    assert_matches_core(after)
    assert_screen_is_state(explorer, after)
    # a drag onto the origin: a zero vector
    ox, oy = explorer.evaluate(
        """() => { const svg = document.getElementById('ex-plane');
                   const axes = [...svg.querySelectorAll('line.axis')];
                   const v = axes.find(l => l.getAttribute('x1') === l.getAttribute('x2'));
                   const h = axes.find(l => l.getAttribute('y1') === l.getAttribute('y2'));
                   const p = new DOMPoint(+v.getAttribute('x1'), +h.getAttribute('y1'))
                       .matrixTransform(svg.getScreenCTM());
                   return [p.x, p.y]; }"""
    )
    x, y = handle_centre(explorer, 2)
    explorer.mouse.move(x, y)
    explorer.mouse.down()
    explorer.mouse.move(ox, oy, steps=4)
    explorer.mouse.up()
    state = explorer.evaluate("window.attnExplorer.state()")
    assert np.abs(state["embeddings"][2]).max() < 0.05
    assert_matches_core(state)


def test_keyboard_tab_to_a_token_and_arrow_keys_move_it(explorer):
    before = explorer.evaluate("window.attnExplorer.state()")
    explorer.click("#explorer .hint")  # Tab goes on from here
    focused = None
    for _ in range(40):  # Tab through the page until a handle has the focus
        explorer.keyboard.press("Tab")
        focused = explorer.evaluate("document.activeElement.dataset.token || null")
        if focused is not None:
            break
    assert focused is not None, "no handle is reachable with Tab"
    i = int(focused)
    for key in ("ArrowRight", "ArrowRight", "ArrowRight", "ArrowUp", "Shift+ArrowUp"):
        explorer.keyboard.press(key)
        assert explorer.evaluate("document.activeElement.dataset.token") == focused
    after = explorer.evaluate("window.attnExplorer.state()")
    moved = np.array(after["embeddings"][i]) - np.array(before["embeddings"][i])
    assert moved[0] > 0 and moved[1] > moved[0]  # 3 small steps right, 1 small + 1 big up
    assert after["query"] == i
    assert_matches_core(after)
    assert_screen_is_state(explorer, after)


EXTREMES = [
    [[0.0, 0.0], [0.9, 1.1], [0.7, 1.3]],  # a vector at the origin
    [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],  # all at the origin: uniform weights
    [[0.9, 1.1], [0.9, 1.1], [0.7, 1.3]],  # two identical vectors
    [[MAX_ABS, MAX_ABS], [-MAX_ABS, MAX_ABS], [MAX_ABS, -MAX_ABS]],  # the example limits
    [[MAX_ABS, 0.0], [1e-6, -1e-6], [-MAX_ABS, -MAX_ABS]],
    [[MAX_ABS, MAX_ABS], [MAX_ABS, MAX_ABS], [MAX_ABS, MAX_ABS]],  # identical and huge
]


@pytest.mark.parametrize("E", EXTREMES, ids=range(len(EXTREMES)))
def test_extreme_embeddings_keep_the_page_finite_and_true(explorer, E):
    state = explorer.evaluate("E => window.attnExplorer.set({embeddings: E})", E)
    assert_matches_core(state)
    assert_screen_is_state(explorer, state)
    drawn = explorer.evaluate(
        "[...document.querySelectorAll('#ex-plane *')].flatMap(e => [...e.attributes])"
        ".map(a => a.value).filter(v => /NaN|Infinity/.test(v))"
    )
    assert drawn == []  # the plane's geometry is finite too


def test_set_keeps_to_the_limits_and_rejects_what_is_not_numbers(explorer):
    state = explorer.evaluate(
        "window.attnExplorer.set({embeddings: [[5e6, -5e6], [1, 2], [3, 4]]})"
    )
    assert state["embeddings"][0] == [MAX_ABS, -MAX_ABS]  # clamped to the example's limit
    assert_matches_core(state)
    for bad in ("[[NaN, 1], [1, 2], [3, 4]]", "[[1, 2], [3, 4]]", "[[1, 2, 3], [1, 2], [3, 4]]"):
        error = explorer.evaluate(
            f"() => {{ try {{ window.attnExplorer.set({{embeddings: {bad}}}); return null; }}"
            " catch (e) { return e.message; } }"
        )
        assert error and error.startswith("embeddings:"), bad
    assert explorer.evaluate("window.attnExplorer.state()") == state  # unchanged


def test_copy_as_example_and_reset(explorer, tmp_path):
    E = [[0.25, -1.5], [3.0, 0.1], [1e-7, 123456.789]]
    state = explorer.evaluate("E => window.attnExplorer.set({embeddings: E})", E)
    explorer.click("#ex-copy")
    text = explorer.locator("#ex-toml").input_value()
    assert text == explorer.evaluate("window.attnExplorer.toml()")
    assert explorer.inner_text("#ex-status") != ""
    tomllib.loads(text)
    path = tmp_path / "found.toml"
    path.write_text(text, encoding="utf-8")
    found = load_example(str(path))
    original = load_example("zao-shang-hao").to_dict()
    assert found.embeddings.tolist() == state["embeddings"]  # every digit kept
    assert {**found.to_dict(), "embeddings": None} == {**original, "embeddings": None}
    explorer.click("#ex-reset")
    again = explorer.evaluate("window.attnExplorer.state()")
    assert again["embeddings"] == original["embeddings"]
    assert_matches_core(again)


def test_the_page_words_are_in_its_language_and_steps_list_their_notes(explorer):
    assert explorer.inner_text("#explorer h2") == "动手试试：拖动向量"
    notes = explorer.locator("li .notes").all_inner_texts()
    assert notes and all(n.strip() for n in notes)
    # the Embeddings scene's second step shows x of each token: the core's, in the notes
    tr = core_trace(load_example("zao-shang-hao").embeddings.tolist())
    text = "\n".join(notes)
    for i, t in enumerate(("早", "上", "好")):
        row = ", ".join(fmt(v) for v in tr.X[i])
        assert f"x({t}): {row}" in text
    other = explorer.locator("li .notes .other").all_inner_texts()
    assert other and all(re.search("[A-Za-z]{4,}", o) for o in other)  # English, the other one


@pytest.fixture
def phone(zao_page, browser):
    """The page in a 390-px-wide viewport (a phone)."""
    with page_in(browser) as page:
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(zao_page.as_uri())
        yield page
        assert page.console_errors == [] and page.dialogs == []


def test_a_skip_link_reaches_the_explorable_in_three_key_presses(phone):
    """Issue 31: 84 Tab presses reached the first handle; now Tab, Enter (the skip link, the
    page's first focusable element), Tab."""
    phone.keyboard.press("Tab")
    first = phone.evaluate("[document.activeElement.tagName, document.activeElement.hash]")
    assert first == ["A", "#explorer"]
    assert phone.evaluate("document.activeElement.getBoundingClientRect().width") > 0  # seen
    phone.keyboard.press("Enter")
    phone.keyboard.press("Tab")
    assert phone.evaluate("document.activeElement.dataset.token") == "0"


def test_handles_are_24_px_targets_and_the_plane_fits_a_phone(phone):
    """WCAG 2.5.8: a pointer target at least 24 × 24 px; the plane inside its card at 390 px."""
    phone.locator("#explorer").scroll_into_view_if_needed()
    sizes = phone.evaluate(
        "[...document.querySelectorAll('#ex-plane .handle')].map(h => {"
        " const r = h.getBoundingClientRect(); return [r.width, r.height]; })"
    )
    assert len(sizes) == 3 and min(min(s) for s in sizes) >= 24, sizes
    box = phone.evaluate(
        """() => { const r = id => document.getElementById(id).getBoundingClientRect();
                   const card = document.getElementById('explorer');
                   return {plane: [r('ex-plane').left, r('ex-plane').right],
                           card: [r('explorer').left, r('explorer').right],
                           spill: card.scrollWidth - card.clientWidth,
                           page: document.documentElement.scrollWidth}; }"""
    )
    assert box["card"][0] <= box["plane"][0] and box["plane"][1] <= box["card"][1], box
    assert box["spill"] <= 0 and box["page"] <= 390, box
    # a drag on the smaller plane still moves the token and keeps the numbers true
    x, y = handle_centre(phone, 0)
    phone.mouse.move(x, y)
    phone.mouse.down()
    phone.mouse.move(x - 30, y + 20, steps=3)
    phone.mouse.up()
    assert_matches_core(phone.evaluate("window.attnExplorer.state()"))


def test_a_keyboard_step_is_copied_as_written(explorer):
    """Issue 31: one step right from 0.8 wrote 0.8500000000000001 into "copy as example"."""
    explorer.evaluate("window.attnExplorer.set({embeddings: [[0.8, 0.8], [0.9, 1.1], [0.7, 1.3]]})")
    explorer.focus('#ex-plane .handle[data-token="0"]')
    for key in ("ArrowRight", "ArrowRight", "ArrowRight", "ArrowUp", "Shift+ArrowUp", "ArrowLeft"):
        explorer.keyboard.press(key)
    state = explorer.evaluate("window.attnExplorer.state()")
    assert state["embeddings"][0] != [0.8, 0.8]
    rows = tomllib.loads(explorer.evaluate("window.attnExplorer.toml()"))["embeddings"]
    assert rows == state["embeddings"]
    text = explorer.evaluate("window.attnExplorer.toml()")
    written = re.findall(r"^    \[([^\]]*)\]", text, re.M)
    assert len(written) == 3
    for row in written:
        for number in row.split(", "):
            assert len(number.split(".")[1]) <= 3, text  # e.g. 0.85 or 1.35, never 0.850…01
    assert_matches_core(state)


def test_the_chinese_page_text_has_no_stray_english(explorer):
    """Everything the Chinese page says is Chinese but the example's name and labels, the math,
    the keys to press and the English captions set apart as such (.other, lang="en")."""
    text = explorer.evaluate(
        """() => { const body = document.body.cloneNode(true);
                   body.querySelectorAll('.other, [lang=en], script').forEach(e => e.remove());
                   const walk = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
                   const out = [];
                   while (walk.nextNode()) out.push(walk.currentNode.nodeValue);
                   return out.join(' '); }"""
    )
    assert CJK_TEXT.search(text)
    for own in ("zao-shang-hao", "早", "上", "好"):
        text = text.replace(own, "")
    text = re.sub(r"\w*_\w*", "", text)  # the math's names: d_model, W_q …
    english = set(re.findall(r"[A-Za-z]{3,}", text)) - {"softmax", "Tab", "Shift"}
    assert not english, english


CJK_TEXT = re.compile(r"[\u4e00-\u9fff]")
