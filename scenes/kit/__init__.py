"""The scene kit: what every scene is built on, next to the drawing kit (``scenes/mobjects``).

- :mod:`.base`: ``ExplainerScene`` (example, trace, look, title, steps, captions, pacing) and
  its ``kit`` (planes, matrices, bars and labels built in the scene's look);
- :mod:`.captions`: every word on screen and in subtitles, zh and en, one module a scene;
- :mod:`.look`: the typed look of a render (quality, language, theme, aspect, …) and ``OPTIONS``;
- :mod:`.registry`: the scenes in teaching order and whether each applies to an example;
- :mod:`.roles`: where each number on screen comes from; :mod:`.views`: the named 2-D views.
"""
