"""The look options come from one table (scenes.kit.look.OPTIONS): every Look field has a row, the
rendering commands offer each shared row as an option, plain `manim render` reads each row's
variable; and the floor plan's edges: the pipeline never imports the outputs or the CLI."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import click
import pytest

import attention_core as ac
from scenes.cli import cli
from scenes.kit import look as look_module
from scenes.kit.look import OPTIONS, Look

ROOT = Path(__file__).resolve().parents[1]


def test_every_look_field_has_one_row_in_the_table():
    assert list(OPTIONS) == [f.name for f in dataclasses.fields(Look)]


@pytest.mark.parametrize("command", ["render", "watch", "pack"])
def test_each_shared_row_is_an_option_of_the_rendering_commands(command):
    flags = {flag for p in cli.commands[command].params for flag in p.opts}
    shared = [o for o in OPTIONS.values() if o.shared]
    assert shared and all(set(o.flags) <= flags for o in shared)
    assert "--transparent" in {f for p in cli.commands["render"].params for f in p.opts}


def test_the_environment_is_read_from_the_table(monkeypatch):
    rows = {name: o.env for name, o in OPTIONS.items() if o.env}
    assert set(look_module.ENVIRONMENT) == {"example", *rows}
    monkeypatch.setenv("ATTN_THEME", "light")
    monkeypatch.setenv("ATTN_ASPECT", "4:3")
    monkeypatch.setenv("ATTN_LANG", "en")
    _, look = look_module.from_environment(ac.PRESETS["zao-shang-hao"])
    assert (look.theme, look.aspect, look.lang) == ("light", "4:3", "en")
    monkeypatch.setenv("ATTN_THEME", "sepia")
    with pytest.raises(ValueError, match="--theme: 'sepia' is not one of dark, light"):
        look_module.from_environment(ac.PRESETS["zao-shang-hao"])


def test_an_unknown_look_option_is_a_type_error_naming_it():
    with pytest.raises(TypeError, match="sparkle"):
        Look.for_example(ac.PRESETS["zao-shang-hao"], sparkle="on")


def test_folder_names_follow_the_table_order():
    ex = ac.PRESETS["zao-shang-hao"]
    look = Look.for_example(ex, quality="m", lang="en", aspect="4:3", transparent=True)
    assert look.folder(ex) == "720p30-en-4x3-alpha"
    assert isinstance(Look.for_example(ex, transparent=1).transparent, bool)


def _imports(folder: str) -> set[str]:
    names = set()
    for path in (ROOT / folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
                names.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
    return names


def test_the_pipeline_never_imports_the_outputs_or_the_cli():
    upward = [
        n for n in _imports("scenes/pipeline") if n.startswith(("scenes.outputs", "scenes.cli"))
    ]
    assert upward == []
    assert [n for n in _imports("scenes/outputs") if n.startswith("scenes.cli")] == []


def test_click_is_the_only_thing_the_group_needs():
    assert isinstance(cli, click.Group) and set(cli.commands) >= {
        "numbers",
        "scenes",
        "presets",
        "render",
        "watch",
        "pack",
        "init",
        "from-model",
        "batch",
    }


def test_a_shortened_title_keeps_its_head():
    """A narrow frame shortens a title to the part before its colon; the Chinese Softmax title
    ("Softmax：…  ·  第 1 个头（共 4 个）") lost "head 1 of 4" with the rest."""
    from lecturer_examples import LIMITS
    from scenes.kit.look import Look
    from scenes.kit.registry import find
    from scenes.pipeline.stills import run_steps

    ex = ac.load_example(LIMITS)
    look = Look.for_example(ex, lang="zh", aspect="1:1")
    (title,) = {
        s.snapshot
        for s in run_steps(
            find("Softmax").load(),
            ex,
            look=look,
            pixel_height=270,
            frames=False,
            snapshot=lambda scene: (
                scene.title_mob.source_text
                if hasattr(scene.title_mob, "source_text")
                else str(scene.title_mob)
            ),
        )
    }
    assert "第 1 个头（共 4 个）" in title, title
