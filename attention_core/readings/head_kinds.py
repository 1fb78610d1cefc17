"""Every way a head can read, one entry each: the test on its rows, the model-level score that
names it, its words in Chinese and English, and its JSON key (issue 40, part 7).

A :class:`Reading` is everything the project says about one kind of head:

- ``key``: its name in code, in ``heads --json`` (``"reading"``) and ``numbers --json``
  (``"pattern"``), and the suffix of its caption keys (``does_<key>``, ``story_<key>``);
- ``targets(weights, tokens)``: the test on the rows — for each query the key the head would
  look at by this habit (−1 where the row has none), or None where the habit does not apply to
  these tokens; :func:`~.heads.read_head` averages the weight the rows put there. None for the
  two readings of a head without a habit, ``"sharp"`` and ``"diffuse"``, which its rows'
  entropy decides (:mod:`.sharpness`);
- ``score``: the model-level score (:mod:`.head_scores`) that names the head where the model is
  known (``heads``, ``from-model --find``): then the reading is given only when that score is at
  least ``score_at_least``, never by the rows of one sentence (which cannot tell an induction
  head from a sink on a sentence without a repeat);
- ``group``: where the grouped ``heads`` listing puts it (:data:`GROUPS`);
- ``words``: its :class:`Words` in both languages — the gallery's title, a phrase for a caption,
  the listing's heading, and the captions that tell it of a pair (``does``, ``story``).

A new reading is one entry of :data:`READINGS` (and one test of its ``targets`` on hand-built
rows): CONTRIBUTING.md, "Add a reading". Earlier entries win ties.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .copy_heads import duplicate_keys, induction_keys, is_causal, sink_targets

SCORE_AT_LEAST = 0.5  # a model-level score names the head from half its attention on the pattern
GROUPS = ("score", "links", "position", "diffuse", "rest")  # the listing's order


@dataclass(frozen=True)
class Words:
    """A reading's words, each (zh, en): ``name`` a gallery title's word (``{token}``: a fixed
    head's token), ``short`` the same for a narrow panel, ``phrase`` in a sentence ("attends to
    the previous token"), ``lit`` the phrase named a second time (no parenthesis), ``heads`` the
    listing's heading; ``does`` (of a pair: ``{q}``, ``{k}``, ``{e}``) and ``story``
    (AttentionMatrix's reading: also ``{w}``, ``{sym}``), None for a reading told as another."""

    name: tuple[str, str]
    phrase: tuple[str, str]
    heads: tuple[str, str]
    short: tuple[str, str] | None = None
    lit: tuple[str, str] | None = None
    does: tuple[str, str] | None = None
    story: tuple[str, str] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "short", self.short or self.name)
        object.__setattr__(self, "lit", self.lit or self.phrase)


@dataclass(frozen=True)
class Reading:
    """One way a head can read (see the module's docstring); ``told_as``: the reading whose
    captions tell it (the first token and [CLS] are told as the sink); ``order``: its place in
    its listing group (the lower first; ties: the table's order)."""

    key: str
    targets: Callable[[np.ndarray, Sequence[str] | None], np.ndarray | None] | None
    words: Words
    group: str = "position"
    score: str | None = None
    score_at_least: float = SCORE_AT_LEAST
    told_as: str | None = None
    order: int = 0

    @property
    def phrase(self) -> str:
        """The English phrase: "the previous token"."""
        return self.words.phrase[1]

    @property
    def habitual(self) -> bool:
        """Whether the reading is a habit of the rows (a key for each query), not their shape."""
        return self.targets is not None

    def habit_rows(self, W: np.ndarray, tokens: Sequence[str] | None) -> np.ndarray | None:
        """``targets(W, tokens)`` of a habitual reading (each row's key, −1: none; None where
        the habit does not apply to these tokens); ``ValueError`` for sharp or diffuse."""
        if self.targets is None:
            raise ValueError(f"reading {self.key!r} is not a habit of the rows")
        return self.targets(W, tokens)


# -- the tests on the rows: one target key per query (−1: none) ----------------------------------
def _previous(W: np.ndarray, tokens: Sequence[str] | None) -> np.ndarray | None:
    n = W.shape[0]
    return None if n < 2 else np.arange(n) - 1  # row 0 has none: −1


def _next(W: np.ndarray, tokens: Sequence[str] | None) -> np.ndarray | None:
    n = W.shape[0]
    if n < 2:
        return None
    t = np.arange(n) + 1
    t[-1] = -1
    return t


def _starts_cls(tokens: Sequence[str] | None) -> bool:
    return bool(tokens and tokens[0] == "[CLS]")


def _first(W: np.ndarray, tokens: Sequence[str] | None) -> np.ndarray | None:
    # under a causal mask the first token is read as the attention sink (copy_heads) instead
    return None if _starts_cls(tokens) or is_causal(W) else np.zeros(W.shape[0], int)


def _cls(W: np.ndarray, tokens: Sequence[str] | None) -> np.ndarray | None:
    return np.zeros(W.shape[0], int) if _starts_cls(tokens) else None


def ends_sep(W: np.ndarray, tokens: Sequence[str] | None) -> bool:
    """Whether the tokens end with [SEP] (and there is more than one)."""
    return bool(tokens and W.shape[0] > 1 and tokens[-1] == "[SEP]")


def _sep(W: np.ndarray, tokens: Sequence[str] | None) -> np.ndarray | None:
    return np.full(W.shape[0], W.shape[0] - 1) if ends_sep(W, tokens) else None


def _self(W: np.ndarray, tokens: Sequence[str] | None) -> np.ndarray | None:
    return np.arange(W.shape[0])


def fixed_key(W: np.ndarray, tokens: Sequence[str] | None = None) -> int | None:
    """The one key most rows put their clearly largest weight on (more than half the rows; a
    row whose top two weights tie has no largest), unless the first key or a final [SEP] (read
    as "first", [CLS] or [SEP]); else None."""
    n = W.shape[0]
    if n < 2:
        return None
    top2 = np.sort(W, axis=1)[:, -2:]
    clear = top2[:, 1] - top2[:, 0] > 1e-3
    best = np.argmax(W, axis=1)[clear]
    if best.size == 0:
        return None
    j = int(np.bincount(best, minlength=n).argmax())
    if 2 * int(np.sum(best == j)) <= n or j == 0 or (j == n - 1 and ends_sep(W, tokens)):
        return None
    return j


def _fixed(W: np.ndarray, tokens: Sequence[str] | None) -> np.ndarray | None:
    j = fixed_key(W, tokens)
    return None if j is None else np.full(W.shape[0], j)


# -- the captions that tell a habit of a pair ------------------------------------------------------
FRAMES_EN = "The frames mark every row that does the same. {sym}"
FRAMES_ZH = "框出的是同样这么做的每一行。{sym}"


def _story(zh: str, en: str) -> tuple[str, str]:
    """AttentionMatrix's reading of a habit: "What this head does: q → k w: …", then the
    frames; ``{habit}``: what the model-level scores name the head, where the example carries
    them (said first)."""
    return (f"{{habit}}这个头做什么：{{q}} → {{k}} {{w}}：{zh}{FRAMES_ZH}",
            f"{{habit}}What this head does: {{q}} → {{k}} {{w}}: {en} {FRAMES_EN}")  # fmt: skip


_TABLE: tuple[Reading, ...] = (
    Reading("previous", _previous, Words(
        name=("前一词元", "previous"), short=("前词元", "prev"),
        phrase=("前一个词元", "the previous token"),
        heads=("前一词元头", "previous-token heads"),
        does=("{q} 看向它前一个词元 {k}——一个前一词元头",
              "{q} looks at {k}, the token before it — a previous-token head"),
        story=_story("前一个词元——一个前一词元头。", "the previous token — a previous-token head."),
    ), group="score", score="previous", order=1),
    Reading("next", _next, Words(
        name=("后一词元", "next"), phrase=("后一个词元", "the next token"),
        heads=("后一词元头", "next-token heads"),
        does=("{q} 看向它后一个词元 {k}——一个后一词元头",
              "{q} looks at {k}, the token after it — a next-token head"),
        story=_story("后一个词元——一个后一词元头。", "the next token — a next-token head."),
    )),
    Reading("first", _first, Words(
        name=("首个词元", "first"), short=("首词元", "first"),
        phrase=("第一个词元", "the first token"),
        heads=("停在第一个词元上的头", "heads resting on the first token"),
    ), group="rest", told_as="sink"),
    Reading("cls", _cls, Words(
        name=("[CLS]", "[CLS]"), phrase=("[CLS]", "[CLS]"),
        heads=("停在 [CLS] 上的头", "heads resting on [CLS]"),
    ), group="rest", told_as="sink"),
    Reading("sep", _sep, Words(
        name=("[SEP]", "[SEP]"), phrase=("[SEP]", "[SEP]"),
        heads=("停在 [SEP] 上的头", "heads resting on [SEP]"),
        does=("{q} 看向末尾的 {k}——头把无处可放的权重放在这里",
              "{q} looks at the closing {k} — where the head puts weight with nowhere better to "
              "go"),
        story=_story("末尾的 [SEP]——头没有更好的去处时，权重就放在这里。",
                     "the closing [SEP] — it takes the weight the head has nowhere better to put."),
    ), group="rest"),
    Reading("self", _self, Words(
        name=("自己", "itself"), short=("自己", "self"), phrase=("自己", "itself"),
        heads=("看自己的头", "heads on the token itself"),
        does=("{q} 看向它自己——这个头让每个词元都看自己",
              "{q} looks at itself — this head has each token look at itself"),
        story=_story("它自己——每个词元都看自己。", "itself — each token looks at itself."),
    )),
    Reading("fixed", _fixed, Words(
        name=("{token}", "{token}"), phrase=("「{token}」", "{token}"),
        heads=("看同一个词元的头", "heads on one token"),
        does=("{q} 看向 {k}——多数查询都看这同一个词元",
              "{q} looks at {k} — the one token most queries look at"),
        story=_story("多数查询都看同一个词元 {k}。", "{k}, the one token most queries look at."),
    )),
    # a decoder's heads (copy_heads): the first token under a causal mask, the token after an
    # earlier occurrence of the current one, and that earlier occurrence itself
    Reading("sink", sink_targets, Words(
        name=("首词元（汇聚）", "first (sink)"), short=("首词元", "sink"),
        phrase=("第一个词元（注意力汇聚）", "the first token (attention sink)"),
        lit=("第一个词元", "the first token"),
        heads=("停在第一个词元上的头", "heads resting on the first token"),
        does=("{q} 看向第一个词元 {k}——注意力汇点：头把无处可放的权重放在这里",
              "{q} looks at {k}, the first token — an attention sink, where the head puts weight "
              "with nowhere better to go"),
        story=_story("第一个词元——注意力汇点：头没有更好的去处时，权重就放在这里。",
                     "the first token — an attention sink: it takes the weight the head has "
                     "nowhere better to put."),
    ), group="rest"),
    Reading("induction", induction_keys, Words(
        name=("归纳", "induction"),
        phrase=("上次出现之后的词元（归纳头）",
                "the token after its earlier occurrence (induction)"),
        lit=("上次出现之后的词元", "the token after its earlier occurrence"),
        heads=("归纳头", "induction heads"),
        does=("{q} 看向 {k}，即前面那个 {e} 之后的词元——一个归纳头",
              "{q} looks at {k}, the token after the earlier {e} — an induction head"),
        story=_story("前面那个 {e} 之后的词元——一个归纳头（照抄上次接在它后面的词元）。",
                     "the token after the earlier {e} — an induction head (it copies what came "
                     "next last time)."),
    ), group="score", score="induction"),
    Reading("duplicate", duplicate_keys, Words(
        name=("重复", "duplicate"),
        phrase=("同一词元上次出现处（重复词元头）",
                "an earlier occurrence of the same token (duplicate-token)"),
        lit=("同一词元上次出现处", "an earlier occurrence of the same token"),
        heads=("重复词元头", "duplicate-token heads"),
        does=("{q} 看向 {k}，即同一个词元上次出现的地方——一个重复词元头",
              "{q} looks at {k}, an earlier occurrence of the same token — a duplicate-token head"),
        story=_story("同一个词元上次出现的地方——一个重复词元头。",
                     "an earlier occurrence of the same token — a duplicate-token head."),
    ), group="score", score="duplicate", order=2),
    # no habit: the rows' shape (sharpness.py), by their mean normalised entropy
    Reading("sharp", None, Words(
        name=("集中", "sharp"), phrase=("集中", "sharp"),
        heads=("集中的头：这句话里最强的联系", "sharp heads, by their strongest links here"),
    ), group="links"),
    Reading("diffuse", None, Words(
        name=("分散", "diffuse"), phrase=("分散", "diffuse"),
        heads=("分散的头", "diffuse heads"),
    ), group="diffuse"),
)  # fmt: skip


# -- a head whose rows split between two habits (issue 38: "diffuse" over a clear diagonal whose
# rows put 0.34 on the previous token and 0.36 on the first): named by the two, never diffuse
def split_key(a: str, b: str) -> str:
    """The reading of rows split between habits ``a`` and ``b``: ``"previous+sink"`` (the two in
    the table's order)."""
    order = [r.key for r in _TABLE]
    a, b = sorted((a, b), key=order.index)
    return f"{a}+{b}"


def _split(a: Reading, b: Reading) -> Reading:
    """The reading of rows split between habits ``a`` and ``b`` (no targets of its own: the rows
    decide it, :func:`~.heads.read_head`), its words the two habits' own."""
    A, B = a.words, b.words
    assert A.short is not None and B.short is not None and A.lit is not None  # __post_init__
    assert B.lit is not None
    return Reading(split_key(a.key, b.key), None, Words(
        name=(f"{A.short[0]}+{B.short[0]}", f"{A.short[1]}+{B.short[1]}"),  # "prev+sink": whole
        phrase=(f"分在{A.lit[0]}和{B.lit[0]}之间", f"split between {A.lit[1]} and {B.lit[1]}"),
        heads=(f"分在{A.lit[0]}和{B.lit[0]}之间的头",
               f"heads split between {A.lit[1]} and {B.lit[1]}"),
    ), group="position", order=3)  # fmt: skip


_HABITS = [r for r in _TABLE if r.habitual]
SPLITS: tuple[Reading, ...] = tuple(
    _split(a, b) for i, a in enumerate(_HABITS) for b in _HABITS[i + 1 :]
)
READINGS: tuple[Reading, ...] = _TABLE + SPLITS  # every reading: the table, then the splits
BY_KEY = {r.key: r for r in READINGS}
PATTERNS = {r.key: r.phrase for r in READINGS}


def split_of(key: str) -> tuple[str, str] | None:
    """The two habits a split reading names (``"previous+sink"`` → ``("previous", "sink")``),
    None for any other reading."""
    a, plus, b = key.partition("+")
    return (a, b) if plus else None


def reading(key: str) -> Reading:
    """The entry of :data:`READINGS` named ``key``."""
    return BY_KEY[key]


def words(part: str, lang: str = "en", prefix: str = "") -> dict[str, object]:
    """Every reading's ``part`` of its words (``"name"``, ``"does"`` …) by key: the (zh, en) pair
    with ``lang`` ``"both"``, else that language's; ``prefix`` before each key
    (``words("does", "both", "does_")`` → the captions' ``does_previous`` …); readings without
    that part left out."""
    out = {}
    for r in READINGS:
        pair = getattr(r.words, part)
        if pair is not None:
            out[prefix + r.key] = pair if lang == "both" else pair[0 if lang == "zh" else 1]
    return out


def told_as(key: str) -> str:
    """The reading whose captions tell ``key`` (itself, or e.g. ``"sink"`` for ``"first"``)."""
    r = BY_KEY.get(key)
    return key if r is None or r.told_as is None else r.told_as


def one_head(key: str, lang: str = "en") -> str:
    """One head of reading ``key``, as a sentence names it: "an induction head", "a
    previous-token head" (zh: 归纳头 …), from the listing's heading.

    >>> one_head("induction"), one_head("previous", "zh")
    ('an induction head', '前一词元头')
    """
    heads = reading(key).words.heads[0 if lang == "zh" else 1]
    if lang == "zh":
        return heads
    one = heads.removesuffix("s")
    return ("an " if one[0] in "aeiou" else "a ") + one
