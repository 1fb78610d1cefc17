"""A caption page as a speaker says it (no Manim): speech written for the ear (issue 42).

:func:`spoken` takes a caption page as the subtitles show it (plain Unicode: formulas in their
Unicode forms, token labels named as captions name them, ``scenes.kit.captions.caption``) and
gives the words a voice says, in English or Chinese, in this order:

- set phrases said whole (``softmax((Q Kᵀ) / √dₖ) V``, ``Σ s(1−s)``: ``spoken_words.PHRASES``);
- token labels: punctuation in quotation marks named (“,” → "the comma" / 逗号; ␣ → "the
  space"; an emoji or another symbol by its Unicode name, "the grinning face"); a repeat's
  number as an ordinal (it₂ → "the second it" / 第二个 it); a byte piece's (猫¹ → "the first
  piece of 猫" / 猫的第一片); special tokens without their brackets ([SEP] → SEP);
- formulas as words: Q Kᵀ → "Q K transpose" / "Q 乘以 K 的转置" (Chinese says the product
  of two symbols side by side), √dₖ → "the square root of d k" / "d k 的平方根", |q| → "the
  length of q" / "q 的长度", q(it) → "q of it" / "it 的查询", · → "dot" between two vectors
  (q·k) and "times" beside a number, a weight or a matrix, 22×22 → "22 by 22" / "22 乘 22",
  = → "equals" / 等于, → → "to" / 到, −∞ → "minus infinity" / 负无穷, Σ, ΔE → "delta E";
- numbers rounded as a speaker says them (``spoken_numbers``: 0.4521 → 0.45, 37.23 → 37.2),
  64 % → "64 percent" / 百分之六十四, 0.94–0.99 → "0.94 to 0.99"; Chinese numbers written in
  numerals (0.45 → 零点四五), English ones left in digits (the English front end reads them);
- anything else that is not a letter, a digit, a space or plain sentence punctuation
  (``. , ? ! ; :`` and their full-width forms) described by its name, never dropped, never an
  error: the result holds only what a voice can say (:func:`is_speakable`).
"""

from __future__ import annotations

import re
import unicodedata

from scenes.mobjects.token_text import is_punctuation
from scenes.speech.spoken_numbers import (
    NUMBER,
    en_ordinal,
    said_numbers,
    zh_integer,
    zh_number,
    zh_ordinal,
)
from scenes.speech.spoken_words import (
    FUNCTIONS,
    GREEK,
    MARKS,
    OPERATORS,
    PHRASES,
    SYMBOL_NAMES,
)

LANGS = ("en", "zh")
SENTENCE_MARKS = ".,?!;:。，？！；："
_SUB = "₀₁₂₃₄₅₆₇₈₉ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼᵣᵤᵥ₊₋₌₍₎"
_SUB_PLAIN = "0123456789aeoxhklmnpstijruv+−=()"
_SUP = "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱˢ"
_SUP_PLAIN = "0123456789+−=()nis"
_SUB_DIGITS, _SUP_DIGITS = _SUB[:10], _SUP[:10]
_SCRIPTS = _SUB + _SUP + "ᵀ"
_DROPPED = "\u2060\u200b\u200c\u200d\ufeff\ue000\ue001"  # joiners, layout marks: unseen
_WORD = rf"(?:(?![{_SCRIPTS}])[^\W_])"  # a letter or digit, never a sub- or superscript
_LABEL = re.compile(rf"({_WORD}+)([{_SUP_DIGITS}]+)?([{_SUB_DIGITS}]+)?")
_QUOTED = re.compile(rf"“(.[{_SUB_DIGITS}{_SUP_DIGITS}]*)”|“([^“”]*)”")
_ATOM = rf"(?<![A-Za-z0-9])(?:W[qkvO]h?|b[qkv]|[A-Za-zα-ω])[{_SCRIPTS}]*(?![A-Za-z0-9])"
_PRODUCT = re.compile(rf"({_ATOM})[ ]+(?={_ATOM}|\()|(\))[ ]*(?={_ATOM}|\()")
_FUNCTION = re.compile(
    r"(?<![A-Za-z])(softmax|exp|ReLU|GELU|LayerNorm|MultiHead|[A-Za-z])\(([^()]*)\)"
)
_ROOT = re.compile(rf"√\s*([−-]?\d+(?:\.\d+)?|[A-Za-z][{_SUB}]*)")
_NOUN_BEFORE = re.compile(r"\b(?:[Tt]he|[Aa]n?|[Ee]ach|[Ee]very) [A-Za-z]+\s*$")
_SAID_NUMBER = re.compile(NUMBER.pattern + r"(\s?%|°)?")


def spoken(text: str, lang: str) -> str:
    """``text``, a caption page in plain Unicode (as in the .srt subtitles), as a speaker says
    it in ``lang`` ("en" or "zh"): only letters, digits, spaces and plain sentence punctuation
    (module docstring). Never raises on any text; an unknown ``lang`` is a ValueError."""
    if lang not in LANGS:
        raise ValueError(f"lang: {lang!r} is not one of {', '.join(LANGS)}")
    k = LANGS.index(lang)
    t = _normalised(str(text))
    t = re.sub(r"(→ \S+) (?=[−-]?\d)", r"\1， " if k else r"\1, ", t)  # it → soup, 0.45
    t = re.sub(r"(length|长度) \|([^|]+)\|", r"\1 \2", t)  # the length |x| of each arrow
    for phrase, said in PHRASES.items():
        t = t.replace(phrase, f" {said[k]} ")
    t = _QUOTED.sub(lambda m: _one_article(_quoted(m, k), m), t)
    t = re.sub(r"\bU\+([0-9A-F]{4,6})\b", lambda m: _code_point(m.group(1), k), t)  # U+00A0
    t = re.sub(r"\[([A-Za-z]+)\]", r" \1 ", t)  # [SEP], [CLS]
    t = re.sub(r"</?\|?([A-Za-z_]+)\|?>", lambda m: " " + m.group(1).replace("_", " ") + " ", t)
    t = re.sub(r"(?<![^\s(“])##(?=\w)", "", t)  # a word piece, ##erman: said as its letters
    t = _LABEL.sub(lambda m: _one_article(_label(m, k), m), t)
    t = _formulas(t, k)
    t = _numbers(t, k)
    t = _operators(t, k)
    t = "".join(_character(c, t, i, k) for i, c in enumerate(t))
    return _tidy(t, k)


def is_speakable(text: str) -> bool:
    """Whether ``text`` holds only what a voice says: letters (none a sub- or superscript),
    ASCII digits, spaces, plain sentence punctuation and an apostrophe inside a word (query's)."""
    for i, c in enumerate(text):
        if c == " " or c in SENTENCE_MARKS or c in "0123456789" or _letter(c):
            continue
        if c == "'" and _inside_word(text, i):
            continue
        if unicodedata.category(c) in ("Mn", "Mc") and i and _letter(text[i - 1]):
            continue
        return False
    return True


def _inside_word(text: str, i: int) -> bool:
    """An apostrophe inside a word (query's, pair 4's): said as part of it."""
    if not 0 < i < len(text) - 1 or not _letter(text[i + 1]):
        return False
    return _letter(text[i - 1]) or text[i - 1] in "0123456789"


def _letter(c: str) -> bool:
    cat = unicodedata.category(c)
    if not cat.startswith("L") or c in _SCRIPTS or c in GREEK:
        return False
    return cat != "Lm" or ord(c) >= 0x3000  # 々 and ー are letters; ᵀ, ʼ are marks


def _normalised(t: str) -> str:
    t = "".join(c for c in t if c not in _DROPPED and not 0xFE00 <= ord(c) <= 0xFE0F)
    return re.sub(r"\s", " ", t)


def _name(c: str, k: int) -> str:
    """One character of a token's label named: the table's word, else its Unicode name."""
    if c in SYMBOL_NAMES:
        return SYMBOL_NAMES[c][k]
    if c in GREEK:
        return GREEK[c][k]
    if c == " " or c.isspace() and not unicodedata.name(c, ""):
        return SYMBOL_NAMES["␣"][k]
    if unicodedata.category(c) == "Cc":
        return MARKS["control"][k]
    name = unicodedata.name(c, "")
    if not name:
        return MARKS["unnamed"][k]
    name = re.sub(r"[^A-Za-z0-9 ]", " ", name).lower()
    return MARKS["symbol"][k].format(name) if k else name


def _code_point(hex_digits: str, k: int) -> str:
    """A character a label shows as its code point (HeadMoved: U+00A0), named."""
    code = int(hex_digits, 16)
    article = "" if k else "the "
    return (
        f" {article}{_name(chr(code), k)} "
        if code <= 0x10FFFF
        else " " + " ".join(hex_digits) + " "
    )


_SCRIPT_LETTER = re.compile(
    r"(?:MODIFIER LETTER|LATIN SUBSCRIPT|SUPERSCRIPT LATIN|LATIN LETTER) (SMALL|CAPITAL)?"
    r"(?: ?(?:SMALL|CAPITAL)? ?LETTER)? ?([A-Z])"
)


def _script_letter(c: str) -> str | None:
    """A letter written small above or below (ᵍ, ₓ, ᴬ): the letter itself."""
    m = _SCRIPT_LETTER.fullmatch(unicodedata.name(c, ""))
    if m is None:
        return None
    return m.group(2) if m.group(1) == "CAPITAL" else m.group(2).lower()


def _named_label(label: str, k: int) -> str:
    """A label of punctuation or symbols (“,” → "the comma", “?!”, “...” → "three full stops")."""
    core = label.rstrip(_SUB_DIGITS + _SUP_DIGITS)
    sup = "".join(c for c in label[len(core) :] if c in _SUP_DIGITS)
    sub = "".join(c for c in label[len(core) :] if c in _SUB_DIGITS)
    if len(set(core)) == 1 and len(core) > 1:
        n = len(core)
        one = _name(core[0], k)
        name = f"{zh_integer(n)}个{one}" if k else f"{n} {one}s"
    else:
        name = MARKS["and"][k].join(_name(c, k) for c in core)
    return _ordinal_piece(name, sup, sub, k, article=True)


def _ordinal_piece(base: str, sup: str, sub: str, k: int, article: bool = False) -> str:
    """``base`` with its byte piece's number (``sup``) and its repeat's (``sub``) said."""
    said = base
    if sup:
        base = f"the {base}" if article and not k else base
        p = _count(sup, _SUP_DIGITS)
        said = f"{base}的第{zh_integer(p)}片" if k else f"the {en_ordinal(p)} piece of {base}"
        article = False
    if sub:
        r = _count(sub, _SUB_DIGITS)
        if k:
            return f" {zh_ordinal(r)} {said}"
        return f" the {en_ordinal(r)} {said.removeprefix('the ')}"
    return f" the {said}" if article and not k else f" {said}"


def _one_article(said: str, m) -> str:
    """A label said with its article ("the second it", "the comma") after a noun that already
    has one ("the token “it₂”", "the earlier “，₂”") said without it: "the token second it"."""
    if said.startswith(" the ") and _NOUN_BEFORE.search(m.string, 0, m.start()):
        return " " + said.removeprefix(" the ")
    return said


def _count(script: str, digits: str) -> int:
    """A repeat's or a piece's number from its sub- or superscript digits (capped: no label
    has a millionth repeat)."""
    return min(int(script[:7].translate(str.maketrans(digits, "0123456789"))), 999999)


def _quoted(m, k: int) -> str:
    label = m.group(1) if m.group(1) is not None else m.group(2)
    if is_punctuation(label) or (label and label.strip() == "" and label):
        return _named_label(label if label.strip() else "␣", k)
    return f" {label} "


def _label(m, k: int) -> str:
    """A label with a repeat's or a byte piece's number (it₂, 猫¹); a power (n²); W₁, b₂."""
    base, sup, sub = m.group(1), m.group(2) or "", m.group(3) or ""
    if not sup and not sub:
        return m.group(0)
    if sup and not sub and len(base) == 1 and base.isascii() and base.isalpha():
        if sup == "²":
            return base + MARKS["squared"][k]
        power = sup.translate(str.maketrans(_SUP_DIGITS, "0123456789"))
        return base + (MARKS["power"][k].format(power) if k else MARKS["power"][0] + " " + power)
    if sub and not sup and base in ("W", "b"):
        return f"{base} {sub.translate(str.maketrans(_SUB_DIGITS, '0123456789'))}"
    return _ordinal_piece(base, sup, sub, k)


def _formulas(t: str, k: int) -> str:
    """A formula's marks as words (module docstring): products, roots, transposes, lengths,
    functions, dots, crosses, slashes, dashes."""
    t = re.sub(r"\|([^|]{1,60}?)\|", lambda m: _around(MARKS["|"][k], m.group(1), k), t)
    t = _ROOT.sub(lambda m: _around(MARKS["√"][k], m.group(1), k), t)
    t = _PRODUCT.sub(lambda m: (m.group(1) or m.group(2)) + MARKS["times"][k], t) if k else t
    t = re.sub(rf"\)[ ]*(?=\(|{_ATOM})", ")" + MARKS["times"][0], t) if not k else t
    t = t.replace("ᵀ", MARKS["ᵀ"][k])
    for _ in range(8):  # innermost first: softmax(f(x))
        t, n = _FUNCTION.subn(lambda m: _applied(m, k), t)
        if not n:
            break
    t = re.sub(r"\s*·\s*", lambda m: _dot(t, m, k), t)
    t = re.sub(r"(?<=\d)\s*×\s*(?=\d)", MARKS["by"][k], t)
    t = t.replace("×", MARKS["times"][k])
    t = re.sub(r"\s+/\s+|(?<=[)\d])/(?=[(\d√])", MARKS["over"][k], t)
    t = re.sub(r"(?<=[^\W\d_])/(?=[^\W\d_])", lambda m: _glue(t, m), t)
    t = re.sub(r"\s*–\s*", MARKS["to"][k], t)
    t = re.sub(r"\s*[—…]+\s*", "，" if k else ", ", t)
    t = re.sub(r"(?<=\S)([ⁿⁱˢ])", lambda m: _power(m.group(1), k), t)  # eˢ, xⁿ
    t = re.sub(rf"Σ([{_SUB}]+)", lambda m: _sum_over(m.group(1), k), t)  # Σⱼ
    for sub, plain in zip(_SUB + _SUP, _SUB_PLAIN + _SUP_PLAIN, strict=True):
        t = t.replace(sub, f" {plain} ")
    t = re.sub(r"\b([Wb])([qkvO])(h?)\b", lambda m: " ".join(filter(None, m.groups())), t)
    return re.sub(r"(?<=[A-Za-z])_(?=[A-Za-z])", " ", t)


def _sum_over(script: str, k: int) -> str:
    index = " ".join(script.translate(str.maketrans(_SUB, _SUB_PLAIN)))
    return f" 对 {index} 求和，" if k else f" the sum over {index} of "


def _power(letter: str, k: int) -> str:
    plain = letter.translate(str.maketrans(_SUP, _SUP_PLAIN))
    return MARKS["power"][1].format(plain) if k else f"{MARKS['power'][0]} {plain}"


def _around(mark: str, inner: str, k: int) -> str:
    return f" {mark.format(inner.strip())} " if k else f" {mark}{inner.strip()} "


def _applied(m, k: int) -> str:
    name, arg = m.group(1), m.group(2).strip()
    en, zh = FUNCTIONS.get(name, (name, name))
    return f" {arg} 的{zh} " if k else f" {en} of {arg} "


def _dot(t: str, m, k: int) -> str:
    """· between two vectors is their dot product; beside a number, a weight (α), an angle
    (ω), a value (v) or a matrix (W…, concat · WO) it is a product."""
    left, right = t[: m.start()].rstrip()[-1:], t[m.end() :].lstrip()[:1]
    product = left.isdigit() or right.isdigit() or left in "αⱼ)" or right in "αωvW"
    return MARKS["times" if product else "dot"][k]


def _glue(t: str, m) -> str:
    """key/value, 键/值: one word of two."""
    cjk = ord(t[m.start() - 1]) > 0x2E7F
    return "" if cjk else " "


def _numbers(t: str, k: int) -> str:
    """Numbers rounded as said (``spoken_numbers``), with their signs, percent and degrees;
    in Chinese, in numerals, every digit left in a label too."""
    said = said_numbers(t)

    def one(m) -> str:
        sign, whole, frac, exp, unit = m.groups()
        digits = said.get(whole.replace(",", "") + (frac or ""), whole)
        if k:
            out = zh_number(sign, digits)
            if exp:
                out += MARKS["ten"][1].format(zh_integer(int(exp)))  # 负五 where negative
            if unit and unit.strip() == "%":
                return MARKS["%"][1].format(out)
            return out + (MARKS["°"][1] if unit else "")
        out = ("minus " if sign else "") + digits
        if exp:
            out += MARKS["ten"][0] + ("minus " if int(exp) < 0 else "") + str(abs(int(exp)))
        return out + (MARKS["%" if unit.strip() == "%" else "°"][0] if unit else "")

    t = _SAID_NUMBER.sub(one, t)
    if k:
        t = re.sub(r"\d+", lambda m: f" {zh_number('', m.group(0))} ", t)  # SmolLM2
    return t


def _operators(t: str, k: int) -> str:
    t = t.replace("−∞", f" {'负' if k else 'minus '}{MARKS['∞'][k]} ")
    t = t.replace("∞", f" {MARKS['∞'][k]} ")
    t = t.replace("Σ", f" {MARKS['Σ'][k]} ")
    t = re.sub(r"(?<=\s)-(?=\s)", "−", t)
    for mark, words in OPERATORS.items():
        t = t.replace(mark, f" {words[k]} ")
    for letter, words in GREEK.items():
        t = t.replace(letter, f" {words[k]} ")
    return t


def _character(c: str, t: str, i: int, k: int) -> str:
    """One character of the text as said: kept where speakable, else a pause, a space or its
    name (a symbol never dropped)."""
    if c == " " or c in SENTENCE_MARKS or c in "0123456789" or _letter(c):
        return c
    if c == "'":
        return c if _inside_word(t, i) else " "
    if c in "()[]{}（）［］｛｝【】":
        return "，" if k else ", "
    if c in '“”‘’"「」『』《》〈〉-_‐‑‒':  # quotation marks and hyphens: a word's own
        return " "
    if c == "、":
        return "，"
    if _script_letter(c):
        return f" {_script_letter(c)} "
    if unicodedata.category(c) in ("Mn", "Mc", "Cf"):
        return c if i and _letter(t[i - 1]) and unicodedata.category(c) != "Cf" else ""
    return f" {_name(c, k)} "


_RANK = {c: r for r, group in enumerate((",，", ":：", ";；", ".。?？!！")) for c in group}


def _tidy(t: str, k: int) -> str:
    """Spaces collapsed, a run of marks said as its strongest, none at the start."""
    t = re.sub(r"\s+", " ", t)

    def strongest(m) -> str:
        marks = [c for c in m.group(0) if c in _RANK]
        return max(reversed(marks), key=lambda c: _RANK[c]) + " "

    t = re.sub(r"(?:\s*[,.;:?!，。；：？！](?!\d))+\s*", strongest, t)
    t = re.sub(r"^[\s,.;:?!，。；：？！]+|[\s,;:，；：]+$", "", t)
    if k:  # no spaces between Chinese characters nor beside full-width marks
        t = re.sub(r"(?<=[\u2e80-\uffff，。；：？！]) (?=[\u2e80-\uffff])", "", t)
        t = re.sub(r"(?<=[\u2e80-\uffff]) (?=[，。；：？！,.;:?!])", "", t)
        t = re.sub(r"(?<=[，。；：？！]) ", "", t)
    return t
