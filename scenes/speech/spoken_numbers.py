"""Numbers as a speaker says them (no Manim): rounded for the ear, Chinese numerals, ordinals.

The rounding rule (one for both languages, :func:`rounded`): a number with a decimal point is
said with two significant digits below 1 and three from 1 up (never rounding its whole part:
1234.5 → 1235), never with more decimals than shown, its trailing zeros dropped (0.4521 → 0.45,
37.23 → 37.2, 1.000 → 1, 0.0123 → 0.012); a whole number is said whole. Where the rounding
would make two numbers of one caption page that differ on screen equal (0.381 > 0.379), both
are said with the digits shown (:func:`said_numbers`).
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

# a number as captions write it: a sign (− or -), thousands commas, decimals, an exponent
NUMBER = re.compile(
    r"(?<![\w.])([−-]?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:e([+-]?\d{1,4}))?(?![\w])"
)

_ZH_DIGITS = "零一二三四五六七八九"
_ZH_SMALL = ((1000, "千"), (100, "百"), (10, "十"))
_EN_ORDINALS = [
    *("zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"),
    *("ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth"),
    *("sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth"),
]
_EN_TENS = {2: "twenty", 3: "thirty", 4: "forty", 5: "fifty", 6: "sixty", 7: "seventy"}
_EN_TENS |= {8: "eighty", 9: "ninety"}


def rounded(mantissa: str) -> str:
    """A number's digits (no sign, no commas: "0.4521") as a speaker says them (module rule)."""
    if "." not in mantissa:
        return mantissa.lstrip("0") or "0"
    try:
        d = Decimal(mantissa)
    except InvalidOperation:
        return mantissa
    if d == 0:
        return "0"
    shown = -d.as_tuple().exponent
    whole = d.adjusted() + 1 if d >= 1 else 0
    significant = 3 if d >= 1 else 2
    lead = -d.adjusted() - 1 if d < 1 else 0  # zeros after the point before the first digit
    places = min(shown, max(0, significant - whole) if d >= 1 else lead + significant)
    try:
        return _trimmed(d.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))
    except InvalidOperation:  # more digits than a Decimal holds: said as shown
        return mantissa


def _trimmed(d: Decimal) -> str:
    s = format(d, "f")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s or "0"


def said_numbers(text: str) -> dict[str, str]:
    """Each number's digits in ``text`` (as :data:`NUMBER` finds them) → how they are said:
    :func:`rounded`, or the digits shown (trailing zeros dropped) where rounding would make two
    different numbers of the text alike."""
    shown = {m.group(2).replace(",", "") + (m.group(3) or "") for m in NUMBER.finditer(text)}
    said = {s: rounded(s) for s in shown}
    by_said: dict[str, set] = {}
    for s, r in said.items():
        by_said.setdefault(r, set()).add(Decimal(s))
    for s, r in said.items():
        if len(by_said[r]) > 1:
            said[s] = _trimmed(Decimal(s)) if "." in s else s
    return said


def zh_integer(n: int) -> str:
    """A whole number in Chinese numerals: 484 → 四百八十四, 10 → 十, 1005 → 一千零五."""
    if n < 0:
        return "负" + zh_integer(-n)
    if n == 0:
        return "零"
    if n >= 10**16:
        return "".join(_ZH_DIGITS[int(c)] for c in str(n))
    out, groups = "", []
    while n:
        groups.append(n % 10000)
        n //= 10000
    units = ["", "万", "亿", "万亿"]
    for k in range(len(groups) - 1, -1, -1):
        g = groups[k]
        if g == 0:
            if out and not out.endswith("零"):
                out += "零"
            continue
        if out and g < 1000 and not out.endswith("零"):
            out += "零"
        out += _zh_group(g) + units[k]
    out = out.rstrip("零")
    return out[1:] if out.startswith("一十") else out


def _zh_group(g: int) -> str:
    """0 < g < 10000 in numerals (一千零五), zeros inside said once."""
    out, zero = "", False
    for value, unit in _ZH_SMALL:
        q, g = divmod(g, value)
        if q:
            out += ("零" if zero and out else "") + _ZH_DIGITS[q] + unit
            zero = False
        elif out:
            zero = True
    if g:
        out += ("零" if zero and out else "") + _ZH_DIGITS[g]
    return out


def zh_number(sign: str, digits: str) -> str:
    """A said number ("0.45", sign "−") in Chinese: 负零点四五; a whole part with a leading
    zero ("007") digit by digit."""
    whole, _, frac = digits.partition(".")
    if len(whole) > 1 and whole.startswith("0") or len(whole) > 16:
        out = "".join(_ZH_DIGITS[int(c)] for c in whole)
    else:
        out = zh_integer(int(whole or "0"))
    if frac:
        out += "点" + "".join(_ZH_DIGITS[int(c)] for c in frac)
    return ("负" if sign else "") + out


def en_ordinal(n: int) -> str:
    """1 → first, 23 → twenty third, 123 → 123rd."""
    if 0 <= n < len(_EN_ORDINALS):
        return _EN_ORDINALS[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return (
            _EN_TENS[tens][:-1] + "ieth" if not ones else f"{_EN_TENS[tens]} {_EN_ORDINALS[ones]}"
        )
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def zh_ordinal(n: int) -> str:
    """1 → 第一个."""
    return f"第{zh_integer(n)}个"
