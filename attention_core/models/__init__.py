"""Trained models, as forward passes written in NumPy float64 (the ``[model]`` extra reads their
files): all-MiniLM-L6-v2 (BERT: :mod:`.bert`, its files :mod:`.minilm_files`) and
SmolLM2-135M-Instruct (Llama: :mod:`.llama`, GGUF :mod:`.gguf_weights`, its files
:mod:`.smollm2_files`, readable byte-level labels :mod:`.token_labels`). A head of either becomes an
ordinary example (:mod:`.from_model`, :mod:`.from_decoder`, :mod:`.model_example`).

Nothing here is imported by the math at the top of :mod:`attention_core`; the model files are
read only when asked for.
"""

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def one_blas_thread(forward: Callable[P, R]) -> Callable[P, R]:
    """Run ``forward`` on one BLAS thread. A forward pass's products are small (tens of tokens by
    384 or 576), where OpenBLAS's threads spin on one another more than they work; beside a
    second process (a render's workers, a test worker) they cost several times the work itself
    (measured: the moved-vector tests 114–122 s → 61–73 s wall on a busy 2-core machine)."""

    @functools.wraps(forward)
    def on_one_thread(*args: P.args, **kwargs: P.kwargs) -> R:
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=1, user_api="blas"):
            return forward(*args, **kwargs)

    return on_one_thread
