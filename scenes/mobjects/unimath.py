"""Math in plain Unicode, without Manim: what subtitles show of a ``$…$`` formula, and how a
caption's lines are measured (the caption bar then typesets each formula where it stands:
:class:`Laid`, :func:`line_pieces`).

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
# a formula's bounds in a caption's layout text while it is filled in (:func:`laid`)
OPEN, CLOSE = "\ue000", "\ue001"
_MARKED = re.compile(f"{OPEN}([^{CLOSE}]*){CLOSE}")


def plain(template: str, whole: bool = False, marked: bool = False) -> str:
    """The template with its math in Unicode forms (for captions and subtitles): ``$d_k$`` →
    dₖ, ``$K^top$`` → Kᵀ, ``$sqrt(d_k)$`` → √dₖ, ``$W_O$`` → WO. ``whole``: the spaces of
    each formula are no-break spaces, so that a caption's lines never split one; ``marked``:
    each formula between :data:`OPEN` and :data:`CLOSE` (for :func:`laid`)."""
    glue = NO_BREAK if whole else " "

    def form(m) -> str:
        shown = unicode_math(m.group(1)).replace(" ", glue)
        return f"{OPEN}{shown}{CLOSE}" if marked else shown

    return MATH_MARK.sub(form, template)


class Laid(str):
    """A caption's layout text, and where its formulas are: ``formulas`` holds (start, end,
    Typst source) of each, the source None where it is drawn in its Unicode form."""

    formulas: tuple = ()


def laid(text: str, sources) -> Laid:
    """``text`` (formulas marked by :func:`plain`) without its marks, knowing where each
    formula is and its Typst source (``sources``, in order)."""
    out, spans, at = "", [], 0
    sources = list(sources)
    for k, m in enumerate(_MARKED.finditer(text)):
        out += text[at : m.start()]
        source = sources[k] if k < len(sources) else None
        spans.append((len(out), len(out) + len(m.group(1)), source))
        out += m.group(1)
        at = m.end()
    result = Laid(out + text[at:])
    result.formulas = tuple(spans)
    return result


_SKIPPED = frozenset(" \t\n" + NO_BREAK + "\u2060")  # spaces and word joiners a line may drop


def line_pieces(lines, text: Laid, start: int = 0) -> tuple[list, int]:
    """``lines`` (cut in turn from ``text``, at and after ``start``, as a caption's lines are:
    spaces and word joiners dropped or added at their ends) as pieces, each (its Unicode
    text, its formula's Typst source or None for plain text): a formula whole on one line is
    one piece. Returns the pieces of each line and where the last line ended in ``text``."""
    spans = getattr(text, "formulas", ())
    out, p = [], start
    for line in lines:
        places = []
        for c in line:
            while p < len(text) and text[p] != c and text[p] in _SKIPPED:
                p += 1
            if p < len(text) and text[p] == c:
                places.append(p)
                p += 1
            elif c in _SKIPPED:
                places.append(None)  # a space the layout put between joined lines
            else:  # not cut from this text: drawn as it is
                return [[(ln, None)] for ln in lines], start
        out.append(_pieces(line, places, spans))
    return out, p


def _pieces(line: str, places: list, spans) -> list[tuple[str, str | None]]:
    """One line's pieces: a formula whose first and last characters are both on it is one."""
    on_line = {q: k for k, q in enumerate(places) if q is not None}
    cuts = sorted(
        (on_line[s], on_line[e - 1] + 1, src)
        for s, e, src in spans
        if src is not None and s in on_line and e - 1 in on_line
    )
    pieces, at = [], 0
    for a, b, src in cuts:
        if a > at:
            pieces.append((line[at:a], None))
        pieces.append((line[a:b], src))
        at = b
    if at < len(line):
        pieces.append((line[at:], None))
    return pieces


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
