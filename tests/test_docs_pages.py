"""The docs can be found and followed: the README links every page of docs/, every relative link
of the README, docs/ and CONTRIBUTING.md reaches a file, the README keeps the two set-up
commands (`.ci/run` runs one), and CONTRIBUTING's one-test loop names a test, a preset, a scene
and options that exist. No render."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from conftest import ROOT

LINK = re.compile(r"\]\(([^)\s]+)\)")
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]


def broken_links(path: Path) -> list[str]:
    """The relative links of ``path`` whose file does not exist."""
    out = []
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        if not (path.parent / target.split("#")[0]).exists():
            out.append(f"{path.name}: {target}")
    return out


def test_the_readme_links_every_page_of_the_docs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = {Path(t).name for t in LINK.findall(readme) if t.startswith("docs/")}
    assert {p.name for p in (ROOT / "docs").glob("*.md")} - linked == set()


def test_every_relative_link_reaches_a_file(tmp_path):
    assert [b for page in PAGES for b in broken_links(page)] == []
    page = tmp_path / "docs" / "page.md"  # the check can fail
    page.parent.mkdir()
    (tmp_path / "README.md").write_text("", encoding="utf-8")
    page.write_text("[x](../README.md) [y](gone.md#a) [z](https://example.org)\n", encoding="utf-8")
    assert broken_links(page) == ["page.md: gone.md#a"]


def test_the_readme_keeps_the_set_up_commands_ci_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"^make demo ", quick, re.M) and re.search(r"^make test ", quick, re.M)
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def _loop() -> list[list[str]]:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    checks = text.split("## Checks", 1)[1].split("\n## ", 1)[0]
    lines = [ln[4:].split("  #")[0] for ln in checks.splitlines() if ln.startswith("    ")]
    return [shlex.split(ln) for ln in lines]


def test_the_one_test_loop_names_things_that_exist(tmp_path):
    from click.testing import CliRunner

    import attention_core as ac
    from scenes.cli import cli
    from scenes.kit.registry import SCENES

    test, render, lint = _loop()
    assert test[:3] == [".venv/bin/python", "-m", "pytest"] and (ROOT / test[3]).is_file()
    scene = test[test.index("-k") + 1]
    assert scene in {s.name for s in SCENES}
    assert "def test_last_frame_matches_control" in (ROOT / test[3]).read_text(encoding="utf-8")
    assert render[:3] == [".venv/bin/attn-explain", "render", "zao-shang-hao"]
    assert render[2] in ac.PRESETS and render[render.index("--scene") + 1] in {
        s.name for s in SCENES
    }
    args = [*render[1:], "--preview", "--quiet"]  # parsed and planned, nothing rendered
    args[args.index("--out") + 1] = str(tmp_path)
    preview = CliRunner().invoke(cli, args)
    assert preview.exit_code == 0, preview.output
    assert lint == ["make", "lint"]
    assert "\nlint:" in (ROOT / "Makefile").read_text(encoding="utf-8")
