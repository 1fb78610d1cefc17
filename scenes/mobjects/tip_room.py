"""Where a plane's tip label goes when its tip has no room (:meth:`VectorPlane.tip_labels`): the
free spot of the plane's box nearest its tip, at the minimum type size, and only then a long
label shortened with "…" — never the followed pair's (issue 38: "ex…ns" for the followed
query "explanations"): where it finds no spot, the other labels in its way make room for it,
each set again where there is room (shortened, at worst)."""

from __future__ import annotations

from manim import Text

from scenes.mobjects.layout import Box, box_of, free_spot
from scenes.mobjects.text import SHORT_LABEL, ellipsize, text_width
from scenes.mobjects.theme import MIN_FONT_SIZE

# a long label with no room is shortened to these shares of its width, the first that finds a
# spot (a review saw "b…l" for "beautiful" where "beaut…ul" had room)
SHORT_SHARES = (0.85, 0.7, 0.6)


def is_whole(mob, whole) -> bool:
    """Whether ``mob`` names a label of ``whole`` (the followed pair's: "explanations", or
    inside a name, "o(explanations)"): shown whole, never shortened."""
    return names_whole(getattr(mob, "source_text", ""), whole)


def names_whole(text: str, whole) -> bool:
    """Whether ``text`` is, or names (inside "o(…)", "E(…)"), a label of ``whole``."""
    return bool(text) and any(text == t or f"({t})" in text for t in whole)


def set_free(mob, anchor, bounds: Box, obstacles, make, whole=()):
    """``mob`` moved to the free spot nearest ``anchor`` (:func:`free_spot`): first at its own
    size, then at the minimum type size, then closer to its neighbours, then (a label of more
    than :data:`SHORT_LABEL` characters, not one of ``whole``) shortened as little as finds a
    spot (:data:`SHORT_SHARES`), made anew by ``make(text, color, size)``; the label placed, or
    None where the plane's box has no room."""
    sizes = [m.font_size for m in mob.get_family() if getattr(m, "font_size", None)]
    if sizes and min(sizes) > MIN_FONT_SIZE:
        tries = [
            (1.0, 0.08, bounds),
            (MIN_FONT_SIZE / min(sizes), 0.08, bounds),
            (1.0, 0.03, bounds),
        ]
    else:
        tries = [(1.0, 0.08, bounds), (1.0, 0.03, bounds)]
    for scale, gap, room in tries:
        mob.scale(scale)
        spot = free_spot(mob, anchor, room, obstacles, gap=gap, step=0.05)
        if spot is not None:
            return mob.move_to(spot)
    text = getattr(mob, "source_text", "")
    long = isinstance(mob, Text) and len(text) > SHORT_LABEL
    if not long or is_whole(mob, whole):
        return None
    size = MIN_FONT_SIZE  # a long label: shortened as little as the room allows, not left out
    for share in SHORT_SHARES:
        short = make(ellipsize(text, share * text_width(text, size), size), mob.get_color(), size)
        spot = free_spot(short, anchor, bounds, obstacles, gap=0.03, step=0.05)
        if spot is not None:
            return short.move_to(spot)
    return None


def _overlaps(a: Box, b: Box, gap: float = 0.03) -> bool:
    return not (
        a.x1 + gap <= b.x0 or b.x1 + gap <= a.x0 or a.y1 + gap <= b.y0 or b.y1 + gap <= a.y0
    )


def place_all(labels, anchors, placed, bounds: Box, obstacles, make, whole=()) -> list:
    """(label, anchor) for each label of ``labels`` set at a spot: those ``placed`` where they
    are, each other at the free spot nearest its tip (:func:`set_free`), clear of the obstacles
    and of the labels already set; a merged label ("a, b") with no spot apart; a label of
    ``whole`` with no spot where the others leave none takes one clear of the obstacles and of
    the other whole labels, and the labels in its way are set again (issue 38)."""
    home = {id(m): (m, a) for m, a in zip(labels, anchors)}
    taken = {id(m): box_of(m) for m, ok in zip(labels, placed) if ok}
    done, todo = {}, list(zip(labels, anchors, placed))
    while todo:
        mob, anchor, ok = todo.pop(0)
        if not ok:
            free = set_free(mob, anchor, bounds, [*obstacles, *taken.values()], make, whole)
            if free is None and getattr(mob, "tip_parts", None):  # a merged label: apart
                for part, a in zip(mob.tip_parts, mob.tip_anchors):
                    part.tip_group = part
                    home[id(part)] = (part, a)
                todo += [(part, a, False) for part, a in zip(mob.tip_parts, mob.tip_anchors)]
                continue
            if free is None and is_whole(mob, whole):  # the others make room for it
                kept = [b for k, b in taken.items() if is_whole(home[k][0], whole)]
                free = set_free(mob, anchor, bounds, [*obstacles, *kept], make, whole)
                if free is not None:
                    spot = box_of(free)
                    moved = [k for k, b in taken.items() if _overlaps(b, spot)]
                    for k in moved:
                        del taken[k]
                        done.pop(k, None)
                        todo = [t for t in todo if id(t[0]) != k]
                        todo.append((home[k][0], home[k][1], False))
            mob = free
        if mob is not None:
            home.setdefault(id(mob), (mob, anchor))
            taken[id(mob)] = box_of(mob)
            done[id(mob)] = (mob, anchor)
    return list(done.values())
