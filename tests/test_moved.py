"""What a weight moves (attention_core.readings.moved, issue 40 part 3) and --find on text without
spaces (part 6).

The core's sizes ‖αᵢⱼ · vⱼ · W_Oʰ‖ against the same numbers built another way (each key's part
put alone into its head's block of the concatenation and multiplied by the whole W_O; the parts
summing to the output); the models' against transformers' own value projection (`value` /
`v_proj`, hooked) and output projection (`attention.output.dense` / `o_proj`, called on that
block) on one short sentence each. SmolLM2's reference is transformers' LlamaModel built from the
config with the tensors our GGUF reader gives (the reader is checked against transformers' own
GGUF loader, whose 30 s load is test_decoder_model's, in tests/test_decoder_model.py), run in
float64 on our embeddings' rows, eager attention. Then the CLI through its real entry point.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import attention_core as ac
from attention_core.readings import head_search as hs
from attention_core.readings import moved as mv

# -- the core, without a model ---------------------------------------------------------------------


def _example(seed, heads=2, kv_heads=None, W_o=True, n=5, d=4):
    r = np.random.default_rng(seed)
    kw = {"kv_heads": kv_heads, "rotary_base": 10000.0} if kv_heads else {}
    g = kv_heads or heads
    dk = 2
    weights = {
        "W_q": r.standard_normal((d, heads * dk)).tolist(),
        "W_k": r.standard_normal((d, g * dk)).tolist(),
        "W_v": r.standard_normal((d, g * dk)).tolist(),
    }
    if W_o:
        weights["W_o"] = r.standard_normal((heads * dk, d)).tolist()
    tokens = [f"t{i}" for i in range(n)]
    return ac.Example(tokens=tokens, embeddings=r.standard_normal((n, d)).tolist(),
                      weights=weights, heads=heads, **kw)  # fmt: skip


@pytest.mark.parametrize("seed, heads, kv_heads", [(1, 2, None), (2, 4, 2), (3, 1, None)])
def test_moved_sizes_are_each_keys_part_of_the_output(seed, heads, kv_heads):
    """Each key's part, put alone into its head's block and multiplied by the whole W_O, has the
    size moved_sizes gives; the parts of every head sum to the output (no bias here)."""
    tr = ac.trace_example(_example(seed, heads, kv_heads))
    W_o = np.asarray(tr.multihead.W_o)
    d_v = tr.heads[0].V.shape[1]
    total = np.zeros_like(np.asarray(tr.output))
    for h, head in enumerate(tr.heads):
        V, rows = mv.head_value_rows(tr, h)
        for i in range(len(tr.example.tokens)):
            block = np.zeros((V.shape[0], W_o.shape[0]))
            block[:, h * d_v : (h + 1) * d_v] = head.weights[i][:, None] * head.V
            parts = block @ W_o  # (n, d): key j's part of output row i
            total[i] += parts.sum(axis=0)
            sizes = mv.moved_sizes(head.weights[i], V, rows)
            np.testing.assert_allclose(sizes, [np.sqrt(p @ p) for p in parts], rtol=1e-12)
            keys = (0, 2)
            m = mv.trace_moved(tr, h, i, keys)
            assert m.size == pytest.approx(np.linalg.norm(parts[0] + parts[2]), rel=1e-12)
            assert m.size <= sizes[0] + sizes[2] + 1e-12  # the pieces' vector sum
            assert m.share == pytest.approx(m.size / sizes.sum(), rel=1e-12) and m.share <= 1
            shares = [mv.trace_moved(tr, h, i, (j,)).share for j in range(len(sizes))]
            assert sum(shares) == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(total, tr.output, atol=1e-12)


def test_a_head_without_w_o_moves_alpha_times_v_and_the_first_token_can_be_left_out():
    tr = ac.trace_example(_example(4, heads=1, W_o=False))
    head = tr.heads[0]
    assert mv.head_value_rows(tr, 0)[1] is None
    m = mv.trace_moved(tr, 0, 3, (1,))
    assert m.size == pytest.approx(head.weights[3, 1] * np.linalg.norm(head.V[1]), rel=1e-12)
    row = np.array([0.6, 0.1, 0.3])
    assert mv.weight_without_first(row, (2,)) == pytest.approx(0.75)
    assert mv.weight_without_first(row, (0, 2)) == pytest.approx(0.75)  # the first is set aside
    assert mv.weight_without_first(row, (0,)) == 0.0
    assert mv.weight_without_first(np.array([1.0, 0.0, 0.0]), (1,)) is None
    assert mv.is_resting(0.99, 0.03) and not mv.is_resting(0.99, 0.5)
    assert not mv.is_resting(0.3, 0.01)


def test_search_heads_gives_what_each_weight_moves():
    """search_heads with value vectors: each hit's moved and share are pair_moved's."""
    r = np.random.default_rng(7)
    W = r.dirichlet(np.ones(4), size=(2, 4))  # 2 heads, 4 × 4
    V, W_O = r.standard_normal((1, 4, 3)), r.standard_normal((6, 5))  # one shared V group
    labels = ["a", "b", "c", "d"]
    pair = hs.Pair("d", "b", 3, (1, 2))
    hits = hs.search_heads([W], labels, pair, lambda ly, h: (V[0], W_O[h * 3 : (h + 1) * 3]))
    for hit in hits:
        row = W[hit.head - 1, 3]
        parts = (row[:, None] * V[0]) @ W_O[(hit.head - 1) * 3 : hit.head * 3]
        assert hit.moved == pytest.approx(np.linalg.norm(parts[1] + parts[2]), rel=1e-12)
        assert hit.moved_share == pytest.approx(
            hit.moved / np.linalg.norm(parts, axis=1).sum(), rel=1e-12
        )
        assert hit.weight_without_first == pytest.approx(row[1:3].sum() / row[1:].sum())
    assert hs.search_heads([W], labels, pair)[0].moved is None  # without values: no sizes


# -- text without spaces -------------------------------------------------------------------------
ZH = "小狗看见大狗，它叫了。"
# SmolLM2's cut of ZH: each character in byte pieces but 大 and 了
ZH_LABELS = ["小¹", "小²", "狗¹", "狗²", "狗³", "看¹", "看²", "看³", "见¹", "见²", "大", "狗¹",
             "狗²", "狗³", "，", "它¹", "它²", "叫¹", "叫²", "了", "。"]  # fmt: skip
ZH_SPANS = [(0, 1), (0, 1), (1, 2), (1, 2), (1, 2), (2, 3), (2, 3), (2, 3), (3, 4), (3, 4),
            (4, 5), (5, 6), (5, 6), (5, 6), (6, 7), (7, 8), (7, 8), (8, 9), (8, 9), (9, 10),
            (10, 11)]  # fmt: skip


def test_a_run_of_characters_names_its_tokens():
    words = hs.text_words(ZH, ZH_SPANS)
    pair = hs.find_pair("它->狗₂", words, ZH_LABELS, causal=True)
    assert pair.query == 16 and pair.keys == (11, 12, 13)
    assert hs.find_pair("它->狗#1", words, ZH_LABELS, causal=True).keys == (2, 3, 4)
    assert hs.find_pair("它->大狗", words, ZH_LABELS, causal=True).keys == (10, 11, 12, 13)
    assert hs.find_pair("叫->它²", words, ZH_LABELS, causal=True).keys == (16,)  # a token label
    assert hs.find_pair("the->cat", hs.text_words("the cat", [(0, 3), (3, 7)]),
                        ["the", "Ġcat"]).keys == (1,)  # fmt: skip
    with pytest.raises(ValueError, match="'at' is not a word of TEXT"):  # English: words only
        hs.find_pair("the->at", hs.text_words("the cat", [(0, 3), (3, 7)]), ["the", "Ġcat"])


@pytest.mark.parametrize(
    "spec, message",
    [
        ("它->狗", "--find: '狗' occurs 2 times in TEXT; pick one: 狗₁ (tokens 3–5), 狗₂ (tokens "
         "12–14) (or 狗#1 … 狗#2)"),
        ("它->猫", "--find: '猫' is not in TEXT; name characters of it (小狗看见大狗 ， 它叫了 。) "
         "or a token: 小¹ 小² 狗¹₁ 狗²₁ 狗³₁"),
        ("它->狗₃", "--find: '狗₃' asks for occurrence 3, but '狗' occurs 2 times"),
    ],
)  # fmt: skip
def test_a_run_that_is_ambiguous_or_absent_is_refused_naming_what_works(spec, message):
    with pytest.raises(ValueError) as exc:
        hs.find_pair(spec, hs.text_words(ZH, ZH_SPANS), ZH_LABELS, causal=True)
    assert str(exc.value).startswith(message) and "\n" not in str(exc.value)


# -- the models against transformers' value and output projections --------------------------------
MINILM_TEXT, MINILM_FIND = "the cat was unbelievably fluffy", "fluffy->unbelievably"
SMOL_TEXT = "The trophy did not fit in the suitcase because it was too big"
SMOL_FIND = "it->suitcase"


def _bert_reference(torch, text):
    """Per layer transformers' weights (H, n, n), value vectors (n, H·d_k) and the attention's
    output dense as a function of the concatenation (its bias taken off)."""
    from transformers import BertModel

    from attention_core.models import minilm_files

    model = BertModel.from_pretrained(
        str(minilm_files.model_dir()), attn_implementation="eager"
    ).double().eval()  # fmt: skip
    ids = minilm_files.tokenize(text).ids
    caught, hooks = {}, []
    for ly, layer in enumerate(model.encoder.layer):
        grab = lambda m, i, o, ly=ly: caught.__setitem__(ly, o[0].numpy())  # noqa: E731
        hooks.append(layer.attention.self.value.register_forward_hook(grab))
    with torch.no_grad():
        r = model(torch.tensor([ids]), output_attentions=True)
    for hook in hooks:
        hook.remove()
    dense = [
        (lambda x, d=layer.attention.output.dense: (d(torch.tensor(x)) - d.bias).detach().numpy())
        for layer in model.encoder.layer
    ]  # fmt: skip
    return [a[0].numpy() for a in r.attentions], caught, dense, 12


def _llama_reference(torch, text):
    """As _bert_reference, for SmolLM2: transformers' LlamaModel (float64, eager) holding the
    tensors our GGUF reader gives, run on the embeddings' rows; o_proj has no bias."""
    from smollm2_reference import llama_reference

    from attention_core.models import smollm2_files

    model, w = llama_reference(torch)
    caught, hooks = {}, []
    for ly, layer in enumerate(model.layers):
        grab = lambda m, i, o, ly=ly: caught.__setitem__(ly, o[0].numpy())  # noqa: E731
        hooks.append(layer.self_attn.v_proj.register_forward_hook(grab))
    X = w.embeddings(smollm2_files.tokenize(text).ids)
    with torch.no_grad():
        r = model(inputs_embeds=torch.tensor(X[None]), output_attentions=True)
    for hook in hooks:
        hook.remove()
    dense = [(lambda x, d=layer.self_attn.o_proj: d(torch.tensor(x)).detach().numpy())
             for layer in model.layers]  # fmt: skip
    return [a[0].numpy() for a in r.attentions], caught, dense, w.config.num_key_value_heads


def _reference_moved(ref, query, keys):
    """{(layer, head) (from 1): (weight without the first, moved, share)} from transformers'
    weights, value vectors and output projection: key j's part is o_proj of a concatenation
    holding α·vⱼ in the head's block alone."""
    attentions, values, dense, groups = ref
    out = {}
    for ly, A in enumerate(attentions):
        H, n, _ = A.shape
        V = values[ly].reshape(n, groups, -1)
        d_v = V.shape[2]
        blocks = np.zeros((H, n, H * d_v))  # head h's blocks: only its d_v columns filled
        for h in range(H):
            blocks[h, :, h * d_v : (h + 1) * d_v] = A[h, query][:, None] * V[:, h // (H // groups)]
        parts = dense[ly](blocks)  # (H, n, d): key j's part of head h's output
        for h in range(H):
            size = np.linalg.norm(parts[h, list(keys)].sum(axis=0))
            share = size / np.linalg.norm(parts[h], axis=1).sum()
            a, rest = A[h, query], [k for k in keys if k != 0]
            out[(ly + 1, h + 1)] = (a[rest].sum() / a[1:].sum(), size, share)
    return out


@pytest.mark.xdist_group("moved_reference")
@pytest.mark.parametrize(
    "model, text, find, query, keys",
    [
        # [CLS] the cat was un ##bel ##ie ##va ##bly fluffy [SEP]
        ("minilm", MINILM_TEXT, MINILM_FIND, 9, (4, 5, 6, 7, 8)),
        ("smollm2", SMOL_TEXT, SMOL_FIND, 10, (7, 8)),  # … the suit case because it …
    ],
)
def test_heads_find_json_moves_what_transformers_projections_move(
    cli, torch, model, text, find, query, keys
):
    r = cli("heads", text, "--model", model, "--find", find, "--json")
    assert r.returncode == 0, r.stderr
    hits = json.loads(r.stdout)
    reference = _bert_reference if model == "minilm" else _llama_reference
    want = _reference_moved(reference(torch, text), query, keys)
    assert len(hits) == len(want)
    for x in hits:
        w1, size, share = want[(x["layer"], x["head"])]
        assert x["weight_without_first"] == pytest.approx(w1, abs=1e-4)
        assert x["moved"] == pytest.approx(size, rel=1e-4, abs=1e-4)
        assert x["moved_share"] == pytest.approx(share, abs=1e-4)


# -- the CLI -------------------------------------------------------------------------------------
def test_heads_find_table_gives_the_new_columns_and_names_a_resting_place(cli):
    r = cli("heads", SMOL_TEXT, "--find", "it->[CLS]")  # MiniLM: [CLS] takes much, moves little
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[4].split() == ["rank", "layer", "head", "weight", "w/o", "1st", "moved",
                                "share", "prev", "dup", "ind", "copy", "reading"]  # fmt: skip
    assert "‖Σ α·v·W_Oʰ‖ over DST's pieces" in lines[2]
    assert lines[3].startswith("prev dup ind copy: the head's model-level scores")
    resting = [ln for ln in lines[5:] if "of what it moves: a resting place" in ln]
    assert resting, r.stdout
    for ln in resting:
        weight, w1, size, share = ln.split()[3:7]
        assert w1 == "0.000" and float(weight) >= mv.RESTING_WEIGHT
        assert f"[{float(weight):.2f} of the weight, {share} % of what it moves" in ln
        assert int(share) <= 100 * mv.RESTING_SHARE


def test_heads_find_on_chinese_names_characters(cli):
    r = cli("heads", "小狗饿了，它吃肉。", "--model", "smollm2", "--find", "它->狗")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[1].startswith("--find 它->狗: query '它²' (token 12), key 狗 = 狗¹ + 狗² + 狗³ ")
    assert len(lines) == 5 + 270 and lines[4].split()[3:8] == ["weight", "w/o", "1st", "moved",
                                                                "share"]  # fmt: skip
    assert all(0 <= int(ln.split()[6]) <= 100 and ln.split()[7] == "%" for ln in lines[5:])
    r = cli("heads", ZH, "--model", "smollm2", "--find", "它->狗")
    assert r.returncode == 2 and r.stdout == "" and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [
        "attn-explain: error: --find: '狗' occurs 2 times in TEXT; pick one: 狗₁ (tokens 3–5), "
        "狗₂ (tokens 12–14) (or 狗#1 … 狗#2)"
    ]


def test_numbers_followed_key_in_pieces_moves_their_vector_sum(cli, write_example):
    """A single head without W_O moves ‖Σ α·v‖ over the key word's pieces."""
    X = [[1.0, 0.2, -0.5], [0.3, 1.1, 0.4], [-0.7, 0.6, 1.2], [0.5, -0.9, 0.8]]
    fields = {"tokens": ["the", "fish", "##erman", "sat"], "seed": 3, "d_k": 2, "embeddings": X}
    path = write_example({**fields, "query": "sat", "key_pieces": ["fish", "##erman"]}, "f.json")
    r = cli("numbers", path, "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    f = data["followed"]
    assert f["key_pieces"] == [1, 2] and f["query"] == 3
    parts = np.asarray(data["weights"])[3][:, None] * np.asarray(data["V"])
    assert f["moved"] == pytest.approx(np.linalg.norm(parts[1] + parts[2]), rel=1e-12)
    assert f["moved_share"] == pytest.approx(f["moved"] / np.linalg.norm(parts, axis=1).sum())


def test_numbers_followed_moves_through_its_heads_rows_of_w_o(cli):
    data = json.loads(cli("numbers", "two-heads", "--json").stdout)
    f = data["followed"]
    h = f["head"] - 1
    head = data["heads"][h]
    V = np.asarray(head["V"])
    rows = np.asarray(data["W_o"])[h * V.shape[1] : (h + 1) * V.shape[1]]
    parts = (np.asarray(head["weights"])[f["query"]][:, None] * V) @ rows
    assert f["moved"] == pytest.approx(np.linalg.norm(parts[f["key_pieces"]].sum(axis=0)))
    assert f["moved_share"] == pytest.approx(f["moved"] / np.linalg.norm(parts, axis=1).sum())
