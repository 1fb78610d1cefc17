"""Issue 38, "seen at real size": WeightedSum's plane and chain and Softmax's bars, checked on
each step's still of a scene run that already happens (``scene_checks.real_size_problems`` calls
:func:`plane_room` and :func:`softmax_room`; ``scene_checks.dropped_or_distant_labels``, which
the limits' runs call, calls :func:`weights_problems`).

- At 1:1 (the 22-token chef sentence) the plane was a strip, 3.15 × 0.89 in a 7.5 × 5 content,
  the chain's links along it unnamed: the plane is square-ish (:data:`ROOM_RATIO`) and large
  (:data:`ROOM_SIDE` of the content's height), and the followed key's link of the chain has its
  term, "0.719 × v(soup)", whole in its colour beside it.
- Softmax at 1:1 (and 4:3): the first still's e^s bars 1.0 high in a content 5 high (the chef
  sentence), 0.02 at the limits under four tiers of key labels, which kept the shares step's
  top half blank: the tallest e^s bar at least :data:`EXP_TALL` of the content's height at the
  first step, and at the shares step a shape at least :data:`TOP_TALL` of it high in the
  content's top half.
- At the limits (12 tokens) the output at 1:1 had no label, and at 4:3 in Chinese v(when) sat
  nearer another arrow than its own tip: the checks real_size_problems makes on the real
  sentences, made on the limits' runs too.
"""

from __future__ import annotations

import numpy as np

ROOM_RATIO = 0.6  # at 1:1 the plane's shorter side at least this share of its longer (0.28)
ROOM_SIDE = 0.5  # and at least this share of the content's height (0.18 and 0.49 before)
TERM_REACH = 0.6  # the followed key's term label within this of its link of the chain
EXP_TALL = 0.12  # Softmax at 1:1: its tallest e^s bar's share of the content's height (0.004)
EXP_SPAN = 0.9  # and what its first still draws spans this share of the content's height (83 %)
TOP_TALL = 0.15  # and at the shares, the tallest shape's in the content's top half (0.004)
NARROW = ("1:1", "4:3")  # the frames where Softmax's shares lie under its e^s bars
VALUE_STEPS = ("values", "shrink", "chain", "compare")
CHAIN_STEPS = ("chain", "compare")


def _step(scene) -> str:
    return (getattr(scene, "_open_step", None) or scene.steps[-1])["key"]


def _gap(point, b) -> float:
    dx = max(b.x0 - point[0], 0.0, point[0] - b.x1)
    dy = max(b.y0 - point[1], 0.0, point[1] - b.y1)
    return float(np.hypot(dx, dy))


def plane_room(scene) -> list[str]:
    """WeightedSum at 1:1: its plane square-ish and large (:data:`ROOM_RATIO`,
    :data:`ROOM_SIDE`); where the chain has a link of the followed key's term alone, that term
    named beside it (:func:`chain_term_named`)."""
    if getattr(scene, "scene_name", "") != "WeightedSum" or not hasattr(scene, "vplane"):
        return []
    step, out = _step(scene), []
    if scene.look.aspect == "1:1" and step in (*VALUE_STEPS, "residual"):
        plane, content = scene.vplane.plane, scene.regions.content
        w, h = plane.width, plane.height
        if min(w, h) < ROOM_RATIO * max(w, h):
            out.append(f"the plane is a strip at 1:1: {w:.2f} × {h:.2f}")
        if min(w, h) < ROOM_SIDE * content.height:
            out.append(f"the plane is {w:.2f} × {h:.2f} in a content {content.height:.2f} high")
    return out + chain_term_named(scene)


def chain_term_named(scene) -> list[str]:
    """Where the chain's links are drawn merged (many keys) and the followed key's term is a
    link of its own, a text "× v(key)" in the key's colour, whole, with its weight, within
    :data:`TERM_REACH` of that link (at 1:1 the chain ran unnamed along a strip)."""
    import attention_core as ac
    from scene_checks import Num, _hex_of, _inked, describe, on_screen, texts
    from scenes.mobjects.layout import box_of

    links = getattr(scene, "chain_links_drawn", None)
    if _step(scene) not in CHAIN_STEPS or not links:
        return []
    pair = ac.followed_pair(scene.trace)
    if pair is None or pair.query != scene.i or pair.key not in links:
        return []
    arrow, j = links[pair.key], pair.key
    name, colour = f"× v({scene.k_tokens[j]})", _hex_of(scene.colors[j])
    a, b = np.asarray(arrow.get_start())[:2], np.asarray(arrow.get_end())[:2]
    along = [a + t * (b - a) for t in np.linspace(0.0, 1.0, 21)]
    near = [
        m
        for m in texts(scene)
        if describe(m) == name
        and _hex_of(m.get_color()) == colour
        and min(_gap(p, box_of(m)) for p in along) <= TERM_REACH
    ]
    role = ("weights", scene.h, scene.i, j)
    weight = [n for n in on_screen(scene, Num) if tuple(n.role) == role and _inked(n)]
    if not near:
        return [f"the chain's link of v({scene.k_tokens[j]}) has no term {name!r} beside it"]
    if not any(min(_gap(p, box_of(n)) for p in along) <= TERM_REACH + 1.0 for n in weight):
        return [f"the chain's link of v({scene.k_tokens[j]}) has no weight beside it"]
    return []


def weights_problems(scene) -> list[str]:
    """:func:`softmax_room`, :func:`plane_room`, and what real_size_problems checks of
    WeightedSum's labels on the real sentences, on every run that checks its labels (the
    limits': at 1:1 o(explanations) had no label; at 4:3 in Chinese v(when) sat 0.25 from
    another arrow, 0.40 from its tip)."""
    if getattr(scene, "scene_name", "") != "WeightedSum" or not hasattr(scene, "v_drawn"):
        return softmax_room(scene)
    from scene_checks import describe, labels_nearer_another_arrow, texts

    out = plane_room(scene)
    step = _step(scene)
    if step in CHAIN_STEPS and f"o({scene.q_name})" not in {describe(m) for m in texts(scene)}:
        out.append(f"the output o({scene.q_name}) has no label")
    if step in VALUE_STEPS:
        out += labels_nearer_another_arrow(scene)
    return out


def softmax_room(scene) -> list[str]:
    """Softmax at 1:1 and 4:3 (:data:`NARROW`): its first still's e^s bars use the room (the
    tallest at least :data:`EXP_TALL` of the content's height: the bars it labels, ``marks``;
    what it draws spanning :data:`EXP_SPAN` of the content's height), and at the shares the top
    half of the content holds a shape at least :data:`TOP_TALL` of it high (the faint e^s
    bars), not just the heading."""
    if getattr(scene, "scene_name", "") != "Softmax" or scene.look.aspect not in NARROW:
        return []
    from scene_checks import picture_boxes, texts
    from scenes.mobjects.layout import box_of

    step, content = _step(scene), scene.regions.content
    if step == "exp":
        out = []
        tall = max((m.height for m in getattr(scene, "marks", {}).values()), default=0.0)
        if tall < EXP_TALL * content.height:
            out.append(
                f"the e^s bars are at most {tall:.2f} high in a content {content.height:.2f}"
            )
        skip = {id(m) for m in (*scene.title_mob.get_family(), *scene.caption_mob.get_family())}
        boxes = picture_boxes(scene) + [box_of(m) for m in texts(scene) if id(m) not in skip]
        span = (max(b.y1 for b in boxes) - min(b.y0 for b in boxes)) / content.height
        if span < EXP_SPAN:
            out.append(f"the first still spans {span:.0%} of the content's height")
        return out
    if step.startswith("share"):
        mid = (content.y0 + content.y1) / 2
        top = [b.height for b in picture_boxes(scene) if b.y0 >= mid - 1e-6]
        if max(top, default=0.0) < TOP_TALL * content.height:
            return [f"the shares' top half holds shapes at most {max(top, default=0):.2f} high"]
    return []
