"""The HTML the tool writes comes from Jinja2 templates with autoescape on (issue 43): a value
can only reach a page as text, unless the project marks its own CSS, scripts, policy or JSON as
trusted. These checks need no render."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import attention_core as ac
from scenes.outputs import explorer, html, numbers_report

TEMPLATES = Path(html.__file__).parent / "templates"
HOSTILE = ["<script>", '"onx="', "it's", "&amp;", "{{7*7}}"]


def test_every_template_is_escaped_and_none_opts_out():
    env = html._environment()
    names = sorted(p.name for p in TEMPLATES.glob("*.html"))
    assert {"lecture_page.html", "lecture_scene.html", "numbers.html", "explorer.html"} <= set(
        names
    )
    for name in names:
        assert env.autoescape is True or env.autoescape(name), name
        text = (TEMPLATES / name).read_text(encoding="utf-8")
        assert not re.search(r"\|\s*safe\b|autoescape\s+false|Markup\(", text), name


def test_trusted_text_is_only_the_projects_own():
    """html.trusted takes only the page's CSS, scripts, policy and JSON: never a label."""
    sources = [Path(m.__file__).read_text(encoding="utf-8") for m in (explorer, numbers_report)]
    sources.append((Path(html.__file__).parent / "lecture_page.py").read_text(encoding="utf-8"))
    calls = [c for s in sources for c in re.findall(r"html\.trusted\(([^()]*(?:\([^()]*\))?)", s)]
    allowed = re.compile(
        r"^(_csp\(scripts\)|f\"\{STYLE\}\\n\{explorer\.STYLE\}\"|script|"
        r"explorer\.data_json\(ex, lang\)|data_json\(example, lang\))$"
    )
    assert calls and all(allowed.match(c) for c in calls), calls


def _hostile_example(n: int = 5) -> ac.Example:
    tokens = (HOSTILE * 2)[:n]
    return ac.Example(
        name="hostile",
        tokens=[f"{t}{i}" for i, t in enumerate(tokens)],
        embeddings=[[1.0 + i, 0.5 - i] for i in range(n)],
        title="<b>title</b>",
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_numbers_tables_and_explorable_show_hostile_labels_as_text(lang):
    ex = _hostile_example()
    fragments = [
        numbers_report.as_html(ac.trace_example(ex)),
        explorer.section(ex, lang),
        explorer.unavailable(_hostile_example(3), lang),
    ]
    for page in fragments:
        assert "<script>0" not in page and '"onx="' not in page
    assert "&lt;script&gt;0" in fragments[0] and "&#34;onx=&#34;1" in fragments[0]
    assert "it&#39;s2" in fragments[0]
    assert "&amp;amp;3" in fragments[0] and "{{7*7}}4" in fragments[0]
    # inside the explorable's JSON, < > & are \u escapes (a <script> element is not escaped)
    assert "\\u003cscript\\u003e0" in fragments[1]
