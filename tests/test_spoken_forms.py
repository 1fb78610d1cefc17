"""Speech written for the ear (issue 42, point 2): every caption template of every scene, in both
languages, filled as the scenes fill it (token labels with a repeat's or a byte piece's number,
punctuation and emoji tokens, negative numbers, the phrases scenes build from words) and paged
as the captions are, is said with nothing a voice cannot say; the rules are written down as
exact spoken forms of representative captions; and no text whatever makes :func:`spoken` fail.
No scene is rendered."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from attention_core.readings.head_kinds import one_head, words
from scenes.kit import captions
from scenes.mobjects.token_text import Token, quoted
from scenes.speech.spoken import is_speakable, spoken
from scenes.speech.spoken_numbers import rounded, said_numbers, zh_integer

LANGS = ("en", "zh")
LABEL_KEYS = ("q", "k", "e", "o", "p", "word")
# the labels a real sentence gives: repeats told apart (it₂), SmolLM2's byte pieces (猫¹), its
# space token (␣), punctuation in both scripts, MiniLM's pieces, an emoji, a broken byte
LABEL_SETS = [
    ["it₂", "soup", "，₂"],
    [",", "猫¹", "😀"],
    ["␣", "。", "##erman"],
    ["\ufffd", "she", "11 because"],
    ["“it”", "注意力机制", "?!"],
]
# what each label must be said as, somewhere in the spoken caption (never dropped)
LABEL_SAID = {
    "it₂": ("the second it", "第二个 it"),
    "，₂": ("the second Chinese comma", "第二个逗号"),
    ",": ("the comma", "逗号"),
    "猫¹": ("the first piece of 猫", "猫的第一片"),
    "😀": ("the grinning face", "grinning face"),
    "␣": ("the space", "空格"),
    "。": ("the Chinese full stop", "句号"),
    "\ufffd": ("the broken byte", "无法解码的字节"),
    "?!": ("the question mark and exclamation mark", "问号和感叹号"),
}
# numbers as the scenes format them (numfmt.fmt: an ASCII minus; HeadMoved: −), by placeholder
NUMBERS = {
    "top": "0.4521",
    "score": "-2.718",
    "s": "−1.234",
    "shadow": "0.7071",
    "nq": "37.23",
    "sqrt": "8.000",
    "w": "0.381",
    "a": "0.381",
    "b": "0.379",
    "alike": "0.05",
    "threshold": "0.5",
    "work": "30,976",
    "cells": "484",
    "cells512": "262,144",
    "c": "−3.250",
    "t": "1203.4",
    "graw": "0.0123",
    "gscaled": "0.9876",
    "maxraw": "1.000",
    "maxscaled": "0.2534",
    "share": "64",
}


def _phrases(lang: str, tokens: list[Token]) -> dict:
    """The words scenes fill a caption's phrases with, by placeholder."""
    q, k, e = tokens
    w = captions.word
    sink = words("phrase", lang)["sink"]
    pairs = [w("key_weight", lang, k=t, w=v) for t, v in zip(tokens, ("0.4521", "0.3", "0"))]
    return {
        "does": w("does_induction", lang, q=q, k=k, e=e),
        "habit": w("story_head_model", lang, name=one_head("induction", lang))
        + w("story_head_habit", lang, what=words("phrase", lang)["previous"].format(token=k)),
        "kw": w("key_weight", lang, k=k, w="0.4521"),
        "sym": w("symmetric_no", lang, a="0.381", b="-0.379"),
        "lead": w("lead_head", lang),
        "nth": captions.ordinal(2, lang),
        "kind": w("mask_causal", lang),
        "shares": w("exp_shares_later", lang, n=3),
        "terms": w("terms_allowed", lang, k=5, b=3),
        "summary": w("gallery_title_most_attend", lang, n=3, H=9, what=sink),
        "lit": w("gallery_title_most_attend", lang, n=3, H=9, what=sink),
        "tokens": captions.listed(tokens, lang),
        "queries": captions.listed(tokens, lang),
        "sources": captions.listed(tokens[::-1], lang),
        "weights": captions.listed(pairs, lang),
        "scores": w("tokens_list_sep", lang).join(["-1.234", "0.5", "12.87"]),
        "example": "SmolLM2",
    }


def _values(template: str, lang: str, labels: list[str], scene: str) -> dict:
    names = [f for _, f, _, _ in string.Formatter().parse(template) if f]
    tokens = [Token(t) for t in labels]
    phrases = _phrases(lang, tokens)
    phrases["raw"] = phrases["scaled"] = phrases["scores"]
    values, n = {}, 0
    for name in dict.fromkeys(names):
        if name == "top" and scene == "HeadMoved":  # the token ΔE pushes up most, “soup”
            values[name] = Token(f"“{tokens[1]}”")
        elif name in phrases:
            values[name] = phrases[name]
        elif name in LABEL_KEYS:
            values[name] = tokens[n % len(tokens)]
            n += 1
        elif name == "share":
            values[name] = NUMBERS[name] + ("%" if lang == "zh" else " %")
        else:
            values[name] = NUMBERS.get(name, str(3 + len(name)))  # counts, sizes, positions
    return values


def _long_numbers(said: str) -> list[str]:
    """Numbers said with more than three significant digits (0.4521, 零点四五二一), or more
    than two decimals from 1 up (三十七点二三)."""
    found = [n for n in re.findall(r"\d+\.\d+", said) if len(n.replace(".", "").lstrip("0")) > 3]
    for whole, frac in re.findall(
        r"([零一二三四五六七八九十百千万亿]+)点([零一二三四五六七八九]+)", said
    ):
        if len(frac.lstrip("零") if whole == "零" else frac) > (3 if whole == "零" else 2):
            found.append(f"{whole}点{frac}")
    return found


_ARTICLE = r"\b(?:the|a|an)\b"
_LABELS_SAID_WITH_THE = "|".join(re.escape(s) for s, _ in LABEL_SAID.values() if s[:4] == "the ")


def _doubled(said: str, lang: str) -> list[str]:
    """A word said twice ("the the", "of of", 的的), an article after an article, or a label
    said with its article after a noun that has one ("the earlier the second it")."""
    found = re.findall(r"\b([^\W\d]+) \1\b", said, re.I) + re.findall(r"(的的|是是|和和)", said)
    found += re.findall(rf"{_ARTICLE} {_ARTICLE}", said, re.I)
    found += re.findall(rf"{_ARTICLE} [a-z]+ (?:{_LABELS_SAID_WITH_THE})", said, re.I)
    return [f"said twice: {f!r} in {said!r}" for f in found]


def _residue(said: str) -> list[str]:
    """What a voice could not say, or a template's or a formula's leftovers."""
    found = [] if is_speakable(said) else [f"unspeakable: {said!r}"]
    for bad in ("{", "}", "_", "$", "  "):
        if bad in said:
            found.append(f"{bad!r} in {said!r}")
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_every_caption_of_every_scene_is_said_with_only_what_a_voice_says(lang):
    """Every caption template, with each set of hostile labels: the caption (as the subtitles
    show it, and each page of it as the caption bar may cut it at its sentences) said holds
    only letters, digits, spaces and plain sentence marks, every label it names is said (a
    punctuation or emoji token named, a repeat's number an ordinal), no number is said with
    more digits than a speaker says, and its layout text (no-break spaces, word joiners: the
    pages the caption bar shows) is said as its subtitle; no word is said twice, nor a label's
    article after a noun's ("the token after the earlier the second Chinese comma")."""
    problems = []
    for scene, steps in captions.CAPTIONS.items():
        for step, pair in steps.items():
            template = captions.pick(pair, lang)
            for labels in LABEL_SETS:
                values = _values(template, lang, labels, scene)
                text = captions.caption(scene, step, lang, **values)
                pages = [text, *re.split(r"(?<=[.。！？!?])\s*", text)]
                for page in filter(None, pages):
                    problems += [f"{scene}/{step}: {p}" for p in _residue(spoken(page, lang))]
                said = spoken(text, lang)
                problems += [f"{scene}/{step}: {p}" for p in _doubled(said, lang)]
                layout = captions.caption(scene, step, lang, whole_formulas=True, **values)
                if spoken(str(layout), lang) != said:  # a page as the caption bar cut it
                    problems.append(f"{scene}/{step}: its layout text is said otherwise")
                for label in labels:
                    if label in LABEL_SAID and quoted(label) in text:
                        want = LABEL_SAID[label][LANGS.index(lang)]
                        if want.removeprefix("the ") not in said:  # the token second it
                            problems.append(f"{scene}/{step}: {label!r} not said ({said!r})")
                problems += [f"{scene}/{step}: {n} said as shown" for n in _long_numbers(said)]
    assert not problems, "\n".join(problems[:15])


# the rules, written down: a caption as the subtitles show it → as it is said
SAID = [
    ("The length |x| of each arrow.", "en", "The length x of each arrow."),
    ("每个箭头的长度 |x|。", "zh", "每个箭头的长度 x。"),
    (
        "the token after the earlier “，₂”, like the token it₂; the query “,” and the key 猫¹",
        "en",
        "the token after the earlier second Chinese comma, like the token second it; the query "
        "comma and the key first piece of 猫",
    ),
    (
        "Every query does the same, each cell from its own shadow: the score matrix Q Kᵀ (22×22).",
        "en",
        "Every query does the same, each cell from its own shadow: the score matrix Q K transpose, "
        "22 by 22.",
    ),
    (
        "每个查询都这样做：每个格子来自它自己的影子，得到分数矩阵 Q Kᵀ（22×22）。",
        "zh",
        "每个查询都这样做：每个格子来自它自己的影子，"
        "得到分数矩阵 Q 乘以 K 的转置，二十二乘二十二。",
    ),
    (
        "it₂·soup: the shadow of soup on it₂'s direction is 0.4521; times |it₂| = 37.23 gives "
        "-1.234.",
        "en",
        "the second it dot soup: the shadow of soup on the second it's direction is 0.45; times "
        "the length of the second it equals 37.2 gives minus 1.23.",
    ),
    (
        "it₂·soup：soup 在 it₂ 方向上的影子长 0.4521，乘以 |it₂| = 37.23，得 −1.234。",
        "zh",
        "第二个 it 点乘 soup：soup 在第二个 it 方向上的影子长零点四五，"
        "乘以第二个 it 的长度等于三十七点二，得负一点二三。",
    ),
    (
        "Divide by √dₖ = 8.000: the framed scores of “,”, 1.2, 3.4, become 0.15, 0.425.",
        "en",
        "Divide by the square root of d k equals 8: the framed scores of the comma, 1.2, 3.4, "
        "become 0.15, 0.43.",
    ),
    (
        "除以 √dₖ = 8.000：“，₂” 框出的分数 1.2、3.4 变为 0.15、0.425。",
        "zh",
        "除以 d k 的平方根等于八：第二个逗号框出的分数一点二，三点四变为零点一五，零点四三。",
    ),
    (
        "Self-attention in one line: softmax((Q Kᵀ) / √dₖ) V.",
        "en",
        "Self attention in one line: softmax of Q K transpose over the square root of d k, "
        "times V.",
    ),
    (
        "自注意力一行写完：softmax((Q Kᵀ) / √dₖ) V。",
        "zh",
        "自注意力一行写完：Q 乘以 K 的转置，除以 d k 的平方根，取 softmax，再乘以 V。",
    ),
    (
        "旋转位置编码下匹配分数为 qᵢ · kⱼ = xᵢ Wq Rᵢ₋ⱼ Wkᵀ xⱼᵀ：只有两个位置之差 i − j 进入分数。",
        "zh",
        "旋转位置编码下匹配分数为 q i 点乘 k j 等于 x i 乘以 W q 乘以 R i 减 j 乘以 W k 的转置乘以 "
        "x j 的转置：只有两个位置之差 i 减 j 进入分数。",
    ),
    (
        "q(it) · k(“.”) = 2.31 is the largest match of the keys q(it) may see.",
        "en",
        "q of it dot k of the full stop equals 2.31 is the largest match of the keys q of it may "
        "see.",
    ),
    (
        "q(it) · k(“.”) = 2.31 是 q(it) 能看到的键里最大的匹配。",
        "zh",
        "it 的查询点乘英文句点的键等于二点三一是 it 的查询能看到的键里最大的匹配。",
    ),
    (
        "What this head does: it → soup 0.45: the previous token — a previous-token head. The "
        "matrix is not symmetric: 0.381 ≠ 0.379.",
        "en",
        "What this head does: it to soup, 0.45: the previous token, a previous token head. The "
        "matrix is not symmetric: 0.381 does not equal 0.379.",
    ),
    (
        "The cost: n² = 484 cells, about 30,976 multiply-adds; at 512 tokens already "
        "262,144 cells.",
        "en",
        "The cost: n squared equals 484 cells, about 30976 multiply adds; at 512 tokens already "
        "262144 cells.",
    ),
    (
        "代价：n² = 484 个格子，约 30,976 次乘加；512 个词元时已有 262,144 个格子。",
        "zh",
        "代价：n 的平方等于四百八十四个格子，约三万零九百七十六次乘加；"
        "五百一十二个词元时已有二十六万二千一百四十四个格子。",
    ),
    (
        "The output is added back to the embedding of 猫¹ as the update ΔE = o: E + ΔE. 64 % of "
        "it comes from the other tokens.",
        "en",
        "The output is added back to the embedding of the first piece of 猫 as the update delta E "
        "equals o: E plus delta E. 64 percent of it comes from the other tokens.",
    ),
    (
        "输出作为更新量 ΔE = o 加回 猫¹ 的词向量：E + ΔE。ΔE 中有 64% 来自其他词元。",
        "zh",
        "输出作为更新量德尔塔 E 等于 o 加回猫的第一片的词向量：E 加德尔塔 E。"
        "德尔塔 E 中有百分之六十四来自其他词元。",
    ),
    (
        "Each key j adds a term tⱼ = αⱼ · vⱼ · WOh: its weight times its value.",
        "en",
        "Each key j adds a term t j equals alpha j times v j times W O h: its weight times its "
        "value.",
    ),
    (
        "A position is a rotation: it at position 3 turns by 3·ω, “😀” at position 5 by 5·ω.",
        "en",
        "A position is a rotation: it at position 3 turns by 3 times omega, the grinning face at "
        "position 5 by 5 times omega.",
    ),
    (
        "pair 2, a fast pair: 57.30° per position, 1203.4° from the text's first position to its "
        "last (21 apart).",
        "en",
        "pair 2, a fast pair: 57.3 degrees per position, 1203 degrees from the text's first "
        "position to its last, 21 apart.",
    ),
    (
        "第 2 对，首尾相隔 21 位：57.30°",
        "zh",
        "第二对，首尾相隔二十一位：五十七点三度",
    ),
    (
        "Every covered score becomes −∞. would, soon → sea (0.94–0.99)",
        "en",
        "Every covered score becomes minus infinity. would, soon to sea, 0.94 to 0.99",
    ),
    (
        "被盖住的分数一律改成 −∞，其余分数保持不变。",
        "zh",
        "被盖住的分数一律改成负无穷，其余分数保持不变。",
    ),
    (
        "Unscaled (scores × √64): Σ s(1−s) = 1.2e-05, the gradient all but gone.",
        "en",
        "Unscaled, scores times the square root of 64: the sum of s times one minus s equals 1.2 "
        "times 10 to the minus 5, the gradient all but gone.",
    ),
    (
        "9 个查询头分成 3 组，每组（一行）共用一个键/值头；为“集中”或“分散”。",
        "zh",
        "九个查询头分成三组，每组，一行，共用一个键值头；为集中或分散。",
    ),
    (
        "“␣” “↵” “…” “?!” “😀¹” ##erman [SEP] <|im_start|>",
        "en",
        "the space the newline the ellipsis the question mark and exclamation mark the first piece "
        "of the grinning face erman SEP im start",
    ),
    (
        "“␣”、“，₂”、“。”、it₂、猫¹",
        "zh",
        "空格，第二个逗号，句号，第二个 it，猫的第一片",
    ),
    (
        "Wᵍ, eˢ; HeadMoved's “U+00A0” and “～”",
        "en",
        "W g, e to the power s; HeadMoved's the no break space and the Chinese tilde",
    ),
    (
        "F = ReLU(H W₁) W₂; H = LayerNorm(X + A)",
        "en",
        "F equals ReLU of H W 1 times W 2; H equals LayerNorm of X plus A",
    ),
]


@pytest.mark.parametrize("text,lang,want", SAID)
def test_a_caption_is_said_by_the_rules(text, lang, want):
    assert spoken(text, lang) == want


def test_numbers_are_rounded_as_a_speaker_says_them():
    """Two significant digits below 1, three from 1 up, never the whole part cut; trailing
    zeros dropped; two numbers that differ on screen never said alike."""
    cases = {"0.4521": "0.45", "37.23": "37.2", "1.000": "1", "0.0123": "0.012", "0.004": "0.004"}
    cases |= {"1234.5": "1235", "0.000": "0", "12": "12", "0.50": "0.5", "1.234": "1.23"}
    assert {s: rounded(s) for s in cases} == cases
    assert said_numbers("0.381 > 0.379, 0.4521") == {
        "0.381": "0.381",
        "0.379": "0.379",
        "0.4521": "0.45",
    }
    assert [zh_integer(n) for n in (10, 11, 101, 1005, 30976, 262144)] == [
        "十",
        "十一",
        "一百零一",
        "一千零五",
        "三万零九百七十六",
        "二十六万二千一百四十四",
    ]


_CAPTION_ALPHABET = st.sampled_from(
    list(
        "Qqkvx WbdₖᵢⱼᵀΣΔαω√·×÷/|→−-+=≠≤()（）“”,，.。、：0123456789%°–—…"
        "₂¹²猫itsoup😀␣\ufffd\u00a0\u2060"
    )
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.text(_CAPTION_ALPHABET)), st.sampled_from(LANGS))
@example("1" * 5000 + ".5 it" + "₂" * 5000 + " 猫" + "¹" * 50 + " 1.5e+99999 \ue000", "zh")
@example("0." + "0" * 3000 + "1 eˢ xⁿ ) ( “” “ ” 😀\u200d😀\ufe0f \x00 \U0010ffff", "en")
def test_spoken_never_fails_and_says_only_what_a_voice_says(text, lang):
    said = spoken(text, lang)
    assert is_speakable(said), said


def test_the_checks_can_fail():
    """The speakable check finds a formula's leftovers, a symbol, a quotation mark."""
    for bad in ("Q Kᵀ", "√d", "it → soup", "“it”", "q·k", "22×22", "50%", "a_b"):
        assert not is_speakable(bad), bad
    assert is_speakable("the query's weight, 0.45: 零点四五。")
    for bad in ("the the token", "of of", "the token after the earlier the second it", "它的的"):
        assert _doubled(bad, "en"), bad
    assert not _doubled("it takes the weight the head has; 1 1; the length of the second it", "en")
