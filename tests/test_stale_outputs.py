"""Nothing stale (issue 31): the content key follows the code that draws an output, wherever its
modules live."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _digest_in(tree: Path) -> str:
    """The code digest that the source tree ``tree`` computes for itself (a fresh interpreter)."""
    out = subprocess.run(
        [sys.executable, "-c", "from scenes.pipeline import cache; print(cache.code_digest())"],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return out.stdout.strip()


def test_editing_a_scene_or_the_core_changes_the_content_key(tmp_path):
    ignore = shutil.ignore_patterns("__pycache__")
    for package in ("attention_core", "scenes"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=ignore)
    before = _digest_in(tmp_path)
    seen = {before}
    for module in (
        "scenes/scaling.py",  # a scene
        "attention_core/softmax.py",  # the core
        "scenes/mobjects/__init__.py",  # the drawing kit, a subpackage
        "scenes/outputs/explorer.js",  # the lecture page's script
    ):
        path = tmp_path / module
        original = path.read_bytes()
        path.write_bytes(original + b"\n# edited\n")
        seen.add(_digest_in(tmp_path))
        path.write_bytes(original)
    assert len(seen) == 5, "each edit must give a new code digest (and so a new content key)"
    assert _digest_in(tmp_path) == before
    # a module moved into a subpackage is still hashed (the kit is moving into scenes/kit/)
    (tmp_path / "scenes" / "kit").mkdir()
    shutil.move(tmp_path / "scenes" / "roles.py", tmp_path / "scenes" / "kit" / "roles.py")
    moved = _digest_in(tmp_path)
    (tmp_path / "scenes" / "kit" / "roles.py").write_text("# edited\n", encoding="utf-8")
    assert len({before, moved, _digest_in(tmp_path)}) == 3
