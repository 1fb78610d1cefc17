"""Stills end transforms from a copy at once (``scenes.pipeline.stills.AT_ONCE``): a skipped
``TransformFromCopy`` still copied its source and aligned both families piece by piece (most of a
9-head MultiHeadSplit's run) only to end where its target already is. The still it leaves must be
the one Manim's own transform leaves, but for the edges of the pieces that alignment doubled."""

import numpy as np

import attention_core as ac
import scenes.pipeline.stills as stills
from scenes.kit.registry import find


def test_a_still_ending_a_transform_at_once_is_the_one_manim_leaves(monkeypatch):
    ex = ac.PRESETS["cross-zh-en"]  # its outputs arrive by TransformFromCopy from the values
    frames = {}
    for at_once in (False, True):
        monkeypatch.setattr(stills, "AT_ONCE", at_once)
        frames[at_once] = [s.frame for s in stills.run_steps(find("CrossAttention").load(), ex)]
    assert len(frames[False]) == len(frames[True])
    for a, b in zip(frames[False], frames[True]):
        diff = np.abs(a.astype(int) - b.astype(int)).max(axis=-1)
        assert diff.max() <= 24 and (diff > 8).mean() < 1e-3, (diff.max(), (diff > 8).sum())
