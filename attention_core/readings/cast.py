"""The cast: the few tokens a story is about, decided once per example for every scene.

At real size (a lecturer's 20–24-token sentence) a scene cannot give every token a colour a
viewer tells apart, nor a whole label, and each scene deciding alone what to draw lost the story
to the crowd (issue 38). The cast is the followed query and its key, the cells that show the
head's pattern (a few), then the keys the query weighs most: at most :data:`CAST_SIZE` tokens.
Every scene draws the cast in colour (the cast's order picks the colours, the most distinct
first) and every other token in one quiet tone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .followed import followed_pair, head_story
from .scene_quantities import story_order

if TYPE_CHECKING:
    from ..trace import ExampleTrace

CAST_SIZE = 8  # tokens in colour at most
CAST_ALL = 12  # an example of at most this many tokens is all cast (each its own colour: the
# palette's first 12 stay well apart, and every plane draws and labels all of them)
PATTERN_CELLS = 2  # cells of the head's pattern in the cast (each its query and its key)


def story_cast(trace: ExampleTrace, size: int = CAST_SIZE) -> tuple[int, ...]:
    """The token indices of the cast of ``trace``'s explained head, in the order their
    colours are given: every token (in order) where there are at most :data:`CAST_ALL` or the
    keys are another sequence's (cross-attention: the queries' and the keys' tokens are not one
    set); else the followed query, its key, the query and key of up to
    :data:`PATTERN_CELLS` more cells that show the head's story (``HeadStory.fits``), then the
    keys the query weighs most (:func:`story_order`), at most ``size`` in all.

    Parameters
    ----------
    trace : ExampleTrace
    size : int, default CAST_SIZE
        At most this many tokens.

    Returns
    -------
    tuple of int
        The token indices, in colour order.

    Examples
    --------
    >>> import attention_core as ac
    >>> story_cast(ac.trace_example(ac.PRESETS["zao-shang-hao"]))
    (0, 1, 2)
    """
    ex = trace.example
    if ex.is_cross or ex.n <= max(size, CAST_ALL):
        return tuple(range(ex.n))
    pair, story = followed_pair(trace), head_story(trace)
    cells = [c for c in (story.fits if story is not None else ()) if c != (pair.query, pair.key)]
    pattern = [t for cell in cells[:PATTERN_CELLS] for t in cell]
    keys = story_order(trace.attention.weights, pair.query, pair.key, "keys")
    order = dict.fromkeys(int(t) for t in (pair.query, pair.key, *pattern, *keys))
    return tuple(list(order)[:size])
