"""Math in plain Unicode, without Manim: what captions and subtitles show of a ``$…$`` formula.

``$d_k$`` → dₖ, ``$K^top$`` → Kᵀ, ``$sqrt(d_k)$`` → √dₖ, ``$W_O$`` → WO, ``$q_i dot k_j$`` →
qᵢ · kⱼ. A weight matrix's letter is always written after its W (Wq, Wk, Wv, WO: Unicode has no
subscript q, and one symbol has one form in every caption), and a bias's after its b (bq,
bk); its number is a subscript (W₁).
Where Unicode has no form (a fraction in an exponent) the formula is left as written, and the
caption tests catch it: captions never show "_" or "^".
"""

from __future__ import annotations

import re

MATH_MARK = re.compile(r"\$([^$]+)\$")


NO_BREAK = "\u00a0"  # a space a line is never broken at (inside a formula)


def plain(template: str, whole: bool = False) -> str:
    """The template with its math in Unicode forms (for captions and subtitles): ``$d_k$`` →
    dₖ, ``$K^top$`` → Kᵀ, ``$sqrt(d_k)$`` → √dₖ, ``$W_O$`` → WO. ``whole``: the spaces of
    each formula are no-break spaces, so that a caption's lines never split one."""
    glue = NO_BREAK if whole else " "
    return MATH_MARK.sub(lambda m: unicode_math(m.group(1)).replace(" ", glue), template)


_SUB = str.maketrans("0123456789aeoxhklmnpstijruv+-=()", "₀₁₂₃₄₅₆₇₈₉ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼᵣᵤᵥ₊₋₌₍₎")
_SUP = str.maketrans("0123456789+-=()nisT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱˢᵀ")
_WORDS = {
    "dot": "·",
    "times": "×",
    "top": "T",
    "arrow.r": "→",
    "infinity": "∞",
    "approx": "≈",
    "sum": "Σ",
    "in": "∈",
}


def unicode_math(expr: str) -> str:
    """A Typst math string in plain Unicode, as far as Unicode has the forms."""
    s = re.sub(r'_"(\w+)"', lambda m: f"({m.group(1)})", expr)  # d_"model" → d(model)
    s = s.replace('"', "").replace("\\/", "/")
    s = re.sub(r"\be\^\(([^()]*)\)", lambda m: f"exp({m.group(1)})", s)  # e^(s − max) → exp(…)
    for word, sym in _WORDS.items():
        s = re.sub(rf"\b{re.escape(word)}\b", sym, s)
    s = re.sub(r"sqrt\(([^()]*)\)", lambda m: "√" + m.group(1), s)
    s = re.sub(r"\b([Wb])_([A-Za-z])\b", r"\1\2", s)  # Wq, Wk, WO, bq, bk: one form for each

    s = re.sub(r"_\(([^()]*)\)|_(\w)", lambda m: _script(m, _SUB, "_"), s)
    s = re.sub(r"\^\(([^()]*)\)|\^(\w+)", lambda m: _script(m, _SUP, "^"), s)
    s = s.replace(" - ", " − ")
    return re.sub(r"\s+", " ", s).strip()


def table_keys(table) -> set[str]:
    return {chr(k) for k in table}


def _script(m, table, mark) -> str:
    body = m.group(1) if m.group(1) is not None else m.group(2)
    keys = table_keys(table)
    for candidate in (body, body.lower()):
        if all(c in keys or c == " " for c in candidate):
            return candidate.replace(" ", "").translate(table)
    if len(body) == 1:
        return body  # a letter with no Unicode subscript (q): written after its base, W_q → Wq
    return m.group(0)  # no Unicode form: left as written (captions avoid such formulas)
