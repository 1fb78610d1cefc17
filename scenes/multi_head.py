"""MultiHeadSplit: the split itself. Q = X·W_q, K and V as n × H·d_k matrices whose column blocks
are tinted by head; each head's blocks slide into that head's panel, its rows become the head's
q (solid) and k (outlined) arrows in its own plane, beside its own weights on the shared 0–1
scale; the head outputs slide into their columns of the concatenation, and W_O maps the product
back to d_model — or, in the per-head form of the NumPy walk-through (independent heads), the
concatenation is the output.

Heads that do not fit side by side are elided (the first ones and the last); a one-head example
says plainly that there is nothing to split.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Create,
    Rectangle,
    ReplacementTransform,
    Square,
    Transform,
    TransformFromCopy,
    VGroup,
    VMobject,
)

import attention_core as ac
from scenes.kit.base import ExplainerScene
from scenes.kit.views import plane_view_of
from scenes.mobjects.fades import FadeIn, FadeOut, morph
from scenes.mobjects.layout import Box, box_of, place
from scenes.mobjects.math import math
from scenes.mobjects.matrix import LabelledMatrix
from scenes.mobjects.plane import grow
from scenes.mobjects.text import ellipsize, label, text_width
from scenes.mobjects.theme import BODY, SMALL, diverging, heat, score_limit, text_on

MAX_PANELS = 4  # heads drawn side by side at most; with more, the first ones and the last
PANEL_WIDTH = 3.2  # the narrowest a head's panel may be
COMPACT = 0.08  # cell padding of the compact matrices
TITLE_ROOM = 0.45
ROW_LABEL_CELL = 0.36  # the smallest cell (scene units) beside which a row label fits
FORMULA = 30  # Typst math sets small: formulas at about the title size read like labels


def head_tints(theme):
    """Two neutral tints that alternate from head to head (no token's colour, not the accent):
    the blocks of one head read as one band, its neighbour's as the next."""
    from manim import interpolate_color

    return (
        interpolate_color(theme.panel, theme.muted, 0.38),
        interpolate_color(theme.panel, theme.muted, 0.12),
    )


def shown_heads(H: int, room: float) -> list[int]:
    """Which heads get a panel in ``room`` (width): all, or the first ones and the last."""
    slots = max(2, min(MAX_PANELS, int(room // PANEL_WIDTH)))
    return list(range(H)) if slots >= H else list(range(slots - 1)) + [H - 1]


class MultiHeadSplit(ExplainerScene):
    """Several heads, each its own block of Q, K, V and its own subspace; concat; W_O."""

    explains_one_head = False

    def construct(self):
        self.head_blocks: dict[str, dict[int, Rectangle]] = {}
        if len(self.trace.heads) < 2:
            self.one_head()
            return
        # a line at the foot of the content for the widths each step's caption names (384 = 12
        # × 32): a 384-wide matrix drawn by colour, or squares, show their widths to no one;
        # small matrices of numbers show theirs in their column headers
        self.widths_mob = VGroup()
        maps = ac.linear_maps(self.trace)
        if self.example.n > 6 or maps.heads * maps.d_k > 8:
            content = self.regions.content
            self.widths_box = Box(content.x0, content.y0, content.x1, content.y0 + 0.32)
            self.regions = replace(
                self.regions, content=Box(content.x0, content.y0 + 0.42, content.x1, content.y1)
            )
        ex, tr = self.example, self.trace
        H, d_v = len(tr.heads), tr.heads[0].V.shape[1]
        self.tints = head_tints(self.theme)
        self.maps = ac.linear_maps(tr)  # Q = X W_q, K, V as the maps give them, blocks by head
        self.shown = shown_heads(H, self.regions.content.width)
        independent = ex.weights.form == "independent"
        fulls, bottom = self.project(independent)
        pieces = self.split_into_heads(fulls, bottom, independent)
        panels = self.attend_per_head(fulls, pieces)
        # -- the head outputs slide into the concatenation ----------------------------------------
        self.step("concat", H=H, w=H * d_v)
        self.concat_and_mix(tr.multihead, independent, panels)
        self.hold(1.0)

    def step(self, key: str, caption_key: str | None = None, clear: bool = False, **values):
        """A step, and under the content the widths its caption names (see :meth:`widths`)."""
        super().step(key, caption_key, clear, **values)
        if not hasattr(self, "widths_box"):
            return
        text = self.widths(key, caption_key or key)
        new = VGroup()
        if text:
            new = label(text, SMALL, self.theme.muted)
            if key == "mix":  # the shape of W_O
                new = VGroup(math("W_O :", SMALL, self.theme.muted), new).arrange(buff=0.12)
            if new.width > self.widths_box.width:  # no room: the caption alone says it
                new = VGroup()
            else:
                place(new, self.widths_box)
        if len(self.widths_mob) or len(new):
            self.play(FadeOut(self.widths_mob), FadeIn(new), run_time=0.3)
        self.widths_mob = new

    def widths(self, key: str, caption_key: str) -> str:
        """The widths of a step as one line ("384 = 12 × 32"), from the same quantities as its
        caption: the blocks of Q, K, V; the split of d_model; the concatenation; W_O."""
        ex, maps, tr = self.example, self.maps, self.trace
        H, G, d_k = maps.heads, maps.kv_heads, maps.d_k
        d_v = tr.heads[0].V.shape[1]
        out = ac.output_width(tr)
        say = {
            "project": ("widths_project", dict(H=H, d_k=d_k, w=H * d_k)),
            "project_grouped": ("widths_grouped", dict(H=H, G=G, d_k=d_k)),
            "split": ("widths_split", dict(d=ex.d_model, H=H, d_k=d_k)),
            "split_other": ("widths_other", dict(d=ex.d_model, H=H, d_k=d_k, w=H * d_k)),
            "split_grouped": ("widths_split_grouped", dict(H=H, G=G, g=maps.group_size)),
            "split_independent": ("widths_independent", dict(d=ex.d_model, H=H, d_k=d_k)),
            "concat": ("widths_concat", dict(H=H, d_v=d_v, w=H * d_v)),
            "mix": ("widths_mix", dict(w=H * d_v, d=out.width)),
            "mix_other": ("widths_mix", dict(w=H * d_v, d=out.width)),
        }.get(caption_key)
        return self.say(say[0], **say[1]) if say else ""

    def project(self, independent: bool):
        """Q = X W_q, K, V: one matrix each, its column blocks tinted by head. Returns them and
        the box left below them."""
        ex, content = self.example, self.regions.content
        maps = self.maps
        key = "project_independent" if independent else "project"
        self.step(
            key,
            "project_grouped" if maps.shared else None,
            H=maps.heads,
            G=maps.kv_heads,
            g=maps.group_size,
            d=ex.d_model,
            d_k=maps.d_k,
        )
        full_h = self.full_height()
        top, bottom = content.rows(full_h, content.height - full_h - 0.25, gap=0.25)
        fulls = self.full_matrices(top)
        self.fulls_stay = bool(fulls)  # above the heads' blocks; else they give them the room
        if not fulls:  # every row and column of Q, K and V, compact, in the whole content
            fulls = self.full_matrices(content, compact=True)
            bottom = content
        self.play(
            *(FadeIn(g) for g in fulls.values()),
            run_time=1.0,
        )
        return fulls, bottom

    def split_into_heads(self, fulls, bottom, independent: bool) -> dict:
        """Each head takes its blocks: {head: (panel group, its Q_h, K_h, V_h)}."""
        ex, heads = self.example, self.trace.heads
        H, d_k, d_v = len(heads), heads[0].d_k, heads[0].V.shape[1]
        even = ac.readings.claims.head_split(self.trace).kind == "even"
        key = "split_independent" if independent else "split" if even else "split_other"
        maps = self.maps
        shared = self.say("kv_shared", a=1, b=maps.group_size, K="K₁", V="V₁")
        self.step(
            key,
            "split_grouped" if maps.shared else None,
            H=H, G=maps.kv_heads, d=ex.d_model, d_k=d_k, w=H * d_k, example=shared,
        )  # fmt: skip
        # every head's blocks where there are at most MAX_PANELS (compact if need be)
        split = list(range(H)) if H <= MAX_PANELS else self.shown
        panel_boxes = bottom.columns(*([1] * len(split)), gap=0.3)
        pieces = {}
        frames, anims = [], []
        for box, h in zip(panel_boxes, split):
            group, mats = self.head_pieces(h, box, split)
            pieces[h] = (group, mats)
            frames.append(FadeIn(group.title))
            for name, piece in mats.items():
                frames.append(FadeIn(piece.frame_parts()))
                frames.append(FadeIn(piece.name_mob))
                src = fulls.get(name)
                width = d_v if name == "V" else d_k
                block = h if name == "Q" else self.maps.group(h)  # K, V: its group's block
                pairs = [
                    (src.matrix.cells.get((i, block * width + j)) if src else None, cell)
                    for (i, j), cell in piece.cells.items()
                ]
                anims += cells_from(pairs)
                if _shaded(piece):  # drawn by colour: the whole block flies
                    frame = self.head_blocks.get(name, {}).get(block)
                    ink = piece.shaded
                    anims.append(_block_from(frame, ink) if frame else FadeIn(ink))
        if not self.fulls_stay:  # the blocks leave their matrices for the heads' panels
            # the empty blocks first (the squares land on top), the old matrices leaving
            self.play(*frames, run_time=0.6)
            self.play(*anims, *(FadeOut(g) for g in fulls.values()), run_time=1.6)
            return pieces
        self.play(*frames, run_time=0.6)  # the empty blocks first: the numbers fly in on top
        self.play(*anims, run_time=1.6)
        return pieces

    def attend_per_head(self, fulls, pieces) -> None:
        """Each head attends in its own plane: the rows of its Q and K become its arrows."""
        content = self.regions.content
        variant = "_grouped" * self.maps.shared + "_rotary" * self.maps.rotated
        self.step("heads", "heads" + variant if variant else None)
        body, key_row = content.rows(content.height - 0.75, 0.6, gap=0.15)
        panels = self.head_panels(body)
        legend = self.legend_and_bar(key_row)
        self.play(
            *(FadeOut(g) for g in fulls.values() if self.fulls_stay),
            *(FadeOut(pieces[h][0].title) for h in pieces),
            *(FadeOut(m.frame_parts(), m.name_mob) for h in pieces for m in pieces[h][1].values()),
            *(
                FadeOut(m.numbers)
                for h in pieces
                for name, m in pieces[h][1].items()
                if name == "V" or h not in panels
            ),
            *(FadeOut(m.shaded) for h in pieces for m in pieces[h][1].values() if _shaded(m)),
            *(FadeIn(p.title) for p in panels.values()),
            *(Create(p.plane.plane) for p in panels.values()),
            run_time=0.8,
        )
        self.play(*self.rows_into_arrows(pieces, panels), run_time=1.4)
        self.play(
            *(FadeIn(p.labels) for p in panels.values()),
            *(FadeIn(p.note) for p in panels.values()),
            *(FadeIn(p.pattern) for p in panels.values()),
            FadeIn(legend),
            run_time=1.0,
        )
        return panels

    def rows_into_arrows(self, pieces, panels) -> list:
        """Each row of a head's Q_h and K_h turns into its arrow (elided rows just leave)."""
        moves = []
        for h in self.shown:
            mats, p = pieces[h][1] if h in pieces else {}, panels[h]
            for name, arrows in (("Q", p.q_arrows), ("K", p.k_arrows)):
                piece = mats.get(name)
                for i, arrow in enumerate(arrows):
                    row = piece.row_group(i) if piece is not None else VGroup()
                    moves.append(ReplacementTransform(row, arrow) if len(row) else grow(arrow))
                if piece is not None:  # rows elided in the piece: their numbers just leave
                    rest = [c for (i, _), c in piece.cells.items() if i >= len(arrows)]
                    moves.extend(FadeOut(c) for c in rest)
        return moves

    # -- the one-head case ------------------------------------------------------------------------
    def one_head(self):
        self.step("one_head", d=self.example.d_model)
        note = self.typeset("mh_one_head", BODY, self.theme.muted)
        if note.width > self.regions.content.width:
            note.scale_to_fit_width(self.regions.content.width)
        place(note, self.regions.content)
        self.play(FadeIn(note), run_time=0.6)

    # -- layout helpers ---------------------------------------------------------------------------
    def full_height(self) -> float:
        """The height of the top band: the full matrices at the smallest size, at most 45 %."""
        n = self.example.n
        probe = self.kit.matrix_at(
            self.trace.heads[0].Q[: min(n, 3), :1],
            ("Q", 0),
            ["x"] * min(n, 3),
            ["1"],
            size=25,
            cell_pad=COMPACT,
        )
        per_row = probe.height / (min(n, 3) + 0.9)
        need = per_row * (n + 0.9) + TITLE_ROOM + 0.5
        return min(need, 0.45 * self.regions.content.height)

    def full_matrices(self, top: Box, compact: bool = False) -> dict:
        """Q, K, V side by side, blocks tinted by head; ``compact``: as grids of squares where the
        numbers do not all fit (K's and V's rows then named once, by Q's, in self-attention)."""
        ex, maps = self.example, self.maps
        d_k, d_v = maps.d_k, maps.d_v
        arrays = {"Q": maps.Q, "K": maps.K, "V": maps.V}  # with RoPE: before the turn
        names = {"Q": "Q = X W_q", "K": "K = X W_k", "V": "V = X W_v"}
        rows = {"Q": self.q_tokens, "K": self.k_tokens, "V": self.k_tokens}
        colors = {
            "Q": [self.q_color(i) for i in range(ex.n)],
            "K": [self.k_color(j) for j in range(ex.n_keys)],
            "V": [self.k_color(j) for j in range(ex.n_keys)],
        }

        if compact and not ex.is_cross:
            rows["K"] = rows["V"] = [""] * ex.n

        def build_matrix(*args, **kw):
            if compact:
                return fitted_grid(*args, limit=self.qkv_limit(), **kw)
            return LabelledMatrix.fitted(*args, **kw)

        def build(which, boxes):
            out = {}
            for name, box in zip(which, boxes):
                width = d_v if name == "V" else d_k
                m = build_matrix(
                    arrays[name],
                    (name,),
                    self.theme,
                    rows[name],
                    [str(j + 1) for j in range(arrays[name].shape[1])],
                    box.inset(0, 0.0),
                    sizes=(25, 22),
                    title_room=TITLE_ROOM + 0.45,
                    row_colors=colors[name],
                    cell_pad=COMPACT,
                )
                out[name] = (m, width, box)
            return out

        trial = build("QKV", self.full_boxes(top))
        complete = all(
            len(m.shown_columns) == m.shape[1] and len(m.shown_rows) == m.shape[0]
            for m, _, _ in trial.values()
        )
        if not complete:
            return {}
        return {
            name: self.full_group(name, names[name], m, width, box)
            for name, (m, width, box) in trial.items()
        }

    def full_boxes(self, box: Box) -> list[Box]:
        """Where Q, K and V go in ``box``: side by side, equal — or, where query heads share
        key/value heads, as wide as their columns, K and V never narrower than their formulas;
        where that leaves Q narrower than them, Q above, K and V below."""
        maps = self.maps
        if not maps.shared:
            return box.columns(1, 1, 1, gap=0.35)
        room = box.width - 0.7
        least = max(math(f"{n} = X W_{n.lower()}", FORMULA).width for n in "KV") + 0.15
        kv = room * maps.kv_heads / (maps.heads + 2 * maps.kv_heads)
        if kv >= least:
            return box.columns(room - 2 * kv, kv, kv, gap=0.35)
        top, bottom = box.rows(1, 1, gap=0.3)
        return [top, *bottom.columns(1, 1, gap=0.35)]

    def full_group(self, name: str, formula: str, m, width: int, box: Box) -> VGroup:
        """One full matrix with its formula above and its head blocks framed and numbered."""
        for (i, j), cell in m.cells.items():  # each cell is block j // width's (i, j mod width)
            cell.role = (f"{name}_map", j // width, i, j % width)
        blocks, tags = self.tint_blocks(m, width, kv=name in "KV" and self.maps.shared)
        self.head_blocks[name] = blocks
        title = math(formula, FORMULA, self.theme.text)
        g = VGroup(m, VGroup(*blocks.values()), tags)
        title.next_to(g, UP, buff=0.12).align_to(g, LEFT)
        whole = VGroup(title, g)
        place(whole, box, "top")
        whole.matrix = m
        return whole

    def head_name(self, h: int, drawn=None) -> str:
        """ "head 12", or "… head 12" where the heads just before it are not ``drawn`` (by
        default the heads of the panels, ``self.shown``)."""
        drawn = drawn if drawn is not None else (getattr(self, "shown", None) or [])
        gap = h > 0 and h - 1 not in drawn and h in drawn and len(drawn) < len(self.trace.heads)
        return self.say("head_after_gap" if gap else "head_n", h=h + 1)

    def tint(self, h: int, kv: bool = False):
        """The tint of query head ``h``'s blocks (``kv``: of key/value head ``h``'s): alternating
        by head, or by the group of heads that share a key/value head."""
        if not self.maps.shared:
            return self.tints[h % 2]
        return self.tints[(h if kv else self.maps.group(h)) % 2]

    def block_tag(self, h: int, kv: bool) -> str:
        """The words under block ``h``: its head's number, or (``kv``) the query heads that
        read this key/value head."""
        if not kv:
            return self.say("head_n", h=h + 1)
        members = self.maps.members(h)
        return self.say("heads_range", a=members[0] + 1, b=members[-1] + 1)

    def tint_blocks(self, m: LabelledMatrix, width: int, kv: bool = False):
        """Tint each head's columns of ``m``; a frame around each block and its head's number
        (``kv``: the key/value head's query heads) under it. Returns ({block: frame}, tags)."""
        theme = self.theme
        shaded = _shaded(m)  # one frame a row: no cell to tint
        for rect in () if shaded else m.backgrounds:
            i, j = rect.cell_index
            fill = self.tint(j // width, kv)
            rect.set_fill(fill, opacity=1)
            if not getattr(m, "compact", False):
                m.cells[i, j].set_color(text_on(fill, theme))
        frames, tags, boxes = {}, VGroup(), {}
        for h in sorted({j // width for j in m.shown_columns}):
            if shaded:
                b = m.columns_box(h * width, min((h + 1) * width, m.shape[1]))
            else:
                b = _bounds([r for r in m.backgrounds if r.cell_index[1] // width == h])
            frame = Rectangle(
                width=b.width + 0.04, height=b.height + 0.04, stroke_color=theme.muted
            )
            frame.set_stroke(width=2.5)
            frame.move_to(b.center)
            frame.head = h
            frames[h], boxes[h] = frame, b
        # one form for every block: "head 9 … 10 11 12" read as two kinds of tag
        short = any(
            text_width(self.block_tag(h, kv), SMALL) > b.width - 0.05 for h, b in boxes.items()
        )
        for h, b in boxes.items():
            frame, text = frames[h], self.block_tag(h, kv)
            if short:
                members = self.maps.members(h) if kv else (h,)
                text = "–".join(dict.fromkeys(str(k + 1) for k in (members[0], members[-1])))
            tag = label(text, SMALL, theme.muted)
            tag.next_to(frame, DOWN, buff=0.06)
            if text_width(tag.source_text, SMALL) <= 2 * b.width - 0.1:  # staggered, if need be
                tag.wide = tag.width > b.width - 0.04
                tags.add(tag)
        if any(t.wide for t in tags):  # every other one a line lower: no two touch
            for t in tags[1::2]:
                t.shift(DOWN * (t.height + 0.06))
        return frames, tags

    def qkv_limit(self) -> float:
        """One scale for every square of Q, K and V (each had its own: K's squares could come
        out smaller than Q's for the same value)."""
        maps = self.maps
        return score_limit(np.concatenate([np.ravel(a) for a in (maps.Q, maps.K, maps.V)]))

    def head_pieces(self, h: int, box: Box, drawn=None):
        """Head ``h``'s panel in the split step (of the heads ``drawn``): its title and its
        Q_h, K_h, V_h blocks."""
        theme = self.theme
        title = label(self.head_name(h, drawn), SMALL, theme.text, weight="BOLD")
        title_box, rest = box.rows(0.4, box.height - 0.5, gap=0.1)
        place(title, title_box, "left")
        # Q's box is wider by its row labels: the three blocks themselves come out as wide
        label_w = max(text_width(t, 22) for t in self.q_tokens) + 0.2
        block_w = (rest.width - 0.4 - label_w) / 3
        weights = [label_w + block_w, block_w, block_w] if block_w > 0.3 else [1.25, 1, 1]
        for names in ("QKV", "Q"):  # all three blocks, or Q's alone where they do not fit
            boxes = rest.columns(*(weights[: len(names)]), gap=0.2)
            mats = self.build_pieces(h, names, boxes, labelled=True)
            if names == "QKV" and not any(t.width for t in mats["Q"].row_labels):
                # rows too low for their labels: Q is as wide as K and V
                boxes = rest.columns(1, 1, 1, gap=0.2)
                mats = self.build_pieces(h, names, boxes, labelled=True)
            if all(_fits(m, b) for m, b in zip(mats.values(), boxes)):
                break
        else:
            mats = self.build_pieces(h, "Q", boxes, labelled=False)
        group = VGroup(title, *mats.values(), *(p.name_mob for p in mats.values()))
        group.title = title
        return group, mats

    def build_pieces(self, h: int, names: str, boxes, labelled: bool) -> dict:
        theme, maps = self.theme, self.maps
        g = maps.group(h)
        arrays = dict(zip("QKV", maps.head(h)))  # K, V: its key/value head's (RoPE: unturned)
        mats = {}
        for k, name in enumerate(names):
            values = arrays[name]
            block = h if name == "Q" else g
            rows = self.q_tokens if name == "Q" and labelled else None
            n_rows = values.shape[0]
            colors = [self.q_color(i) for i in range(n_rows)] if name == "Q" else None
            piece = fitted_grid(
                values,
                (f"{name}_map", block),
                theme,
                rows if rows is not None else [""] * n_rows,
                [str(j + 1) for j in range(values.shape[1])],
                boxes[k],
                sizes=(25, 22),
                compact_room=0.75,  # squares leave room for the block's name above
                limit=self.qkv_limit(),  # Q's, K's and V's squares on one scale
                row_colors=colors,
                cell_pad=COMPACT,
            )
            for rect in piece.backgrounds:
                fill = self.tint(h)
                rect.set_fill(fill, opacity=1)
                if not getattr(piece, "compact", False):
                    piece.cells[rect.cell_index].set_color(text_on(fill, theme))
            name_mob = math(f"{name}_{block + 1}", FORMULA, theme.text)
            if name_mob.width > boxes[k].width:  # a narrow frame: the name as wide as its block
                name_mob.scale_to_fit_width(boxes[k].width)
            name_mob.next_to(piece, UP, buff=0.1).align_to(piece, LEFT)
            place(VGroup(name_mob, piece), boxes[k], "top")
            piece.name_mob = name_mob
            mats[name] = piece
        for k, piece in list(enumerate(mats.values()))[1:]:  # rows level with Q's (a name
            dy = mats[names[0]].get_top()[1] - piece.get_top()[1]  # shrunk to fit sat higher)
            VGroup(piece, piece.name_mob).shift(dy * UP)
            if not _fits(piece, boxes[k]):
                VGroup(piece, piece.name_mob).shift(dy * DOWN)
        return mats

    def head_panels(self, body: Box) -> dict:
        """One panel per shown head: side by side, each plane beside or above its weights —
        or, where that would elide a weight, the panels one above the other; where nothing
        fits, fewer heads (the first and the last). Sets ``self.shown`` to the heads drawn."""
        tried = []
        every = list(range(len(self.trace.heads)))
        choices = [self.shown, [self.shown[0], self.shown[-1]]]
        if len(every) <= MAX_PANELS and self.shown != every:  # up to 4: all of them, in a grid
            choices.insert(0, every)
        for shown in choices:
            n = len(shown)
            grid = [b for row in body.rows(1, 1, gap=0.3) for b in row.columns(1, 1, gap=0.3)]
            for boxes, inner, titled in (
                (body.columns(*([1] * n), gap=0.3), "columns", True),
                (body.columns(*([1] * n), gap=0.3), "rows", True),
                *([(grid[:n], "columns", True)] if n > 2 else []),  # two rows of two
                (body.rows(*([1] * n), gap=0.3), "columns", False),
            ):
                panels = {
                    h: self.head_panel(h, b, inner, titled, shown) for b, h in zip(boxes, shown)
                }
                if all(p.complete for p in panels.values()):
                    self.shown = shown
                    return panels
                tried.append((shown, panels))
        for shown, panels in tried:
            if all(p.fits for p in panels.values()):
                self.shown = shown
                return panels
        self.shown, panels = tried[0]
        return panels

    def head_panel(self, h: int, box: Box, inner: str = "columns", titled: bool = True, drawn=None):
        """Head ``h``'s plane (q solid, k outlined, labelled) beside (``inner="columns"``) or
        above its weights; ``titled``: its name above, else in the weights' title (named among
        the heads ``drawn``)."""
        ex, theme = self.example, self.theme
        title = label(self.head_name(h, drawn), SMALL, theme.text, weight="BOLD")
        if titled:
            title_box, rest = box.rows(0.4, box.height - 0.5, gap=0.1)
            place(title, title_box, "left")
        else:
            rest = box
        if inner == "columns":
            plane_area, pat_box = rest.columns(1.15, 1, gap=0.25)
        else:
            plane_area, pat_box = rest.rows(1.1, 1, gap=0.2)
        plane, q_arrows, k_arrows, labels, note = self.head_plane(h, plane_area)
        p_title, pattern = self.head_weights(h, pat_box, titled)
        if not titled:
            title = VGroup()
        panel = VGroup(title, plane.plane, q_arrows, k_arrows, labels, note, p_title, pattern)
        panel.fits = pat_box.contains(box_of(VGroup(p_title, pattern)), tol=1e-3)
        readable = getattr(pattern, "cell_size", MIN_SQUARE) >= MIN_SQUARE  # squares, not specks
        panel.complete = (
            (len(pattern.shown_rows) == ex.n and len(pattern.shown_columns) == ex.n_keys)
            and panel.fits
            and readable
        )
        panel.title, panel.plane, panel.q_arrows, panel.k_arrows = title, plane, q_arrows, k_arrows
        panel.labels, panel.note, panel.pattern = labels, note, VGroup(p_title, pattern)
        return panel

    def head_plane(self, h: int, plane_area: Box):
        """Head ``h``'s queries (solid) and keys (outlined), labelled, in its own plane, with the
        view note below: (plane, q arrows, k arrows, labels, note)."""
        ex = self.example
        view = plane_view_of(self.trace, ("queries_keys", h))
        note = self.kit.view_note(view, ("queries_keys", h))
        if len(note):
            plane_box, note_box = plane_area.rows(plane_area.height - 0.4, 0.3, gap=0.1)
            place(note, note_box, "left")
        else:
            plane_box = plane_area
        n = ex.n
        plane = self.kit.plane(view, plane_box, ticks=False)
        q_colors = [self.q_color(i) for i in range(n)]
        k_colors = [self.k_color(j) for j in range(ex.n_keys)]
        q_arrows = plane.arrows(view.coords[:n], q_colors)
        k_arrows = plane.arrows(view.coords[n:], k_colors, outline=True)
        texts = [f"q({t})" for t in self.q_tokens] + [f"k({t})" for t in self.k_tokens]
        labels = plane.tip_labels(view.coords, texts, q_colors + k_colors, plane_box)
        return plane, q_arrows, k_arrows, labels, note

    def head_weights(self, h: int, pat_box: Box, titled: bool):
        """Head ``h``'s weights in ``pat_box`` with their title (the head's name in it when the
        panel has no title of its own): (title, matrix)."""
        ex, theme = self.example, self.theme
        pattern = fitted_grid(
            self.trace.heads[h].weights,
            ("weights", h),
            theme,
            self.q_tokens,
            self.k_tokens,
            pat_box,
            digits=2,
            heat="weights",
            scale="weights",
            colorbar=False,
            sizes=(25, 22),
            title_room=TITLE_ROOM,
            row_colors=[self.q_color(i) for i in range(ex.n)],
            col_colors=[self.k_color(j) for j in range(ex.n_keys)],
            cell_pad=COMPACT,
        )
        words = self.say("weights")
        if not titled:
            words = self.say("head_n", h=h + 1) + "  " + words
        p_title = label(words, SMALL, theme.muted)
        if p_title.width > pat_box.width:  # narrow: the head's name alone (the bar says weights)
            short = self.say("mh_weights")
            if not titled:
                short = self.say("head_n", h=h + 1) + "  " + short
            p_title = label(short, SMALL, theme.muted)
        p_title.next_to(pattern, UP, buff=0.12).align_to(pattern, LEFT)
        place(VGroup(p_title, pattern), pat_box, "top")
        return p_title, pattern

    def legend_and_bar(self, box: Box) -> VGroup:
        """'q —  k - -' (solid query, outlined key) and the one shared 0–1 weight bar."""
        theme = self.theme
        left, right = box.columns(1, 1, gap=0.4)
        probe = self.kit.plane([[1, 0]], Box(0, 0, 1, 1), ticks=False)
        items = VGroup()
        for text, outline in ((self.say("query"), False), (self.say("key"), True)):
            arrow = probe.arrow([0.6, 0], theme.text, outline=outline)
            t = label(text, SMALL, theme.text)
            items.add(VGroup(arrow, t).arrange(RIGHT, buff=0.12))
        items.arrange(RIGHT, buff=0.5)
        place(items, left, "left")
        bar = self.kit.colour_bar("weights", width=min(3.0, right.width - 0.2))
        place(bar, right, "right")
        return VGroup(items, bar)

    # -- concat, then W_O -------------------------------------------------------------------------
    def concat_and_mix(self, mh, independent: bool, panels: dict):
        """Each head's weights turn into its output (weights × V); the outputs slide into their
        columns of the concatenation; then (unless the heads are independent) W_O maps it back
        to d_model."""
        content = self.regions.content
        outs = None
        if mh.concat.shape[1] <= mh.concat.shape[0]:  # a tall concatenation: beside the outputs
            top, bottom = content.columns(1.4, 1, gap=0.5)
            outs = self.head_outputs(top)
            if not all(getattr(m, "compact", False) for _, m in outs.values()):
                outs = None  # numbers (they want the width): under them after all
        if outs is None:  # a wide one: under them, across the frame
            top, bottom = content.rows(1, 1, gap=0.3)
            outs = self.head_outputs(top)
        self.weights_into_outputs(panels, outs)
        mixing = not independent and mh.W_o is not None
        boxes = self.mix_boxes(mh) if mixing else None
        # the whole width under the outputs (W_O's step then shrinks it to its place)
        cat, cat_g = self.concat_matrix(mh, mixing, bottom)
        self.concat_group = cat_g
        self.slide_into_concat(outs, cat, cat_g)
        self.hold(0.5)
        if not mixing:
            self.step("no_mix")
            return
        self.mix(mh, outs, cat, cat_g, boxes)

    def head_outputs(self, top: Box) -> dict:
        """Each shown head's output, tinted as its blocks: {head: (title, matrix)}."""
        theme, heads = self.theme, self.trace.heads
        d_v = heads[0].V.shape[1]
        out_colors = [self.q_color(i) for i in range(self.example.n)]
        outs = {}
        boxes = top.columns(*([1] * len(self.shown)), gap=0.3)
        for box, h in zip(boxes, self.shown):
            m = fitted_grid(
                heads[h].output,
                ("output", h),
                theme,
                [f"o({t})" for t in self.q_tokens],
                [str(j + 1) for j in range(d_v)],
                box,
                sizes=(25, 22),
                row_colors=out_colors,
                cell_pad=COMPACT,
            )
            for rect in m.backgrounds:
                fill = self.tint(h)
                rect.set_fill(fill, opacity=1)
                if not getattr(m, "compact", False):
                    m.cells[rect.cell_index].set_color(text_on(fill, theme))
            t = label(self.head_name(h), SMALL, theme.output, weight="BOLD")
            t.next_to(m, UP, buff=0.12).align_to(m, LEFT)
            place(VGroup(t, m), box, "top")
            outs[h] = (t, m)
        return outs

    def weights_into_outputs(self, panels: dict, outs: dict) -> None:
        """The planes leave; each shown head's weights turn into its output, the weights times
        its values (an output never appears from nothing)."""
        patterns = [p.pattern for p in panels.values()]
        keep = (self.title_mob, self.caption_mob, self.widths_mob, *patterns)
        self.play(*(FadeOut(m) for m in self.mobjects if m not in keep), run_time=0.5)
        self.play(
            *(
                anim
                for h in outs
                if h in panels
                for anim in morph(panels[h].pattern, VGroup(*outs[h]))
            ),
            *(FadeIn(VGroup(*outs[h])) for h in outs if h not in panels),
            run_time=1.2,
        )

    def mix_boxes(self, mh) -> dict:
        """Where concat · W_O = output go: in one row (wide), or concat · W_O above and
        = output below (narrow)."""
        content = self.regions.content
        # many tokens (grids of squares, not numbers): one row where the three matrices fit it
        # at a readable square (the limits at 4:3)
        columns = sum(np.shape(a)[1] for a in (mh.concat, mh.W_o, mh.output))
        squares = self.example.n > 6 and columns * 0.22 + 3.6 <= content.width
        wide = content.width >= 12 or squares
        if wide:  # concat · W_O = output in one row
            mix_cat, dot_box, wo_box, eq_box, out_box = content.columns(
                1.1, 0.12, 1, 0.12, 1.2, gap=0.2
            )
        else:  # narrow: concat · W_O above, = output below
            upper, lower = content.rows(1.15, 1, gap=0.3)
            mix_cat, dot_box, wo_box = upper.columns(1, 0.1, 1, gap=0.15)
            eq_box, out_box = lower.columns(0.1, 1, gap=0.15)
        return {
            "wide": wide,
            "mix_cat": mix_cat,
            "dot": dot_box,
            "wo": wo_box,
            "eq": eq_box,
            "out": out_box,
        }

    def concat_matrix(self, mh, mixing: bool, cat_box: Box):
        """The concatenation, its column blocks tinted by head and tagged with their numbers:
        (matrix, the group of title, matrix, frames and tags)."""
        theme = self.theme
        d_v = self.trace.heads[0].V.shape[1]
        room = cat_box
        for _ in range(2):  # once more, shorter, where the tags (on two rows) ran out of the box
            cat = fitted_grid(
                mh.concat,
                ("concat",),
                theme,
                self.q_tokens if mixing else [f"o({t})" for t in self.q_tokens],
                [str(j + 1) for j in range(mh.concat.shape[1])],
                room,
                sizes=(25, 22),
                title_room=TITLE_ROOM + 0.45,
                row_colors=[self.q_color(i) for i in range(self.example.n)],
                cell_pad=COMPACT,
            )
            blocks, tags = self.tint_blocks(cat, d_v)
            cat_title = label(self.say("concat_title", H=len(self.trace.heads)), SMALL, theme.text)
            if cat_title.width > cat_box.width:  # a narrow box: "concat" over "[head 1 … head H]"
                words = self.say("concat_title", H=len(self.trace.heads)).split(" ", 1)
                cat_title = VGroup(*(label(w, SMALL, theme.text) for w in words))
                cat_title.arrange(DOWN, aligned_edge=LEFT, buff=0.06)
            cat_g = VGroup(cat, VGroup(*blocks.values()), tags)
            cat_title.next_to(cat_g, UP, buff=0.12).align_to(cat_g, LEFT)
            over = VGroup(cat_title, cat_g).height - cat_box.height
            if over <= 1e-6:
                break
            room = Box(cat_box.x0, cat_box.y0 + over + 0.05, cat_box.x1, cat_box.y1)
        self.head_blocks["concat"] = blocks
        place(VGroup(cat_title, cat_g), cat_box, "top")
        return cat, VGroup(cat_title, cat_g)

    def slide_into_concat(self, outs, cat, cat_g) -> None:
        """Each head output's cells slide into their columns of the concatenation."""
        d_v = self.trace.heads[0].V.shape[1]
        cat_title, (_, blocks, tags) = cat_g
        pairs = []
        for h, (_, m) in outs.items():
            for (i, j), cell in m.cells.items():
                target = cat.cells.get((i, h * d_v + j))
                if target is not None:
                    pairs.append((cell, target))
        done = {id(t) for _, t in pairs}
        slides = cells_from(pairs)
        rest = [c for c in cat.cells.values() if id(c) not in done]
        self.play(
            FadeIn(cat.frame_parts()),
            FadeIn(cat_title),
            FadeIn(VGroup(*blocks)),
            FadeIn(tags),
            run_time=0.6,
        )
        if _shaded(cat):  # drawn by colour: whole blocks move
            frames = {f.head: f for f in blocks}
            slides = [_block_into(m, frames[h]) for h, (_, m) in outs.items() if h in frames] + [
                FadeIn(cat.shaded)
            ]
        self.play(*slides, *([FadeIn(VGroup(*rest))] if rest else []), run_time=1.6)

    def mix(self, mh, outs, cat, cat_g, boxes) -> None:
        """W_O: the product back to d_model, row by row of the concatenation."""
        theme = self.theme
        width = ac.output_width(self.trace)
        key = "mix" if width.kind == "model" else "mix_other"
        self.step("mix", caption_key=key, d=width.d_model, w=width.width)
        small, small_g = self.concat_matrix(mh, True, boxes["mix_cat"])
        place(small_g, boxes["mix_cat"], "center")
        self.play(
            *(FadeOut(VGroup(t, m)) for t, m in outs.values()),
            *morph(cat_g, small_g),
            run_time=0.9,
        )
        cat = small
        wo, wo_title = self.w_o_matrix(mh, boxes["wo"])
        out, out_title = self.mixed_output(mh, boxes["out"], boxes["wide"])
        dot_box, eq_box = boxes["dot"], boxes["eq"]
        dot = label("·", BODY, theme.text).move_to([dot_box.center[0], wo.get_center()[1], 0])
        eq = label("=", BODY, theme.text).move_to([eq_box.center[0], out.get_center()[1], 0])
        if not boxes["wide"]:  # the output starts at the left of its box: "=" right before it
            eq.next_to(out, LEFT, buff=0.2)
        self.play(FadeIn(wo), FadeIn(wo_title), FadeIn(dot), FadeIn(eq), run_time=0.8)
        self.play(FadeIn(out.frame_parts()), FadeIn(out_title), run_time=0.5)
        rows, highlights = [], []
        for i in out.shown_rows:
            target = out.row_group(i)
            if i not in cat.shown_rows:  # elided in the concatenation: the row just appears
                rows.append(FadeIn(target))
                continue
            highlight = _row_highlight(cat, i, theme)
            highlights.append(highlight)
            rows.append(
                AnimationGroup(
                    FadeIn(highlight),
                    TransformFromCopy(_row_and(cat.row_group(i), wo.numbers), target),
                    lag_ratio=0.3,
                )
            )
        ink = [FadeIn(out.shaded)] if _shaded(out) else []  # drawn by colour: no row of cells
        self.play(
            AnimationGroup(*rows, lag_ratio=0.6), *ink, run_time=min(3.0, 0.8 * len(rows) + 0.6)
        )
        self.play_all((FadeOut(hl) for hl in highlights), run_time=0.3)

    def w_o_matrix(self, mh, wo_box: Box):
        """W_O with its name above, in ``wo_box``: (matrix, title)."""
        theme = self.theme
        wo = fitted_grid(
            mh.W_o,
            ("W_o",),
            theme,
            [str(i + 1) for i in range(mh.W_o.shape[0])],
            [str(j + 1) for j in range(mh.W_o.shape[1])],
            wo_box,
            sizes=(25, 22),
            title_room=TITLE_ROOM,
            cell_pad=COMPACT,
        )
        wo_title = math("W_O", FORMULA, theme.text)
        wo_title.next_to(wo, UP, buff=0.12).align_to(wo, LEFT)
        place(VGroup(wo_title, wo), wo_box, "center")
        return wo, wo_title

    def mixed_output(self, mh, out_box: Box, wide: bool):
        """The multi-head output (concat · W_O), in the output style: (matrix, title)."""
        theme = self.theme
        out = fitted_grid(
            mh.output,
            ("final",),
            theme,
            [f"o({t})" for t in self.q_tokens],
            [str(j + 1) for j in range(mh.output.shape[1])],
            out_box,
            sizes=(25, 22),
            title_room=TITLE_ROOM,
            row_colors=[self.q_color(i) for i in range(self.example.n)],
            cell_pad=COMPACT,
        )
        for cell in out.cells.values() if not getattr(out, "compact", False) else ():
            cell.set_color(theme.output)
        out_title = self.typeset("mh_output", BODY, theme.output)
        out_title.next_to(out, UP, buff=0.12).align_to(out, LEFT)
        place(VGroup(out_title, out), out_box, "center" if wide else "left")
        return out, out_title


MAX_SQUARES = (
    4096  # beyond this many cells a grid is drawn by colour (a mobject a cell is too slow)
)
SHADES = 64  # the colours of such a grid: its scale in 64 steps
MIN_SQUARE = 0.06  # a cell (scene units) below which a square's size no longer reads
STRIPES = 32  # columns from which a grid too narrow for squares is drawn as stripes of colour


class CompactGrid(VGroup):
    """A matrix too large for its numbers at the minimum text size, drawn as a grid of squares:
    each cell's square has an area in proportion to its magnitude (a weight: its share of the
    cell, as 3Blue1Brown draws attention) in the colour of its value on the matrix's scale, and
    every row labelled. It offers the parts of :class:`LabelledMatrix` the scene moves (cells,
    rows, backgrounds, frame parts), so a step animates either the same way."""

    compact = True
    indexed = False

    def __init__(
        self,
        values,
        theme,
        row_labels,
        cell: float,
        scale="values",
        row_colors=None,
        label_width: float = 2.2,
        role: tuple = (),
        cell_height: float | None = None,
        limit: float | None = None,
    ):
        super().__init__()
        values = np.asarray(values, dtype=float)
        m, n = values.shape
        self.shape = (m, n)
        self.shown_rows, self.shown_columns = list(range(m)), list(range(n))
        # one scale for matrices shown together (Q, K and V): the same value, the same square
        limit = 1.0 if scale == "weights" else (limit or score_limit(values))
        self.cells, self.shaded, self.cell_size = {}, None, cell
        self.cell_height = cell_height or cell
        if m * n > MAX_SQUARES or cell < MIN_SQUARE:  # too many, or too small to see a square
            backs = self._heatmap(values, theme, cell, scale, limit)
        else:
            backs = []
            for i in range(m):
                for j in range(n):
                    back = Square(cell * 0.94, stroke_color=theme.grid, stroke_width=1)
                    back.set_fill(theme.panel, opacity=1).move_to([j * cell, -i * cell, 0])
                    back.cell_index = (i, j)
                    backs.append(back)
                    v = values[i, j] if np.isfinite(values[i, j]) else 0.0
                    side = cell * 0.86 * float(np.sqrt(min(abs(v) / limit, 1.0)))
                    color = heat(v) if scale == "weights" else diverging(v, limit)
                    dot = Square(max(side, 0.02), stroke_width=0).set_fill(color, opacity=1)
                    dot.role = (*role, i, j)  # where its value comes from, as a Num's
                    self.cells[i, j] = dot.move_to(back)
        self.backgrounds = VGroup(*backs)  # added at once: Manim's add is quadratic one by one
        self.numbers = VGroup(*self.cells.values())
        self.row_labels, self.row_label_of = VGroup(), {}
        size = SMALL  # the minimum text size: labels never shrink below it
        for i, text in enumerate(row_labels):
            if not text:
                continue
            color = row_colors[i] if row_colors else theme.text
            lab = label(ellipsize(text, label_width, size), size, color)
            lab.next_to(self.cell_rect(i, 0), LEFT, buff=0.08)
            self.row_labels.add(lab)
            self.row_label_of[i] = lab
        self.col_labels, self.ellipses, self.colorbar = VGroup(), VGroup(), VGroup()
        self.add(self.backgrounds, *([self.shaded] if self.shaded else []))
        self.add(self.numbers, self.row_labels)

    def _heatmap(self, values, theme, cell: float, scale: str, limit: float) -> list:
        """A grid too large for a mobject a cell (a trained layer's 384 × 384 W_O): every cell a
        full square of its colour, the squares of one colour (the scale in SHADES steps) drawn
        as one shape; each row's frame behind them. Returns the frames."""
        m, n = values.shape
        finite = np.where(np.isfinite(values), values, 0.0)
        if scale == "weights":
            t = np.clip(finite, 0.0, 1.0)
        else:
            t = np.clip(0.5 + 0.5 * finite / limit, 0.0, 1.0)
        shade = np.rint(t * (SHADES - 1)).astype(int)
        self.shaded = VGroup()
        side, tall = cell * 0.94, self.cell_height * 0.94  # a wide matrix: cells taller
        for k in np.unique(shade):
            i, j = np.nonzero(shade == k)
            level = k / (SHADES - 1)
            color = (
                heat(level) if scale == "weights" else diverging((level - 0.5) * 2 * limit, limit)
            )
            squares = VMobject(stroke_width=0).set_fill(color, opacity=1)
            squares.set_points(_square_paths(j * cell, -i * self.cell_height, side, tall))
            self.shaded.add(squares)
        backs = []
        for i in range(m):
            back = Rectangle(width=n * cell, height=self.cell_height, stroke_width=0)
            back.set_fill(theme.panel, opacity=1)
            back.move_to([(n - 1) * cell / 2, -i * self.cell_height, 0])
            back.cell_index = (i, 0)
            backs.append(back)
        return backs

    @classmethod
    def fitted(cls, values, theme, row_labels, box: Box, title_room=0.45, **kw):
        """As large as fits ``box`` (less ``title_room``), cells at most 0.4 units."""
        m, n = np.shape(values)
        tall = (box.height - title_room) / m
        widest = min(max((text_width(t, SMALL) for t in row_labels if t), default=0.0), 2.2)
        # labels shortened (never below 0.9) before the cells shrink below a label's height
        label_width = min(widest, max(0.9, box.width - n * ROW_LABEL_CELL - 0.15))
        room = label_width + 0.15 if widest else 0.0
        cell = min((box.width - room) / n, tall, 0.4)
        # many columns (a head's 32 or 64, a layer's 384): drawn by colour, rows as tall as fit
        wide = n >= STRIPES and (box.width - room) / n < MIN_SQUARE < tall
        if wide and min(tall, 0.4) >= ROW_LABEL_CELL:  # rows labelled, columns thin stripes
            kw["cell_height"] = min(tall, 0.4)
        elif cell < ROW_LABEL_CELL:  # too small to label a row: the squares take the room
            row_labels, cell = [""] * m, min(box.width / n, tall, 0.4)
            if n >= STRIPES and box.width / n < MIN_SQUARE < tall:
                kw["cell_height"] = min(tall, 0.4)
        return cls(values, theme, row_labels, max(cell, 1e-3), label_width=label_width, **kw)

    def cell(self, i: int, j: int):
        return self.cells.get((i, j))

    def columns_box(self, j0: int, j1: int) -> Box:
        """The box of columns j0 … j1 − 1 over every row."""
        left = self.backgrounds[0].get_left()[0] if self.shaded is not None else None
        if left is None:
            corners = [(i, j) for i in (0, self.shape[0] - 1) for j in (j0, j1 - 1)]
            return _bounds([self.cell_rect(i, j) for i, j in corners])
        top, bottom = self.backgrounds[0].get_top()[1], self.backgrounds[-1].get_bottom()[1]
        return Box(left + j0 * self.cell_size, bottom, left + j1 * self.cell_size, top)

    def cell_rect(self, i: int, j: int):
        if self.shaded is not None:  # one frame a row
            return self.backgrounds[i]
        return self.backgrounds[i * self.shape[1] + j]

    def row_group(self, i: int) -> VGroup:
        if self.shaded is not None:
            return VGroup(self.backgrounds[i])
        return VGroup(*(self.cells[i, j] for j in range(self.shape[1])))

    def frame_parts(self) -> VGroup:
        return VGroup(self.backgrounds, self.row_labels)


def cells_from(pairs) -> list:
    """Each (source, cell) pair: the cell flies in from a copy of its source, or fades in where
    there is none. One animation for all of them (cell for cell, as many apart): a scene adds
    each animation's mobject on its own, which costs quadratic time over thousands of cells."""
    moved = [(a, b) for a, b in pairs if a is not None]
    new = [b for a, b in pairs if a is None]
    out = []
    if moved:
        out.append(
            TransformFromCopy(VGroup(*(a for a, _ in moved)), VGroup(*(b for _, b in moved)))
        )
    if new:
        out.append(FadeIn(VGroup(*new)))
    return out


def _block_into(m, frame) -> Transform:
    """A copy of matrix ``m``'s cells squeezed into ``frame`` (a block of a grid drawn by
    colour, which has no cell of its own to fly to); the copy leaves when it lands."""
    ink = VGroup(m.backgrounds, m.shaded) if _shaded(m) else m.numbers
    ghost = ink.copy()
    target = ghost.copy().stretch_to_fit_width(frame.width).stretch_to_fit_height(frame.height)
    return Transform(ghost, target.move_to(frame), remover=True)


def _shaded(m) -> bool:
    """Whether ``m`` is a grid drawn by colour (no mobject a cell)."""
    return getattr(m, "shaded", None) is not None


def _block_from(frame, ink) -> ReplacementTransform:
    """``ink`` (a grid drawn by colour) flies out of ``frame``, its block in a larger grid."""
    ghost = ink.copy().stretch_to_fit_width(frame.width).stretch_to_fit_height(frame.height)
    return ReplacementTransform(ghost.move_to(frame), ink)


def _row_and(row: VGroup, numbers: VGroup) -> VGroup:
    """What moves into an output row: the concatenation's row with W_O's numbers (the row
    alone where W_O is drawn by colour, with no mobject a cell)."""
    return VGroup(row, numbers).copy() if len(numbers) else row.copy()


def _square_paths(xs, ys, side: float, tall: float | None = None) -> np.ndarray:
    """The Bézier points of squares of ``side`` (rectangles ``tall`` high) centred at (xs, ys):
    four straight cubic curves each, one closed sub-path a cell."""
    h, v = side / 2, (tall or side) / 2
    corners = np.array([[-h, v], [h, v], [h, -v], [-h, -v], [-h, v]])  # clockwise, closed
    thirds = np.array([0.0, 1 / 3, 2 / 3, 1.0])
    a, b = corners[:-1], corners[1:]
    edge = a[:, None, :] + thirds[None, :, None] * (b - a)[:, None, :]  # (4 edges, 4 points, 2)
    pts = np.asarray(xs, float)[:, None, None] * [1, 0] + np.asarray(ys, float)[:, None, None] * [
        0,
        1,
    ]
    xy = (pts + edge.reshape(1, 16, 2)).reshape(-1, 2)
    return np.column_stack([xy, np.zeros(len(xy))])


def fitted_grid(
    values, role, theme, rows, cols, box: Box, scale="values", compact_room=None, limit=None, **kw
):
    """The matrix in ``box``: with its numbers where all of them fit at the minimum size, else
    (never hiding a row or a column) as a :class:`CompactGrid` of squares (on the scale of
    ``limit``, default its own values')."""
    m = LabelledMatrix.fitted(values, role, theme, rows, cols, box, **kw)
    if m.shown_rows == list(range(m.shape[0])) and m.shown_columns == list(range(m.shape[1])):
        return m
    return CompactGrid.fitted(
        values,
        theme,
        rows,
        box,
        title_room=compact_room or kw.get("title_room", 0.45),
        scale=scale,
        row_colors=kw.get("row_colors"),
        role=role,
        limit=limit,
    )


def _fits(m: LabelledMatrix, box: Box) -> bool:
    """Whether ``m`` (with its name above) lies inside ``box``, no column elided (rows of a long
    sequence may be)."""
    whole = VGroup(m, m.name_mob) if hasattr(m, "name_mob") else m
    return len(m.shown_columns) == m.shape[1] and box.contains(box_of(whole), tol=1e-3)


def _bounds(mobs) -> Box:
    boxes = [box_of(m) for m in mobs]
    return Box(
        min(b.x0 for b in boxes),
        min(b.y0 for b in boxes),
        max(b.x1 for b in boxes),
        max(b.y1 for b in boxes),
    )


def _row_highlight(m: LabelledMatrix, i: int, theme) -> Rectangle:
    rects = [r for r in m.backgrounds if r.cell_index[0] == i]
    b = _bounds(rects)
    rect = Rectangle(width=b.width + 0.08, height=b.height + 0.08, stroke_color=theme.accent)
    rect.set_stroke(width=3)
    rect.move_to(b.center)
    return rect
