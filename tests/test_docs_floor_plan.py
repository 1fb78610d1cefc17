"""CONTRIBUTING.md's floor plan against the code, both ways: every module of attention_core/,
scenes/ and scripts/ is named (as ``name.py``) in its folder's part of the plan, and every file
and folder the plan names exists. No render: it reads the plan and lists the folders."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ROOT

CHECKED = ("attention_core", "scenes", "scripts")
FOLDER = re.compile(r"^( *)([a-z_]+)/(?: |$)")
NAMED = re.compile(r"(?<![\w<>/.])((?:[a-z_]+/)*)([A-Za-z_]\w*\.(?:py|js))\b")
DESCRIPTION_COLUMN = 25  # a line indented this far goes on describing the entry above it


def plan_block(text: str) -> list[str]:
    """The lines of the plan's code block, under "## The floor plan"."""
    start = text.index("```\n", text.index("## The floor plan")) + 4
    return text[start : text.index("```", start)].splitlines()


def sections(lines: list[str], root: Path = ROOT) -> dict[Path, list[str]]:
    """Each folder of the plan with the text that belongs to it: its own line, its entries
    (indented deeper than it, up to the next folder at that depth or above) and their
    continuation lines."""
    out: dict[Path, list[str]] = {}
    stack: list[tuple[int, Path]] = []  # (indent, folder) of the open folders
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        if indent < DESCRIPTION_COLUMN and line.strip():
            while stack and stack[-1][0] >= indent:
                stack.pop()
            folder = FOLDER.match(line)
            if folder:
                parent = stack[-1][1] if stack else root
                stack.append((indent, parent / folder.group(2)))
        if stack:
            out.setdefault(stack[-1][1], []).append(line)
    return out


def named_files(plan: dict[Path, list[str]]) -> tuple[dict[Path, set[Path]], list[str]]:
    """The files each folder's text names, resolved in that folder or the nearest folder above
    it that has them; and the names that resolve nowhere."""
    named: dict[Path, set[Path]] = {}
    missing = []
    for folder, lines in plan.items():
        for prefix, name in NAMED.findall("\n".join(lines)):
            places = [folder, *folder.parents]
            found = next((p / prefix / name for p in places if (p / prefix / name).is_file()), None)
            if found is None:
                missing.append(f"{folder.relative_to(ROOT)}: {prefix}{name}")
            else:
                named.setdefault(folder, set()).add(found)
    return named, missing


def problems(text: str, root: Path = ROOT) -> list[str]:
    """What the plan and the code disagree on, one line each."""
    plan = sections(plan_block(text), root)
    named, missing = named_files(plan)
    out = [f"the plan names {m}, which does not exist" for m in missing]
    out += [
        f"the plan names the folder {f.relative_to(root)}/, which does not exist"
        for f in plan
        if not f.is_dir()
    ]
    for top in CHECKED:
        for path in sorted((root / top).rglob("*.py")):
            if path.name == "__init__.py" or "__pycache__" in path.parts:
                continue
            if path.parent not in plan:
                out.append(f"{path.parent.relative_to(root)}/ is not a folder of the plan")
            elif path not in named.get(path.parent, set()):
                rel = path.relative_to(root)
                out.append(f"{rel} is not named in its folder's part of the plan")
    return sorted(set(out))


def test_the_floor_plan_names_every_module_and_only_modules_that_exist():
    assert problems((ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")) == []


def test_each_folder_part_holds_its_own_entries():
    plan = sections(plan_block((ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")))
    kit = "\n".join(plan[ROOT / "scenes" / "kit"])
    captions = "\n".join(plan[ROOT / "scenes" / "kit" / "captions"])
    assert "look.py" in kit and "look.py" not in captions  # after captions/, at kit's depth
    assert "common.py" in captions


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (("    cast.py ", "    casting.py "), "the plan names attention_core/readings: casting.py"),
        (("    cast.py ", "    claims.py "), "attention_core/readings/cast.py is not named"),
        (("  mobjects/ ", "  drawings/ "), "the plan names the folder scenes/drawings/"),
        (("bench_typst.py, ", ""), "scripts/bench_typst.py is not named"),
    ],
)
def test_the_check_can_fail(edit, expected):
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert edit[0] in text
    found = problems(text.replace(*edit, 1))
    assert any(p.startswith(expected) for p in found), found
