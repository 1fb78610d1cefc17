"""transformers' Llama (float64, eager attention) holding the tensors our GGUF reader gives for
SmolLM2: the reference the moved sizes and the moved vector are checked against.

Building it from the config with our weights takes a second; transformers' own GGUF loader takes
about 30 s (tests/test_decoder_model.py checks our reader against that loader once).
"""

from __future__ import annotations

import numpy as np

NAMES = {
    "W_q": "self_attn.q_proj",
    "W_k": "self_attn.k_proj",
    "W_v": "self_attn.v_proj",
    "W_o": "self_attn.o_proj",
    "W_gate": "mlp.gate_proj",
    "W_up": "mlp.up_proj",
    "W_down": "mlp.down_proj",
}


def llama_reference(torch, layers: int | None = None, lm_head: bool = False):
    """``(model, weights)``: a ``LlamaModel`` (or, with ``lm_head``, a ``LlamaForCausalLM`` whose
    lm_head is the tied embeddings) of SmolLM2's first ``layers`` layers (all by default), in
    float64 with our reader's tensors, in eval mode; ``weights`` our reader's."""
    from transformers import LlamaConfig, LlamaForCausalLM, LlamaModel

    try:  # transformers 5; 4.x kept it in modeling_utils
        from transformers.initialization import no_init_weights
    except ImportError:
        from transformers.modeling_utils import no_init_weights

    from attention_core.models import smollm2_files

    w = smollm2_files.load_weights()
    c = w.config
    layers = c.num_hidden_layers if layers is None else layers
    config = LlamaConfig(
        hidden_size=c.hidden_size, intermediate_size=c.intermediate_size,
        num_hidden_layers=layers, num_attention_heads=c.num_attention_heads,
        num_key_value_heads=c.num_key_value_heads, rms_norm_eps=c.rms_norm_eps,
        rope_theta=c.rope_theta, vocab_size=c.vocab_size if lm_head else 1,
        tie_word_embeddings=lm_head, max_position_embeddings=c.max_position_embeddings,
        attn_implementation="eager",
    )  # fmt: skip
    with no_init_weights():
        model = (LlamaForCausalLM if lm_head else LlamaModel)(config)
    at = "model." if lm_head else ""
    if lm_head:
        from attention_core.models import model_residual as mr

        embed = np.ascontiguousarray(mr.decoder_lens().W_U.T)  # the tied embeddings, read once
        state = {f"{at}embed_tokens.weight": embed, "lm_head.weight": embed}
    else:
        state = {"embed_tokens.weight": np.zeros((1, c.hidden_size))}
    state[f"{at}norm.weight"] = w.norm(None)
    for ly in range(layers):
        mats = {**w.attention(ly + 1), **w.mlp(ly + 1)}
        state.update({f"{at}layers.{ly}.{NAMES[k]}.weight": m.T for k, m in mats.items()})
        state[f"{at}layers.{ly}.input_layernorm.weight"] = w.norm(ly + 1, "attn")
        state[f"{at}layers.{ly}.post_attention_layernorm.weight"] = w.norm(ly + 1, "ffn")
    tensors = {k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in state.items()}
    model.load_state_dict(tensors, assign=True, strict=not lm_head)  # float64, with no copy
    if lm_head:
        model.tie_weights()
    return model.eval(), w
