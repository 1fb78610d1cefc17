"""What a real model's head becomes: an example's fields for the TOML and its arrays for the .npz;
and the one check of a text a model reads (:func:`check_model_text`).

Shared by both models' writers (:mod:`.from_model` for MiniLM, :mod:`.from_decoder` for SmolLM2)
and by every head's search (:mod:`.model_heads`), so neither imports the other's module for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..example.block_fields import BLOCK_ARRAYS
from ..example.model import Example
from ..example.validation import shown
from ..example.visible_text import refusal


def check_model_text(text: object) -> str:
    """The text a model reads (``from-model TEXT``, ``heads TEXT``), or ``ValueError`` naming
    TEXT in one line: an empty text, or one holding what an example's title may not
    (control characters, line and paragraph separators, bidirectional controls such as U+202E,
    invisible format characters such as U+200B or U+FEFF: :func:`~attention_core.example.
    visible_text.refusal`, the fonts not asked), quoted at most about 40 characters."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError('TEXT: give a sentence in quotes, e.g. "the cat sat on the mat"')
    why = refusal(text, fonts=False)
    if why:
        raise ValueError(f"TEXT: {shown(text)} {why}")
    return text


@dataclass(frozen=True, eq=False)
class ModelExample:
    """An example's fields from a real model: ``fields`` for the TOML, ``arrays`` for the .npz."""

    fields: dict
    arrays: dict

    def example(self, name: str = "example") -> Example:
        """The :class:`Example` these make (validated like a loaded file)."""
        data = {k: v for k, v in self.fields.items()}
        weights = {k: v for k, v in self.arrays.items() if k not in ("embeddings", *BLOCK_ARRAYS)}
        block = {k: v for k, v in self.arrays.items() if k in BLOCK_ARRAYS}
        if block:  # a trained encoder layer's own feed-forward and LayerNorms
            data["block"] = {**data.get("block", {}), **block}
        return Example.from_dict(
            {**data, "embeddings": self.arrays["embeddings"], "weights": weights}, name=name
        )
