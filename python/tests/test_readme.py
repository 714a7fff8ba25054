"""The README's Python example runs as written, from the repository's root, and prints what
its last line's comment says (the fraction of the bundled configurations that collide and the
number of certified-free motions between consecutive ones)."""

import os
import re
import subprocess
import sys

from conftest import REPO


def test_readme_python_example_runs():
    text = (REPO / "README.md").read_text()
    section = text.split("\n## From Python\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert blocks, "no python block under ## From Python"
    code = blocks[0]
    assert len(code.strip().splitlines()) == 5  # the front page's five lines
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, env=os.environ.copy())
    assert out.returncode == 0, out.stderr
    collided, free = out.stdout.split()
    assert float(collided) == 0.339  # data/robots/panda/README.md: 33.9 % collide
    promised = code.strip().splitlines()[-1].rsplit("#", 1)[1].split()
    assert [collided, free] == promised, (out.stdout, promised)
    assert f"{free} of the 999 motions" in " ".join(section.split())
