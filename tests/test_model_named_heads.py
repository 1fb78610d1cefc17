"""Issue 40, part 2: a head is called induction, previous-token or duplicate-token by its
model-level score, never by one sentence's rows. ``from-model`` writes each head's scores into
the example (``head_scores``); AttentionMatrix's reading says first what they name the head, then
what this sentence's rows show.

``examples/smollm2-induction-chef.toml``: SmolLM2's layer 19, head 8 (its induction score 0.97,
the model's best) on a sentence with no repeat — "The chef tasted the soup …": its rows rest on
the first token, and only the model's measure can say it is an induction head. Cheap: one run
of AttentionMatrix a language without frames, up to its reading step.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

import attention_core as ac
from scenes.kit.look import Look
from scenes.kit.registry import find
from scenes.pipeline.stills import run_steps

CHEF = Path(__file__).resolve().parents[1] / "examples" / "smollm2-induction-chef.toml"
LEAD = {
    "en": "Measured across the model (on repeated random tokens), this is an induction head. ",
    "zh": "在整个模型上量（重复的随机词元），这是一个归纳头。",
}


class _Enough(Exception):
    pass


def test_the_committed_example_carries_its_heads_model_scores():
    ex = ac.load_example(CHEF)
    scores = ac.example_head_scores(ex, 0)
    assert scores.induction >= 0.9  # the model's measure: an induction head
    W = ac.trace_example(ex).heads[0].weights
    here = ac.read_head(W, ex.tokens)
    assert here.pattern == "sink"  # this sentence's rows alone: no repeat, nothing to copy
    named = ac.read_head(W, ex.tokens, scores)
    assert named.pattern == "induction" and named.here.pattern == "sink", named.text


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_attention_matrix_names_the_head_by_the_models_measure(lang):
    ex = ac.load_example(CHEF)
    told = []

    def record(scene):
        if scene.steps[-1]["key"] == "head":
            told.append(scene.steps[-1]["caption"])
            raise _Enough

    with contextlib.suppress(_Enough):
        look = Look.for_example(ex, lang=lang, aspect="16:9")
        run_steps(find("AttentionMatrix").load(), ex, look=look, frames=False, snapshot=record)
    assert told and told[0].startswith(LEAD[lang]), told
