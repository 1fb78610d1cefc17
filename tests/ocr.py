"""Reading numbers back from a rendered frame with Debian's tesseract-ocr."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
from manim import config
from PIL import Image, ImageOps

TESSERACT = shutil.which("tesseract")


def pixel_box(mob, frame: np.ndarray, pad: float = 0.02, size=None, ink: bool = False):
    """The mobject's bounding box in pixel coordinates of ``frame``, whose width and height in
    scene units are ``size`` (default: the config's, as while a scene runs); with ``ink``, its
    ink's box (``scenes.mobjects.layout.box_of``), not its line's, which reaches above and below
    a label's ink (``scenes.mobjects.text_line``)."""
    h, w = frame.shape[:2]
    fw, fh = size or (config.frame_width, config.frame_height)
    if ink:
        from scenes.mobjects.layout import box_of

        b = box_of(mob)
        x0, y0, x1, y1 = b.x0, b.y0, b.x1, b.y1
    else:
        (x0, y0, _), (x1, y1, _) = mob.get_corner([-1, -1, 0]), mob.get_corner([1, 1, 0])
    to_x = lambda x: int(round((x + fw / 2) / fw * w))  # noqa: E731
    to_y = lambda y: int(round((fh / 2 - y) / fh * h))  # noqa: E731
    return (
        max(0, to_x(x0 - pad)),
        max(0, to_y(y1 + pad)),
        min(w, to_x(x1 + pad)),
        min(h, to_y(y0 - pad)),
    )


def read_number(frame: np.ndarray, box) -> str:
    """OCR of one cell: grey, inverted (dark text on light), enlarged, one line of digits."""
    return read_text(frame, box, whitelist="0123456789.-")


def read_text(
    frame: np.ndarray,
    box,
    whitelist: str | None = None,
    turn: int = 0,
    line_px: int = 100,
    psm: int = 7,
) -> str:
    """OCR of one line of text in ``box`` (characters limited to ``whitelist`` when given), the
    crop turned by ``turn`` degrees counter-clockwise first (-90 for a label turned upright,
    read bottom to top), enlarged to about ``line_px`` pixels a line; ``psm``: tesseract's page
    segmentation, 7 a line of text, 8 one word."""
    return _tesseract(_prepared(frame, box, turn, line_px), psm, whitelist)


def read_lines(frame: np.ndarray, boxes, turns, line_px: int = 100) -> list[str] | None:
    """OCR of one line of text in each of ``boxes`` (each crop turned by its ``turns``, as
    :func:`read_text` prepares it), in one call of tesseract: the crops stacked one under the
    other, read as a block (a still's dozen labels cost one start of tesseract, not twelve).
    None where tesseract did not give one line a crop (a crop read as two, or none)."""
    crops = [_prepared(frame, box, turn, line_px) for box, turn in zip(boxes, turns)]
    if not crops:
        return []
    gap = 40
    width = max(c.width for c in crops)
    page = Image.new("L", (width, sum(c.height for c in crops) + gap * len(crops)), 255)
    y = 0
    for crop in crops:
        page.paste(crop, (0, y))
        y += crop.height + gap
    lines = [line.strip() for line in _tesseract(page, 6, None).splitlines() if line.strip()]
    return lines if len(lines) == len(crops) else None


def _prepared(frame: np.ndarray, box, turn: int, line_px: int) -> Image.Image:
    """The crop ``box`` of ``frame`` as tesseract reads best: dark text on white, turned by
    ``turn``, enlarged to about ``line_px`` pixels a line, a white border round it."""
    x0, y0, x1, y1 = box
    grey = np.asarray(Image.fromarray(frame[y0:y1, x0:x1, :3]).convert("L"), dtype=float)
    background = np.median(grey)  # the text is the minority: the extreme farthest from it
    text_level = grey.max() if grey.max() - background > background - grey.min() else grey.min()
    # dark text on white, its anti-aliasing kept, enlarged to about 100 px a line (tesseract
    # reads digits of that size best: smaller ones blur, larger ones split)
    ink = np.clip((grey - background) / ((text_level - background) or 1.0), 0.0, 1.0)
    img = Image.fromarray((255 * (1.0 - ink)).astype(np.uint8))
    if turn:
        img = img.rotate(turn, expand=True, fillcolor=255)
    scale = float(np.clip(line_px / max(img.height, 1), 1, 4))
    if line_px == 100:  # the default: a whole factor, as every reading has always been made
        scale = int(np.clip(round(100 / max(img.height, 1)), 1, 4))
    size = (round(img.width * scale), round(img.height * scale))
    img = img.resize(size, Image.LANCZOS)
    return ImageOps.expand(img, border=20, fill=255)


def _tesseract(img: Image.Image, psm: int, whitelist: str | None) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cell.png"
        img.save(path)
        out = subprocess.run(
            [TESSERACT, str(path), "stdout", "--psm", str(psm)]
            + (["-c", f"tessedit_char_whitelist={whitelist}"] if whitelist else []),
            capture_output=True,
            text=True,
            timeout=60,
        )
    return out.stdout.strip()


def misread_matrix(scene_cls, example, truth, digits: int, look=None) -> dict:
    """Render ``scene_cls``'s last still at 1080p and OCR every matrix cell: {(i, j): (read,
    expected)} for each cell read wrongly (empty when all are right)."""
    from scenes.mobjects.numfmt import fmt
    from scenes.pipeline.stills import run_steps

    stills = run_steps(
        scene_cls, example, look=look, pixel_height=1080, snapshot=lambda s: dict(s.matrix.cells)
    )
    frame, cells = stills[-1].frame, stills[-1].snapshot
    assert len(cells) == truth.size, (len(cells), truth.shape)
    out = {}
    for (i, j), mob in cells.items():
        # round the number's ink: its line's box (scenes.mobjects.text_line) reaches past a
        # framed cell's edge onto its frame's dark halo, which tesseract read as bars ('')
        seen = read_number(frame, pixel_box(mob, frame, pad=0.08, ink=True))
        if seen != fmt(truth[i, j], digits):
            out[(i, j)] = (seen, fmt(truth[i, j], digits))
    return out
