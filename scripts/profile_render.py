"""Profile one render of our own pipeline: `python scripts/profile_render.py Softmax h`.

Runs ``scenes.pipeline.execute.execute`` for one scene of zao-shang-hao at the given quality
(default h, 1080p60) under cProfile and prints the largest costs (BENCHMARKS.md, "Profile").
"""

import cProfile
import pstats
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import attention_core as ac  # noqa: E402
from scenes.kit.look import Look  # noqa: E402
from scenes.kit.registry import find  # noqa: E402
from scenes.pipeline.execute import execute  # noqa: E402
from scenes.pipeline.jobs import Job


def main() -> None:
    scene = sys.argv[1] if len(sys.argv) > 1 else "Softmax"
    quality = sys.argv[2] if len(sys.argv) > 2 else "h"
    import manim  # noqa: F401 - imported before profiling, as a worker has it

    ex = ac.load_example("zao-shang-hao")
    job = Job(find(scene), ex, Look.for_example(ex, quality=quality), Path(tempfile.mkdtemp()))
    profile = cProfile.Profile()
    profile.enable()
    execute(job)
    profile.disable()
    stats = pstats.Stats(profile)
    stats.sort_stats("tottime").print_stats(12)
    stats.sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
