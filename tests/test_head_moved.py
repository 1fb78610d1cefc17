"""HeadMoved (issue 41): what one head moved into the followed token, E + ΔE, read in words.

Every number the scene shows is the one ``numbers --json`` gives as ``"moved"`` (its own
``as_dict``, what the command prints), and the words claim only what the readout supports: on the
committed SmolLM2 sentence the readout says little, and the scene says so and nothing more. The
layout of the scene (16:9, 4:3, 1:1 on the presets, random examples and a real sentence) is
checked by the registry-driven tests (test_scene_layout, test_pictures, test_followed_cell_kept);
its last frame by test_scene_frames.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import attention_core as ac
from attention_core.models.model_residual import decoder_request
from scene_checks import geometry_problems
from scenes.kit.look import Look
from scenes.kit.registry import find
from scenes.kit.views import moved_of, moved_parts
from scenes.mobjects.numfmt import fmt
from scenes.mobjects.text import Num
from scenes.outputs.numbers_report import as_dict
from scenes.pipeline.stills import run_steps

BAKER = Path(__file__).resolve().parents[1] / "examples" / "smollm2-baker.toml"


def _run(example, aspect="16:9"):
    """Each step's (key, caption, the HeadMoved numbers on screen at its end); fails on any
    layout problem of any step (nothing overlapping, nothing outside the frame)."""

    def numbers(scene):
        nums = [
            m
            for top in scene.mobjects
            for m in top.get_family()
            if isinstance(m, Num) and str(m.role[0]).startswith("moved_")
        ]
        return nums, geometry_problems(scene)

    look = Look.for_example(example, lang="en", aspect=aspect)
    stills = run_steps(find("HeadMoved").load(), example, look=look, frames=False, snapshot=numbers)
    problems = [f"{s.key}: {p}" for s in stills for p in s.snapshot[1]]
    assert not problems, "\n".join(problems[:20])
    return [(s.key, s.caption, s.snapshot[0]) for s in stills]


def _expected(trace, moved: dict, role: tuple) -> float:
    """The value ``numbers --json``'s "moved" gives for a role (the rest's arrow and the layer,
    which it does not list, from the core)."""
    kind, *idx = role
    r = moved["readout"]
    if kind == "moved_norm":
        return moved["terms"][idx[2]]["norm"]
    if kind in ("moved_before", "moved_after_p", "moved_pushed"):
        field = {"moved_before": "before", "moved_after_p": "after", "moved_pushed": "pushed"}
        return r[field[kind]][idx[2]][1]
    if kind == "moved_key_rank":
        return r["key"][("rank_before", "rank_after")[idx[2]]]
    if kind == "moved_key_change":
        return r["key"]["change"]
    if kind == "moved_rest_norm":
        mv = moved_of(trace)
        return ac.norm(mv.terms[moved_parts(trace, mv)[1]].sum(axis=0))
    assert kind == "moved_layer", role
    return decoder_request(trace.example)[1]


def _check_numbers(example, steps) -> dict:
    trace = ac.trace_example(example)
    moved = as_dict(trace)["moved"]
    seen = 0
    for _key, _caption, nums in steps:
        for num in nums:
            want = _expected(trace, moved, num.role)
            assert num.value == pytest.approx(want, rel=1e-12, abs=1e-12), num.role
            assert num.shown == fmt(want, num.digits), num.role
            seen += 1
    assert seen, "no number of what the head moved on screen"
    return moved


def test_the_baker_sentence_shows_the_json_numbers_and_claims_nothing():
    example = ac.load_example(str(BAKER))
    steps = _run(example)
    assert [k for k, _, _ in steps] == ["token", "terms", "sum", "words"]
    moved = _check_numbers(example, steps)
    r = moved["readout"]
    assert r["says_little"] and not r["key"]["pushed"]  # the committed sentence: it says little
    words = steps[-1][1]
    assert "says little" in words and "claims no meaning" in words
    assert "copy" not in words.lower()
    kinds = {n.role[0] for n in steps[-1][2]}
    assert {"moved_norm", "moved_before", "moved_after_p", "moved_pushed"} <= kinds
    assert {"moved_key_rank", "moved_key_change", "moved_layer"} <= kinds


def test_a_users_example_draws_the_terms_and_reads_no_words():
    example = ac.PRESETS["zao-shang-hao"]
    steps = _run(example)
    moved = _check_numbers(example, steps)
    assert moved["readout"] is None and moved["after"] is not None
    assert "needs a model with an unembedding" in steps[-1][1]
    assert {n.role[0] for n in steps[-1][2]} == {"moved_norm"}


@pytest.mark.parametrize(
    "name,aspect",
    [("smollm2-baker", "4:3"), ("zao-shang-hao", "4:3"), ("zao-shang-hao", "1:1")],
)
def test_the_other_aspects_lay_out_cleanly(name, aspect):
    example = ac.load_example(str(BAKER) if name == "smollm2-baker" else name)
    assert [k for k, _, _ in _run(example, aspect)] == ["token", "terms", "sum", "words"]


def test_copying_is_said_only_where_the_key_is_pushed_up(monkeypatch):
    """The two captions no committed sentence reaches (both say little), on the baker sentence's
    numbers with ``says_little`` cleared: 'copying' where ΔE puts the key's token among those it
    pushes up most (``key_pushed``), else that this readout does not show it copying."""
    from dataclasses import replace

    import scenes.head_moved as scene_module

    example = ac.load_example(str(BAKER))
    for pushed in (True, False):

        def moved(trace, h=None, i=None, pushed=pushed):
            mv = moved_of(trace, h, i)
            r = mv.readout
            ids = (r.key_token, *r.pushed_ids[1:]) if pushed else r.pushed_ids
            return replace(mv, readout=replace(r, says_little=None, pushed_ids=ids))

        monkeypatch.setattr(scene_module, "moved_of", moved)
        words = _run(example)[-1][1]
        assert ("This is copying" in words) is pushed, words
        assert ("does not show it copying" in words) is not pushed, words
        assert "says little" not in words


def test_an_unchanged_readout_is_not_said_to_say_little(monkeypatch):
    """Where ΔE changes none of the top 5 (``says_little == "unchanged"``) E may read clearly
    ("was" 0.90): the caption says ΔE left the top 5 as they were, not that the readout says
    little (a reviewer's own head: "says little" over "E reads: was 0.895")."""
    from dataclasses import replace

    import scenes.head_moved as scene_module

    def moved(trace, h=None, i=None):
        mv = moved_of(trace, h, i)
        return replace(mv, readout=replace(mv.readout, says_little="unchanged"))

    monkeypatch.setattr(scene_module, "moved_of", moved)
    words = _run(ac.load_example(str(BAKER)))[-1][1]
    assert "leaves the readout's top 5 as they were" in words, words
    assert "says little" not in words and "copy" not in words.lower(), words
