"""What a scene may say about the numbers, decided from the trace (the scenes only word it).

- :mod:`.claims`: every sentence a caption states (the query a step follows, the terms a sum
  adds, whether there is a mask, whether order matters, the matrix's reading, sharpening);
- :mod:`.heads`, :mod:`.copy_heads`: what a head does (previous token, induction, attention sink);
- :mod:`.scene_quantities`, :mod:`.illustrative`, :mod:`.permutation`, :mod:`.linear_maps`,
  :mod:`.rotary_view`: the quantities particular scenes show.

Each claim returns a ``kind`` that picks the caption, and a property test checks it against the
trace over random examples.
"""
