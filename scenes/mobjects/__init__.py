"""The drawing kit: planes, matrices, bars, text, layout, theme, fonts and fades (imports Manim)."""
