import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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
