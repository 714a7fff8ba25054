"""The README's Python example runs as written, from the repository's root."""

import os
import re
import subprocess
import sys

from conftest import REPO


def test_readme_python_example_runs():
    text = (REPO / "README.md").read_text()
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert blocks, "no python block under ## Python"
    code = blocks[0]
    assert len(code.strip().splitlines()) <= 12
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, env=os.environ.copy())
    assert out.returncode == 0, out.stderr
    collided, distance, free, cube = (float(x) for x in out.stdout.split())
    assert abs(collided - 0.339) < 1e-12  # data/robots/panda/README.md: 33.9 % collide
    assert distance > 0 and 0 < free < 100 and abs(cube - 2.0) < 1e-9
