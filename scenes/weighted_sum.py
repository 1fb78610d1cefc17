"""WeightedSum: each value vector shrunk by its weight and moved tip to tail, the resultant
output o (in the output style) inside the convex hull of the values; then, as the residual
stream does, added back to the token's embedding: E + ΔE with ΔE = o."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    Polygon,
    ReplacementTransform,
    Transform,
    VGroup,
)

import attention_core as ac
from scenes.kit.base import ExplainerScene
from scenes.kit.roles import HeadRole
from scenes.kit.views import adds_back as _has_own
from scenes.kit.views import plane_view_of
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.layout import Box, box_of, flow, free_spot, place, place_labels
from scenes.mobjects.math import math
from scenes.mobjects.plane import CROWDED, grow, shaft_marks
from scenes.mobjects.text import balanced_lines, label, vector_row
from scenes.mobjects.theme import BODY, SMALL
from scenes.mobjects.token_text import shown as drawn_as
from scenes.parts.weighted_sum_chain import (
    CrowdedChain,
    free_spots,
    own_tip,
    plated,
    square_ish,
)

FEW = 0  # at 1:1 a plane of more keys fills its box (0: every plane)
PLANE_MARGIN = 0.3  # round a crowded plane inside its box: room for the labels at its edges
# the ways to label the chain, tried in turn (WeightedSum.try_chain_labels): the output's clear of
# the values' labels, none of which moves (issue 38: in Chinese v(早) moved for o(早)); those the
# chain covers placed again after the output's; every value's again after it; every value's before
# it; every value's again where it may cross a faded shaft
CHAIN_TRIES = ("around", "cover", "every", "values_first", "faint")
OUTPUT_STROKE = 3  # the output's arrow, drawn over the chain's links (6): they show beside it
HULL_REACH = 0.8  # the hull's name at most this far from one of its corners
LIST_GAPS = ((0.3, 0.12), (0.2, 0.08))  # a list of weights' gaps between entries, then closer


class WeightedSum(CrowdedChain, ExplainerScene):
    """output_i = Σ_j w_ij v_j, drawn as a chain of shrunk value vectors."""

    def construct(self):
        self.lay_out_plane()
        self.show_values()
        self.shrink_values()
        self.chain_tip_to_tail()
        if self.own2 is None:
            self.compare()
        else:
            self.add_to_embedding()

    def lay_out_plane(self):
        """The shown query's row, its vectors in one 2-D view (exact when d_v = 2; linear, so
        the chain still adds), and the plane they are drawn on."""
        ex, head, tr = self.example, self.head, self.trace
        self.choice = ac.followed_choice(tr)  # the row followed, and what may be said of it
        self.i = i = self.choice.row
        content = self.regions.content
        # a square frame gives the side half: room for every key's weight; at 1:1 the plane a
        # square as high as the content, the weights in the rest (issue 38: a strip at 1:1)
        square = content.width < 1.6 * content.height
        crowded = ex.n_keys > CROWDED
        left, self.side_box = content.columns(*self.column_shares(content, square, crowded))
        parts, starts = ac.tip_to_tail(head.weights[i], head.V)
        self.out = head.output[i]
        own = tr.X[i] if _has_own(tr) else None
        self.new = ac.residual(tr.X, head.output)[i] if own is not None else None
        view = plane_view_of(tr, "weighted_sum")
        B = view.basis
        self.V2, self.out2, self.parts2, self.starts2 = (
            head.V @ B,
            self.out @ B,
            parts @ B,
            starts @ B,
        )
        self.own2 = own @ B if own is not None else None
        self.new2 = self.new @ B if self.new is not None else None
        self.note = note = self.kit.view_note(view, "weighted_sum")
        self.label_box = left  # the chain's labels may go beside the note too (it is an obstacle)
        self.note_box = left.rows(10, 1)[1]
        if len(note):
            place(note, self.note_box, "left")
        self.plane_box = left if not len(note) else self.clear_of_note(left.rows(10, 1)[0])
        extra = [self.own2[None], self.new2[None]] if self.own2 is not None else []
        # past 12 keys a margin round the plane, where a label at its edge finds room whole
        # (issue 38: "v(b…l)" for beautiful at 1:1)
        inner = self.plane_box.inset(PLANE_MARGIN) if ex.n_keys > CROWDED else self.plane_box
        pts = np.vstack([self.V2, self.out2[None], np.zeros((1, 2)), *extra])
        # at 1:1 as high as its box past 12 keys (up to 12 values, each labelled whole: 60 %)
        fill = 1.0 if crowded else 0.6
        filled = self.one_to_one and ex.n_keys > FEW
        self.vplane = self.kit.plane(square_ish(pts, inner, fill) if filled else pts, inner)
        self.colors = [self.k_color(j) for j in range(ex.n_keys)]
        self.q_name = self.kit.fit_label(self.q_tokens[i], 2.2, BODY)  # the followed: whole

    def show_values(self):
        """The values as arrows in their convex hull, and the query's weight for each."""
        plane, i = self.vplane, self.i
        head, choice = self.head, self.choice
        terms = ac.sum_terms(head, i)
        top = int(np.argmax(head.weights[i]))
        story = ac.choice_story(self.trace, choice)
        said_top = story is not None and not story.habit and story.pair_telling == "asked_top"
        told = "_top" if said_top and choice.kind in ("asked", "followed") else ""
        self.step(
            "values",
            caption_key=f"values_{choice.kind}{told}",
            alike=f"{ac.readings.claims.ALIKE:.2f}",
            q=self.q_tokens[i],
            does=self.head_does(choice),  # what the head does, as AttentionMatrix's reading says
            top=self.num(head.weights[i, top], HeadRole("weights", self.h, i, top), 3).shown,
            terms=self.say(f"terms_{terms.kind}", k=terms.allowed, b=terms.blocked),
        )
        # where not every value finds a label: the largest weights' (issue 32), and a line
        # saying how many are not drawn
        # a key the mask hides from the query adds nothing to its output: not drawn
        seen = set(self.seen)
        order = [
            j for j in self.cast_first(ac.story_order(head.weights, i, top, "keys")) if j in seen
        ]
        self.v_order, self.v_grey = order, None
        if self.example.n_keys > CROWDED:  # the cast in colour, the others grey (issue 38)
            self.v_drawn, self.v_arrows, self.v_labels, self.note = self.cast_values()
        else:
            self.v_drawn, self.v_arrows, self.v_labels, self.note = self.values_clear_of_chain()
        keyed = getattr(self, "v_keyed", [])  # the followed key's, named in a key
        self.v_named = [j for j in self.v_drawn if j not in keyed]  # none once zoomed
        self.obstacles = list(plane.tick_labels) + list(self.note)
        self.value_marks = (list(plane.tips), list(plane.shafts))  # the values' arrows alone
        self.hull = hull = self.value_hull()
        w_head = label(
            f"q({self.kit.fit_label(self.q_tokens[i], 3.0, BODY)})", BODY, self.q_color(i)
        )
        # below the weights come o = … (two lines at most) and, adding back, E + ΔE and its facts
        below = 1.25 if self.own2 is None else 0.38 * self.side_box.height
        weights_col = self.weights_column(self.side_box.height - w_head.height - 0.25 - below)
        self.side = VGroup(w_head, weights_col).arrange(DOWN, aligned_edge=LEFT, buff=0.25)
        place(self.side, self.side_box, "top-left")
        self.play(Create(plane.plane), FadeIn(plane.tick_labels), FadeIn(self.note), run_time=0.8)
        self.play(
            *self.grow_value_arrows(),
            FadeIn(self.v_labels),
            FadeIn(hull),
            FadeIn(self.side),
            run_time=1.2,
        )
        self.hold()

    def values_clear_of_chain(self):
        """Every value labelled (:meth:`Kit.story_arrows`), the labels clear of where the chain
        and the output will run, so that none moves as the chain forms (issue 38: in Chinese
        v(早) left its arrow for the chain's sake); as before where that draws fewer."""
        plane = self.vplane
        tips, shafts, note = list(plane.tips), list(plane.shafts), self.note
        tries = []
        for chain in (self.chain_marks_ahead(), []):
            plane.tips[:], plane.shafts[:] = tips, shafts
            tries.append(
                self.kit.story_arrows(
                    plane,
                    self.V2,
                    [f"v({t})" for t in self.k_tokens],
                    self.colors,
                    self.v_order,
                    note,
                    self.note_box,
                    bounds=self.plane_box,
                    align="left",
                    obstacles=list(plane.tick_labels) + chain,
                )
            )
            if len(tries[0][0]) == len(self.v_order):
                break
        out = tries[0] if len(tries[0][0]) == len(self.v_order) else tries[-1]
        # each label nearer its own tip than another arrow (issue 38: at-the-limits at 4:3,
        # v(with) 0.30 from its tip sat 0.14 from another), clear of the chain where it was
        ahead = self.chain_marks_ahead() if out is tries[0] else []
        failed = self.unmistaken(out[2], VGroup(), ahead)
        if failed and ahead:  # else on the chain's way (it moves as the chain forms)
            failed = self.unmistaken(out[2], VGroup())
        self.lead_mistaken(out[2], failed)  # no spot at all: a line to its own tip (zh 4:3)
        return out

    def value_hull(self):
        """The values' convex hull, where every output lies (empty for fewer than 3 corners)."""
        theme, plane = self.theme, self.vplane
        seen = self.V2[self.seen]  # the values the query may see: its output lies among them
        hull_pts = ac.convex_hull_2d(seen) if len(seen) >= 3 else seen
        if len(hull_pts) < 3:
            return VGroup()
        return Polygon(
            *[plane.point(p) for p in hull_pts],
            color=theme.muted,
            stroke_width=2,
            fill_color=theme.muted,
            fill_opacity=0.12,
        )

    def weights_column(self, room: float):
        """'w × v(token)' for every key, at the largest size that fits ``room`` (the side box
        less its heading): one column, else two; nothing where neither fits."""
        head, colors, i = self.head, self.colors, self.i
        right = self.side_box
        tries = ((BODY, 1), (SMALL, 1), (SMALL, 2), (SMALL, 0), (SMALL, -1), (SMALL, -2))
        for size, columns in tries:  # -2: the shortest form, its lines closer (12 keys at 1:1)
            entries = [
                VGroup(
                    self.num(
                        head.weights[i, j],
                        HeadRole("weights", self.h, i, j),
                        3,
                        size=size,
                        color=colors[j],
                    ),
                    label(f"× v({self.listed_name(j, 2.2, size)})", size, colors[j]),
                ).arrange(buff=0.12)
                if columns >= 0
                else VGroup(  # the shortest form: "when 0.001", as Softmax lists them
                    label(self.listed_name(j, 1.0, size), size, colors[j]),
                    self.num(head.weights[i, j], HeadRole("weights", self.h, i, j), 3, size=size),
                ).arrange(buff=0.1)
                for j in self.seen
            ] + self.blocked_line(size)
            if columns <= 0:  # as many to a line as fit
                cols = flow(entries, right.width, hbuff=0.25, vbuff=0.06 if columns < -1 else 0.12)
                if cols.height <= room:
                    return cols
                continue
            per = -(-len(entries) // columns)
            cols = VGroup(
                *(
                    VGroup(*entries[k : k + per]).arrange(
                        DOWN, aligned_edge=LEFT, buff=0.18 if size == BODY else 0.12
                    )
                    for k in range(0, len(entries), per)
                )
            ).arrange(RIGHT, aligned_edge=UP, buff=0.35)
            if cols.height <= room and cols.width <= right.width:
                return cols
        return self.largest_weights(room)

    def listed_name(self, j: int, room: float, size: float) -> str:
        """Key ``j``'s token in the list of weights: a cast token's whole, never shortened
        (issue 38, minilm-painting at 16:9: 'beautiful' listed as 'be…ul'), another's shortened
        to ``room`` at ``size``."""
        token = self.k_tokens[j]
        return drawn_as(token) if j in self.cast else self.kit.fit_label(token, room, size)

    def largest_weights(self, room: float):
        """Where not every key's weight fits (12 keys at 1:1): the cast's (the tokens in colour,
        :func:`attention_core.story_cast`) and the largest, largest first, in the shortest form
        and as many to a line as fit, every value drawn in the plane among them (issue 38: at
        1:1 three of the eight drawn had no weight on the still; fit, drawn, was listed before
        it₁, in the cast and weighed as much; the painting's the₁ left out for said), with a
        line saying how many are left (the caption's largest weight is always listed) — where
        only the cast fits, closer and without that line (the plane's note counts the others,
        grey); nothing where not even one fits."""
        head, colors, i, n = self.head, self.colors, self.i, len(self.seen)
        order = sorted(self.seen, key=lambda j: -head.weights[i, j])
        drawn = [j for j in getattr(self, "v_drawn", ()) if j in order]
        cast = [j for j in order if j in self.cast and j not in self.v_zero]
        width, tried, made = self.side_box.width, set(), {}
        # the cast's weights where they fit, else every drawn value's (all drawn, 12 keys: the
        # largest alone)
        tries = [(k, must, LIST_GAPS[0]) for must in (cast, drawn, []) for k in range(n - 1, 0, -1)]
        tries.insert(n - 1, (0, cast, LIST_GAPS[1]))  # the cast alone, closer
        for shown, must, (hbuff, vbuff) in tries:
            keys = sorted({*order[:shown], *must}, key=order.index)
            if len(keys) >= n or (tuple(keys), hbuff) in tried:
                continue
            tried.add((tuple(keys), hbuff))
            for j in keys:
                if j not in made:
                    role = HeadRole("weights", self.h, i, j)
                    made[j] = VGroup(
                        label(self.k_tokens[j], SMALL, colors[j]),
                        self.num(head.weights[i, j], role, 3, size=SMALL),
                    ).arrange(buff=0.1)
            listed = flow([made[j] for j in keys], width, hbuff=hbuff, vbuff=vbuff)
            # "none weighted more" only where every key left out weighs no more than those listed
            claim = keys == order[: len(keys)]
            rest_keys = ["smaller_weights", "more_weights"] if claim else ["more_weights"]
            for rest_key in rest_keys + ([None] if hbuff != LIST_GAPS[0][0] else []):
                said = self.say(rest_key, n=n - len(keys)) if rest_key else ""
                lines = balanced_lines(said, width, SMALL, 2) if said else []
                rest = [label(t, SMALL, self.theme.muted) for t in lines]
                col = VGroup(listed, *rest, *self.blocked_line(SMALL, seen=n))
                col.arrange(DOWN, aligned_edge=LEFT, buff=vbuff)
                if col.height <= room and col.width <= width:
                    return col
        return VGroup()  # no room at all: the shares are in the AttentionMatrix scene

    @property
    def seen(self) -> list[int]:
        """The keys the followed row may see (all without a mask): the weights listed."""
        mask = self.head.mask
        return [j for j in range(self.example.n_keys) if mask is None or mask[self.i, j]]

    def blocked_line(self, size: float, seen: int | None = None) -> list:
        """'the mask blocks 12 keys' under the listed weights, where it blocks some (their
        weights are 0: not listed); the number is the caption's (attention_core.sum_terms).
        Under a partial list (``seen``: the count of keys the row may see) it names that count
        too, as the caption does ("the 20 value vectors it may see"): the list does not show it."""
        blocked = ac.sum_terms(self.head, self.i).blocked
        if not blocked:
            return []
        key = "mask_blocks_keys" if blocked > 1 else "mask_blocks_key"
        if seen is not None:
            key = "mask_blocks_keys_seen"
        text = self.say(key, b=blocked, k=seen)
        # on two lines where the side is narrow (1:1: wider than the weights' column)
        lines = balanced_lines(text, self.side_box.width, size, 2)
        return [label(t, size, self.theme.muted) for t in lines]

    def shrink_values(self):
        """Each value shrinks by its weight."""
        self.step("shrink")
        arrows = self.v_arrows
        drawn = dict(zip(self.v_drawn, arrows))
        self.shrunk = VGroup(*(self.shrunk_arrow(j) for j in range(self.example.n_keys)))
        self.play(
            *(a.animate.set_opacity(0.3) for a in [*arrows, *(self.v_grey or [])]),
            *(  # a value not drawn (issue 32: no room for its label): its part just appears
                ReplacementTransform(drawn[j].copy(), self.shrunk[j])
                if j in drawn
                else FadeIn(self.shrunk[j])
                for j in range(self.example.n_keys)
            ),
            run_time=1.5,
        )
        self.hold()

    def chain_tip_to_tail(self):
        """The shrunk values move tip to tail; their sum is the output o, labelled first; the
        values' labels move clear of the chain (issue 38: at 1:1 those the chain ran over left,
        and o(she) found no spot)."""
        self.step("chain")
        # past 12 keys the small terms in one link, the plane zoomed to the chain (issue 38)
        merged = self.v_grey is not None and self.crowded_chain()
        theme, plane, out2 = self.theme, self.vplane, self.out2
        if not merged:
            plane.tips[:], plane.shafts[:] = self.value_marks  # the shrunk values are gone
            chained = VGroup(
                *(
                    plane.arrow(p, c, start=s, stroke_width=6)
                    for p, s, c in zip(self.parts2, self.starts2, self.colors)
                )
            )
        self.result = plane.arrow(out2, theme.output, stroke_width=7)
        o_name = f"o({self.q_name})"
        self.side_of = np.array([out2[1], -out2[0]])  # beside the output, away from the values
        moved = self.label_chain(o_name)
        self.output_unmistaken()  # nearer its own tip than another arrow (issue 38)
        self.out_line = self.vector_line(
            o_name, self.out, ("output", self.h, self.i), theme.output, self.side_box
        )
        self.out_line.next_to(self.side, DOWN, buff=0.4).align_to(self.side, LEFT)
        self.output_in_key(o_name)  # no spot anywhere near: named in a key
        if not merged:
            self.play(
                *(Transform(self.shrunk[j], chained[j]) for j in range(self.example.n_keys)),
                *moved,
                run_time=1.6,
            )
        elif moved:
            self.play(*moved, run_time=0.8)
        term = self.name_told_links() if merged else VGroup()  # "0.547 × v(farmer)" by its link
        self.told_names = term
        # the output over the links and half as thick (issue 38, he → farmer: o(he) lay hidden
        # under 0.547 × v(farmer), which nearly coincides with it; outlined in the background
        # it hid that link in turn): a link along it shows on both sides of its line
        self.result.set_stroke(width=OUTPUT_STROKE)
        hull_name = self.hull_label()
        self.play(
            grow(self.result),
            FadeIn(self.o_tip),
            FadeIn(self.out_line),
            FadeIn(term),
            FadeIn(hull_name),
            run_time=1,
        )
        self.bring_to_front(self.result, self.o_tip, term, hull_name)
        self.hold()

    def hull_label(self) -> VGroup:
        """The values' hull named where it is the subject ("every possible output: weights ≥ 0
        summing to 1", issue 38: the region was unlabelled), plated, in the hull's colour, by
        the hull's corner farthest from the output, clear of every arrow and label; on two lines
        where one finds no room; an empty group where neither does (the caption names it)."""
        from scenes.mobjects.layout import box_of

        if not len(self.hull.points):
            self.hull_name = VGroup()
            return self.hull_name
        corners = [np.asarray(p)[:2] for p in self.hull.get_vertices()]
        tip = np.asarray(self.vplane.point(self.out2))[:2]
        corners.sort(key=lambda p: -np.linalg.norm(p - tip))
        taken = [*self.chain_marks(), *(box_of(m) for m in self.drawn_labels())]
        text = self.say("hull_every_output")
        found = VGroup()
        for lines, reach in ((1, HULL_REACH), (2, HULL_REACH), (2, 2 * HULL_REACH)):
            parts = balanced_lines(text, self.label_box.width, SMALL, lines)
            words = VGroup(*(label(t, SMALL, self.theme.muted) for t in parts))
            words.arrange(DOWN, aligned_edge=LEFT, buff=0.05)
            mob = plated(words, self.theme.background)
            for corner in corners:
                spots = free_spots(mob, corner, taken, self.label_box, 0.0, reach)
                if spots:
                    found = VGroup(mob.move_to(np.array([*spots[0], 0.0])))
                    break
            if len(found):
                break
        self.hull_name = found
        return found

    def drawn_labels(self) -> list:
        """The labels on the plane and beside it now, none of which the hull's name may touch."""
        return [*self.obstacles, *self.v_labels, *self.o_tip, *self.told_names, *self.side]

    def chain_marks(self) -> list:
        """Every drawn arrow's head and shaft on the plane now (the faded values, the chain,
        the output), where no label may sit."""
        plane = self.vplane
        heads = [Box(*(t[:2] - 0.14), *(t[:2] + 0.14)) for t in plane.tips]
        return heads + shaft_marks(plane.shafts)

    def new_marks(self) -> list:
        """The heads and shafts of the arrows drawn since the values (the chain, the output)."""
        plane = self.vplane
        heads = plane.tips[len(self.value_marks[0]) :]
        shafts = plane.shafts[len(self.value_marks[1]) :]
        return [Box(*(t[:2] - 0.14), *(t[:2] + 0.14)) for t in heads] + shaft_marks(shafts)

    @staticmethod
    def covered(mob, boxes) -> bool:
        """Whether a value's label (its text: its leader line may cross) touches ``boxes``."""
        text = mob if getattr(mob, "is_tip_label", False) else mob[0]
        return any(box_of(text).overlaps(c, 0.0) for c in boxes)

    def label_chain(self, o_name: str) -> list:
        """The output's label (``self.o_tip``) and the values' labels clear of the chain, by the
        first of :data:`CHAIN_TRIES` that leaves every one whole (else the one losing fewest);
        the animations that move the values' labels there."""
        plane, best = self.vplane, None
        shafts = list(plane.shafts)
        # the output's label in the small type where the body's finds no spot (at the limits
        # at 1:1: o(explanations) had none), before a value's label crosses a faded shaft
        tries = [(how, size) for size in (BODY, SMALL) for how in CHAIN_TRIES if how != "faint"]
        for how, size in [*tries, ("faint", BODY), ("faint", SMALL)]:
            tried = self.try_chain_labels(o_name, how, size)
            plane.shafts[:] = shafts
            if best is None or tried[0] < best[0]:
                best = tried
            if not tried[0]:
                break
        _, self.o_tip, stay, again = best
        new = {getattr(m, "source_text", ""): m for m in again}
        anims = []
        for old in (m for m in self.v_labels if m not in stay):
            twin = new.pop(getattr(old, "source_text", ""), None)
            anims.append(FadeOut(old) if twin is None else ReplacementTransform(old, twin))
        anims += [FadeIn(m) for m in new.values()]
        self.v_labels = VGroup(*stay, *again)
        return anims

    def try_chain_labels(self, o_name: str, how: str, size: float = BODY):
        """One way of :data:`CHAIN_TRIES` to label the chain: (how many labels it loses, the
        output's label, the values' labels that stay, those placed again)."""
        plane, chain, marks = self.vplane, self.new_marks(), self.chain_marks()
        keep = how in ("cover", "around")
        stay = [m for m in self.v_labels if not self.covered(m, chain)] if keep else []

        def o_label(clear_of):
            mob = plated(label(o_name, size, self.theme.output), self.theme.background)
            box, obstacles = self.label_box, self.obstacles + marks + clear_of
            return self.tag(plane, mob, self.out2, self.side_of, box, obstacles)

        if how == "values_first":
            again = self.placed_values([], [])
            o_tip = o_label(list(again))
        else:
            o_tip = o_label(stay if how == "around" else [])
            o_text = [box_of(t if hasattr(t, "plated_text") else t[0]) for t in o_tip]
            stay = [m for m in stay if not self.covered(m, o_text)]  # by its text, not its line
            if how == "faint":  # a value's label may cross a faded value's shaft
                plane.shafts[:] = plane.shafts[len(self.value_marks[1]) :]
            again = self.placed_values(stay, list(o_tip))
        whole = {getattr(m, "source_text", "") for m in [*stay, *again]}
        lost = sum(f"v({self.k_tokens[j]})" not in whole for j in self.v_named)
        return lost + (not len(o_tip)), o_tip, stay, again

    def placed_values(self, stay: list, taken: list) -> VGroup:
        """The labels of the drawn values not in ``stay``, placed clear of the chain, of
        ``stay`` and of ``taken`` (the output's label), the story's first placed first, each
        with a leader line where it had to go farther (one with no room at all left out)."""
        named = {getattr(m, "source_text", "") for m in stay}
        names = {j: f"v({self.k_tokens[j]})" for j in self.v_named}
        moving = [j for j in sorted(self.v_named, key=self.v_order.index) if names[j] not in named]
        return self.vplane.tip_labels(
            self.V2[moving],
            [names[j] for j in moving],
            [self.colors[j] for j in moving],
            self.label_box,
            self.obstacles + taken + stay,
        )

    def compare(self):
        """No residual to draw: the caption says why (another space, or several heads), and
        the picture shows it in one line of math under the output's (issue 38: a step that
        added a sentence and no picture)."""
        ex, heads = self.example, len(self.trace.heads)
        if ex.is_cross:
            key, values = "compare_cross", {}
        elif heads > 1:
            key, values = "compare_heads", {"h": heads}  # ΔE: the heads' outputs joined
        else:
            key, values = "compare_size", {"dv": self.out.shape[0], "dm": ex.d_model}
        self.step("compare", caption_key=key)
        # the formula, then its numbers on a line of their own; never shrunk: where either is
        # wider than the side column or the two reach below the content, the caption says it
        parts = [f"{key}_math"] + ([f"{key}_values"] if values else [])
        why = VGroup(*(self.typeset(k, BODY, self.theme.accent, **values) for k in parts))
        why.arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        why.next_to(self.out_line, DOWN, buff=0.4).align_to(self.out_line, LEFT)
        fits = why.width <= self.side_box.width and why.get_right()[0] <= self.regions.content.x1
        if fits and why.get_bottom()[1] >= self.regions.content.y0:
            self.play(FadeIn(why), run_time=0.8)
        self.hold(1.6)

    def add_to_embedding(self):
        """The residual: E + ΔE, the output added tip to tail to the embedding."""
        theme, plane, i = self.theme, self.vplane, self.i
        own2, out2, new2 = self.own2, self.out2, self.new2
        share = ac.share_from_others(self.head.weights)[i] * 100
        pct = "%" if self.lang == "zh" else " %"  # 64%, as Chinese writes it; 64 % in English
        self.step(
            "residual",
            q=self.q_tokens[i],
            share=self.num(share, HeadRole("share_others_pct", self.h, i), 0).shown + pct,
        )
        fade = [a.animate.set_opacity(0.15) for a in list(self.v_arrows) + list(self.shrunk)]
        fade.append(self.result.animate.set_opacity(0.35))
        own_arrow = plane.arrow(own2, self.q_color(i), stroke_width=6)
        moved = plane.arrow(out2, theme.output, start=own2, stroke_width=7)
        total = plane.arrow(new2, theme.accent, stroke_width=7)
        box, side_of = self.plane_box, self.side_of
        # no tag on the three arrows' shafts nor heads, nor on the head of the output's faint
        # arrow (it stays, at 0.35)
        ends = [(np.zeros(2), own2), (own2, new2), (np.zeros(2), new2)]
        ends = [(plane.point(a), plane.point(b)) for a, b in ends]
        heads = [plane.point(p) for p in (out2, new2)]
        obstacles = self.obstacles + shaft_marks(ends)
        obstacles += [Box(*(h[:2] - 0.14), *(h[:2] + 0.14)) for h in heads]
        e_tip = self.tag(
            plane, label(f"E({self.q_name})", BODY, self.q_color(i)), own2, side_of, box, obstacles
        )
        d_tip = self.tag(
            plane,
            math("Delta E = o", BODY * 1.2, theme.output),
            own2 + out2 / 2,
            side_of,
            box,
            obstacles + list(e_tip),
        )
        total_tip = self.tag(
            plane,
            math("E + Delta E", BODY * 1.2, theme.accent),
            new2,
            new2,
            box,
            obstacles + list(e_tip) + list(d_tip),
        )
        facts = self.residual_facts(share, pct)
        self.play(
            *fade,
            FadeOut(self.v_labels),
            FadeOut(self.o_tip),
            grow(own_arrow),
            FadeIn(e_tip),
            run_time=1.2,
        )
        self.play(ReplacementTransform(self.result.copy(), moved), FadeIn(d_tip), run_time=1.5)
        self.play(grow(total), FadeIn(total_tip), FadeIn(facts), run_time=1.2)
        self.hold(1.6)

    def residual_facts(self, share, pct):
        """E + ΔE's numbers and the share from other tokens, under the output's line (the share
        alone in a long column, nothing where even that does not fit)."""
        theme, i, new = self.theme, self.i, self.new
        new_line = self.vector_line(None, new, ("residual", self.h, i), theme.accent, self.side_box)
        facts = VGroup(
            new_line,
            VGroup(
                label("1 − w =", BODY, theme.text),
                self.num(share, HeadRole("share_others_pct", self.h, i), 0, size=BODY, suffix=pct),
            ).arrange(buff=0.12),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.25)
        out_line = self.out_line
        facts.next_to(out_line, DOWN, buff=0.4).align_to(out_line, LEFT)
        if facts.get_bottom()[1] < self.regions.content.y0:  # a long column: the share alone
            facts = facts[1]
            facts.next_to(out_line, DOWN, buff=0.3).align_to(out_line, LEFT)
            if facts.get_bottom()[1] < self.regions.content.y0:
                facts = VGroup()  # no room: the caption says it
        return facts

    @staticmethod
    def tag(plane, mob, at, direction, box, obstacles):
        """``mob`` beside the plane point ``at`` (data coordinates), towards ``direction`` where
        free, joined to it by a leader line where the nearest free spot is away from it (24
        tokens: o(it₁) sat 1.1 from its tip); an empty group where no spot is free (the colour
        still says which)."""
        anchor = plane.point(at)
        ok = place_labels(
            [mob], [anchor], [np.array([*direction[:2], 0.0])], box, obstacles=obstacles
        )[0]
        if not ok:  # the free spot nearest its tip, joined by a leader line (1:1: none near)
            spot = free_spot(mob, anchor, box, obstacles, gap=0.05, step=0.05)
            if spot is None:
                return VGroup()
            mob.move_to(spot)
        led = plane.leadered(mob, anchor)
        own_tip(mob, anchor)  # above the arrows; checked against its own tip
        return VGroup(led)

    def vector_line(self, name, values, role, color, box):
        """'name = [a, b]' (or '= [a, b]' under E + ΔE), folded under the name when too wide;
        a long vector elided in the middle ([a, b, …, z]) until it fits, so the line always
        shows the vector's value. ``role`` + (c,) is the role of entry c."""
        word = label(f"{name} =", BODY, color) if name else math("E + Delta E =", BODY * 1.2, color)
        n = len(values)
        for keep in [n, *range(min(n - 2, 6), 0, -1)]:
            shown = list(range(n)) if keep == n else [*range(keep), n - 1]
            nums = [self.num(values[c], (*role, c), 2, size=BODY, color=color) for c in shown]
            if keep < n:
                nums.insert(keep, label("…", BODY, color))
            vec = vector_row(nums, color)
            line = VGroup(word, vec).arrange(buff=0.15)
            if line.width <= box.width:
                return line
            if vec.width <= box.width:
                return VGroup(word, vec).arrange(DOWN, aligned_edge=LEFT, buff=0.12)
        vec.scale_to_fit_width(box.width)
        return VGroup(word, vec).arrange(DOWN, aligned_edge=LEFT, buff=0.12)
