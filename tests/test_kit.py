"""The drawing kit's contracts: each role checks its number of indices, the named views live in
one registry whatever was imported, and the documented examples of the kit's main mobjects run."""

import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from conftest import ROOT

import attention_core as ac
from lecturer_examples import LIMITS
from scenes.kit import roles, views
from scenes.mobjects import bars, matrix, plane


@pytest.fixture(scope="module")
def trace():
    return ac.trace_example(ac.PRESETS["two-heads"])


def test_a_role_resolves_to_the_core_value(trace):
    assert roles.resolve(trace, ("weights", 1, 2, 0)) == trace.heads[1].weights[2, 0]
    assert roles.resolve(trace, ("rowsum", 0, 1)) == pytest.approx(1.0)
    assert roles.indices_of("scores") == ("h", "i", "j")


@pytest.mark.parametrize(
    "role,count",
    [(("weights", 0, 1), 2), (("weights", 0, 1, 2, 0), 4), (("norm_q", 0), 1), (("cells", 3), 1)],
)
def test_a_role_with_the_wrong_number_of_indices_is_an_error_naming_it(trace, role, count):
    with pytest.raises(roles.RoleArityError) as err:
        roles.resolve(trace, role)
    message = str(err.value)
    assert repr(role[0]) in message and f"got {count}" in message
    assert isinstance(err.value, TypeError)  # what the scene checks report as unresolvable


def test_an_unknown_role_is_a_key_error(trace):
    with pytest.raises(KeyError, match="no_such_role"):
        roles.resolve(trace, ("no_such_role", 0))


def test_every_role_declares_its_indices():
    """No role takes ``*args``: its parameters are the indices its tuple must carry."""
    import inspect

    for kind, fn in roles.ROLES.items():
        kinds = {p.kind for p in inspect.signature(fn).parameters.values()}
        assert kinds == {inspect.Parameter.POSITIONAL_OR_KEYWORD}, kind
        assert next(iter(inspect.signature(fn).parameters)) == "tr", kind


def test_the_query_key_view_is_one_recipe_for_every_head(trace):
    for h in range(len(trace.heads)):
        stack = views.view_stack(trace, ("queries_keys", h))
        assert np.array_equal(stack, np.vstack([trace.heads[h].Q, trace.heads[h].K]))
    first = views.view_stack(trace, ("queries_keys", 0))
    assert np.array_equal(views.view_stack(trace, "queries_keys"), first)  # head 0 by default


def test_views_resolve_without_any_scene_module():
    """The registry does not depend on which scene modules were imported: a fresh process
    resolves every view a scene names (through its "kept" note's role) with none imported."""
    code = textwrap.dedent(
        """
        import sys
        import attention_core as ac
        from scenes.kit import roles
        from scenes.kit.registry import SCENES
        tr = ac.trace_example(ac.PRESETS["zao-shang-hao"])
        names = ["X", "Q", "K", "V", "values_outputs", "weighted_sum", "residual1", "residual2"]
        for which in names + [("queries_keys", 0)]:
            roles.resolve(tr, ("kept_pct", which))
        loaded = [s.module for s in SCENES if f"scenes.{s.module}" in sys.modules]
        assert not loaded, loaded
        print("ok")
        """
    )
    r = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-2000:]


def test_an_unknown_view_is_a_key_error_naming_it(trace):
    with pytest.raises(KeyError, match="nope"):
        views.view_stack(trace, "nope")


# -- the documented examples ---------------------------------------------------------------------
DOCUMENTED = {
    "LabelledMatrix": matrix.LabelledMatrix,
    "VectorPlane": plane.VectorPlane,
    "ProportionBar": bars.ProportionBar,
    "weight_rows": bars.weight_rows,
}


def example_of(obj) -> str:
    """The code block of ``obj``'s numpydoc Examples section."""
    doc = obj.__doc__ or ""
    assert "Parameters\n    ----------" in doc, f"{obj.__name__} documents no Parameters"
    _, _, examples = doc.partition("Examples\n    --------\n")
    block = re.search(r"\.\. code-block:: python\n\n((?:        .*\n|\s*\n)+)", examples)
    assert block, f"{obj.__name__} has no Examples code block"
    return textwrap.dedent(block.group(1))


@pytest.mark.parametrize("name", list(DOCUMENTED))
def test_the_kit_examples_run_and_draw_something(name, tmp_path):
    """Each documented example scene renders (tiny) and puts ink on the frame."""
    from manim import Scene, tempconfig

    namespace: dict = {}
    exec(compile(example_of(DOCUMENTED[name]), f"<{name} example>", "exec"), namespace)
    scene_cls = next(
        v
        for v in namespace.values()
        if isinstance(v, type) and issubclass(v, Scene) and v is not Scene
    )
    cfg = {
        "pixel_height": 90,
        "pixel_width": 160,
        "media_dir": str(tmp_path),
        "dry_run": True,
        "disable_caching": True,
        "verbosity": "ERROR",
        "progress_bar": "none",
    }
    with tempconfig(cfg):
        scene = scene_cls()
        scene.render()
        scene.renderer.update_frame(scene)
        frame = scene.renderer.get_frame()
    assert scene.mobjects, f"the {name} example adds nothing"
    background = frame[0, 0]
    assert (np.abs(frame.astype(int) - background).sum(axis=-1) > 60).mean() > 0.01


# -- colours -------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["dark", "light"])
def test_twenty_four_token_colours_a_viewer_can_tell_apart(name):
    """Issue 32 item 3: 24 token colours (colour 12 was colour 0 again), every pair of the first
    12 at least 15 apart (CIEDE2000; 2 is just noticeable; the first eight, the cast's, farther:
    the test below) and of all 24 at least 10, each at least 4.5 : 1 against its theme's
    background, none grey, none in the accent's hues, none near the text or output colour, none
    near black (light theme) or white (dark theme)."""
    import itertools

    from scenes.mobjects.theme import THEMES, contrast, delta_e, lab

    theme = THEMES[name]
    assert len(theme.tokens) == 24 and theme.token(12) != theme.token(0)
    for count, least in ((12, 15), (24, 10)):
        pairs = itertools.combinations(theme.tokens[:count], 2)
        closest = min(pairs, key=lambda p: delta_e(*p))
        assert delta_e(*closest) >= least, (count, closest)
    for c in theme.tokens:
        assert contrast(c, theme.background) >= 4.5, c
        assert delta_e(c, theme.accent) >= 15, c
        assert min(delta_e(c, theme.text), delta_e(c, theme.output)) >= 20, c
        lightness, a, b = lab(c)
        assert np.hypot(a, b) >= 30, c  # not a grey
        assert lightness >= 28 if name == "light" else lightness <= 88, c
        hue = np.degrees(np.arctan2(b, a)) % 360
        assert not 45 < hue < 115, (c, hue)  # orange … yellow


@pytest.mark.parametrize("name,least", [("dark", 25), ("light", 23)])
def test_the_casts_colours_are_far_apart_on_both_themes(name, least):
    """Issue 38: the cast (``attention_core.story_cast``, at most ``CAST_SIZE`` tokens) takes
    the first colours in its order, and a viewer must tell them apart at real size (the first
    eight were only 17.3 and 17.2 apart: cyan beside teal, green beside teal): every pair of
    them at least 25 apart in CIEDE2000 on the dark theme, 23 on the light (no eight colours
    dark enough for its panel reach 25: scenes/mobjects/theme.py), each at least 4.5 : 1
    against its theme's background and panel (a legend on a panel is drawn in them) and clear
    of the quiet tone the other tokens take (muted), the text, the output and the accent."""
    import itertools

    from scenes.mobjects.theme import CAST_COLOURS, THEMES, contrast, delta_e

    theme = THEMES[name]
    assert CAST_COLOURS == ac.CAST_SIZE
    cast = theme.tokens[:CAST_COLOURS]
    closest = min(itertools.combinations(cast, 2), key=lambda p: delta_e(*p))
    assert delta_e(*closest) >= least, [c.to_hex() for c in closest]
    for c in cast:
        assert min(contrast(c, theme.background), contrast(c, theme.panel)) >= 4.5, c
        assert delta_e(c, theme.muted) >= 15, c
        assert min(delta_e(c, theme.text), delta_e(c, theme.output)) >= 20, c
        assert delta_e(c, theme.accent) >= 15, c


def test_colour_difference_matches_the_published_test_pair():
    """Sharma, Wu & Dalal's CIEDE2000 test data, pair 1: ΔE = 2.0425."""
    from scenes.mobjects import theme

    lab_a, lab_b = np.array([50.0, 2.6772, -79.7751]), np.array([50.0, 0.0, -82.7485])
    original = theme.lab
    try:
        theme.lab = lambda c: lab_a if c == "a" else lab_b
        assert theme.delta_e("a", "b") == pytest.approx(2.0425, abs=1e-4)
    finally:
        theme.lab = original


@pytest.mark.parametrize("name", ["dark", "light"])
def test_a_highlight_shows_on_every_cell_colour(name):
    """The accent frame sits outside the cell with a line of the background between them, so
    it never touches the cell's own colour (the accent on a 1.000 yellow cell vanished)."""
    from scenes.mobjects.layout import box_of
    from scenes.mobjects.theme import THEMES, contrast, heat

    theme = THEMES[name]
    m = matrix.LabelledMatrix(
        [[1.0, 0.0], [0.5, 0.5]], ("weights", 0), theme, "ab", "ab", heat=True
    )
    halo, frame = m.highlight(0, 0)
    cell = box_of(m.cell_rect(0, 0))
    assert halo.get_stroke_color().to_hex().lower() == theme.background.to_hex().lower()
    assert box_of(frame).x1 - cell.x1 >= 0.03 and cell.y0 - box_of(frame).y0 >= 0.03
    assert contrast(theme.accent, theme.background) >= 3
    assert contrast(heat(1.0), theme.accent) < 3 or name == "light"  # why the halo is needed


# -- a grid of squares ---------------------------------------------------------------------------
def test_a_big_weight_grid_becomes_squares_with_every_label_and_the_named_numbers():
    from scenes.mobjects.layout import Box, box_of
    from scenes.mobjects.theme import THEMES, heat

    ex = ac.load_example(LIMITS)  # the suite's example at the limits (lecturer_examples)
    n = ex.n
    W = ac.trace_example(ex).heads[0].weights
    # a 1:1 frame's content region (as test_scene_layout._grid_of_24): 24 × 24 squares fit it
    # (7 × 5.2, the room 12 tokens were given, elides them)
    box = Box(-3.75, -2.635, 3.75, 2.635)
    m = matrix.LabelledMatrix.fitted(
        W, ("weights", 0), THEMES["dark"], ex.tokens, ex.tokens, box, heat=True, named=[(1, 0)]
    )
    assert m.style.squares and m.shown_rows == list(range(n)) == m.shown_columns
    assert len(m.row_labels) == n and len(m.col_labels) == n
    assert list(m.cells) == [(1, 0)] and len(m.squares) == n * n
    for (i, j), sq in m.squares.items():  # a weight fills its cell: its colour is the number
        # (as areas, weights under 0.1 were specks); the gap 0.08, less on small cells
        inner = (m.style.squares - matrix.square_gap(m.style.squares)) ** 2
        assert sq.width * sq.height == pytest.approx(inner, abs=2e-6)
        assert sq.get_fill_color().to_hex().lower() == heat(W[i, j]).to_hex().lower()
    frame = box_of(m)
    assert frame.width <= box.width + 1e-6 and frame.height <= box.height + 1e-6
    labels = [*m.row_labels, *m.col_labels, *m.cells.values()]
    boxes = [box_of(x).inset(0.01) for x in labels]
    assert not any(a.overlaps(b) for k, a in enumerate(boxes) for b in boxes[k + 1 :])


# -- caption lines: Chinese breaks between words (jieba), never inside one ----------------------
@pytest.mark.parametrize(
    "text,words",
    [
        (
            "先取指数，再把它们归一化成比例：它自己的权重最大，其余按比例分。",
            ["指数", "自己", "比例"],
        ),
        ("同一个从 0 到 1 的色标上，每个头的权重各不相同，一看就懂。", ["0 到 1", "色标", "权重"]),
        ("我们跟着查询 q(早) 看 w(早→好)：它把注意力分给每个键。", ["q(早)", "w(早→好)", "注意力"]),
    ],
)
def test_chinese_lines_break_between_words_at_every_width(text, words):
    """The issue's examples (先取指/数, 它自/己, 0 到/1) at every width from 4 to 12 characters
    (each word fits; one wider than the line is cut between characters):
    no break falls inside a word, a formula or "0 到 1", and the lines give back the text."""
    from scenes.mobjects.text import text_width, wrap_lines
    from scenes.mobjects.theme import SMALL

    char = text_width("字", SMALL)
    for chars in range(4, 13):
        lines = wrap_lines(text, chars * char, SMALL, max_lines=99)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        for a, b in zip(lines, lines[1:]):
            for w in words:
                joined = a + b
                cut = len(a)
                at = joined.find(w)
                assert not (at != -1 and at < cut < at + len(w)), (chars, a, b, w)


def test_a_long_label_is_one_line_at_any_render_resolution():
    """Manim lays a Text out as wide as the render's pixel width: a long caption line made in a
    low-resolution process came out on two lines and was cached for every process after it."""
    import uuid

    from manim import config

    from scenes.mobjects.text import label

    text = "d = 64 时随机一行 6 个分数。不缩放时最大权重 1.000，Σ s(1−s) " + uuid.uuid4().hex[:6]
    saved = config.pixel_width
    config.pixel_width = 120  # a tiny render: before, this wrapped the line
    try:
        long = label(text, 26)
    finally:
        config.pixel_width = saved
    assert config.pixel_width == saved
    assert long.height < 1.3 * label("d = 64", 26).height and long.width > 9


def test_elision_keeps_the_rows_asked_for():
    from scenes.mobjects.elision import elide as _elide

    assert _elide(12, 6, 1) == [0, 1, 2, 3, None, 11]
    assert _elide(12, 6, 1, keep=[7]) == [0, 1, None, 7, None, 11]
    assert _elide(12, 6, 1, keep=[10]) == [0, 1, 2, None, 10, 11]
    assert _elide(12, 6, 1, keep=[2, 11]) == [0, 1, 2, 3, None, 11]
    assert _elide(12, 2, 1, keep=[5]) == [5, None]
    assert _elide(5, 6, 1, keep=[3]) == [0, 1, 2, 3, 4]


def test_the_compared_pair_is_two_directions_a_viewer_can_see():
    """Embeddings' last step lit the₁ and the₂ of the limits (one embedding, twice: one arrow)
    and, on a trained layer, two arrows too short in the view to be seen."""
    import numpy as np

    from scenes.embeddings import _closest_pair

    X = np.array([[1.0, 0.0], [1.0, 0.0], [1.0, 0.2], [0.9, 0.5], [0.0, 1.0]])
    assert _closest_pair(X) == (0, 2)  # the twins (0, 1) are not a comparison
    visible = [True, True, False, True, True]
    assert _closest_pair(X, visible) == (0, 3)  # 2 is too short to be seen in the view
    assert _closest_pair(X[:2]) == (0, 1)  # nothing else to compare: the twins after all


# the drawing classes a scene must ask the kit for (scenes/kit/drawing.py), never build itself
KIT_BUILT = {"VectorPlane", "LabelledMatrix", "ColorBar", "ProportionBar", "CompactGrid"}


def _built_directly(path) -> list[str]:
    """Where a module calls one of KIT_BUILT (or one of its constructors, ``X.fitted(…)``)."""
    import ast

    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.id if isinstance(f, ast.Name) else None
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
            name = f.value.id
        if name in KIT_BUILT:
            found.append(f"{path.name}:{node.lineno} {name}")
    return found


def test_no_scene_builds_a_plane_matrix_or_bar_itself():
    """Every plane, matrix, colour bar and proportion bar of a scene comes from ``self.kit``, so
    an option of the look that changes how one kind is drawn reaches every one of that kind."""
    scene_modules = sorted((ROOT / "scenes").glob("*.py"))
    assert len(scene_modules) >= 15
    scene_modules += sorted((ROOT / "scenes" / "parts").glob("*.py"))  # a scene's steps
    found = [hit for p in scene_modules for hit in _built_directly(p)]
    assert not found, found


def test_the_kit_check_finds_a_plane_built_directly(tmp_path):
    """The check above can fail: a scene module that builds its own VectorPlane is found."""
    bad = tmp_path / "bad_scene.py"
    bad.write_text("from scenes.mobjects.plane import VectorPlane\nVectorPlane(pts, box, theme)\n")
    assert _built_directly(bad) == ["bad_scene.py:2 VectorPlane"]


def test_every_plane_of_a_scene_is_built_by_the_kit(monkeypatch):
    """RotaryPositions once built its own plane (and kept its grid when a look option hid every
    other one): its planes now come from Kit.plane like every scene's."""
    from scenes.kit.drawing import Kit
    from scenes.kit.registry import find
    from scenes.pipeline.stills import run_steps

    made = []
    original = Kit.plane

    def counted(self, *args, **kw):
        made.append(type(self.scene).__name__)
        return original(self, *args, **kw)

    monkeypatch.setattr(Kit, "plane", counted)
    run_steps(find("RotaryPositions").load(), ac.PRESETS["rotary"], frames=False)
    assert "RotaryPositions" in made


def _part_problems(path, scene_modules) -> list[str]:
    """Why the part ``path`` breaks the rule of ``scenes/parts/``: it names no scene module, or
    imports a scene module or another scene's part."""
    import ast

    owner = next((m for m in scene_modules if path.stem.startswith(m + "_")), None)
    if owner is None:
        return [f"{path.name}: named for no scene module"]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            parts = name.split(".")
            scene = parts[:2] in (["scenes", m] for m in scene_modules)
            other = parts[:2] == ["scenes", "parts"] and len(parts) > 2
            if scene or (other and not parts[2].startswith(owner + "_")):
                found.append(f"{path.name}:{node.lineno} {name}")
    return found


def test_a_scene_part_serves_one_scene_and_imports_no_scene(tmp_path):
    """Each module of scenes/parts/ is named for the one scene module it serves and imports no
    scene module and no other scene's part (so a scene never imports another, even there)."""
    from scenes.kit.registry import SCENES

    modules = sorted({s.module for s in SCENES}, key=len, reverse=True)  # longest name first
    parts = [p for p in sorted((ROOT / "scenes" / "parts").glob("*.py")) if p.stem != "__init__"]
    assert parts
    assert [hit for p in parts for hit in _part_problems(p, modules)] == []
    bad = tmp_path / "multi_head_bad.py"  # the check can fail
    bad.write_text("from scenes import softmax_scene\nimport scenes.parts.weighted_sum_x\n")
    assert _part_problems(bad, modules) == [
        "multi_head_bad.py:1 scenes.softmax_scene",
        "multi_head_bad.py:2 scenes.parts.weighted_sum_x",
    ]


def test_a_token_of_punctuation_alone_is_quoted_in_a_list_of_tokens():
    """The 24-token sentence's Embeddings caption listed "big, ,, so": a comma token read as
    stray commas. A token of punctuation alone is quoted; words, [CLS] and ##pieces are not."""
    from types import SimpleNamespace

    from scenes.kit import captions
    from scenes.kit.base import ExplainerScene

    for lang in ("en", "zh"):
        fake = SimpleNamespace(lang=lang, say=lambda key, lang=lang: captions.word(key, lang))
        text = ExplainerScene.token_list(fake, ["big", ",", "so", "[CLS]", "##ly", "."])
        sep = captions.word("tokens_list_sep", lang)
        assert text == sep.join(["big", "“,”", "so", "[CLS]", "##ly", "“.”"])


def test_one_masked_key_is_said_in_the_singular():
    """A review read "1 later keys: exp(−∞) = 0" and "0 for the 1 later keys": the keys that
    count masked keys have a singular form, which Softmax picks for one key."""
    from scenes.kit import captions
    from scenes.softmax_scene import one

    for kind in ("later", "blocked"):
        for key in (f"exp_shares_{kind}", f"exp_masked_{kind}"):
            assert "keys" not in captions.word(key + one(1, kind), "en", n=1)
            assert "keys" in captions.word(key + one(2, kind), "en", n=2)
    assert "keys" not in captions.word("share_masked_keys" + one(1), "en", n=1)
    assert one(1, "underflow") == ""  # a kind with no count keeps its one form
