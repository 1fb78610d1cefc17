"""Projections: the three roles, then Q = X·W_q, K = X·W_k, V = X·W_v as linear maps of the
plane."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ApplyMatrix,
    BackgroundRectangle,
    Create,
    Indicate,
    LaggedStart,
    ReplacementTransform,
    RoundedRectangle,
    TransformFromCopy,
    VGroup,
)

import attention_core as ac
from scenes.kit.base import ExplainerScene
from scenes.kit.roles import HeadRole
from scenes.mobjects.brackets import bracket_matrix
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.layout import Box, box_of, flow, ink_to, place
from scenes.mobjects.math import math as typeset_math
from scenes.mobjects.math import rich
from scenes.mobjects.matrix import math_title, matrix_title, typeset_headers
from scenes.mobjects.plane import grow
from scenes.mobjects.text import label
from scenes.mobjects.theme import BODY, SMALL
from scenes.mobjects.tip_room import beside_marks
from scenes.parts.projections_maps import ViewedMaps


def role_cards(scene: ExplainerScene, box: Box) -> VGroup:
    """The three roles on cards, each named and framed in the neutral role tone
    (``theme.role``): no role takes a token's colour (issue 38: "value" in the third token's
    blue read as that token's)."""
    cards, color = VGroup(), scene.theme.role
    for role, desc in (("query", "asks"), ("key", "answers"), ("value", "carries")):
        head = label(scene.say(role), BODY + 4, color, weight="BOLD")
        body = label(scene.say(desc), BODY, scene.theme.text)
        inner = VGroup(head, body).arrange(DOWN, buff=0.25)
        frame = RoundedRectangle(
            corner_radius=0.15,
            width=inner.width + 0.6,
            height=inner.height + 0.6,
            stroke_color=color,
            fill_color=scene.theme.panel,
            fill_opacity=1,
        )
        cards.add(VGroup(frame, inner.move_to(frame)))
    width = max(c.width for c in cards)
    for c in cards:
        c[0].stretch_to_fit_width(width)
    cards.arrange(buff=0.4)
    if cards.width > box.width:
        cards.arrange(DOWN, buff=0.3)
    return place(cards, box)


def rowvec_matrix(W: np.ndarray) -> np.ndarray:
    """Manim maps points as columns (p → M p); our vectors are rows (x → x W): M = Wᵀ."""
    return np.asarray(W, dtype=float).T


class Projections(ViewedMaps, ExplainerScene):
    """Query, key and value: three linear maps of the same embeddings."""

    def construct(self):
        ex = self.example
        content = self.regions.content
        self.step("roles")
        cards = role_cards(self, content)
        self.play(FadeIn(cards, lag_ratio=0.3), run_time=1.5)
        self.hold(2.0)

        w = ex.weights
        W_q, W_k, W_v = w.head(0, ex.heads)
        planar = ex.d_model == 2 and all(m.shape == (2, 2) for m in (W_q, W_k, W_v))
        if w.form == "identity" and ex.d_model == 2 and ex.heads == 1:
            self.identity_then_illustration()
        elif planar and not ex.is_cross:
            self.planar_maps({"q": W_q, "k": W_k, "v": W_v})
        else:
            self.viewed_maps()
        self.match_step()

    def plane_and_side(self):
        """The plane as large as the height allows, the rest beside it (half and half in a
        narrow frame)."""
        content = self.regions.content
        if content.width >= 1.6 * content.height:
            side = min(content.height, 0.6 * content.width)
            left = Box(content.x0, content.y0, content.x0 + side, content.y1)
            right = Box(left.x1 + 0.4, content.y0, content.x1, content.y1)
            return left, right
        return content.columns(1, 1, gap=0.3)

    # -- d = 2 with identity weights: say so, then two illustrative maps, one per role -----------
    def identity_then_illustration(self):
        self.show_identity()
        # two illustrative maps: queries and keys live in different spaces
        seed = ac.ILLUSTRATIVE_SEED
        W_q, W_k = ac.illustrative_projections(2, seed)
        Q, K, S = ac.illustrative_queries_keys(self.trace.X, seed, self.trace.source)
        self.step("illustrative", seed=seed, clear=True)
        line = self.score_line(S, seed)
        planes_box, line_box = self.regions.content.rows(6, 1, gap=0.15)
        if line.height > line_box.height:  # a wrapped line keeps its size; the planes give room
            content = self.regions.content
            line_box = Box(content.x0, content.y0, content.x1, content.y0 + line.height)
            planes_box = Box(content.x0, line_box.y1 + 0.15, content.x1, content.y1)
        spaces = self.illustrative_spaces(planes_box, seed, {"q": (W_q, Q), "k": (W_k, K)})
        self.play(
            *(Create(sp["plane"].plane) for sp in spaces),
            *(FadeIn(sp["plane"].tick_labels) for sp in spaces),
            *(FadeIn(sp["heading"]) for sp in spaces),
            run_time=0.8,
        )
        self.play(
            *(grow(a) for sp in spaces for a in sp["arrows"]),
            *(FadeIn(sp["labels"]) for sp in spaces),
            *(FadeIn(sp["w"]) for sp in spaces),
            run_time=1.0,
        )
        self.play(*(FadeOut(sp["plane"].tick_labels) for sp in spaces), run_time=0.3)
        self.play(
            *(
                ApplyMatrix(
                    rowvec_matrix(sp["W"]), sp["plane"].plane, about_point=sp["plane"].c2p(0, 0)
                )
                for sp in spaces
            ),
            *(ReplacementTransform(sp["arrows"], sp["moved"]) for sp in spaces),
            *(ReplacementTransform(sp["labels"], sp["moved_labels"]) for sp in spaces),
            run_time=2.5,
        )
        self.hold()
        self.query_meets_keys(spaces, S, seed, line, line_box)

    def show_identity(self):
        """The weights are the identity: Q = K = V = X, said beside the tokens' plane."""
        ex, tr = self.example, self.trace
        left, right = self.plane_and_side()
        plane = self.kit.plane(tr.X, left)
        colors = [self.q_color(i) for i in range(ex.n)]
        arrows = plane.arrows(tr.X, colors)
        labels = plane.tip_labels(
            tr.X, self.q_tokens, colors, left, plane.tick_labels, clear_axes=True
        )
        rotary = ac.linear_maps(tr).rotated
        self.step("identity", "identity_rotary" if rotary else None, clear=True)
        note_box, table_box = right.rows(1, 3)
        size = BODY if note_box.width > 5 else SMALL
        note = VGroup(
            self.typeset_lines("identity_w", size, self.theme.accent, note_box.width),
            self.typeset_lines("identity_qkv", size, self.theme.accent, note_box.width),
            self.typeset_lines("identity_roles", SMALL, self.theme.text, note_box.width),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        place(note, note_box, "left")
        table = self.kit.matrix(
            ac.linear_maps(tr).head(0)[0],  # X W_q = X (with RoPE: before the turn)
            ("Q_map", self.h),
            self.q_tokens,
            ["x1", "x2"],
            table_box,
            row_colors=colors,
            sizes=(44, 40, 36, 32, 28, 25, 22),
        )
        typeset_headers(table, ["x_1", "x_2"])
        head = math_title("Q = K = V = X", table, self.theme)
        side_group = place(VGroup(head, table), table_box, "left")
        self.play(Create(plane.plane), FadeIn(plane.tick_labels), run_time=1)
        self.play(*(grow(a) for a in arrows), FadeIn(labels), FadeIn(note), FadeIn(side_group))
        self.hold()

    def illustrative_spaces(self, planes_box: Box, seed: int, maps: dict) -> list[dict]:
        """The query space and the key space side by side, each with its illustrative W, the
        tokens before and (to move to) after the map."""
        ex, tr = self.example, self.trace
        halves = planes_box.columns(1, 1, gap=0.5)
        (W_q, Q), (W_k, K) = maps["q"], maps["k"]
        spaces = []
        for box, key, W, X, out, tokens, color_of, outline in (
            (halves[0], "q", W_q, tr.X, Q, self.q_tokens, self.q_color, False),
            (halves[1], "k", W_k, tr.source, K, self.k_tokens, self.k_color, True),
        ):
            heading = self.typeset(
                "space_k_source" if key == "k" and ex.is_cross else f"space_{key}",
                BODY,
                self.theme.text,
            )
            head = flow(
                [heading, self.illustrative_w(key, W, seed), self.illustrative_note(key, seed)],
                box.width,
                hbuff=0.3,
                vbuff=0.12,
            )
            place(head, box, "top-left")
            p_box = Box(box.x0, box.y0, box.x1, head.get_bottom()[1] - 0.15)
            extra = [Q[0]] if key == "k" else []
            pl = self.kit.plane(np.vstack([X, out, *extra]), p_box, pad=0.06, maps=[W])
            cols = [color_of(i) for i in range(len(X))]
            arrows = pl.arrows(X, cols, outline=outline)
            labels = pl.tip_labels(X, tokens, cols, p_box, pl.tick_labels, clear_axes=True)
            moved = pl.arrows(out, cols, outline=outline)
            # the query that meets the keys here later: drawn now, so the keys' labels keep
            # clear of its arrowhead (a k(上) over the head of q(早) at rotary 16:9)
            q_arrow = pl.arrow(Q[0], self.q_color(0)) if key == "k" else None
            moved_labels = pl.tip_labels(
                out, [f"{key}({t})" for t in tokens], cols, p_box, clear_axes=True
            )
            if q_arrow is not None:  # in the keys' coordinates: the grid moves, they do not
                q_arrow = (q_arrow, self.query_label(pl, Q[0], p_box, moved_labels))
            spaces.append(
                dict(
                    plane=pl,
                    arrows=arrows,
                    labels=labels,
                    heading=head,
                    w=VGroup(),
                    W=W,
                    moved=moved,
                    moved_labels=moved_labels,
                    q_arrow=q_arrow,
                    box=p_box,
                )
            )
        return spaces

    def query_label(self, plane, q, box: Box, keys: VGroup) -> VGroup:
        """'q(早)' at the tip of the followed query, clear of the keys' labels and off their
        lines beside them (zero or tiny vectors: 'k(b)q(a)' read as one)."""
        obstacles = [*keys, *beside_marks(keys)]
        return plane.tip_labels(
            [q], [f"q({self.q_tokens[0]})"], [self.q_color(0)], box, obstacles, clear_axes=True
        )

    def illustrative_w(self, key: str, W, seed: int) -> VGroup:
        """'W_q = [[…]]' with its numbers."""
        return VGroup(
            typeset_math(f"W_{key} =", SMALL, self.theme.text),
            bracket_matrix(
                [
                    [
                        self.num(W[r, c], ("illustrative_qk", seed, f"W_{key}", r, c))
                        for c in range(2)
                    ]
                    for r in range(2)
                ],
                self.theme.muted,
            ),
        ).arrange(buff=0.15)

    def illustrative_note(self, key: str, seed: int) -> VGroup:
        """'illustrative, seed 7'."""
        return VGroup(
            self.typeset(f"illustrative_w{key}", SMALL, self.theme.muted),
            self.num(seed, ("seed", "illustrative"), digits=0, color=self.theme.muted),
        ).arrange(buff=0.1)

    def query_meets_keys(self, spaces, S, seed: int, line: VGroup, line_box: Box) -> None:
        """The query of one token meets every key, in the key space; its scores in a line."""
        i = 0
        q_in_k, q_label = spaces[1]["q_arrow"]
        best = int(np.argmax(S[i]))
        self.step(
            "compare",
            q=f"q({self.q_tokens[i]})",
            k=f"k({self.k_tokens[best]})",
            own=f"k({self.k_tokens[i]})" if i < len(self.k_tokens) else "",
            score=self.num(S[i, best], ("illustrative_qk", seed, "S", i, best)).shown,
        )
        if line.height > line_box.height:
            line.scale_to_fit_height(line_box.height)
        place(line, line_box, "center")
        q_src = spaces[0]["moved"][i]
        self.play(TransformFromCopy(q_src, q_in_k), FadeIn(q_label), run_time=1.5)
        self.play(LaggedStart(*(FadeIn(p) for p in line), lag_ratio=0.4), run_time=1.5)
        self.hold(1.5)

    def score_line(self, S, seed: int) -> VGroup:
        """'q(早) · k(早) = 1.48' for every key, the largest in the accent, flowed in rows as wide
        as the content."""
        i, best = 0, int(np.argmax(S[0]))
        parts = []
        for j in range(len(self.k_tokens)):
            color = self.theme.accent if j == best else self.theme.text
            parts.append(
                VGroup(
                    dot_label(self, i, j, BODY),
                    self.num(S[i, j], ("illustrative_qk", seed, "S", i, j), size=BODY, color=color),
                ).arrange(buff=0.12)
            )
        return flow(parts, self.regions.content.width, hbuff=0.5)

    # -- d = 2 with real weights: each map moves the grid -----------------------------------------
    def planar_maps(self, maps: dict):
        ex, tr = self.example, self.trace
        left, right = self.plane_and_side()
        colors = [self.q_color(i) for i in range(ex.n)]
        maps_of = ac.linear_maps(tr)  # what X W gives: with RoPE, before the turn
        results = dict(zip("qkv", maps_of.head(0)))
        plane_pts = np.vstack([tr.X] + list(results.values()))
        plane = self.kit.plane(plane_pts, left, maps=list(maps.values()))
        origin = plane.c2p(0, 0)
        for key, W in maps.items():
            turned = maps_of.rotated and key != "v"
            self.step(f"map_{key}", f"map_{key}_rotary" if turned else None, clear=True)
            grid = plane.plane.copy()
            outline = key == "k"
            arrows = plane.arrows(tr.X, colors, outline=outline)
            labels = plane.tip_labels(tr.X, self.q_tokens, colors, left, clear_axes=True)
            moved = plane.arrows(results[key], colors, outline=outline)
            moved_labels = plane.tip_labels(
                results[key],
                [f"{key}({t})" for t in self.q_tokens],
                colors,
                left,
                clear_axes=True,
                merge=0.35,
            )
            w_side, side = self.map_tables(key, W, results[key], right, colors)
            self.play(
                FadeIn(grid),
                *(grow(a) for a in arrows),
                FadeIn(labels),
                FadeIn(w_side),
                run_time=0.8,
            )
            self.play(
                ApplyMatrix(rowvec_matrix(W), grid, about_point=origin),
                ReplacementTransform(arrows, moved),
                ReplacementTransform(labels, moved_labels),
                FadeIn(side),
                run_time=2,
            )
            self.hold()

    def map_tables(self, key: str, W, result, right: Box, colors):
        """W_key above, and the result (Q = X W_q, …) below it: (W's group, the result's)."""
        role = key.upper()
        top, bottom = right.rows(1, 1.8)
        table = self.kit.matrix(
            result,
            (f"{role}_map", self.h),  # X W as the map gives it (before RoPE turns it)
            self.q_tokens,
            [f"{key}1", f"{key}2"],
            bottom,
            row_colors=colors,
        )
        typeset_headers(table, [f"{key}_1", f"{key}_2"])
        w_table = self.kit.matrix(W, (f"W_{key}", self.h), ["", ""], ["", ""], top)
        w_side = place(VGroup(math_title(f"W_{key}", w_table, self.theme), w_table), top)
        side = place(VGroup(math_title(f"{role} = X W_{key}", table, self.theme), table), bottom)
        return w_side, side

    # -- the learnable match --------------------------------------------------------------------
    def match_step(self):
        ex = self.example
        rotary = getattr(ex, "rotary_base", None) is not None
        key = "match_rotary" if rotary else "match_biased" if self.biased else None
        self.step("match", key, clear=True)
        content, grid = self.regions.content, None
        # every pair's match, the scores Q Kᵀ, beside or under the formula: the last frame a
        # lecturer pastes holds a picture, not a formula alone
        # (the formula's size, across, beside, the pair's score): in a square frame the grid
        # frames the pair without its number
        layouts = [(40, False, True, True), (40, False, False, True), (BODY, True, False, True)]
        # the pair's score on a line under the formula before a badge over the grid (a review:
        # "45.39" on a badge hid the squares of the row it sat in, trophy-24 at 1:1)
        layouts += [(BODY, False, False, True), (BODY, True, False, False)]
        # every pair's match where every row and column shows; else (many tokens) the followed
        # query's row of scores, the followed pair framed (issue 32: what the story needs)
        followed = ac.followed_pair(self.trace)
        for row in (None, followed.query):
            pair = match_pair(self.trace) if row is None else (followed.query, followed.key)
            for size, across, beside, scored in layouts:
                parts, group = self.match_words(size, across, scored, pair)
                grid = self.match_grid(group, beside, titled=not across, row=row)
                if grid is not None:
                    break
            if grid is not None:
                break
        if grid is None:
            parts, group = self.match_words(40, False, pair=match_pair(self.trace))
            if group.width > content.width:
                group.scale_to_fit_width(content.width)
            place(group, content)
        self.play(FadeIn(parts[0], shift=0.2 * DOWN))
        self.play(FadeIn(VGroup(*parts[1:])), *([FadeIn(grid)] if grid else []))
        self.hold(1.8)
        self.pair_step(parts, grid)

    def pair_step(self, parts, grid) -> None:
        """What the head does with its followed pair (a trained or asked head), in its own step:
        its q·k (on screen) and whether it is its query's largest (``ac.pair_row``)."""
        p = ac.pair_row(self.trace)
        if p is None or self.match_pair != (p.query, p.key):
            return
        self.match_matrix = matrix = grid[1] if grid is not None else None
        digits = 2 if self.match_scored or matrix is None else matrix.style.digits
        s = self.num(p.score, HeadRole("scores", self.h, p.query, p.key), digits)
        self.pair_step_caption(p, s.shown)
        if grid is not None:
            self.play(Indicate(grid[2], color=self.theme.accent), run_time=0.8)
        self.hold()

    def match_words(self, size: float, across: bool, scored: bool = True, pair=(0, 0)):
        """The match's formula at ``size``, ``pair``'s score (where ``scored``), and
        (identity weights) what Wq and Wk are: their parts, and the group of them, one under
        the other, or (``across``) side by side."""
        head = self.trace.attention
        rotary = getattr(self.example, "rotary_base", None) is not None
        # with rotary positions only the offset i − j enters (R_m R_nᵀ = R_(m−n))
        match = "x_i W_q R_(i - j) W_k^top x_j^top" if rotary else "x_i W_q W_k^top x_j^top"
        if self.biased:  # a trained model's biases (MiniLM's): the match is of the shifted maps
            shift = "R_(i - j) " if rotary else ""
            match = f"(x_i W_q + b_q) {shift}(x_j W_k + b_k)^top"
        formula = typeset_math("q_i dot k_j = " + match, size, self.theme.text)
        i, j = self.match_pair = pair  # the followed pair, never one the mask blocks
        self.match_scored = scored
        example_line = VGroup(
            dot_label(self, i, j, BODY),
            self.num(
                head.scores[i, j],
                HeadRole("scores", self.h, i, j),
                size=BODY,
                color=self.theme.accent,
            ),
        ).arrange(buff=0.15)
        parts = [formula, example_line] if scored else [formula]
        if self.example.weights.form == "identity":
            parts.append(
                VGroup(
                    self.typeset("identity_qkv", BODY, self.theme.muted),
                    self.typeset("identity_roles", BODY, self.theme.muted),
                ).arrange(buff=0.3)
            )
        if across:
            return parts, VGroup(*parts).arrange(buff=0.6)
        # the small formula's lines close (the pair's score under it: the grid keeps its room)
        return parts, VGroup(*parts).arrange(DOWN, buff=0.6 if size > BODY else 0.2)

    def match_grid(self, group, beside: bool, titled: bool, row=None) -> VGroup | None:
        """The scores of every pair (``row``: of that query alone), with ``group`` (the formula)
        beside it or above it, the followed pair framed; placed, or None where that room does
        not show every row and column."""
        ex, content = self.example, self.regions.content
        i, j = self.match_pair
        if group.width > content.width:
            return None
        if beside:
            words = Box(content.x0, content.y0, content.x0 + group.width, content.y1)
            room = Box(words.x1 + 0.5, content.y0, content.x1, content.y1)
        else:
            # 0.2 under the words: at 1:1 the 24 tokens' column numbers then stand flat in three
            # tiers, each readable (upright in two tiers they ran into one strip)
            gap = content.height - group.height - 0.2
            words, room = content.rows(group.height, gap, gap=0.2)
        rows = range(ex.n) if row is None else [row]
        grid = self.kit.matrix(
            self.head.scores[list(rows)],
            ("scores", self.h) if row is None else ("scores_row", self.h, row),
            [self.q_tokens[a] for a in rows],
            self.k_tokens,
            room,
            row_colors=[self.q_color(a) for a in rows],
            col_colors=[self.k_color(b) for b in range(ex.n_keys)],
            sizes=(40, 36, 32, 28, 25, 22),
            any_squares=True,
            title_room=0.45 if titled else 0.0,
            # a trained or asked head's pair keeps its number on a grid of squares (its step
            # names it) where no line over the grid says it (a badge hid the squares of its
            # row: trophy-24 at 16:9, 4:3 and 1:1, "45.39" also in the line above)
            # (one row: its number under the row instead, :meth:`value_under`)
            named=[(i, j)] if self.pair_on_grid(row) else (),
            first_row=1 if row is None else row + 1,  # one query's row numbered as its token
        )
        if len(grid.shown_rows) < len(rows) or len(grid.shown_columns) < ex.n_keys:
            return None
        if touching(grid.col_labels):
            ink_on_columns(grid, 0 if row is not None else i)
        if touching(grid.col_labels):  # too narrow for its keys
            return None
        title = self.typeset("scores", SMALL, self.theme.muted) if titled else VGroup()
        if titled:
            matrix_title(title, grid, self.theme)
        value = self.value_under(grid, j) if row is not None else VGroup()
        place(group, words)
        place(VGroup(title, grid, value), room)
        return VGroup(title, grid, grid.highlight(i if row is None else 0, j), value)

    def pair_on_grid(self, row) -> bool:
        """Whether the grid of every pair's match keeps the followed pair's score on its cell:
        a trained or asked head's pair whose score no line over the grid says."""
        told = ac.pair_row(self.trace) is not None
        return told and row is None and not self.match_scored

    def value_under(self, grid, j: int) -> VGroup:
        """A one-row grid of squares (many keys, a square frame): the followed pair's score under
        its framed square, on a backing of its own, clear of the frame (issue 38: on the square
        it sat under the frame's stroke, "2 ..(5", and hid the squares beside it); nothing where
        the cells hold their numbers or no pair is followed."""
        if not grid.style.squares or ac.pair_row(self.trace) is None:
            return VGroup()
        i = self.match_pair[0]
        score, role = self.head.scores[i, j], HeadRole("scores", self.h, i, j)
        num = self.num(score, role, grid.style.digits, SMALL, self.theme.accent)
        num.next_to(grid.cell_rect(0, j), DOWN, buff=0.2)
        return VGroup(BackgroundRectangle(num, color=self.theme.background, buff=0.05), num)


def touching(labels) -> bool:
    """Whether two neighbouring column names' inks touch."""
    boxes = [box_of(c) for c in labels]
    return any(a.overlaps(b) for a, b in zip(boxes, boxes[1:]))


def ink_on_columns(grid, i: int) -> None:
    """Upright column names each centred on its column by its ink, not its line (since 96ef81c
    a turned name is set by its line, as deep as g and as high as 赢: at a one-row grid's pitch
    of 0.318 'painting''s g reached 0.002 into 'they' beside it, minilm-painting 1:1, and the
    match step fell back to a formula alone, shrunk to 20.5 px; by their inks 0.004 apart).
    ``i``: a drawn row, whose cells give the columns' middles."""
    if not grid.upright:
        return
    for j, c in grid.col_label_of.items():
        cell = grid.cell_rect(i, j)
        if cell is not None:
            ink_to(c, [cell.get_center()[0], box_of(c).center[1], 0.0])


def match_pair(trace) -> tuple[int, int]:
    """The example pair of the match step: a trained or asked head's followed pair
    (:func:`attention_core.followed_pair`, the pair every scene follows) where the mask lets
    it meet, and a made-up example's past :data:`~attention_core.readings.cast.CAST_ALL`
    tokens (its cast in colour: the story's pair, as every scene's last still); else (a small
    made-up example, or a pair asked across the mask) the first allowed pair of two different
    tokens (:func:`_allowed_pair`)."""
    from attention_core.readings.cast import CAST_ALL

    head, pair = trace.attention, ac.followed_pair(trace)
    allowed = head.mask is None or bool(np.asarray(head.mask, bool)[pair.query, pair.key])
    if (pair.kind != "demo" or head.scores.shape[0] > CAST_ALL) and allowed:
        return pair.query, pair.key
    return _allowed_pair(head)


def _allowed_pair(head) -> tuple[int, int]:
    """The example pair of the match step: the first query and key, two different tokens, that
    the mask lets meet (a causal mask blocks the first token's look at the second: the second
    token's at the first is taken); the first token with itself when there is no other."""
    n, m = head.scores.shape
    allowed = np.ones((n, m), bool) if head.mask is None else np.asarray(head.mask, bool)
    for i in range(n):
        for j in range(m):
            if allowed[i, j] and (i != j or m == 1):
                return i, j
    return 0, 0


def dot_label(scene: ExplainerScene, i: int, j: int, size: float) -> VGroup:
    """ "q(早) · k(上) =" with the dot and the equals typeset, the labels as text."""
    return rich(
        "$q$({q}) $dot$ $k$({k}) $=$",
        size,
        scene.theme.text,
        q=scene.q_tokens[i],
        k=scene.k_tokens[j],
    )
