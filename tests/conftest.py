import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# The suite runs one worker per core (-n auto), and its CLI runs render with one process per core:
# BLAS threads beyond that only spin against the other worker (the moved-vector tests took 114–122 s
# on two workers with OpenBLAS's default threads, 61–73 s on one). Set before numpy is loaded, and
# inherited by every `attn-explain` the tests run.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")


# The suite's texts (typeset labels, cached by scenes.mobjects.text_cache) in a folder of its own,
# capped high enough to hold every text the suite makes. In the user's folder, capped at 200 MB,
# the suite's scene runs evicted their own texts before they came round again (a third of the
# tests of five files filled it to the cap within the hour) and made them again; and a run of
# the suite never evicts the lecturer's texts. Inherited by every `attn-explain` the tests run.
def _suite_text_cache() -> str:
    import platformdirs

    return str(Path(platformdirs.user_cache_path("attention-explainer")) / "test-suite")


os.environ.setdefault("ATTN_TEXT_CACHE", _suite_text_cache())
os.environ.setdefault("ATTN_TEXT_CACHE_MB", "3000")

ROOT = Path(__file__).resolve().parent.parent
CLI = shutil.which("attn-explain", path=str(Path(sys.executable).parent)) or "attn-explain"


def run_cli(*args, cwd=None, timeout=600, env=None):
    """Run the installed console script (the real entry point) and capture its output."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [CLI, *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=full_env,
    )


@pytest.fixture(scope="session", autouse=True)
def _media_of_this_worker():
    """Texts a test makes outside a scene's run (a plane's labels, built alone) are cached in
    this worker's own media folder, as a run's are: two workers writing one SVG into
    ./media/texts read each other's half-written files (a CI run failed on one)."""
    from manim import config

    from scenes.pipeline.stills import private_media_dir

    config.media_dir = private_media_dir()


@pytest.fixture(scope="module")
def torch():
    """torch on one thread (the references' products are small; the machine is shared), the
    thread count given back after the module."""
    torch = __import__("torch")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield torch
    torch.set_num_threads(threads)


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture
def write_example(tmp_path):
    """Write an example file (TOML text, or a dict as JSON) and return its path."""

    def write(content, name="mine.toml"):
        path = tmp_path / name
        if isinstance(content, dict):
            path.write_text(json.dumps(content, ensure_ascii=False), encoding="utf-8")
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return write


# Defects the suite found that are not fixed yet (issue 20, "true at any input", is still open for
# them): tests/known_defects.txt lists each failing test's id and why. An exact id is a strict
# xfail — the day it passes, the run fails until its line is removed — so none passes unnoticed.
KNOWN_DEFECTS = Path(__file__).parent / "known_defects.txt"


def _known_defects() -> dict[str, str]:
    found = {}
    for line in KNOWN_DEFECTS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            test_id, _, why = line.partition(" | ")
            found[test_id.strip()] = why.strip()
    return found


def _defect_of(test_id: str, known: dict[str, str]) -> tuple[str, bool] | None:
    """(why, strict) for a listed test: an exact id is a strict xfail; an id ending in "*" names
    a group whose failing cases were not yet told apart (not strict: its passing cases pass)."""
    if test_id in known:
        return known[test_id], True
    for pattern, why in known.items():
        if pattern.endswith("*") and test_id.startswith(pattern[:-1]):
            return why, False
    return None


def pytest_collection_modifyitems(config, items):
    known = _known_defects()
    for item in items:
        # under --dist loadgroup a grouped test's id may already end in "@group" (xdist's suffix)
        found = _defect_of(item.nodeid.split("::", 1)[-1].split("@", 1)[0], known)
        if found:
            why, strict = found
            item.add_marker(pytest.mark.xfail(strict=strict, reason=why))


def pytest_configure(config):
    """pytest-xdist 3.8's `--dist loadgroup` groups by renaming item._nodeid, which pytest 9 no
    longer reads: the xdist_group marks would silently stop grouping and each marked module's heavy
    fixture run on both workers. Stop instead, saying so."""
    if config.getoption("dist", "no") == "loadgroup" and int(pytest.__version__.split(".")[0]) >= 9:
        raise pytest.UsageError(
            f"pytest {pytest.__version__}: pytest-xdist's loadgroup does not group under pytest 9; "
            "the test extra pins pytest < 9 (pyproject.toml): run `make setup`"
        )
