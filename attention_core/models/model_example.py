"""What a real model's head becomes: an example's fields for the TOML and its arrays for the .npz.

Shared by both models' writers (:mod:`.from_model` for MiniLM, :mod:`.from_decoder` for SmolLM2),
so neither imports the other's module for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..example.block_fields import BLOCK_ARRAYS
from ..example.model import Example


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
