"""A trained model's layer is shown as what it is: PositionalEncoding does not apply (its hidden
states already carry learned positions), EncoderBlock applies only with the attention's own W_O
(never a made-up one labelled MultiHead(X)), and WeightedSum shows the head's output value."""

from pathlib import Path

import pytest

import attention_core as ac
from scenes.kit.registry import BY_NAME
from scenes.mobjects.text import Num
from scenes.pipeline.stills import run_steps

MINILM = Path(__file__).resolve().parent.parent / "examples" / "minilm-cat.toml"


@pytest.fixture(scope="module")
def minilm():
    return ac.load_example(MINILM)


def test_positional_encoding_does_not_apply_to_a_trained_layer(minilm):
    why = BY_NAME["PositionalEncoding"].why_not(minilm)
    assert why is not None and "learned positions" in why
    assert BY_NAME["PositionalEncoding"].why_not(ac.PRESETS["zao-shang-hao"]) is None


def test_encoder_block_needs_the_attentions_own_w_o(minilm):
    """One head of a 12-head layer (d_v = 32 of d_model = 384) would need a made-up W_O."""
    assert "own W_O" in BY_NAME["EncoderBlock"].why_not(minilm)
    assert "from-model --all-heads" in BY_NAME["EncoderBlock"].why_not(minilm)
    assert "own W_O" in BY_NAME["EncoderBlock"].why_not(ac.PRESETS["numpy-3x4"])  # d_v 3 of 4
    assert BY_NAME["EncoderBlock"].why_not(ac.PRESETS["two-heads"]) is None  # its own W_o


def test_encoder_block_says_why_instead_of_making_up_w_o(minilm):
    """Run anyway (plain `manim render`), the scene says why it does not apply: no matrix."""
    stills = run_steps(BY_NAME["EncoderBlock"].load(), ac.PRESETS["numpy-3x4"], frames=False)
    assert [st.key for st in stills] == ["own_wo"]


def test_weighted_sum_shows_the_output_of_a_wide_head(minilm):
    """o([SEP]) = [a, b, c, …, z]: the output's value is on screen, elided in the middle."""

    def output_numbers(scene):
        return sorted(
            {
                m.role[-1]
                for top in scene.mobjects
                for m in top.get_family()
                if isinstance(m, Num) and m.role[:2] == ("output", 0)
            }
        )

    stills = run_steps(BY_NAME["WeightedSum"].load(), minilm, frames=False, snapshot=output_numbers)
    shown = {st.key: st.snapshot for st in stills}["chain"]
    d_v = ac.trace_example(minilm).heads[0].V.shape[1]
    assert len(shown) >= 3 and shown[0] == 0 and shown[-1] == d_v - 1
