"""The numbers in the DotProducts and AttentionMatrix stills of zao-shang-hao, read from the
rendered 1080p image by OCR, are the core's."""

import pytest

import attention_core as ac
from ocr import TESSERACT, misread_matrix
from scenes.registry import find


@pytest.mark.parametrize(
    "scene,array,digits", [("DotProducts", "scores", 2), ("AttentionMatrix", "weights", 3)]
)
def test_matrix_numbers_read_back_by_ocr(scene, array, digits):
    assert TESSERACT, "tesseract-ocr is not installed (make test installs it)"
    trace = ac.trace_example(ac.PRESETS["zao-shang-hao"])
    truth = getattr(trace.attention, array)
    misread = misread_matrix(find(scene).load(), ac.PRESETS["zao-shang-hao"], truth, digits)
    assert not misread, misread
