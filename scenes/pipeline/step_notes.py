"""What each step's record keeps for its speaker notes: the roles of the numbers it ends on, and
its caption in the other language.

A render (video or slides job) registers :func:`collect` as a step listener, so each step's
record lists the roles (``{"role": [...], "digits": d}``) of the ``Num`` mobjects on screen at
its end; the numbers themselves are looked up in the core only when the notes are written
(:mod:`scenes.outputs.notes`). The other language's captions come from a dry run of the same
scene in that language (no frames, animations skipped): :func:`other_captions`.
"""

from __future__ import annotations

import dataclasses

from scenes.kit import captions


def _visible(num) -> bool:
    text = num.submobjects[0] if num.submobjects else num
    return text.get_fill_opacity() >= 0.05 or text.get_stroke_opacity() >= 0.05


def on_screen(scene) -> list[dict]:
    """The numbers on screen now, in drawing order, each once: ``{"role": [...], "digits": d}``."""
    from scenes.mobjects.text import Num

    seen, out = set(), []
    for top in scene.mobjects:
        for m in top.get_family():
            if isinstance(m, Num) and m.role not in seen and _visible(m):
                seen.add(m.role)
                out.append({"role": list(m.role), "digits": int(m.digits)})
    return out


def collect(scene, record: dict) -> None:
    """A step listener: the step's record keeps the roles of the numbers it ends on."""
    record["numbers"] = on_screen(scene)


def other_lang(lang: str) -> str:
    return next(x for x in captions.LANGS if x != lang)


def other_captions(scene_info, example, look) -> list[tuple[str, str]]:
    """(step key, caption) of every step of the scene in the other language: a dry run."""
    from scenes.pipeline.stills import run_steps

    other = dataclasses.replace(look, lang=other_lang(look.lang))
    stills = run_steps(scene_info.load(), example, look=other, frames=False)
    return [(s.key, s.caption) for s in stills]


def add_other_captions(steps: list[dict], others: list[tuple[str, str]]) -> list[dict]:
    """Each step's record with ``caption_other`` (matched by step number and key)."""
    for k, step in enumerate(steps):
        key, text = others[k] if k < len(others) else (None, "")
        step["caption_other"] = text if key == step["key"] else ""
    return steps


def complete(steps: list[dict], scene_info, example, look) -> list[dict]:
    """``steps`` with their numbers' roles and other-language captions, by dry runs when a record
    was made without them (a video rendered before it was asked for with captions)."""
    if all("numbers" in s and "caption_other" in s for s in steps):
        return steps
    from scenes.pipeline.stills import run_steps

    if not all("numbers" in s for s in steps):
        runs = run_steps(scene_info.load(), example, look=look, frames=False, snapshot=on_screen)
        by_step = {(k, s.key): s.snapshot for k, s in enumerate(runs)}
        steps = [{**s, "numbers": by_step.get((k, s["key"]), [])} for k, s in enumerate(steps)]
    return add_other_captions([dict(s) for s in steps], other_captions(scene_info, example, look))


def keep(job, record: dict) -> dict:
    """``record`` of the video ``job`` with its steps complete (:func:`complete`), written back
    into the record when dry runs were needed, so that the next lecture page (``pack``) reuses
    them: a video rendered without captions is dry-run once, not at every ``pack``."""
    from scenes.pipeline import cache

    steps = complete(record["steps"], job.scene, job.example, job.look)
    if steps is record["steps"]:
        return record
    cache.keep_steps(job.out_dir, job.name, steps)
    return {**record, "steps": steps}
