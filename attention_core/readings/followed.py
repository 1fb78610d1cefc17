"""The one query (and the key it looks at) an explanation follows, chosen from what the head does.

:func:`followed_pair` decides it for an example's trace, as the claims do
(:mod:`.claims`), so that every scene and ``numbers --json`` follow the same pair:

- asked (``kind = "asked"``): the example names ``query`` (and perhaps ``key``) — as
  ``from-model --find SRC->DST`` writes them; without ``key``, the key the query weighs most;
  with ``key_pieces`` (a key word cut into pieces) the pair's key is the word: its weight the
  sum over the pieces (``keys``), ``key`` the piece the query weighs most unless named;
- a trained head (an example with a ``source`` note) whose reading (:func:`read_head`) is a
  pattern: ``"induction"`` — a later occurrence of a token and the token after its earlier
  occurrence (the row putting most weight there); ``"previous"`` — a middle token and the one
  before it; ``"sink"`` / ``"first"`` / ``"cls"`` — a middle token and the first one (the sink);
  likewise a middle token for ``"next"``, ``"self"``, ``"sep"``, ``"fixed"``;
- otherwise (``kind = "demo"``; a head without a habit, sharp or diffuse):
  :func:`head_demo_row`'s row (the one whose weights are the most evenly spread) and the key it
  weighs most.

The file fields ``query`` and ``key`` are checked here too (:func:`check_followed`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from .copy_heads import induction_targets
from .head_kinds import READINGS, told_as
from .heads import _fitting_rows, _pattern_keys

if TYPE_CHECKING:
    from ..example.model import Example
    from ..trace import ExampleTrace
    from .claims import RowChoice


@dataclass(frozen=True)
class FollowedPair:
    """``query`` (a row of the weights), ``key`` (a column) and ``kind`` (why these: ``"asked"``,
    ``"demo"``, or the head's reading such as ``"induction"`` or ``"previous"``); ``keys`` the
    pieces of a key word cut into pieces (``key`` one of them), () for a key of one token.

    Attributes
    ----------
    query, key : int
        The row and the column (from 0).
    kind : str
        Why these.
    keys : tuple of int
        A key word's pieces.

    Examples
    --------
    >>> FollowedPair(2, 0, "asked").pieces
    (0,)
    """

    query: int
    key: int
    kind: str
    keys: tuple[int, ...] = ()

    @property
    def pieces(self) -> tuple[int, ...]:
        """The key's pieces: ``keys``, or the key alone."""
        return self.keys or (self.key,)

    def weight(self, W: ArrayLike) -> float:
        """The pair's weight in weights ``W``: the query's, summed over the key's pieces."""
        return float(np.asarray(W)[self.query, list(self.pieces)].sum())


def heaviest(weights: ArrayLike, row: int) -> int:
    """The key row ``row`` weighs most (the first of equals)."""
    return int(np.argmax(np.asarray(weights)[row]))


def _middle(rows: Sequence[int] | np.ndarray) -> int:
    return int(rows[(len(rows) - 1) // 2])


def _from_reading(W: np.ndarray, tokens: Sequence[str]) -> FollowedPair | None:
    from .head_kinds import reading
    from .heads import read_head

    r = read_head(W, tokens)
    if not r.habitual:  # sharp or diffuse: no habit to show
        return None
    if r.pattern == "induction":
        targets = induction_targets(tokens)
        best = max(targets, key=lambda i: (float(W[i, targets[i]].sum()), -i))
        return FollowedPair(best, max(targets[best], key=lambda t: W[best, t]), "induction")
    t = reading(r.pattern).habit_rows(W, tokens)
    assert t is not None  # read_head found this habit in these rows
    rows = np.flatnonzero(t >= 0)
    q = _middle(rows)
    return FollowedPair(q, int(t[q]), r.pattern)


def followed_pair(
    trace: ExampleTrace, example: Example | None = None, head: int | None = None
) -> FollowedPair:
    """The query and key ``trace`` (of ``example``, default the trace's) follows for head
    ``head``: asked, from a trained head's reading, or :func:`head_demo_row`'s row.

    Parameters
    ----------
    trace : ExampleTrace
    example : Example, optional
        The example (default the trace's).
    head : int, optional
        The head (from 0; default the example's).

    Returns
    -------
    FollowedPair

    Examples
    --------
    >>> from attention_core import Example, trace_example
    >>> ex = Example(tokens=("a", "b", "c"), embeddings=np.eye(3), query="c", key="a")
    >>> followed_pair(trace_example(ex))
    FollowedPair(query=2, key=0, kind='asked', keys=())
    """
    from .claims import head_demo_row

    ex = trace.example if example is None else example
    head = ex.head_index if head is None else head
    W = np.asarray(trace.heads[head].weights)
    if ex.query is not None:
        q, key, pieces = ex.query_index, ex.key_index, ex.key_piece_indices
        assert q is not None  # query given: its row (key_index: None exactly when key is)
        if pieces:  # a key word cut into pieces: the piece named, else the one weighed most
            k = key if key is not None else max(pieces, key=lambda j: (W[q, j], -j))
            return FollowedPair(q, k, "asked", tuple(pieces))
        return FollowedPair(q, key if key is not None else heaviest(W, q), "asked")
    if ex.source and not ex.is_cross and W.shape[0] > 1:
        pair = _from_reading(W, tuple(ex.tokens))
        if pair is not None:
            return pair
    row = head_demo_row(trace, head=head).row
    return FollowedPair(row, heaviest(W, row), "demo")


def followed_choice(
    trace: ExampleTrace,
    rows: Sequence[int] | None = None,
    before_mask: bool = False,
    head: int | None = None,
) -> RowChoice:
    """The :class:`~attention_core.readings.claims.RowChoice` a per-query step follows: the
    followed pair's query. Where :func:`followed_pair` is the demo row, :func:`head_demo_row`'s
    own choice (``rows``, ``before_mask`` as there); else the pair's query, ``kind`` ``"asked"``
    (the example names it) or ``"followed"`` (it shows the head's pattern); ``top`` its largest
    weight (before the mask with ``before_mask``), ``blocked`` the keys the mask blocks there.

    Parameters
    ----------
    trace : ExampleTrace
    rows : sequence of int, optional
        The candidate rows (a demo row's).
    before_mask : bool, default False
        Read the weights before the mask.
    head : int, optional
        The head (from 0; default the example's).

    Returns
    -------
    RowChoice

    Examples
    --------
    >>> from attention_core import Example, trace_example
    >>> ex = Example(tokens=("a", "b", "c"), embeddings=np.eye(3), query="c", key="a")
    >>> c = followed_choice(trace_example(ex))
    >>> c.row, c.kind
    (2, 'asked')
    """
    from ..softmax import softmax
    from .claims import RowChoice, head_demo_row

    head = trace.example.head_index if head is None else head
    pair = followed_pair(trace, head=head)
    if pair.kind == "demo":
        return head_demo_row(trace, rows, before_mask, head)
    h = trace.heads[head]
    w = np.asarray(softmax(h.scaled) if before_mask else h.weights)
    q = pair.query
    blocked = 0 if h.mask is None else int(np.sum(~np.asarray(h.mask, bool)[q]))
    kind = "asked" if pair.kind == "asked" else "followed"
    return RowChoice(q, float(np.max(w[q])), kind, blocked, (q,))


# -- what the head does, told by its followed pair (AttentionMatrix's reading) -----------------
# a first token taking the weight is told as a sink (head_kinds: each reading's ``told_as``)
STORY_KINDS = {r.key: r.told_as for r in READINGS if r.told_as is not None}


@dataclass(frozen=True)
class HeadStory:
    """What a head does, in one pair: ``query`` → ``key`` with ``weight``. ``kind``:
    ``"induction"`` (the key is the token after an earlier occurrence ``earlier`` of the query's
    token), ``"previous"``, ``"next"``, ``"self"``, ``"sep"``, ``"fixed"`` (the head's reading,
    :func:`read_head`), ``"sink"`` (the first token, as ``"sink"``, ``"first"`` and ``"cls"``
    heads do), or ``"asked"`` (the example names the pair). ``fits`` the cells ``(i, j)`` of the
    rows that fit the reading: row i's largest weight is on j, the reading's key for i (for
    ``"asked"``: the pair alone, or the rows that fit its ``habit``).

    For an asked pair, what the weight says: ``rank`` (the key's place in the query's row, 1:
    its largest weight), ``other`` and ``other_weight`` (the runner-up key when ``rank`` is 1,
    else the key the query weighs most; None where every other key gets 0), and ``habit`` (the
    head's reading, e.g. ``"previous"``, when its habitual key for the query is the pair's key:
    the weight is what the head does for every token, not this pair's link; ``earlier`` then
    as for that reading). ``peer`` (with ``peer_weight``): where the key is the query's largest
    weight but many other queries that see the key look most at it too (:func:`_column_peer`:
    a head looking at that word from much of the text, though no reading names it), the one
    that gives it the most; ``fits`` then frames each of them.

    ``linked``: the peers are such rows, each at least half its row on the key
    (:func:`_linked_peer`); ``strongest``: and their cells (with the pair's) hold the head's
    strongest link in this sentence — no cell off the diagonal, off a resting place, in a row
    not forced, weighs more (:func:`_strongest_of_all`): only then do the captions call them
    "this head's strongest links".

    ``keys``: an asked key word's pieces (() for a key of one token): ``weight`` is then their
    sum, ``rank``, ``other`` and ``peer`` read the word as one key (its pieces' columns summed;
    its own pieces are no peers), ``habit`` holds when the habitual key is any piece (that piece
    is then ``key``), and ``fits`` frames each piece.

    Attributes
    ----------
    kind : str
    query, key : int
    weight : float
    earlier : int or None
    fits : tuple of (int, int)
    rank, other, other_weight, habit, peer, peer_weight, keys, linked, strongest
        As above.

    Examples
    --------
    >>> from attention_core import Example, trace_example
    >>> ex = Example(tokens=("a", "b", "c"), embeddings=np.eye(3), query="c", key="a")
    >>> s = head_story(trace_example(ex))
    >>> s.kind, s.rank, s.other, round(s.weight, 3)
    ('asked', 2, 2, 0.264)
    """

    kind: str
    query: int
    key: int
    weight: float
    earlier: int | None
    fits: tuple[tuple[int, int], ...]
    rank: int = 1
    other: int | None = None
    other_weight: float = 0.0
    habit: str | None = None
    peer: int | None = None
    peer_weight: float = 0.0
    keys: tuple[int, ...] = ()
    linked: bool = False
    strongest: bool = False

    @property
    def pieces(self) -> tuple[int, ...]:
        """The key's pieces: ``keys``, or the key alone."""
        return self.keys or (self.key,)

    @property
    def telling(self) -> str:
        """Which way the captions tell it: the head's kind; for an asked pair ``"asked_habit"``
        (the head's habit), ``"asked_top"`` (its largest weight, beside the runner-up),
        ``"asked_lower"`` (a lower one, beside the largest), ``"asked_column"`` (many queries
        look most at its key), ``"asked_linked"`` (a few other queries look most at its key, at
        least half their row, and these are the head's strongest links in this sentence:
        :attr:`strongest`), ``"asked_also"`` (as ``"asked_linked"``, but a brighter link lies
        elsewhere) or ``"asked"`` (no other key)."""
        if self.kind != "asked":
            return self.kind
        if self.habit is not None:
            return "asked_habit"
        if self.other is None:
            return "asked"
        if self.rank == 1 and self.peer is not None:
            if not self.linked:
                return "asked_column"
            return "asked_linked" if self.strongest else "asked_also"
        return "asked_top" if self.rank == 1 else "asked_lower"

    @property
    def pair_telling(self) -> str:
        """How a scene that shows the pair but not the other rows tells it: :attr:`telling`,
        but ``"asked_linked"`` told as ``"asked_top"``, the pair's own fact. The other queries
        that look as strongly at its key ("this head's strongest links") are said once, where
        they can be seen: AttentionMatrix's reading, whose heatmap frames their rows (issue
        38: the phrase came back in about nine steps that showed no such row)."""
        return "asked_top" if self.telling in ("asked_linked", "asked_also") else self.telling


def head_story(
    trace: ExampleTrace, example: Example | None = None, head: int | None = None
) -> HeadStory | None:
    """The head's story for AttentionMatrix's reading, from :func:`followed_pair`: None where it
    is the demo row (a made-up example, or a trained head with no pattern).

    Parameters
    ----------
    trace : ExampleTrace
    example : Example, optional
        The example (default the trace's).
    head : int, optional
        The head (from 0; default the example's).

    Returns
    -------
    HeadStory or None

    Examples
    --------
    >>> from attention_core import PRESETS, trace_example
    >>> head_story(trace_example(PRESETS["zao-shang-hao"])) is None  # a made-up example
    True
    """
    ex = trace.example if example is None else example
    head = ex.head_index if head is None else head
    pair = followed_pair(trace, ex, head)
    W = np.asarray(trace.heads[head].weights)
    return None if pair.kind == "demo" else story_of(W, tuple(ex.tokens), pair)


def story_of(W: ArrayLike, tokens: Sequence[str], pair: FollowedPair) -> HeadStory:
    """:class:`HeadStory` of weights ``W`` (n, n) whose followed pair is ``pair`` (not a demo
    row's): the pair, its weight, and the rows that fit the head's reading."""
    W = np.asarray(W)
    q, k = pair.query, pair.key
    if pair.kind == "asked":
        return asked_story(W, tokens, q, k, pair.keys)
    fits = _fitting_rows(W, _pattern_keys(W, tokens, pair.kind))
    earlier = k - 1 if pair.kind == "induction" else None
    kind = told_as(pair.kind)
    return HeadStory(kind, q, k, float(W[q, k]), earlier, fits)


def asked_story(
    W: np.ndarray, tokens: Sequence[str], q: int, k: int, pieces: Sequence[int] = ()
) -> HeadStory:
    """:class:`HeadStory` of an asked pair ``q`` → ``k`` of weights ``W``: its rank in the row,
    the runner-up (or the top), and whether it is the head's habit. ``pieces``: a key word's
    pieces (``k`` among them), read as one key whose weight is their sum; where the head's habit
    looks at one of them, that piece is the story's ``key``."""
    from .heads import read_head

    pieces = tuple(int(p) for p in pieces) if len(pieces) > 1 else ()
    square = W.shape[0] == W.shape[1] > 1
    r = read_head(W, tokens) if square else None
    pattern = r.pattern if r is not None and r.habitual else None
    keys = {} if pattern is None else _pattern_keys(W, tokens, pattern)
    habit, fits, earlier = None, tuple((q, p) for p in pieces or (k,)), None
    habitual = [p for p in pieces or (k,) if p in keys.get(q, ())]
    if habitual:  # the key told is the piece the habit looks at
        assert pattern is not None  # habitual keys come from the head's pattern
        k = habitual[0]
        habit, fits = told_as(pattern), _fitting_rows(W, keys)
        earlier = k - 1 if pattern == "induction" else None
    C = collapsed(W, pieces, k) if pieces else W
    row = C[q]
    w = float(row[k])
    rank = 1 + int(np.sum(row > w))
    rest = np.where(np.arange(row.size) == k, -np.inf, row)
    other = int(np.argmax(rest)) if row.size > 1 and float(np.max(rest)) > 0 else None
    ow = 0.0 if other is None else float(row[other])
    peer, pw, linked, strongest = None, 0.0, False, False
    if habit is None and rank == 1 and other is not None:
        peer, fits = _column_peer(C, q, k, pieces) or (None, fits)
        link = _linked_peer(C, q, k, pieces) if peer is None else None
        linked = link is not None
        if link is not None:
            peer, fits = link
            strongest = _strongest_of_all(W, C, tokens, fits)
        pw = 0.0 if peer is None else float(C[peer, k])
        if peer is not None and pieces:  # each row framed on every piece of the word
            fits = tuple((i, p) for i, _ in fits for p in pieces)
    told = (rank, other, ow, habit, peer, pw, pieces, linked, strongest)
    return HeadStory("asked", q, k, w, earlier, fits, *told)


def _strongest_of_all(
    W: np.ndarray, C: np.ndarray, tokens: Sequence[str], cells: Sequence[tuple[int, int]]
) -> bool:
    """Whether ``cells`` of ``C`` (``W`` with a key word's pieces as one key) hold the head's
    strongest link in this sentence: none of their keys a resting place, and no cell that may
    hold a link (:func:`~.sharpness.link_cells` of ``W``: off the diagonal, off a resting
    place, in a row not forced) weighs more than the heaviest of them. Issue 38: "sold → farmer
    0.635 too, this head's strongest links here" beside to → tractor 0.962."""
    from .sharpness import link_cells

    if W.shape[0] != W.shape[1]:
        return False
    may = link_cells(W, tokens if len(tokens) == W.shape[0] else None)
    if not all(may[i, j] for i, j in cells):
        return False
    return max(float(C[i, j]) for i, j in cells) >= float(C[may].max())


def collapsed(W: ArrayLike, pieces: Sequence[int], k: int) -> np.ndarray:
    """``W`` with a key word's ``pieces`` as one key: column ``k`` their sum, the other pieces'
    columns 0 (so a row's ranks, runner-up and largest weight read the word as one key)."""
    C = np.array(W, dtype=np.float64)
    C[:, k] = np.asarray(W, dtype=np.float64)[:, list(pieces)].sum(axis=1)
    C[:, [p for p in pieces if p != k]] = 0.0
    return C


COLUMN_MIN, COLUMN_SHARE = 3, 1 / 3  # "many of the tokens that see k look most at it"


def _column_peer(
    W: np.ndarray, q: int, k: int, pieces: Sequence[int] = ()
) -> tuple[int, tuple[tuple[int, int], ...]] | None:
    """``(peer, fits)`` where many of the other queries that see key ``k`` (weight > 0: a
    masked one's is exactly 0) put their largest weight on it — at least ``COLUMN_MIN`` and a
    ``COLUMN_SHARE`` of them: the one putting the most there, and the cells of all that do
    (``q``'s first); else None. A key word's own ``pieces`` are no other queries looking at
    it (a piece weighs its own word's pieces, itself among them)."""
    others = [i for i in range(W.shape[0]) if i != q and i not in pieces and W[i, k] > 0]
    top = [i for i in others if int(np.argmax(W[i])) == k]
    if len(top) < COLUMN_MIN or COLUMN_SHARE * len(others) > len(top):
        return None
    peer = max(top, key=lambda i: (W[i, k], -i))
    return peer, ((q, k), *((i, k) for i in top))


def _linked_peer(
    W: np.ndarray, q: int, k: int, pieces: Sequence[int] = ()
) -> tuple[int, tuple[tuple[int, int], ...]] | None:
    """``(peer, fits)`` where other queries (not ``k``'s own pieces) put their largest weight on
    key ``k``, at least :data:`~.sharpness.LINK_AT_LEAST` of their row: the head's strongest
    links in this sentence that share the pair's key (a review: "that₁ → soup 0.980", the
    head's strongest link, was never said while the asked it → soup was) — the one putting the
    most there, and the cells of all (``q``'s first, then by weight, at most
    :data:`LINKED_MOST`); else None."""
    from .sharpness import LINK_AT_LEAST

    others = [
        i
        for i in range(W.shape[0])
        if i != q and i not in pieces and int(np.argmax(W[i])) == k and W[i, k] >= LINK_AT_LEAST
    ]
    if not others:
        return None
    others.sort(key=lambda i: (-W[i, k], i))
    return others[0], ((q, k), *((i, k) for i in others[:LINKED_MOST]))


LINKED_MOST = 4  # other queries framed with an asked pair's strongest links


def choice_story(trace: ExampleTrace, choice: RowChoice) -> HeadStory | None:
    """What the head does, told of the row a per-query step follows (``choice``, a
    :class:`~attention_core.readings.claims.RowChoice` from :func:`followed_choice`:
    DotProducts, Softmax, WeightedSum): the head's story (:func:`head_story`) where the row is
    the followed pair's query (``choice.kind`` ``"followed"`` or ``"asked"``), else None (a
    made-up example's row: its caption says why that row).

    Parameters
    ----------
    trace : ExampleTrace
    choice : RowChoice
        The row a step follows (:func:`followed_choice`).

    Returns
    -------
    HeadStory or None

    Examples
    --------
    >>> from attention_core import Example, trace_example
    >>> t = trace_example(Example(tokens=("a", "b"), embeddings=np.eye(2), query="b", key="a"))
    >>> choice_story(t, followed_choice(t)).query
    1
    """
    if choice.kind not in ("followed", "asked"):
        return None
    story = head_story(trace)
    return story if story is not None and story.query == choice.row else None


# -- the followed pair's row at the score steps (Projections, Scaling, CausalMask) -------------
@dataclass(frozen=True)
class PairRow:
    """What the followed pair's row shows before the softmax, for a head with a story
    (:func:`head_story`): ``query`` → ``key`` (``story`` the story's kind), the pair's ``score``
    (q·k), ``scaled`` score and ``weight``; ``rank`` (1 + the keys the row may see whose scaled
    score is larger: 1 = the largest match of its row; 0 where the mask blocks the key); ``seen``
    of ``keys`` keys the row may see; ``sight``: ``"all"`` (no key blocked), ``"before"`` (the
    keys up to the query itself, a causal row), ``"some"`` (another mask), ``"blocked"`` (the
    mask blocks the pair's key: its weight is exactly 0).

    Attributes
    ----------
    story : str
    query, key : int
    score, scaled, weight : float
    rank, seen, keys : int
    sight : str
        As above.

    Examples
    --------
    >>> from attention_core import Example, trace_example
    >>> ex = Example(tokens=("a", "b", "c"), embeddings=np.eye(3), query="c", key="a")
    >>> r = pair_row(trace_example(ex))
    >>> r.rank, r.seen, r.sight
    (2, 3, 'all')
    """

    story: str
    query: int
    key: int
    score: float
    scaled: float
    weight: float
    rank: int
    seen: int
    keys: int
    sight: str

    @property
    def before(self) -> int:
        """The tokens before the query it may see (``sight == "before"``: all of them)."""
        return self.seen - 1


def pair_row(trace: ExampleTrace, head: int | None = None) -> PairRow | None:
    """The followed pair's :class:`PairRow` of head ``head`` (default the example's): None where
    the head has no story (:func:`head_story`: a made-up example keeps its own words).

    Parameters
    ----------
    trace : ExampleTrace
    head : int, optional
        The head (from 0; default the example's).

    Returns
    -------
    PairRow or None

    Examples
    --------
    >>> from attention_core import PRESETS, trace_example
    >>> pair_row(trace_example(PRESETS["zao-shang-hao"])) is None
    True
    """
    head = trace.example.head_index if head is None else head
    story = head_story(trace, head=head)
    if story is None:
        return None
    h = trace.heads[head]
    q, k = story.query, story.key
    m = np.shape(h.weights)[1]
    allowed = np.ones(m, bool) if h.mask is None else np.asarray(h.mask, bool)[q]
    s = np.asarray(h.scaled)[q]
    if not allowed[k]:
        sight, rank = "blocked", 0
    else:
        rank = 1 + int(np.sum(allowed & (s > s[k])))
        prefix = bool(np.array_equal(allowed, np.arange(m) <= q))
        sight = "all" if allowed.all() else "before" if prefix else "some"
    return PairRow(
        story.kind,
        q,
        k,
        float(np.asarray(h.scores)[q, k]),
        float(s[k]),
        float(np.asarray(h.weights)[q, k]),
        rank,
        int(allowed.sum()),
        m,
        sight,
    )
