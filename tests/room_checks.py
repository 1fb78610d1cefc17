"""Issue 38, "seen at real size": the room a crowded scene leaves empty, checked on each step's
still of a scene run that already happens (``scene_checks.real_size_problems`` calls
:func:`room_problems`).

- Embeddings' first step drew the plane alone, a third of the frame empty until the table came:
  what is on screen spans most of the content's width from the first step;
- Overview at 1:1 among many tokens showed its matrices as 1 row × 2 columns beside the tokens'
  plane: the matrices' steps have the body's width, at least :data:`LEAST_COLUMNS` columns;
- HeadMoved's and Overview's first stills drew their plane small in the room later steps share
  (at 1:1 E's arrow a strip at the top, the tokens' plane a corner): the picture (its shapes,
  no text) spans at least :data:`FIRST_SPAN_SHAPES` of the content's width or height (a plane
  of a tall view fills the height, of E alone the width);
- EncoderBlock among many tokens showed one column of 8 in slots a third empty at 16:9 and 4:3
  (row labels as wide as "explanations", two decimals): each matrix shows at least
  :data:`ENCODER_COLUMNS` columns there (:func:`encoder_columns_problems`, from
  ``scene_checks.geometry_problems``: the lecturer's at-the-limits run);
- Overview's last still among many drew the values' plane in the tokens' column at 16:9 and 4:3
  (a review's 21-token sentence: 130 × 80 px, its arrows 15 px long, the followed row's weights
  wide beside it): the drawn values span at least :data:`VALUES_SPAN` of the content's width or
  height.
"""

from __future__ import annotations

from scenes.mobjects.layout import box_of
from scenes.mobjects.matrix import LabelledMatrix

FIRST_SPAN = 0.8  # the least share of the content's width Embeddings' first still spans
LEAST_COLUMNS = 3  # the followed key's and the keys the query weighs most (1 or 2 before)
MATRIX_STEPS = ("qk", "scale", "masked_note", "softmax")
ENCODER_COLUMNS = 2  # EncoderBlock among many tokens at 16:9 and 4:3 (1 before)
FIRST_STEPS = {"HeadMoved": "token", "Overview": "formula"}  # each one's first still
FIRST_SPAN_SHAPES = 0.55  # its shapes' span, of the content's width or height (0.30–0.39 before)
VALUES_SPAN = 0.3  # Overview's values among many: their span, of the content's width or height


def room_problems(scene) -> list[str]:
    from scene_checks import on_screen, picture_boxes, texts

    step = (getattr(scene, "_open_step", None) or scene.steps[-1])["key"]
    out = []
    if scene.scene_name == "Embeddings" and step == "plane":
        skip = {id(m) for m in (*scene.title_mob.get_family(), *scene.caption_mob.get_family())}
        boxes = picture_boxes(scene) + [box_of(m) for m in texts(scene) if id(m) not in skip]
        content = scene.regions.content
        span = max(b.x1 for b in boxes) - min(b.x0 for b in boxes)
        if span < FIRST_SPAN * content.width:
            out.append(f"the first still spans {span / content.width:.0%} of the content's width")
    if FIRST_STEPS.get(scene.scene_name) == step:
        out += first_still_problems(scene)
    many = max(scene.example.n, scene.example.n_keys) > 8
    square = scene.look.aspect == "1:1"
    if scene.scene_name == "Overview" and square and many and step in MATRIX_STEPS:
        for m in on_screen(scene, LabelledMatrix):
            if m.get_fill_opacity() == 0 and not len(m.backgrounds):
                continue
            if len(m.shown_columns) < min(LEAST_COLUMNS, m.shape[1]):
                out.append(f"a matrix of {len(m.shown_columns)} columns at 1:1")
    if scene.scene_name == "Overview" and many and step == "values":
        span, content = box_of(scene.values_drawn), scene.regions.content
        share = max(span.width / content.width, span.height / content.height)
        if share < VALUES_SPAN:
            out.append(f"Overview's values span {share:.0%} of the content's width or height")
    return out


def first_still_problems(scene) -> list[str]:
    """The first still's picture scaled to the room it has (:data:`FIRST_STEPS`)."""
    from scene_checks import picture_boxes

    boxes, c = picture_boxes(scene), scene.regions.content
    if not boxes:
        return ["the first still draws no picture"]
    x0, y0 = max(min(b.x0 for b in boxes), c.x0), max(min(b.y0 for b in boxes), c.y0)
    x1, y1 = min(max(b.x1 for b in boxes), c.x1), min(max(b.y1 for b in boxes), c.y1)
    w, h = max(x1 - x0, 0) / c.width, max(y1 - y0, 0) / c.height
    if max(w, h) < FIRST_SPAN_SHAPES:
        return [f"the first still's picture spans {w:.0%} × {h:.0%} of the content ({w * h:.0%})"]
    return []


def encoder_columns_problems(scene) -> list[str]:
    """EncoderBlock among more than 8 tokens at 16:9 and 4:3: every matrix on screen shows at
    least :data:`ENCODER_COLUMNS` of its columns."""
    from scene_checks import on_screen

    ex = scene.example
    if scene.scene_name != "EncoderBlock" or ex.n <= 8 or scene.look.aspect == "1:1":
        return []
    return [
        f"a {m.shape[0]} × {m.shape[1]} matrix shows {len(m.shown_columns)} column(s)"
        for m in on_screen(scene, LabelledMatrix)
        if len(m.shown_columns) < min(ENCODER_COLUMNS, m.shape[1])
    ]
