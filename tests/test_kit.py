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
from scenes import roles, views
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
        from scenes import roles
        from scenes.registry import SCENES
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
