"""What a user sees, as data: the text on screen at each step's end, its layout problems, labels
on arrows, the contrast of every text, and a geometry snapshot for frame tests.

:func:`geometry_problems` and :func:`picture_problems` gather the checks, so that one run of a
scene (the costly part) is checked for all of them at once."""

from __future__ import annotations

import math
import re

import numpy as np
from manim import Arrow, ManimColor, config

from ocr import pixel_box
from scenes.kit.roles import resolve
from scenes.mobjects.layout import box_of, frame_box
from scenes.mobjects.plane import SHAFT_SAMPLES
from scenes.mobjects.text import Num
from scenes.mobjects.theme import MIN_FONT_SIZE, contrast
from scenes.mobjects.tip_room import side_by_side


def on_screen(scene, cls=None):
    """Every mobject of ``cls`` (default: text-like) currently in the scene, each once."""
    from manim import MarkupText, Text
    from manim.mobject.text.typst_mobject import Typst

    cls = cls or (Text, MarkupText, Typst)
    return [mob for mob in each_mobject(scene) if isinstance(mob, cls)]


def texts(scene):
    """Visible text-like mobjects (Pango Text, Typst), each once."""
    out = []
    for mob in on_screen(scene):
        if mob.get_fill_opacity() < 0.05 and mob.get_stroke_opacity() < 0.05:
            continue
        if mob.width < 1e-6 and mob.height < 1e-6:
            continue
        out.append(mob)
    return out


def describe(mob) -> str:
    return getattr(mob, "source_text", None) or getattr(mob, "text", None) or type(mob).__name__


NUMBER = re.compile(r"(?<![\w.])[-−]?\d+(?:\.\d+)?(?![\w])")  # a number in a caption


def caption_number_places(scene, caption: str) -> dict[str, list]:
    """For each number ``caption`` names (in its order, "−" as "-"), where the still shows it:
    the numbers (Num) printed as it, else the other texts that contain it; the caption itself
    does not count. Each place is (mobject, OCR whitelist or None)."""
    bar = {id(m) for m in scene.caption_mob.get_family()}
    others = [m for m in texts(scene) if id(m) not in bar]
    shown = {id(m) for m in others}
    nums: dict[str, list] = {}
    for m in on_screen(scene, Num):
        if id(m) not in bar and any(id(t) in shown for t in m.get_family()):
            nums.setdefault(m.shown.replace("−", "-"), []).append(m)
    out = {}
    for said in dict.fromkeys(n.replace("−", "-") for n in NUMBER.findall(caption)):
        places = [(m, "0123456789.-") for m in nums.get(said, [])]
        if not places:
            within = re.compile(rf"(?<![\d.]){re.escape(said)}(?![\d])")
            places = [(m, None) for m in others if within.search(describe(m).replace("−", "-"))]
        out[said] = places
    return out


def unshown_caption_numbers(scene) -> list[str]:
    """The numbers the current step's caption names that no text on the still shows."""
    caption = scene.steps[-1]["caption"] if scene.steps else ""
    return [
        f"caption names {said} but no text on screen shows it"
        for said, places in caption_number_places(scene, caption).items()
        if not places
    ]


def layout_problems(scene, overlap_tol: float = 0.01) -> list[str]:
    """Texts outside the frame, overlapping another text, or smaller than the minimum size."""
    problems = []
    frame = frame_box()
    items = texts(scene)
    boxes = [box_of(m) for m in items]
    min_size = MIN_FONT_SIZE * config.frame_height / 8.0
    for mob, b in zip(items, boxes):
        if not frame.contains(b, tol=1e-3):
            problems.append(f"outside the frame: {describe(mob)!r} at {b}")
        size = getattr(mob, "font_size", None)
        if size is not None and size < min_size - 1e-3:
            problems.append(f"too small ({size:.1f} < {min_size:.1f}): {describe(mob)!r}")
    for a in range(len(items)):
        for b in range(a + 1, len(items)):
            if boxes[a].inset(overlap_tol).overlaps(boxes[b].inset(overlap_tol)):
                problems.append(f"overlap: {describe(items[a])!r} and {describe(items[b])!r}")
    return problems


def numbers_problems(scene) -> list[str]:
    """Every Num on screen must show its role's value from the core, rounded for display."""
    problems = []
    for mob in on_screen(scene, Num):
        try:
            truth = resolve(scene.trace, mob.role)
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            problems.append(f"unresolvable role {mob.role!r}: {exc!r}")
            continue
        same = (math.isinf(truth) and math.isinf(mob.value) and truth == mob.value) or math.isclose(
            truth, mob.value, rel_tol=1e-12, abs_tol=1e-12
        )
        if not same:
            problems.append(f"{mob.role!r}: shows {mob.value!r}, core says {truth!r}")
        from scenes.mobjects.numfmt import fmt

        if mob.shown != fmt(truth, mob.digits):
            problems.append(f"{mob.role!r}: text {mob.shown!r} ≠ {fmt(truth, mob.digits)!r}")
    return problems


def snapshot(scene) -> list[dict]:
    """Geometry of every visible text and shape leaf: kind, text, box, colour — the frame data."""
    items = []
    for mob in texts(scene):
        b = box_of(mob)
        items.append(
            {
                "kind": "text",
                "text": describe(mob),
                "box": [round(v, 3) for v in (b.x0, b.y0, b.x1, b.y1)],
                "color": mob.get_color().to_hex(),
            }
        )
    from manim import Text, VMobject
    from manim.mobject.text.typst_mobject import Typst

    for top in scene.mobjects:
        for mob in top.get_family():
            if isinstance(mob, (Text, Typst)) or any(
                isinstance(p, (Text, Typst)) for p in _parents(top, mob)
            ):
                continue
            if isinstance(mob, VMobject) and not mob.submobjects and mob.has_points():
                if mob.get_fill_opacity() < 0.05 and mob.get_stroke_opacity() < 0.05:
                    continue
                b = box_of(mob)
                items.append(
                    {
                        "kind": type(mob).__name__,
                        "box": [round(v, 3) for v in (b.x0, b.y0, b.x1, b.y1)],
                        "color": mob.get_color().to_hex(),
                    }
                )
    items.sort(key=lambda d: (d["kind"], d.get("text", ""), d["box"]))
    return items


def _parents(top, target):
    """Ancestors of ``target`` under ``top`` (for skipping glyphs of a text)."""
    path = []

    def walk(node, trail):
        if node is target:
            path.extend(trail)
            return True
        return any(walk(c, trail + [node]) for c in node.submobjects)

    walk(top, [])
    return path


def pooled(frame: np.ndarray, cols: int = 48, rows: int = 27) -> np.ndarray:
    """The frame averaged into a small grid of RGB cells (robust to text rasterisation)."""
    img = frame[..., :3].astype(np.float64)
    h, w = img.shape[:2]
    ys = np.linspace(0, h, rows + 1).astype(int)
    xs = np.linspace(0, w, cols + 1).astype(int)
    out = np.zeros((rows, cols, 3))
    for r in range(rows):
        for c in range(cols):
            out[r, c] = img[ys[r] : ys[r + 1], xs[c] : xs[c + 1]].mean(axis=(0, 1))
    return out


# -- no label on an arrow ------------------------------------------------------------------------
TOUCH = 0.03  # a label's edge may touch a point this close (its own tip, where it is anchored)


def arrows_on_screen(scene, keys: bool | None = None):
    """(tail, tip) on screen of every visible arrow: solid ones and outlined (key) ones.

    An outlined arrow's dashed shaft has no points of its own (its dashes do): it was never
    seen, and a label on a key's arrow passed. ``keys`` (default: in :data:`PLANE_SCENES`)
    counts them; the other scenes' labels are not yet held to them."""
    if keys is None:
        keys = getattr(scene, "scene_name", "") in PLANE_SCENES
    out = []
    for mob in each_mobject(scene):
        if isinstance(mob, Arrow):
            if mob.has_points() and mob.get_stroke_opacity() >= 0.2:
                out.append((mob.get_start(), mob.get_end()))
        elif hasattr(mob, "tip_point") and len(mob.submobjects) == 2:
            shaft, head = mob.submobjects
            drawn = shaft.has_points() or (keys and shaft.family_members_with_points())
            if drawn and head.has_points() and head.get_stroke_opacity() >= 0.2:
                out.append((shaft.get_start(), head.get_vertices()[0]))
    return out


def each_mobject(scene):
    """Every mobject of the scene's families, each once (a mobject may sit in several groups)."""
    seen = set()
    for top in scene.mobjects:
        for mob in top.get_family():
            if id(mob) not in seen:
                seen.add(id(mob))
                yield mob


def tip_labels_on_screen(scene):
    return [
        mob
        for mob in each_mobject(scene)
        if getattr(mob, "is_tip_label", False) and mob.get_fill_opacity() >= 0.2
    ]


def labels_on_arrows(scene) -> list[str]:
    """Each label that covers an arrowhead or a point along a shaft."""
    problems = []
    arrows = arrows_on_screen(scene)
    for mob in tip_labels_on_screen(scene):
        b = box_of(mob)
        inner = (b.x0 + TOUCH, b.y0 + TOUCH, b.x1 - TOUCH, b.y1 - TOUCH)

        def inside(p, inner=inner):
            return inner[0] < p[0] < inner[2] and inner[1] < p[1] < inner[3]

        for a, tip in arrows:
            a, tip = np.asarray(a), np.asarray(tip)
            if np.linalg.norm(tip - a) < 1e-3:
                continue
            if inside(tip):
                problems.append(f"{mob.source_text!r} covers an arrowhead at {tip[:2].round(2)}")
                break
            if any(inside(a + t * (tip - a)) for t in SHAFT_SAMPLES):
                problems.append(f"{mob.source_text!r} lies on an arrow's shaft")
                break
    return problems


PLANE_SCENES = ("Embeddings", "Projections", "DotProducts")  # their labels: plane_label_problems


def arrowheads_on_screen(scene) -> list:
    """The box of every visible arrowhead: a solid arrow's tip, an outlined (key) arrow's hollow
    triangle, a thin grey arrow's small head."""
    out = []
    for mob in each_mobject(scene):
        head = getattr(mob, "tip", None) if isinstance(mob, Arrow) else None
        if hasattr(mob, "tip_point") and len(mob.submobjects) == 2:
            head = mob.submobjects[1]
        if head is not None and head.has_points() and head.get_stroke_opacity() >= 0.2:
            out.append(box_of(head))
    return out


def plane_label_problems(scene) -> list[str]:
    """Issue 38 (the 22-token chef sentence, 1:1): in a plane scene (:data:`PLANE_SCENES`) every
    tip label whole and apart — no two labels side by side on one line, reading as one
    ("soup,it": merged on near-parallel keys), and none over any arrowhead's triangle (the
    head's whole box: :func:`labels_on_arrows` sees only its point)."""
    if getattr(scene, "scene_name", "") not in PLANE_SCENES:
        return []
    labels = [(m, box_of(m)) for m in tip_labels_on_screen(scene)]
    problems = []
    for k, (a, ba) in enumerate(labels):
        for b, bb in labels[k + 1 :]:
            if side_by_side(ba, bb):
                problems.append(f"{describe(a)!r} and {describe(b)!r} read as one label")
    heads = arrowheads_on_screen(scene)
    for mob, b in labels:
        if any(b.inset(TOUCH).overlaps(h.inset(0.02)) for h in heads):
            problems.append(f"{describe(mob)!r} lies over an arrowhead")
    return problems


PLANE_SIDE = 0.34  # DotProducts' plane beside the whole matrix: at least a square this side


def squeezed_plane(scene) -> list[str]:
    """Issue 38 (she→baker, 22 tokens, 4:3 zh): DotProducts' matrix step in a narrow frame
    (4:3, 1:1) keeps the plane it shows (beside the whole matrix) at least as large as a square
    :data:`PLANE_SIDE` of the content's height on a side (it was 1.84 × 1.49 in a content 5.37
    high, its labels under the x axis)."""
    if getattr(scene, "scene_name", "") != "DotProducts" or scene.look.aspect == "16:9":
        return []
    step = (getattr(scene, "_open_step", None) or scene.steps[-1])["key"]
    grid = scene.plane.plane
    if step != "matrix" or not any(m is grid for m in scene.get_mobject_family_members()):
        return []
    w, h, high = grid.width, grid.height, scene.regions.content.height
    if w * h < (PLANE_SIDE * high) ** 2:  # a flat plane as wide as the content is not squeezed
        return [f"the plane beside the matrix is {w:.2f} × {h:.2f} in a content {high:.2f} high"]
    return []


def _tip_of(mob):
    """Where a plane arrow's head is now: a solid Arrow's end, an outlined one's head vertex."""
    if isinstance(mob, Arrow):
        return np.asarray(mob.get_end())
    return np.asarray(mob.submobjects[1].get_vertices()[0])


def _hex_of(color) -> str:
    return ManimColor(color).to_hex().upper()


def token_arrows(scene, every: bool = False) -> list[tuple[np.ndarray, str]]:
    """(tip, colour) of every token arrow on screen (drawn by ``VectorPlane.arrows``, not faint);
    ``every``: of every plane arrow (an output's too)."""
    out = []
    for mob in each_mobject(scene):
        if not (every or getattr(mob, "wants_label", False)):
            continue
        if isinstance(mob, Arrow) or (hasattr(mob, "tip_point") and len(mob.submobjects) == 2):
            part = mob if isinstance(mob, Arrow) else mob.submobjects[1]
            if part.has_points() and part.get_stroke_opacity() >= 0.5:
                out.append((_tip_of(mob), _hex_of(part.get_stroke_color())))
    return out


def _leaders(scene) -> list[tuple[np.ndarray, np.ndarray, str]]:
    found = {id(m): m for top in scene.mobjects for m in top.get_family()}
    return [
        (np.asarray(m.get_start()), np.asarray(m.get_end()), _hex_of(m.get_stroke_color()))
        for m in found.values()
        if getattr(m, "is_leader", False) and m.has_points() and m.get_stroke_opacity() >= 0.2
    ]


def _gap(point, b) -> float:
    """Distance from ``point`` to box ``b`` (0 inside)."""
    dx = max(b.x0 - point[0], 0.0, point[0] - b.x1)
    dy = max(b.y0 - point[1], 0.0, point[1] - b.y1)
    return math.hypot(dx, dy)


def dropped_or_distant_labels(scene) -> list[str]:
    """Issue 32 item 3: every token arrow has a label of its colour at its tip (within
    ``NEAR``) or a leader line of its colour to its tip — none dropped; and every tip label
    lies at a tip of its colour or has a leader line from its edge — none far from its arrow
    without a line to it."""
    from scenes.mobjects.plane import NEAR

    reach = NEAR + 0.1
    arrows, leaders = token_arrows(scene), _leaders(scene)
    labels = [
        (box_of(getattr(m, "tip_group", m)), _hex_of(m.get_color()), m)
        for m in tip_labels_on_screen(scene)
    ]
    problems = []
    for tip, color in arrows:
        near = any(c == color and _gap(tip, b) <= reach for b, c, _ in labels)
        led = any(c == color and np.linalg.norm((e - tip)[:2]) < 0.2 for _, e, c in leaders)
        if not (near or led):
            problems.append(f"the arrow in {color} at {tip[:2].round(2)} has no label")
    for b, color, mob in labels:
        tips = [t for t, c in arrows if c == color]
        if not tips or min(_gap(t, b) for t in tips) <= reach:
            continue
        if not any(c == color and _gap(a, b) < 0.1 for a, _, c in leaders):
            problems.append(f"{describe(mob)!r} is far from its arrow with no leader line")
    problems += far_from_own_tip(labels, leaders, reach) + far_outputs(scene, leaders, reach)
    from weights_checks import weights_problems  # WeightedSum's plane and labels, Softmax's room

    return problems + values_without_weights(scene) + weights_problems(scene)


def values_without_weights(scene) -> list[str]:
    """WeightedSum, while its plane shows the values (:data:`VALUE_STEPS`): every value it draws
    in colour with its weight on screen, in the list or at its arrow (issue 38, at-the-limits at
    1:1: v(students), v(the₁), v(the₂) drawn, the list ending "… 3 more keys")."""
    if getattr(scene, "scene_name", "") != "WeightedSum" or not hasattr(scene, "v_drawn"):
        return []
    step = (getattr(scene, "_open_step", None) or scene.steps[-1])["key"]
    if step not in VALUE_STEPS:
        return []
    weights = {tuple(n.role) for n in on_screen(scene, Num) if _inked(n)}
    return [
        f"the value v({scene.k_tokens[j]}) is drawn without its weight"
        for j in scene.v_drawn
        if ("weights", scene.h, scene.i, j) not in weights
    ]


def far_outputs(scene, leaders, reach) -> list[str]:
    """Each output's name o(…) in the output style that is not a tip label (a scene's own
    label beside its output arrow) within ``reach`` of an output arrow's tip, or joined to one
    by a leader line (issue 32: WeightedSum's o(it₁) sat 1.1 from its tip at 24 tokens)."""
    if getattr(scene, "theme", None) is None:  # a bare Scene: no output style
        return []
    color = _hex_of(scene.theme.output)
    tips = [tip for tip, c in token_arrows(scene, every=True) if c == color]
    problems = []
    for mob in texts(scene):
        name = getattr(mob, "source_text", "")
        if getattr(mob, "is_tip_label", False) or not OUTPUT_NAME.match(name or ""):
            continue
        if _hex_of(mob.get_color()) != color or not tips:
            continue
        b = box_of(mob)
        if min(_gap(t, b) for t in tips) <= reach:
            continue
        if not any(c == color and _gap(a, b) < 0.1 for a, _, c in leaders):
            problems.append(f"{name!r} is far from its output arrow with no leader line")
    return problems


OUTPUT_NAME = re.compile(r"^o\(.+\)$")  # an output's label on its plane: o(it₁)


def labels_off_their_tips(scene, reach: float, names=OUTPUT_NAME) -> list[str]:
    """:func:`far_from_own_tip` with a stricter ``reach`` for the tip labels whose text
    matches ``names``: in a crowded plane whose labels must touch their tips or have their
    lines (Overview's outputs o(…) beyond 12 tokens)."""
    labels = [
        (box_of(getattr(m, "tip_group", m)), _hex_of(m.get_color()), m)
        for m in tip_labels_on_screen(scene)
        if names.match(getattr(m, "source_text", "") or "")
    ]
    return far_from_own_tip(labels, _leaders(scene), reach)


def far_from_own_tip(labels, leaders, reach) -> list[str]:
    """Each tip label that knows its own tip (``tip_home``, set where it was placed) within
    ``reach`` of it, or joined to it by a leader line: a label of one colour among many arrows
    of that colour (every output o(…) in the output style) is read as its own arrow's, not as
    any arrow's of its colour."""
    problems = []
    for b, color, mob in labels:
        home = getattr(mob, "tip_home", None)
        if home is None:
            continue
        tip = mob.get_center() + home
        if (
            _gap(tip, b) > reach
            and not any(  # a line of its own: from its box to its tip
                c == color and _gap(a, b) < 0.1 and np.linalg.norm((e - tip)[:2]) < 0.2
                for a, e, c in leaders
            )
        ):
            gap = _gap(tip, b)
            problems.append(f"{describe(mob)!r} is {gap:.2f} from its own tip with no leader line")
    return problems


# -- contrast of every text against what is behind it ------------------------------------------
LARGE = 1 / 18  # text taller than this share of the frame height may have 3:1 (WCAG large text)


def _ink(mob) -> np.ndarray:
    return np.asarray(mob.get_color().to_rgb(), dtype=float) * 255


def text_contrasts(scene) -> list[tuple[str, float, float]]:
    """(text, measured contrast, required) for every visible text of the current frame: the
    text's own colour against the median colour of a thin ring of pixels just outside its box.
    Called by run_steps right after it drew the step's last frame."""
    frame = scene.renderer.get_frame()[..., :3].astype(float)
    h, w = frame.shape[:2]
    out = []
    for mob in texts(scene):
        # the ring round its ink: its line's box (text_line) reached past a matrix cell's edge
        # onto its neighbour (issue 38: '0.262' measured 4.43:1 against two cells' median)
        x0, y0, x1, y1 = pixel_box(mob, frame, pad=0.0, ink=True)
        ring = np.concatenate(
            [
                frame[max(0, y0 - 3) : max(0, y0 - 1), x0:x1].reshape(-1, 3),
                frame[min(h, y1 + 1) : min(h, y1 + 3), x0:x1].reshape(-1, 3),
                frame[y0:y1, max(0, x0 - 3) : max(0, x0 - 1)].reshape(-1, 3),
                frame[y0:y1, min(w, x1 + 1) : min(w, x1 + 3)].reshape(-1, 3),
            ]
        )
        if not len(ring):
            continue
        behind = np.median(ring, axis=0)
        ratio = contrast(_hex(_ink(mob)), _hex(behind))
        tall = mob.height / config.frame_height > LARGE
        out.append((describe(mob), ratio, 3.0 if tall else 4.5))
    return out


def _hex(rgb) -> str:
    r, g, b = (int(round(float(c))) for c in rgb)
    return f"#{r:02X}{g:02X}{b:02X}"


def contrast_problems(scene) -> list[str]:
    """Each text of the drawn frame whose contrast is below what its size needs."""
    return [
        f"{text!r} {ratio:.2f}:1 < {need}:1"
        for text, ratio, need in text_contrasts(scene)
        if ratio < need
    ]


# -- every check of a step's still, gathered -------------------------------------------------


def geometry_problems(scene) -> list[str]:
    """What the mobjects alone tell (no pixels needed): text outside the frame, overlapping or
    too small, a number that is not the core's, a label on an arrow, a label of ≤ 8 characters
    shortened, Softmax's key labels over another key's segment, a grid of squares without its
    colour bar."""
    from key_checks import unkeyed_grids
    from room_checks import encoder_columns_problems  # EncoderBlock, many tokens

    return (
        layout_problems(scene)
        + numbers_problems(scene)
        + labels_on_arrows(scene)
        + shortened_labels(scene)
        + key_label_problems(scene)
        + plane_label_problems(scene)
        + squeezed_plane(scene)
        + unkeyed_grids(scene)
        + encoder_columns_problems(scene)
    )


def picture_problems(scene) -> list[str]:
    """:func:`geometry_problems` and, on the drawn frame, the contrast of every text."""
    return geometry_problems(scene) + contrast_problems(scene)


# -- no short label shortened -----------------------------------------------------------------
SHORT_LABEL = 8  # a label of this many characters or fewer is shown whole, never with "…"


WRAPS = ("{}", "o({})", "q({})", "k({})", "v({})", "x({})")  # a label as shown, alone or named


def _shortened_forms(label: str) -> set[str]:
    """Every way ``label`` (alone or inside ``o(…)``, ``q(…)`` …) can be cut around "…" (a
    start and an end, each kept at least one character, some of the label dropped): what an
    ellipsized label looks like on screen. At least one character of the label is kept, so a
    caption's own "o(…)" (any query's output) is not a shortened label."""
    out = set()
    for wrap in WRAPS:
        text = wrap.format(label)
        n, before = len(text), wrap.index("{}")
        after = len(wrap) - before - 2
        for head in range(1, n):
            for tail in range(1, n - head):
                if head <= before and tail <= after:
                    continue  # none of the label is left: a caption's own "o(…)"
                form = text[:head].rstrip() + "…" + text[n - tail :].lstrip()
                if label not in form:
                    out.add(form)
    return out


def followed_labels(scene) -> set[str]:
    """The followed query's and key's labels (each piece of a key word cut into pieces), as the
    scene shows them and as written: shown whole everywhere, whatever their length (issue 38)."""
    import attention_core as ac

    try:
        pair = ac.followed_pair(scene.trace)
    except (AttributeError, IndexError, TypeError):  # a trace without one head's pair
        return set()
    ex, out = scene.example, set()
    for side, at in (("q", [pair.query]), ("k", [pair.key, *pair.pieces])):
        shown = scene.q_tokens if side == "q" else scene.k_tokens
        written = ex.tokens if side == "q" or not ex.is_cross else ex.key_tokens
        out |= {str(t[a]) for t in (shown, written) for a in at if 0 <= a < len(t)}
    return out


def shortened_labels(scene) -> list[str]:
    """Each text on screen that shows a token label of ≤ 8 characters, or the followed query's
    or key's label of any length (:func:`followed_labels`), shortened with "…" (the scene's
    labels as shown, repeated ones told apart, and as written); a form that another longer
    label of the example also shortens to is not counted against it."""
    ex = scene.example
    labels = {*scene.q_tokens, *scene.k_tokens, *map(str, ex.tokens), *map(str, ex.key_tokens)}
    kept = {t for t in labels if len(t) <= SHORT_LABEL} | followed_labels(scene)
    longer = {t: _shortened_forms(t) for t in labels if len(t) > SHORT_LABEL}
    forms = {}
    for t in kept:
        others = set().union(*(f for u, f in longer.items() if u != t and u not in kept))
        forms.update({f: t for f in _shortened_forms(t) if f not in others})
    problems = []
    for mob in texts(scene):
        text = describe(mob)
        if "…" not in text:
            continue
        for form, whole in forms.items():
            # the form alone, not inside a longer label's own shortened form ("字汉字汉…汉字9"
            # holds "汉…汉字9" of another label)
            if form in text and re.search(rf"(?<!\w){re.escape(form)}(?!\w)", text):
                why = "followed" if len(whole) > SHORT_LABEL else f"{len(whole)} characters"
                problems.append(f"label {whole!r} ({why}) shortened: {text!r}")
                break
    return problems


# -- the last frame holds the picture ---------------------------------------------------------
PICTURE_SHARE = 0.3  # the least share of the content region the picture's bounding box covers


def picture_boxes(scene) -> list:
    """The boxes of the shapes on screen that are not text (not a glyph of a text, a number or
    a formula), outside the title and the caption: a matrix's cells, planes, arrows, bars."""
    from manim import Text, VMobject
    from manim.mobject.text.typst_mobject import Typst

    skip = {id(m) for m in (*scene.title_mob.get_family(), *scene.caption_mob.get_family())}
    words = (Text, Typst, Num)
    out = []

    def walk(mob):
        if id(mob) in skip or isinstance(mob, words):
            return
        leaf = isinstance(mob, VMobject) and not mob.submobjects and mob.has_points()
        if leaf and max(mob.get_fill_opacity(), mob.get_stroke_opacity()) >= 0.05:
            out.append(box_of(mob))
        for sub in mob.submobjects:
            walk(sub)

    for top in scene.mobjects:
        walk(top)
    return out


def final_frame_problems(scene) -> list[str]:
    """Whether the step's still holds a picture (shapes: a matrix, a plane, bars, arrows, not
    text alone) and its content (the picture and its texts, the title and caption aside) spans
    at least :data:`PICTURE_SHARE` of the content region: the last still is the png a lecturer
    pastes into a slide."""
    boxes = picture_boxes(scene)
    if not boxes:
        return ["no picture on screen: text alone"]
    skip = {id(m) for m in (*scene.title_mob.get_family(), *scene.caption_mob.get_family())}
    boxes += [box_of(m) for m in texts(scene) if id(m) not in skip]
    content = scene.regions.content
    x0, y0 = max(min(b.x0 for b in boxes), content.x0), max(min(b.y0 for b in boxes), content.y0)
    x1, y1 = min(max(b.x1 for b in boxes), content.x1), min(max(b.y1 for b in boxes), content.y1)
    share = max(x1 - x0, 0) * max(y1 - y0, 0) / (content.width * content.height)
    if share < PICTURE_SHARE:
        return [f"the picture covers {share:.0%} of the content region (< {PICTURE_SHARE:.0%})"]
    return []


# WeightedSum's steps whose plane shows the values' labels (the residual step fades them)
VALUE_STEPS = ("values", "shrink", "chain", "compare")


def real_size_problems(scene) -> list[str]:
    """Issue 38 at real size: WeightedSum labels every value it draws whole, v(token), at every
    step until the residual (at 1:1 the chain's labels left as it formed), names the output
    o(query) once the chain has formed it (at 1:1 it had no spot), and shows the weight of
    every value it draws (at 1:1 three of eight had none); CausalMask's weights at 1:1 are whole
    (a strip at the foot cost a 23-token grid of squares its rows and columns). Also at a
    caption's page (its step still open)."""
    step = (getattr(scene, "_open_step", None) or scene.steps[-1])["key"]
    out = []
    if scene.scene_name == "WeightedSum" and step in VALUE_STEPS:
        shown = {describe(m) for m in texts(scene)}
        named = getattr(scene, "v_named", scene.v_drawn)  # none once the chain's plane zooms
        for j in scene.v_drawn:
            name = f"v({scene.k_tokens[j]})"
            if j in named and name not in shown:
                out.append(f"the value {name} is drawn without its label whole")
        out += values_without_weights(scene) + followed_value_grey(scene)
        if step in ("chain", "compare") and f"o({scene.q_name})" not in shown:
            out.append(f"the output o({scene.q_name}) has no label")
        out += labels_nearer_another_arrow(scene)
    square = scene.scene_name == "CausalMask" and scene.look.aspect == "1:1"
    if square and step in ("softmax", "pair") and not scene.weights.whole:
        w = scene.weights
        out.append(f"the weights elided: {len(w.shown_rows)} rows, {len(w.shown_columns)} columns")
    from room_checks import room_problems  # Embeddings' first still, Overview's matrices at 1:1
    from weights_checks import plane_room, softmax_room  # WeightedSum's plane, Softmax's bars

    return out + room_problems(scene) + plane_room(scene) + softmax_room(scene)


def followed_value_grey(scene) -> list[str]:
    """WeightedSum: the followed key's value (of the followed query) drawn in colour, never
    grey among the others (issue 38, the cast rule: the trophy sentence at 1:1 drew v(trophy),
    its weight 0.563, thin and grey)."""
    import attention_core as ac

    pair = ac.followed_pair(scene.trace)
    if pair is None or pair.query != scene.i or pair.key not in scene.seen:
        return []
    if np.linalg.norm(scene.V2[pair.key]) < 1e-9 or pair.key in scene.v_drawn:
        return []
    return [f"the followed key's value v({scene.k_tokens[pair.key]}) is drawn grey"]


def _inked(mob) -> bool:
    """Whether any part of ``mob`` is drawn (a Num is a group: its own opacity says nothing)."""
    return max((m.get_fill_opacity() for m in mob.family_members_with_points()), default=0) > 0.05


# -- Softmax's key labels among many keys --------------------------------------------------------
BESIDE = 0.3  # a label this near its bar reads as the label of the segment under it


def key_label_problems(scene) -> list[str]:
    """Softmax's labels of its keys' bars or segments (each with ``key_index``; the bars or the
    share bar's segments in ``scene.marks``), issue 38 at 22 tokens: no two overlap; a label
    beside the bar (within :data:`BESIDE`) lies over its own segment, over no other labelled
    key's (it read as that key's: "that₁ 0.084" over soup's); no leader or stem from a label
    crosses another label."""
    marks = getattr(scene, "marks", None)
    if getattr(scene, "scene_name", "") != "Softmax" or not marks:
        return []
    found = list({id(m): m for top in scene.mobjects for m in top.get_family()}.values())
    labels = [m for m in found if hasattr(m, "key_index") and _inked(m)]
    problems = []
    for a, m in enumerate(labels):
        problems += [
            f"key labels overlap: {describe_all(m)!r} and {describe_all(other)!r}"
            for other in labels[a + 1 :]
            if box_of(m).inset(0.01).overlaps(box_of(other).inset(0.01))
        ]
        problems += _on_another_segment(scene, m, marks, {n.key_index for n in labels})
    lines = [m for m in found if hasattr(m, "label") and m.has_points() and _inked(m)]
    return problems + _lines_across(lines, labels)


def _on_another_segment(scene, mob, marks, named) -> list[str]:
    """Whether the label ``mob``, beside the bar, lies over another labelled key's segment."""
    b, bar = box_of(mob), box_of(_group(marks.values()))
    if max(b.y0 - bar.y1, bar.y0 - b.y1) >= BESIDE:
        return []
    for j in sorted(named - {mob.key_index}):
        seg = box_of(marks[j])
        if min(b.x1, seg.x1) - max(b.x0, seg.x0) > 0.03:
            return [f"{describe_all(mob)!r} sits on the segment of {scene.k_tokens[j]!r}"]
    return []


def _lines_across(lines, labels) -> list[str]:
    """Each leader or stem (its ``label``: the label it leads from) crossing another label."""
    problems = []
    for line in lines:
        start, end = np.asarray(line.get_start()), np.asarray(line.get_end())
        for m in (m for m in labels if m is not line.label):
            inner = box_of(m).inset(0.02)
            points = [start + t * (end - start) for t in np.linspace(0.05, 0.95, 19)]
            if any(inner.x0 < p[0] < inner.x1 and inner.y0 < p[1] < inner.y1 for p in points):
                problems.append(
                    f"the line of {describe_all(line.label)!r} crosses {describe_all(m)!r}"
                )
    return problems


def _group(mobs):
    from manim import VGroup

    return VGroup(*mobs)


def describe_all(mob) -> str:
    """The texts of ``mob`` (a label and its number), joined."""
    parts = [
        describe(t)
        for t in mob.get_family()
        if getattr(t, "source_text", None) or getattr(t, "text", None)
    ]
    return " ".join(dict.fromkeys(parts)) or describe(mob)


NEARER = 0.05  # a tip label at least this much nearer its own tip than any other arrow


def labels_nearer_another_arrow(scene) -> list[str]:
    """Each value's or output's tip label, v(…) or o(…), that knows its tip (``tip_home``), with
    no leader line to it, nearer another arrow in colour (its head or the outer 70 % of its
    shaft; a grey one has no label to be read as; for o(…), any drawn solid: the chain's
    links) than its own tip, less :data:`NEARER`: it reads as that arrow's
    (issue 38, WeightedSum: at 1:1 v(that₁) 0.23 from its tip, 0.16 from soup's arrow; at 4:3
    v(it) 0.27 from its tip, 0.15 from soup's; minilm-painting at 1:1, o(they) 0.36 from its
    tip, 0.25 from another arrow)."""
    problems = []
    labelled, solid = _labelled_arrows(scene), _solid_arrows(scene)
    leaders = _leaders(scene)
    for mob in tip_labels_on_screen(scene):
        home = getattr(mob, "tip_home", None)
        if home is None or not describe(mob).startswith(("v(", "o(")):  # values', outputs'
            continue
        arrows = solid if describe(mob).startswith("o(") else labelled
        box = box_of(getattr(mob, "tip_group", mob))
        tip = mob.get_center() + home
        if any(_gap(a, box) < 0.1 and np.linalg.norm((e - tip)[:2]) < 0.2 for a, e, _ in leaders):
            continue  # its line names its arrow
        own = _gap(tip, box)
        for a, b in arrows:
            if np.linalg.norm((b - tip)[:2]) < 1e-3 or np.linalg.norm((b - a)[:2]) < 1e-3:
                continue
            other = min(_gap(a + t * (b - a), box) for t in np.linspace(0.3, 1.0, 36))
            if other < own + NEARER:
                to = b[:2].round(2)
                problems.append(
                    f"{describe(mob)!r} is {own:.2f} from its tip, {other:.2f} from {to}"
                )
                break
    return problems


def _solid_arrows(scene) -> list:
    """(tail, tip) of every solid arrow on screen (not thin: a grey value's, a faint one)."""
    found = {id(m): m for top in scene.mobjects for m in top.get_family()}.values()
    return [
        (np.asarray(m.get_start()), np.asarray(m.get_end()))
        for m in found
        if isinstance(m, Arrow) and m.get_stroke_width() >= 3 and m.get_stroke_opacity() >= 0.5
    ]


def _labelled_arrows(scene) -> list:
    """(tail, tip) of every token arrow on screen drawn to be labelled (``wants_label``)."""
    out = []
    for mob in each_mobject(scene):
        if not getattr(mob, "wants_label", False):
            continue
        if isinstance(mob, Arrow) and mob.get_stroke_opacity() >= 0.5:
            out.append((np.asarray(mob.get_start()), _tip_of(mob)))
        elif hasattr(mob, "tip_point") and len(mob.submobjects) == 2:
            shaft, head = mob.submobjects
            if head.has_points() and head.get_stroke_opacity() >= 0.5:
                out.append((np.asarray(shaft.get_start()), _tip_of(mob)))
    return out


# -- the last still keeps the story ---------------------------------------------------------------
# the scenes that come after softmax in the story: their last still names the pair's weight too
WEIGHT_TAUGHT = ("Softmax", "WeightedSum", "AttentionMatrix", "Overview", "CausalMask")


def story_missing(scene) -> list[str]:
    """What the still lacks of the followed pair: its query's and key's labels, whole (alone or
    inside q(…), k(…), "she → baker"), and, in a scene after softmax, its weight (issue 38:
    the last still is the png a lecturer pastes, and it keeps the story)."""
    import attention_core as ac

    pair = ac.followed_pair(scene.trace)
    if pair is None:
        return []
    skip = {id(m) for m in scene.caption_mob.get_family()}
    shown = [describe(m) for m in texts(scene) if id(m) not in skip]
    words = {w for t in shown for w in re.split(r"[\s()→·,:=]+", t) if w}
    wanted = {"query": scene.q_tokens[pair.query], "key": scene.k_tokens[pair.key]}
    out = [
        f"the followed {k} {v!r} is not on the still" for k, v in wanted.items() if v not in words
    ]
    if scene.scene_name in WEIGHT_TAUGHT:
        w = pair.weight(scene.head.weights)
        forms = {f"{w:.3f}", f"{w:.2f}"}
        if not any(f in t for t in shown for f in forms):
            out.append(f"the pair's weight ({w:.3f}) is not on the still")
    return out
