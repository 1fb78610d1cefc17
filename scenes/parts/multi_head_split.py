"""MultiHeadSplit's first two steps: Q = X·W_q, K and V as whole matrices, their column blocks
tinted by head (``project``), then each head taking its blocks into its own panel
(``split_into_heads``)."""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, VGroup

import attention_core as ac
from scenes.mobjects.compact_grid import block_from, cells_from, fits, is_shaded
from scenes.mobjects.fades import FadeIn, FadeOut
from scenes.mobjects.layout import Box, place
from scenes.mobjects.math import math
from scenes.mobjects.text import label, text_width
from scenes.mobjects.theme import SMALL, text_on
from scenes.parts.multi_head_blocks import COMPACT, FORMULA, MAX_PANELS, TITLE_ROOM


class SplitSteps:
    """The projection and the split (mixin of :class:`scenes.multi_head.MultiHeadSplit`)."""

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
        if self.diagram:  # a trained layer's hundreds of columns: blocks with their shapes
            self.fulls_stay = True
            return self.project_blocks(content)
        full_h = self.full_height()
        top, bottom = content.rows(full_h, content.height - full_h - 0.25, gap=0.25)
        fulls = self.full_matrices(top)
        self.fulls_stay = bool(fulls)  # above the heads' blocks; else they give them the room
        if not fulls:  # every row and column of Q, K and V, compact, in the whole content
            fulls = self.full_matrices(content, compact=True)
            bottom = content
        self.value_key = self.values_key(fulls)  # squares: the key of their colours
        # (the widths line moves over to make room for it)
        self.play(
            *(FadeIn(g) for g in fulls.values()),
            FadeIn(self.value_key),
            *([self.widths_mob.animate.move_to(self.widths_room().center)]
              if len(self.value_key) and len(self.widths_mob) else []),
            run_time=1.0,
        )  # fmt: skip
        return fulls, bottom

    def values_key(self, fulls: dict) -> VGroup:
        """Where Q, K and V are grids of squares (their colour and area the value, on one
        scale), the key of that scale at the right of the line under the content; else
        nothing."""
        if not hasattr(self, "widths_box"):
            return VGroup()
        if not any(getattr(g.matrix, "compact", False) for g in fulls.values()):
            return VGroup()
        return self.values_key_of(self.qkv_limit(), "mh_values")

    def values_key_of(self, limit: float, words: str) -> VGroup:
        """The key of a scale of values (−limit … limit) with its ``words``, or the bar alone,
        at the right of the widths line where it fits beside it; else nothing."""
        if not hasattr(self, "widths_box"):
            return VGroup()
        box = self.widths_box
        bar = self.kit.colour_bar("scores", limit=limit, width=min(2.4, box.width / 4))
        words = label(self.say(words), SMALL, self.theme.muted)
        line = self.widths_mob.width + 0.3 if len(self.widths_mob) else 0.0
        worded = VGroup(words, bar).arrange(RIGHT, buff=0.15, aligned_edge=UP)
        worded.words, worded.bar = words, bar  # the words may leave later (key_without_words)
        for key in (worded, bar):
            if line + key.width <= box.width:  # beside the widths line (its words if room)
                key.move_to([box.x1 - key.width / 2, box.y1 - key.height / 2, 0])
                return key
        return VGroup()

    def split_into_heads(self, fulls, bottom, independent: bool) -> dict:
        """Each head takes its blocks: {head: (panel group, its Q_h, K_h, V_h)}."""
        ex, heads = self.example, self.trace.heads
        H, d_k, d_v = len(heads), heads[0].d_k, heads[0].V.shape[1]
        even = ac.readings.claims.head_split(self.trace).kind == "even"
        key = "split_independent" if independent else "split" if even else "split_other"
        maps = self.maps
        e = self.explained  # first, framed
        split = [e, *(h for h in range(H) if h != e)] if H <= MAX_PANELS else self.shown
        if self.diagram:  # blocks with their shapes: as many heads as rows of them hold
            bottom, layout = self.split_layout(bottom)
            split = [h for row in layout[3] for h in row]
        self.split_heads = split
        shared = self.shared_kv_words(split, bottom)
        self.step(
            key,
            "split_grouped" if maps.shared else None,
            H=H, G=maps.kv_heads, d=ex.d_model, d_k=d_k, w=H * d_k, example=shared,
        )  # fmt: skip
        # every head's blocks where there are at most MAX_PANELS (compact if need be)
        if self.diagram:
            return self.split_blocks(fulls, layout)
        panel_boxes = self.split_boxes(bottom, split)
        pieces = {}
        frames, anims = [], []
        for box, h in zip(panel_boxes, split):
            group, mats = self.head_pieces(h, box, split)
            pieces[h] = (group, mats)
            frames.append(FadeIn(group.title))
            if h == e:
                group.frame = self.explained_frame(group, buff=0.08)
                frames.append(FadeIn(group.frame))
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
                if is_shaded(piece):  # drawn by colour: the whole block flies
                    frame = self.head_blocks.get(name, {}).get(block)
                    ink = piece.shaded
                    anims.append(block_from(frame, ink) if frame else FadeIn(ink))
        if not self.fulls_stay:  # the blocks leave their matrices for the heads' panels
            # the empty blocks first (the squares land on top), the old matrices leaving
            self.play(*frames, run_time=0.6)
            self.play(*anims, *(FadeOut(g) for g in fulls.values()), run_time=1.6)
            return pieces
        self.play(*frames, run_time=0.6)  # the empty blocks first: the numbers fly in on top
        self.play(*anims, run_time=1.6)
        return pieces

    def split_boxes(self, bottom: Box, split: list[int]) -> list[Box]:
        """The split's panels side by side, the explained head's (first) as wide as its name's
        longest line and its frame need (issue 38, 1:1: "explanations" ran over its frame into
        "head 2"); the others share the rest."""
        n = len(split)
        even = (bottom.width - 0.3 * (n - 1)) / n
        need = self.head_title(split[0], even).width + 0.25
        if n < 2 or need <= even:
            return bottom.columns(*([1] * n), gap=0.3)
        rest = (bottom.width - 0.3 * (n - 1) - need) / (n - 1)
        return bottom.columns(need, *([rest] * (n - 1)), gap=0.3)

    def shared_kv_words(self, split, bottom) -> str:
        """The split caption's example: the key/value heads the explained head's group shares
        (named under K's block where the heads stay), else the head that reads them: a caption
        names only heads on screen."""
        maps, e = self.maps, self.explained
        g = maps.group(e)
        members = maps.members(g)
        sub = str(g + 1).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))
        stays = self.fulls_stay
        if stays or all(h in split for h in members):  # its heads named under K's block
            return self.say(
                "kv_shared", a=members[0] + 1, b=members[-1] + 1, K=f"K{sub}", V=f"V{sub}"
            )
        return self.say("mh_kv_reads", h=e + 1, K=f"K{sub}", V=f"V{sub}")

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
                return self.kit.grid(*args, limit=self.qkv_limit(), **kw)
            return self.kit.matrix(*args, **kw)

        def build(which, boxes):
            out = {}
            for name, box in zip(which, boxes):
                width = d_v if name == "V" else d_k
                m = build_matrix(
                    arrays[name],
                    (name,),
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

    def head_pieces(self, h: int, box: Box, drawn=None):
        """Head ``h``'s panel in the split step (of the heads ``drawn``): its title and its
        Q_h, K_h, V_h blocks."""
        title = self.head_title(h, box.width, drawn=drawn)
        title_box, rest = box.rows(title.height + 0.08, box.height - title.height - 0.18, gap=0.1)
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
            if all(fits(m, b) for m, b in zip(mats.values(), boxes)):
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
        mats, at = {}, {n: h if n == "Q" else g for n in names}
        tags = {n: math(f"{n}_{at[n] + 1}", FORMULA, theme.text) for n in names}
        shrink = min(1.0, *(b.width / tags[n].width for n, b in zip(names, boxes)))
        for k, name in enumerate(names):
            values = arrays[name]
            block = at[name]
            rows = self.q_tokens if name == "Q" and labelled else None
            n_rows = values.shape[0]
            colors = [self.q_color(i) for i in range(n_rows)] if name == "Q" else None
            piece = self.kit.grid(
                values,
                (f"{name}_map", block),
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
            name_mob = tags[name]
            if shrink < 1:  # a narrow frame: the names as wide as their blocks, all alike
                name_mob.scale(shrink)  # (Q₂ and K₂ came out smaller than V₂)
            name_mob.next_to(piece, UP, buff=0.1).align_to(piece, LEFT)
            place(VGroup(name_mob, piece), boxes[k], "top")
            piece.name_mob = name_mob
            mats[name] = piece
        for k, piece in list(enumerate(mats.values()))[1:]:  # rows level with Q's (a name
            dy = mats[names[0]].get_top()[1] - piece.get_top()[1]  # shrunk to fit sat higher)
            VGroup(piece, piece.name_mob).shift(dy * UP)
            if not fits(piece, boxes[k]):
                VGroup(piece, piece.name_mob).shift(dy * DOWN)
        return mats
