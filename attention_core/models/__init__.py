"""Trained models, as forward passes written in NumPy float64 (the ``[model]`` extra reads their
files): all-MiniLM-L6-v2 (BERT: :mod:`.bert`, its files :mod:`.minilm_files`) and
SmolLM2-135M-Instruct (Llama: :mod:`.llama`, GGUF :mod:`.gguf_weights`, its files
:mod:`.smollm2_files`, readable byte-level labels :mod:`.token_labels`). A head of either becomes an
ordinary example (:mod:`.from_model`, :mod:`.from_decoder`, :mod:`.model_example`).

Nothing here is imported by the math at the top of :mod:`attention_core`; the model files are
read only when asked for.
"""
