"""Issue 39: an example that names one head among several (``head = 2``, as `from-model
--all-heads --find` writes ``head = 9``) is explained with that head's numbers everywhere.

The single-head scenes drew head 2 but tagged their numbers with roles of head 1 (78 roles
hard-coded the index 0), so the speaker notes, which look numbers up by role, quoted head 1
("weights of he: …" of another head), and the number check itself failed on
``replace(PRESETS["two-heads"], head=2)``: Softmax's ``('scaled', 0, 1, 0)`` showed 0.409…
while the core said 1.634…. Here every number on screen is checked against the core by its
role, every role names head 2, and the notes made from those roles quote head 2."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import attention_core as ac
from scene_checks import numbers_problems, on_screen
from scenes.kit.look import Look
from scenes.kit.registry import SCENES
from scenes.kit.roles import indices_of
from scenes.mobjects.text import Num
from scenes.outputs import notes
from scenes.pipeline.stills import run_steps

EXAMPLE = replace(ac.PRESETS["two-heads"], head=2)
TRACE = ac.trace_example(EXAMPLE)
ROOT = Path(__file__).resolve().parent.parent
# head 9 of a trained layer's 12 (as `from-model --all-heads --find` names one)
LAYER_HEAD_9 = replace(ac.load_example(ROOT / "examples" / "minilm-cat-layer1.toml"), head=9)


def _head_roles(scene) -> list[tuple]:
    """The roles on screen that name a head (their first index is ``h``)."""
    return [m.role for m in on_screen(scene, Num) if indices_of(m.role[0])[:1] == ("h",)]


def _cases():
    return [
        pytest.param(s, id=s.name)
        for s in SCENES
        if s.why_not(EXAMPLE) is None and s.load().explains_one_head
    ]


@pytest.mark.parametrize("name", ["Softmax", "AttentionMatrix", "DotProducts"])
def test_head_9_of_a_trained_layer_is_the_head_of_every_number(name):
    """Head 9 of MiniLM's layer 1 (12 heads): every number its scenes show is head 9's by its
    role, and the caption names numbers of head 9 only."""
    trace = ac.trace_example(LAYER_HEAD_9)
    look = Look.for_example(LAYER_HEAD_9, lang="en")

    def snapshot(s):
        wrong = [r for r in _head_roles(s) if r[1] != 8]
        return numbers_problems(s) + [f"role of another head: {r!r}" for r in wrong]

    scene = next(s for s in SCENES if s.name == name)
    stills = run_steps(scene.load(), LAYER_HEAD_9, look=look, frames=False, snapshot=snapshot)
    problems = [f"{st.key}: {p}" for st in stills for p in st.snapshot]
    assert not problems, "\n".join(problems[:20])
    assert trace.attention is trace.heads[8]
    # the followed pair the captions name is head 9's
    pair = ac.followed_pair(trace)
    w = trace.heads[8].weights[pair.query, pair.key]
    said = " ".join(st.caption for st in stills)
    if f"{w:.3f}" not in said:  # named where a caption gives it, never another head's
        other = trace.heads[0].weights[pair.query, pair.key]
        assert f"{other:.3f}" not in said or np.isclose(other, w, atol=5e-4)


def test_the_heads_differ_where_the_scenes_show_them():
    """Head 1's numbers would not pass for head 2's: the check below can fail."""
    assert not np.allclose(TRACE.heads[0].scaled, TRACE.heads[1].scaled)
    assert TRACE.attention is TRACE.heads[1]


@pytest.mark.parametrize("scene", _cases())
def test_a_named_head_is_the_head_every_number_comes_from(scene):
    look = Look.for_example(EXAMPLE, lang="en")

    def snapshot(s):
        wrong = [r for r in _head_roles(s) if r[1] != 1]
        return numbers_problems(s) + [f"role of another head: {r!r}" for r in wrong], [
            m.role for m in on_screen(s, Num)
        ]

    stills = run_steps(scene.load(), EXAMPLE, look=look, frames=False, snapshot=snapshot)
    problems = [f"{st.key}: {p}" for st in stills for p in st.snapshot[0]]
    assert not problems, "\n".join(problems[:20])
    if scene.name == "Softmax":  # the notes made from the roles on screen quote head 2
        # a step's note is made from that step's numbers (notes.step_note): the last step's
        # one share of the followed row (eeb465c) is not a fourth value of the share step's row
        rows = [
            line.values
            for st in stills
            for line in notes.number_lines(
                TRACE, [{"role": list(r), "digits": 3} for r in st.snapshot[1]], "en"
            )
            if "weights of" in line.label and len(line.values) == EXAMPLE.n_keys
        ]
        assert rows, "the notes list no row of weights"
        for values in rows:
            assert any(np.allclose(values, r) for r in TRACE.heads[1].weights), values
            assert not any(np.allclose(values, r) for r in TRACE.heads[0].weights), values
