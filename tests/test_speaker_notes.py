"""Speaker notes and the explorable's TOML, without rendering: every number in a note is the
core's (looked up by role), a note's markdown for reveal.js reads back as itself, and the
explorable's TOML strings read back as the labels they were made from."""

import tomllib

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import attention_core as ac
from attention_core.example.loading import load_example
from scenes.outputs import explorer, notes

ZAO = ac.trace_example(load_example("zao-shang-hao"))


def roles(*rs, digits=2):
    return [{"role": list(r), "digits": digits} for r in rs]


def test_a_row_of_weights_is_one_line_in_index_order_from_the_core():
    w = ac.softmax(ZAO.heads[0].scaled[0])  # the core itself, not the trace's weights
    shown = roles(("weights", 0, 0, 2), ("weights", 0, 0, 0), ("weights", 0, 0, 1))
    (zh,) = notes.number_lines(ZAO, shown, "zh")
    (en,) = notes.number_lines(ZAO, shown, "en")
    row = ", ".join(f"{v:.3f}" for v in w)
    assert zh.text() == f"早 的权重: {row}" and en.text() == f"weights of 早: {row}"
    assert row == "0.359, 0.330, 0.312"


def test_softmax_of_the_scores_as_they_are_is_called_the_weights():
    shown = roles(*(("sharpened_scaled", 0, 0, 1.0, j) for j in range(3)))
    shown += roles(("sharpened_scaled", 0, 0, 10.0, 0))
    first, second = notes.number_lines(ZAO, shown, "en")
    assert first.text() == "weights of 早: 0.359, 0.330, 0.312"
    assert second.label == "weights of 早, scores ×10" and second.columns == (0,)


def test_part_of_a_row_says_which_entries_and_singles_keep_their_own_lines():
    lines = notes.number_lines(
        ZAO, roles(("scores", 0, 1, 2), ("norm_q", 0, 1), ("scores", 0, 1, 0)), "en"
    )
    s = ZAO.heads[0].scores[1]
    assert [x.text() for x in lines] == [
        f"scores of q(上): [1] {s[0]:.3f}, [3] {s[2]:.3f}",
        f"‖q(上)‖: {np.linalg.norm(ZAO.heads[0].Q[1]):.3f}",
    ]


def test_a_note_is_the_caption_both_languages_then_the_numbers():
    step = {
        "key": "tokens",
        "caption": "早、上、好 的坐标",
        "caption_other": "The coordinates",
        "numbers": roles(("X", 0, 0), ("X", 0, 1), ("d_k", 0), digits=0),
    }
    assert notes.step_note(ZAO, step, "zh").split("\n") == [
        "早、上、好 的坐标",
        "The coordinates",
        "x(早): 1, 1",  # shown as whole numbers on screen: whole numbers in the note
        "dₖ: 2",
    ]


@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_markdown_notes_read_back_as_themselves(text):
    lines = [line.strip() for line in text.replace("\r", "\n").split("\n")]
    note = "\n".join(line for line in lines if line)
    assert notes.from_markdown(notes.as_markdown(note)) == note


@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_toml_strings_read_back_as_the_label(label):
    assert tomllib.loads("a = " + explorer.toml_string(label))["a"] == label


def test_the_examples_toml_around_new_embeddings_is_the_same_example(tmp_path):
    for name in ("zao-shang-hao", "causal", "padding"):
        ex = load_example(name)
        head, tail = explorer.toml_parts(ex)
        E = (ex.embeddings * 3.7 + 1e-7).tolist()
        rows = ",\n".join(f"  [{a!r}, {b!r}]" for a, b in E)
        path = tmp_path / f"{name}.toml"
        path.write_text(head + f"embeddings = [\n{rows}\n]\n" + tail, encoding="utf-8")
        back = load_example(str(path))
        assert back.embeddings.tolist() == E
        assert {**back.to_dict(), "embeddings": 0} == {**ex.to_dict(), "embeddings": 0}


def test_the_explorable_is_for_one_head_of_2d_self_attention():
    assert explorer.why_not(load_example("zao-shang-hao")) is None
    assert explorer.why_not(load_example("causal")) is None
    assert "2-D" in explorer.why_not(load_example("two-heads"))
    assert "cross" in explorer.why_not(load_example("cross-zh-en"))


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["zao-shang-hao", "cross-zh-en"])
def test_every_step_of_every_scene_has_notes_with_the_cores_numbers(preset):
    """A dry run of each scene: each step's note starts with its caption and lists every number
    on screen with the core's value (named in words, not by a role's raw name)."""
    from scenes.kit.look import Look
    from scenes.kit.registry import SCENES
    from scenes.kit.roles import resolve
    from scenes.mobjects.numfmt import fmt
    from scenes.pipeline.step_notes import on_screen
    from scenes.pipeline.stills import run_steps

    ex = load_example(preset)
    trace = ac.trace_example(ex)
    look = Look.for_example(ex, lang="en")
    for scene in (s for s in SCENES if s.why_not(ex) is None):
        stills = run_steps(scene.load(), ex, look=look, frames=False, snapshot=on_screen)
        for still in stills:
            step = {"key": still.key, "caption": still.caption, "numbers": still.snapshot}
            note = notes.step_note(trace, step, "en").split("\n")
            assert note[0] == still.caption
            for n in still.snapshot:
                d = n["digits"] and max(n["digits"], 3)
                assert any(fmt(resolve(trace, tuple(n["role"])), d) in line for line in note[1:])
            for line in note[1:]:
                assert not line.startswith(tuple(f"{r['role'][0]}[" for r in still.snapshot))
