"""Step stills without video: run a scene with animations skipped and grab each step's last frame.

This is the cheap iterate loop (no encoding, final frames only) and what the layout and frame
tests use.
"""

from __future__ import annotations

import atexit
import shutil
from dataclasses import dataclass

import numpy as np
from manim import Animation, AnimationGroup, TransformFromCopy, tempconfig

_MEDIA: str | None = None
AT_ONCE = True  # transforms from a copy end at once (:func:`_ending_at_once`); False: as Manim does


def private_media_dir() -> str:
    """A media folder of this process's own: Manim caches text SVGs and Typst output there by
    content hash, and two processes sharing one folder can read each other's half-written files."""
    global _MEDIA
    if _MEDIA is None:
        from scenes.pipeline.files import media_dir

        # named by this process's id: its supervisor removes it when the worker ends or is
        # killed (a forked worker never runs atexit), and sweeps those of vanished processes
        _MEDIA = str(media_dir())
        atexit.register(shutil.rmtree, _MEDIA, ignore_errors=True)
    return _MEDIA


@dataclass
class StepStill:
    key: str
    caption: str
    frame: np.ndarray | None  # (h, w, 4) uint8, or None when frames were not asked for
    snapshot: object  # whatever the ``snapshot`` callable returned at the step's end
    page: int | None = None  # a caption page before the step's last (``pages=True``), from 1


def run_steps(
    scene_cls,
    example=None,
    *,
    look=None,
    lang=None,
    theme=None,
    pixel_height=270,
    frames=True,
    snapshot=None,
    extra_config=None,
    pages=False,
    last_pixel_height=None,
):
    """Run ``scene_cls`` for ``example`` with animations skipped; return one StepStill per step.

    The picture is ``look``'s (a :class:`scenes.kit.look.Look`; or the example's default look in
    ``lang`` and ``theme``) at ``pixel_height``. ``snapshot(scene)`` is called at the end of every
    step (e.g. to record mobject geometry). ``pages``: a step whose caption comes in pages
    also gives a still for each page before its last (``page`` 1, 2 …), in order before the
    step's own: a pasted still never holds the end of a sentence whose start is gone.
    ``last_pixel_height``: the last still's frame drawn (again) at that height once the scene
    has run, whatever ``frames`` says: a check that reads the last still's pixels at 1080p
    costs one frame, not one a step (its ``snapshot`` was taken before that frame was drawn).
    """
    from scenes.kit.look import Look, from_environment

    if example is None:
        example, _ = from_environment()
    if look is None:
        look = Look.for_example(example, lang=lang, theme=theme or "dark")
    cfg = {
        **look.manim_config(pixel_height=pixel_height),
        "dry_run": True,
        "disable_caching": True,
        "verbosity": "ERROR",
        "progress_bar": "none",
        "media_dir": private_media_dir(),
    }
    cfg.update(extra_config or {})
    cfg["media_dir"] = cfg.get("media_dir") or private_media_dir()
    stills: list[StepStill] = []

    def listener(scene, record):
        frame = None
        if frames:
            scene.renderer.static_image = None  # a full redraw on a clean background
            draw(scene)
            frame = scene.renderer.get_frame()
        shot = snapshot(scene) if snapshot else None
        stills.append(StepStill(record["key"], record["caption"], frame, shot, record.get("page")))

    with tempconfig(cfg):
        scene = scene_cls(example=example, look=look, skip_animations=True)
        scene.step_listeners.append(listener)
        if pages:
            scene.page_listeners.append(listener)
        draw = _stills_only(scene)
        scene.render()
        if last_pixel_height and stills and not (frames and last_pixel_height == pixel_height):
            stills[-1].frame = _drawn_at(scene, draw, last_pixel_height)
    return stills


def _drawn_at(scene, draw, pixel_height: int) -> np.ndarray:
    """The scene as it is now, drawn whole at ``pixel_height`` (the width as the look's)."""
    from manim import config

    camera = scene.renderer.camera
    size = (camera.frame_width, camera.frame_height)
    width = 2 * round(pixel_height * config.pixel_width / config.pixel_height / 2)
    camera.reset_pixel_shape(pixel_height, width)
    camera.frame_width, camera.frame_height = size  # the frame's units as they were
    scene.renderer.static_image = None
    draw(scene)
    return scene.renderer.get_frame()


def _stills_only(scene):
    """Leave ``scene`` only the work its steps' stills need; return its renderer's frame drawing.

    Manim draws a frame for every skipped animation; only the steps' last ones are kept. Nor is
    any frame between steps painted: which mobjects move (to paint the others once) is not
    worth working out — on a 24-token or 9-head scene that took a fifth of the run; the step's
    still is drawn whole from ``scene.mobjects``."""
    draw = scene.renderer.update_frame
    scene.renderer.update_frame = lambda *args, **kwargs: None
    scene.get_moving_and_static_mobjects = lambda animations: ([], [])
    if AT_ONCE:
        scene.play = _ending_at_once(scene.play)
    return draw


def _ending_at_once(play):
    """``play`` with each ``TransformFromCopy`` replaced by its end: the target, as it is.

    Skipped, a transform still starts: it copies its source and aligns the two families piece
    by piece (a row of a product made from a whole matrix's numbers: most of a 9-head
    MultiHeadSplit's run) only to end where its target already is."""

    def at_once(anim):
        if isinstance(anim, TransformFromCopy):
            return _Arrive(anim.mobject, run_time=anim.run_time, rate_func=anim.rate_func)
        if isinstance(anim, AnimationGroup):
            anim.animations = [at_once(a) for a in anim.animations]
            anim.build_animations_with_timings()  # the same run times: the same timings
        return anim

    def fast_play(*animations, **kwargs):
        return play(*(at_once(a) for a in animations), **kwargs)

    return fast_play


class _Arrive(Animation):
    """A mobject that is simply there at the end: added as any animated mobject is, untouched."""

    def begin(self) -> None:
        pass

    def finish(self) -> None:
        pass

    def interpolate(self, alpha: float) -> None:
        pass

    def clean_up_from_scene(self, scene) -> None:
        pass


def save_png(frame: np.ndarray, path, alpha: bool = False) -> None:
    """Write ``frame`` as PNG: RGB, or RGBA when ``alpha`` (a transparent background)."""
    from PIL import Image

    if frame.shape[-1] == 4 and not alpha:
        frame = frame[..., :3]
    Image.fromarray(frame).save(path, compress_level=1)  # fast; a still is written once
