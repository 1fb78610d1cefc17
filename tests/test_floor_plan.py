"""The floor plan (docs/design.md, CONTRIBUTING.md): which part may import which, and no import
circles. Read from the source with ``ast`` (imports inside functions count too), so a test fails
on the edge that breaks the plan, whatever was imported first."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest
from conftest import ROOT

PACKAGES = ("attention_core", "scenes")
SUBPACKAGES = ("example", "models", "readings")


def _modules(root: Path) -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for path in (root / pkg).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _targets(name: str, path: Path, node, modules) -> list[str]:
    """The project modules an import statement in module ``name`` reaches (``from p import m``:
    the module p.m where there is one, else p)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] in PACKAGES]
    base = node.module or ""
    if node.level:
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        here = here[: len(here) - (node.level - 1)]
        base = ".".join(here + ([node.module] if node.module else []))
    if base.split(".")[0] not in PACKAGES:
        return []
    return [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]


def import_graph(root: Path = ROOT, type_hints: bool = False) -> dict[str, set[str]]:
    """Every module's project imports; with ``type_hints``, the annotation-only ones too."""
    modules = _modules(root)
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {  # `if TYPE_CHECKING:` imports never run: annotations only
            id(n)
            for block in ast.walk(tree)
            if isinstance(block, ast.If) and getattr(block.test, "id", "") == "TYPE_CHECKING"
            for n in ast.walk(block)
        }
        for node in ast.walk(tree):
            if id(node) in typing_only and not type_hints:
                continue
            if isinstance(node, ast.Import | ast.ImportFrom):
                graph[name].update(t for t in _targets(name, path, node, modules) if t != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Import circles: strongly connected groups of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in list(graph):
        if v not in index:
            visit(v)
    return out


def _part(module: str) -> str:
    """The part of the floor plan a module belongs to."""
    parts = module.split(".")
    if parts[0] == "attention_core":
        if len(parts) > 1 and parts[1] in SUBPACKAGES:
            return f"core/{parts[1]}"
        return "core" if len(parts) > 1 else "core/api"
    if len(parts) == 1:
        return "scenes/api"
    if parts[1] in ("kit", "mobjects", "pipeline", "outputs", "cli", "parts", "speech"):
        return f"scenes/{parts[1]}"
    return "scenes/scene"


# what each part may never import (its own part and those below it are fine)
NEVER = {
    "core": ("core/example", "core/models", "core/readings", "core/api", "scenes"),
    "core/example": ("core/models", "core/readings", "core/api", "scenes"),
    "core/models": ("core/readings", "core/api", "scenes"),
    "core/readings": ("core/models", "scenes"),
    "scenes/mobjects": ("scenes/kit", "scenes/scene", "scenes/parts", "scenes/pipeline"),
    "scenes/kit": (
        "scenes/scene",
        "scenes/parts",
        "scenes/pipeline",
        "scenes/outputs",
        "scenes/cli",
    ),
    # the narration's voice and spoken forms: below the kit, which speaks its captions
    "scenes/speech": (
        "scenes/kit",
        "scenes/scene",
        "scenes/parts",
        "scenes/pipeline",
        "scenes/outputs",
        "scenes/cli",
    ),
    "scenes/scene": ("scenes/scene", "scenes/pipeline", "scenes/outputs", "scenes/cli"),
    "scenes/parts": ("scenes/scene", "scenes/pipeline", "scenes/outputs", "scenes/cli"),
    "scenes/pipeline": ("scenes/scene", "scenes/parts", "scenes/outputs", "scenes/cli"),
    "scenes/outputs": ("scenes/scene", "scenes/parts", "scenes/cli"),
}
# the two bridges from the math to the example: an example's trace is every number of it
BRIDGES = {"attention_core.trace", "attention_core.encoder_trace"}


def violations(graph) -> list[str]:
    found = []
    for a, targets in graph.items():
        for b in sorted(targets):
            pa, pb = _part(a), _part(b)
            if pa == "scenes/scene" and pb == "scenes/scene" and b == "scenes":
                continue
            if a in BRIDGES and pb == "core/example":
                continue
            if pa == pb and pa != "scenes/scene":
                continue
            if any(pb == n or pb.startswith(n + "/") for n in NEVER.get(pa, ())):
                found.append(f"{a} → {b}")
    return found


def test_no_import_circles():
    assert cycles(import_graph()) == []


def test_no_import_circles_even_for_type_hints():
    """An import made for annotations only still ties two modules: none go round either."""
    assert cycles(import_graph(type_hints=True)) == []


def test_every_part_imports_only_what_the_floor_plan_allows():
    assert violations(import_graph()) == []


def test_the_small_core_is_what_sits_at_the_top():
    """The math a newcomer reads first: one module a concept at attention_core's top level."""
    top = sorted(p.stem for p in (ROOT / "attention_core").glob("*.py") if p.stem != "__init__")
    assert len(top) <= 16, top
    for concept in ("attention", "softmax", "masks", "positional", "rotary", "multihead"):
        assert concept in top
    assert sorted(
        p.name
        for p in (ROOT / "attention_core").iterdir()
        if p.is_dir() and (p / "__init__.py").exists()
    ) == sorted(SUBPACKAGES)


def test_the_core_never_imports_manim():
    for path in (ROOT / "attention_core").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                assert not any(n.split(".")[0] == "manim" for n in names), path


@pytest.mark.parametrize(
    "edge,expected",
    [
        ({"attention_core.softmax": {"attention_core.readings.claims"}}, "violation"),
        ({"scenes.softmax_scene": {"scenes.weighted_sum"}}, "violation"),
        ({"scenes.kit.base": {"scenes.pipeline.run"}}, "violation"),
        (
            {
                "attention_core.models.a": {"attention_core.models.b"},
                "attention_core.models.b": {"attention_core.models.a"},
            },
            "cycle",
        ),
    ],
)
def test_the_checks_can_fail(edge, expected):
    """A scene importing another scene, the math importing a claim, the kit importing the
    pipeline, and two modules importing each other are each found."""
    if expected == "cycle":
        assert cycles(edge) == [sorted(edge)]
    else:
        assert violations(edge)
