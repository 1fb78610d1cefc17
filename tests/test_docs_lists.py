"""The lists the docs take from the code (README's scenes, docs/api.md's public names) are what
scripts/docs_lists.py writes from the code now: edit a docstring or the registry, and this fails
until the script is run again."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from conftest import ROOT

_spec = importlib.util.spec_from_file_location("docs_lists", ROOT / "scripts" / "docs_lists.py")
docs_lists = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(docs_lists)


def _copy(tmp_path: Path) -> Path:
    for name in ("README.md", "docs/api.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


def test_the_committed_lists_are_what_the_code_gives():
    assert docs_lists.stale() == [], "run .venv/bin/python scripts/docs_lists.py and commit"


def test_every_public_name_is_listed_once_with_a_summary():
    import attention_core

    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    listed = [
        line.split("`")[1].rstrip("()") for line in text.splitlines() if line.startswith("- `")
    ]
    assert sorted(listed) == sorted(attention_core.__all__)
    assert "**no docstring**" not in text


def test_the_readme_lists_every_scene_in_teaching_order():
    from scenes.kit.registry import SCENES

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = [line.split("`")[1] for line in text.splitlines() if line.startswith("| `")]
    assert [r for r in rows if r in {s.name for s in SCENES}] == [s.name for s in SCENES]


def test_the_check_finds_an_edited_summary_and_a_missing_name(tmp_path):
    root = _copy(tmp_path)
    assert docs_lists.stale(root) == []
    api = root / "docs" / "api.md"
    text = api.read_text(encoding="utf-8")
    api.write_text(text.replace("Numerically stable softmax", "Softmax", 1), encoding="utf-8")
    assert docs_lists.stale(root) == ["docs/api.md"]
    api.write_text(text.replace("- `causal_mask()`", "- `causal_masks()`", 1), encoding="utf-8")
    assert docs_lists.stale(root) == ["docs/api.md"]
    readme = root / "README.md"
    lines = [ln for ln in readme.read_text(encoding="utf-8").splitlines() if "`Softmax`" not in ln]
    readme.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert docs_lists.stale(root) == ["README.md", "docs/api.md"]
