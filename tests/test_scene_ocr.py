"""The numbers in the DotProducts and AttentionMatrix stills of zao-shang-hao, read from the
rendered 1080p image by OCR, are the core's."""

import pytest

import attention_core as ac
from ocr import TESSERACT, pixel_box, read_number
from scenes.mobjects.numfmt import fmt
from scenes.pipeline.stills import run_steps
from scenes.registry import find


@pytest.mark.parametrize(
    "scene,array,digits", [("DotProducts", "scores", 2), ("AttentionMatrix", "weights", 3)]
)
def test_matrix_numbers_read_back_by_ocr(scene, array, digits):
    assert TESSERACT, "tesseract-ocr is not installed (make test installs it)"
    trace = ac.trace_example(ac.PRESETS["zao-shang-hao"])
    truth = getattr(trace.attention, array)
    stills = run_steps(
        find(scene).load(),
        ac.PRESETS["zao-shang-hao"],
        pixel_height=1080,
        snapshot=lambda s: dict(s.matrix.cells),
    )
    frame, cells = stills[-1].frame, stills[-1].snapshot
    assert len(cells) == truth.size
    misread = {}
    for (i, j), mob in cells.items():
        seen = read_number(frame, pixel_box(mob, frame, pad=0.08))
        if seen != fmt(truth[i, j], digits):
            misread[(i, j)] = (seen, fmt(truth[i, j], digits))
    assert not misread, misread
