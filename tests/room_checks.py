"""Issue 38, "seen at real size": the room a crowded scene leaves empty, checked on each step's
still of a scene run that already happens (``scene_checks.real_size_problems`` calls
:func:`room_problems`).

- Embeddings' first step drew the plane alone, a third of the frame empty until the table came:
  what is on screen spans most of the content's width from the first step;
- Overview at 1:1 among many tokens showed its matrices as 1 row × 2 columns beside the tokens'
  plane: the matrices' steps have the body's width, at least :data:`LEAST_COLUMNS` columns.
"""

from __future__ import annotations

from scenes.mobjects.layout import box_of
from scenes.mobjects.matrix import LabelledMatrix

FIRST_SPAN = 0.8  # the least share of the content's width Embeddings' first still spans
LEAST_COLUMNS = 3  # the followed key's and the keys the query weighs most (1 or 2 before)
MATRIX_STEPS = ("qk", "scale", "masked_note", "softmax")


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
    many = max(scene.example.n, scene.example.n_keys) > 8
    square = scene.look.aspect == "1:1"
    if scene.scene_name == "Overview" and square and many and step in MATRIX_STEPS:
        for m in on_screen(scene, LabelledMatrix):
            if m.get_fill_opacity() == 0 and not len(m.backgrounds):
                continue
            if len(m.shown_columns) < min(LEAST_COLUMNS, m.shape[1]):
                out.append(f"a matrix of {len(m.shown_columns)} columns at 1:1")
    return out
