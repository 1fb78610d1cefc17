"""Writes the lists the docs take from the code, between their markers, so they cannot drift:

- README.md's scenes: every scene of ``scenes/kit/registry.py`` in teaching order, with its line;
- docs/api.md's public names: every name of ``attention_core.__all__``, grouped as ``__all__``'s
  comments group them, with the summary of its docstring (its first paragraph, on one line).

    .venv/bin/python scripts/docs_lists.py            # write them
    .venv/bin/python scripts/docs_lists.py --check    # exit 1, naming the file, where one differs

``tests/test_docs_lists.py`` runs the check. The docstrings are read when the script runs.
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SCENES_START = (
    "<!-- scenes: written by scripts/docs_lists.py from scenes/kit/registry.py; do not edit -->"
)
SCENES_END = "<!-- end scenes -->"
API_START = (
    "<!-- api: written by scripts/docs_lists.py from attention_core.__all__; do not edit -->"
)
API_END = "<!-- end api -->"


def scenes_list() -> str:
    """The README's table of scenes: name and line, in teaching order."""
    from scenes.kit.registry import SCENES

    rows = ["| Scene | What it shows |", "|---|---|"]
    bar = "\\|"
    rows += [f"| `{s.name}` | {s.summary.replace('|', bar)} |" for s in SCENES]
    return "\n".join(rows)


def summary(obj) -> str:
    """The first paragraph of ``obj``'s docstring on one line, Sphinx roles as code."""
    doc = inspect.getdoc(obj) or ""
    first = " ".join(doc.strip().split("\n\n")[0].split())
    first = re.sub(
        r":\w+:`~?([^`]+)`", lambda m: f"`{m.group(1).lstrip('.').split('.')[-1]}`", first
    )
    return first.replace("``", "`")


def _groups(source: str) -> list[tuple[str, list[str]]]:
    """``__all__``'s names under the comments that head them, in order."""
    body = source[source.index("__all__ = [") :]
    body = body[: body.index("\n]") + 2]
    groups: list[tuple[str, list[str]]] = []
    for line in body.splitlines()[1:-1]:
        line = line.strip()
        if line.startswith("#"):
            groups.append((line.lstrip("# "), []))
        elif line:
            if not groups:
                groups.append(("", []))
            groups[-1][1].extend(re.findall(r"\"(\w+)\"", line))
    return groups


def _entry(name: str, obj) -> str:
    if inspect.isclass(obj) or callable(obj):
        text = summary(obj) or "**no docstring**"
        return f"- `{name}{'' if inspect.isclass(obj) else '()'}`: {text}"
    if isinstance(obj, dict):
        return f"- `{name}`: a dict of {len(obj)}: " + ", ".join(f"`{k}`" for k in obj)
    return f"- `{name}` = `{obj!r}`"


def api_list() -> str:
    """docs/api.md's list: every public name of ``attention_core`` with its summary."""
    import attention_core

    groups = _groups((ROOT / "attention_core" / "__init__.py").read_text(encoding="utf-8"))
    listed = [n for _, names in groups for n in names]
    if sorted(listed) != sorted(attention_core.__all__):  # __all__ not written as expected
        groups = [("", list(attention_core.__all__))]
    out = []
    for heading, names in groups:
        if heading:
            out += ["", f"**{heading[0].upper()}{heading[1:]}**", ""]
        out += [_entry(n, getattr(attention_core, n)) for n in names]
    return "\n".join(out).strip("\n")


def replaced(text: str, start: str, end: str, content: str) -> str:
    """``text`` with what lies between the lines ``start`` and ``end`` replaced by ``content``."""
    if start not in text or end not in text:
        raise SystemExit(f"docs_lists: the markers {start!r} … {end!r} are missing")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{content}\n{end}{tail}"


TARGETS = (
    ("README.md", SCENES_START, SCENES_END, scenes_list),
    ("docs/api.md", API_START, API_END, api_list),
)


def stale(root: Path = ROOT) -> list[str]:
    """The files whose lists differ from what the code gives now (nothing written)."""
    out = []
    for name, start, end, make in TARGETS:
        text = (root / name).read_text(encoding="utf-8")
        if replaced(text, start, end, make()) != text:
            out.append(name)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    args = parser.parse_args(argv)
    if args.check:
        bad = stale()
        for name in bad:
            print(f"{name}: its list differs from the code; run scripts/docs_lists.py")
        return 1 if bad else 0
    for name, start, end, make in TARGETS:
        path = ROOT / name
        text = path.read_text(encoding="utf-8")
        new = replaced(text, start, end, make())
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(f"wrote {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
