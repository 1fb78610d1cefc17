"""Numbers for people, without Manim: the one rounding every screen, table and caption uses."""

from __future__ import annotations

import math

DIGITS = 3


def fmt(x: float, digits: int = DIGITS) -> str:
    """One number for people: fixed decimals, scientific beyond 1e5, −∞ for blocked."""
    if math.isinf(x):
        return "−∞" if x < 0 else "∞"
    x = 0.0 if x == 0 else float(x)  # no "-0.000"
    if digits == 0 and abs(x) < 1e15:
        return f"{x:,.0f}"
    if abs(x) >= 1e5:
        return f"{x:.{digits}e}"
    s = f"{x:.{digits}f}"
    return "0." + "0" * digits if s.lstrip("-") == "0." + "0" * digits else s
