"""scenes: the Manim scenes, their reusable mobjects and theme, and the ``attn-explain`` CLI.

Importing this package does not import Manim; only the scene modules do.
"""
