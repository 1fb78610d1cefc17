"""A course file: many examples × scenes × languages × themes × qualities × formats, as one batch.

```toml
name = "week-1"                       # optional; default: the file's stem
examples = ["zao-shang-hao", "lessons/mine.toml"]   # presets, or files beside the course file
examples_jsonl = "students.jsonl"     # optional: one example object a line ("name" optional)
scenes = ["Embeddings", "Softmax"]    # default: every scene that applies to each example
langs = ["zh", "en"]                  # default: each example's own language
themes = ["dark"]
qualities = ["l"]
narration = ["on"]                    # optional: "off" (the default), "on" (spoken: --narrate)
formats = ["mp4"]                     # mp4, webm, mov, gif or png
```

``expand`` turns it into independent render jobs (:class:`scenes.pipeline.jobs.Job`), one per
example × scene × language × theme × quality × format. An example that cannot be loaded becomes
one failed entry with its clean error: it never stops the others. No Manim import here.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path

from attention_core import PRESETS, Example, load_example
from attention_core.example.file_format import parse_example_text
from attention_core.example.user_files import display, inside_folder, read_user_file
from attention_core.example.validation import folder_part
from scenes.kit.look import OPTIONS, Look, facts
from scenes.kit.registry import SCENES, find
from scenes.pipeline import kinds
from scenes.pipeline.jobs import Job
from scenes.pipeline.kinds import FORMATS

# the look options a course can list (langs, themes, qualities, aspects): read from the look's
# table, so a look option with a ``course_key`` is a course key with no edit here
LOOK_KEYS = {o.course_key: name for name, o in OPTIONS.items() if o.course_key}
KEYS = ("name", "examples", "examples_jsonl", "scenes", *LOOK_KEYS, "formats")
MAX_BYTES = 4_000_000
MAX_NAME = 60  # characters of a course name (its folder: ≤ 255 bytes on every file system)
WHOSE = "the course's"  # a file a course names is in the course file's folder (inside_folder)


@dataclass
class Course:
    name: str
    examples: list  # (label, Example | None, error or "")
    scenes: list
    looks: dict  # look option name → the values to render ("default": the example's own)
    formats: list = field(default_factory=lambda: ["mp4"])
    scenes_given: bool = False  # listed in the file (else: each example's applicable scenes)


def _list(data: dict, key: str, default, allowed=None) -> list:
    value = data.get(key, default)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise ValueError(f"course.{key}: expected a non-empty list of names")
    if allowed is not None:
        bad = [v for v in value if v not in allowed]
        if bad:
            raise ValueError(f"course.{key}: {bad[0]!r} is not one of {', '.join(allowed)}")
    return list(dict.fromkeys(value))


def load_course(path) -> Course:
    """Read and check a course file; ValueError("course…: …") names what is wrong."""
    path = Path(path)
    if path.suffix.lower() != ".toml":
        raise ValueError(f"course: {str(path)!r} should be a .toml file")
    raw = read_user_file(path, MAX_BYTES, "course")  # a FIFO or device: refused, never opened
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"course: not valid UTF-8 TOML ({str(exc).splitlines()[0]})") from None
    data = parse_example_text(text, ".toml", path.name, "course")  # nests too deeply: refused
    unknown = [k for k in data if k not in KEYS]
    if unknown:
        raise ValueError(f"course.{unknown[0]}: unknown key; known keys: {', '.join(KEYS)}")
    name = _name(data.get("name", path.stem))
    if "examples" not in data and "examples_jsonl" not in data:
        raise ValueError("course.examples: list presets or example files (or examples_jsonl)")
    examples = []
    refs = _list(data, "examples", []) if "examples" in data else []
    targets = [_target(ref, path.parent) for ref in refs]  # each path checked before any is read
    for ref, target in zip(refs, targets):
        try:
            examples.append((ref, load_example(target), ""))
        except ValueError as exc:
            examples.append((ref, None, str(exc)))
    if "examples_jsonl" in data:
        jsonl = data["examples_jsonl"]
        if not isinstance(jsonl, str):
            raise ValueError("course.examples_jsonl: give a file name")
        examples += _jsonl(path.parent / inside_folder(jsonl, "course.examples_jsonl", WHOSE))
    _refuse_collisions(examples)
    scenes_given = "scenes" in data
    scenes = [find(s).name for s in _list(data, "scenes", [s.name for s in SCENES])]
    looks = {
        name: _list(data, key, list(OPTIONS[name].course_default), OPTIONS[name].course_choices)
        for key, name in LOOK_KEYS.items()
    }
    return Course(
        name, examples, scenes, looks, _list(data, "formats", ["mp4"], FORMATS), scenes_given
    )


def _name(name) -> str:
    """The course's folder name, checked: plain (no slash, no leading dot, no control
    character such as NUL) and short enough for every file system (at most MAX_NAME
    characters), so that a long batch cannot end without its manifest."""
    if (
        not isinstance(name, str)
        or not name.strip()
        or "/" in name
        or name.startswith(".")
        or any(ord(c) < 32 or ord(c) == 127 for c in name)
    ):
        raise ValueError("course.name: give a plain folder name, such as 'week-1'")
    if len(name) > MAX_NAME or len(name.encode("utf-8", "surrogateescape")) > 4 * MAX_NAME:
        raise ValueError(
            f"course.name: {len(name)} characters; a course name is a folder name of at most "
            f"{MAX_NAME} characters"
        )
    return name


def _target(ref: str, folder: Path) -> str:
    """What ``load_example`` gets for a course's ``examples`` entry: a file beside the course
    (``lessons/mine.toml``, or ``mine`` for ``mine.toml`` / ``mine.json`` there), else a preset."""
    if ref.endswith((".toml", ".json")):
        return str(folder / inside_folder(ref, "course.examples", WHOSE))
    if ref not in PRESETS:
        inside_folder(ref, "course.examples", WHOSE)  # never a file outside the course's folder
        for suffix in (".toml", ".json"):
            if (folder / f"{ref}{suffix}").is_file():
                return str(folder / f"{ref}{suffix}")
    return ref


def _refuse_collisions(examples: list) -> None:
    """Two examples with one name would write one folder: the course is refused, naming both."""
    seen: dict[str, str] = {}
    for label, ex, _ in examples:
        if ex is None:
            continue
        other = seen.setdefault(ex.name, label)
        if other != label:
            raise ValueError(
                f"course.examples: {other!r} and {label!r} are both named {ex.name!r} and would "
                "write the same folder; rename one file (or give the JSONL line another name)"
            )


def _jsonl(path: Path) -> list:
    raw = read_user_file(path, MAX_BYTES, "course.examples_jsonl")
    try:
        lines = raw.decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise ValueError(f"course.examples_jsonl: {str(path)!r} is not UTF-8 ({exc})") from None
    out = []
    file_name, stem = path.name, path.stem
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        label = f"{file_name}:{number}"
        try:  # parsed as an example file is (a line nested 100,000 deep: "nests too deeply")
            data = parse_example_text(line, ".json", label)
            name = data.pop("name", f"{stem}-{number}")
            _check_line_name(name)
            out.append((label, Example.from_dict(data, name=name), ""))
        except ValueError as exc:
            out.append((label, None, str(exc)))
    return out


def _check_line_name(name) -> None:
    """A JSONL line's ``name``: the name of its folder, so one a folder can have (``..``,
    ``...`` or ``-`` would leave nothing of it: every such line would be named 'example')."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError("name: give a plain name, such as 'ana'")
    if "/" in name or not folder_part(name):
        raise ValueError(
            f"name: {display(name, 40)} is not a usable file name (it names no folder of its "
            "own); give a plain name, such as 'ana'"
        )


def _looks(course: Course, example_facts: tuple) -> dict[str, Look]:
    """Every look the course lists for an example with ``example_facts``, by its folder: each
    combination of the look options' values (two that name one folder, such as ``default`` and
    the example's own language, are one look: rendered once)."""
    names = list(course.looks)
    out = {}
    for values in itertools.product(*(course.looks[n] for n in names)):
        asked = {n: None if v == "default" else v for n, v in zip(names, values)}
        look = Look.for_facts(example_facts, **asked)
        out[look.folder_for(example_facts)] = look
    return out


def _applying(course: Course, scenes: list, label: str, ex, broken: list) -> list:
    """The scenes of ``scenes`` that apply to ``ex``; one that the course names and does not
    apply is said in ``broken``, never dropped silently."""
    applies = []
    for info in scenes:
        why = info.why_not(ex)
        if why is None:
            applies.append(info)
        elif course.scenes_given:
            broken.append(
                (f"{label}/{info.name}", f"{info.name} does not apply to {ex.name}: it {why}")
            )
    return applies


def expand(course: Course, out: Path) -> tuple[list[Job], list[tuple[str, str]]]:
    """The render jobs of ``course``, and (label, error) for each example that failed to load."""
    jobs, broken = [], []
    scenes = list({s.name: s for s in map(find, course.scenes)}.values())  # found once, once each
    outputs = [(fmt, kinds.for_format(fmt).job) for fmt in course.formats]
    base = Path(out)
    looks: dict[tuple, dict[str, Look]] = {}  # one set of looks per distinct example facts
    for label, ex, error in course.examples:
        if ex is None:
            broken.append((label, error))
            continue
        applies = _applying(course, scenes, label, ex, broken)
        example_facts = facts(ex)
        if example_facts not in looks:
            looks[example_facts] = _looks(course, example_facts)
        for folder, look in looks[example_facts].items():
            out_dir = base.joinpath(ex.name, folder)
            jobs += [Job(i, ex, look, out_dir, kind, fmt) for fmt, kind in outputs for i in applies]
    return jobs, broken
