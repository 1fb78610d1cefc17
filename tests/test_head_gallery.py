"""HeadGallery: every head of a layer of all-MiniLM-L6-v2 (from `from-model --all-heads`), each
with its reading; renders for every layer; numbers on screen are the core's."""

from __future__ import annotations

import pytest

import attention_core as ac
from scene_checks import layout_problems, numbers_problems
from scenes.pipeline.stills import run_steps
from scenes.registry import find

SENTENCE = "the cat sat on the mat"


@pytest.fixture(scope="module")
def layers(tmp_path_factory):
    from conftest import run_cli

    folder = tmp_path_factory.mktemp("layers")
    out = {}
    for layer in range(1, 7):
        path = folder / f"layer{layer}.toml"
        r = run_cli("from-model", SENTENCE, "--layer", layer, "--all-heads", "-o", path)
        assert r.returncode == 0, r.stderr
        out[layer] = path
    return out


@pytest.mark.slow
def test_head_gallery_renders_every_layer_and_reads_its_heads(layers):
    for layer, path in layers.items():
        ex = ac.load_example(path)
        assert ex.heads == 12
        stills = run_steps(
            find("HeadGallery").load(),
            ex,
            frames=False,
            snapshot=lambda s: layout_problems(s) + numbers_problems(s),
        )
        assert [s.key for s in stills] == ["gallery", "reading"], layer
        problems = [p for s in stills for p in s.snapshot]
        assert not problems, (layer, problems[:5])
        reading = stills[-1].caption
        if layer == 1:  # layer 1 head 3 looks at the previous token
            assert "previous" in reading or "前一个词" in reading, reading


def test_readings_come_from_the_weights():
    """A head that is the identity attends to itself; one shifted by one to the previous token."""
    import numpy as np

    from scenes.head_gallery import PATTERN_WORDS

    assert ac.read_head(np.eye(4)).pattern == "self"
    prev = np.eye(4, k=-1)
    prev[0, 0] = 1.0
    assert ac.read_head(prev).pattern == "previous"
    assert set(PATTERN_WORDS) >= {"previous", "next", "cls", "self", "spread"}
