"""The example a lecturer edits: the model (:class:`Example`), its limits, its file format, the
checks of each field, the presets, and loading a preset or a file (with its ``.npz`` of arrays).

Validation lives here, not in the math: an :class:`Example` is checked when it is made, and each
check raises ``ValueError("<field>: <what is wrong>; <the fix>")``.
"""

from .limits import MAX_ABS, MAX_DIM, MAX_HEADS, MAX_LABEL, MAX_TOKENS
from .loading import load_example
from .model import Example
from .presets import DEFAULT_PRESET, PRESETS
from .weights import Weights

__all__ = [
    "Example",
    "Weights",
    "load_example",
    "PRESETS",
    "DEFAULT_PRESET",
    "MAX_ABS",
    "MAX_DIM",
    "MAX_HEADS",
    "MAX_LABEL",
    "MAX_TOKENS",
]
