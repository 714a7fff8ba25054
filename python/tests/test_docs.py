"""Every example in README.md and docs/*.md runs, and no page speaks of issues or targets.

The rules, for whoever writes a page (the test reads every fenced block of README.md and of
each docs/*.md page):

* ```python blocks run from the repository's root, each in a fresh interpreter, and must
  exit 0. A block right after the line `<!-- continues -->` is a fragment: it is appended to
  the previous python block of the same page and the two run as one program (instead of the
  previous one alone).
* ```sh blocks are commands: every line (`\\` continuations joined) that starts with
  `polyquery ` runs. ```console blocks are transcripts of a run: every `$ polyquery …` line
  runs, except one holding `…` (a shortened repeat of the command above it). Commands run
  under bash in a scratch folder where `data` is the repository's `data/`, so the pages'
  relative paths work and their output files land in the scratch folder; `polyquery` is the
  workspace's built binary (`$POLYQUERY_BIN`, else the newer of `target/release/polyquery`
  and `target/debug/polyquery`, which `cargo test --workspace` builds; missing is a failure),
  and each must exit 0.
* A block right after `<!-- not run: REASON -->` is not run; REASON says why (too slow for
  the test's budget, or it needs a file the page only describes). A python block right after
  `<!-- run by python/tests/FILE.py -->` is run (and its output asserted) by that test, which
  must name the page; it is not run twice.
* Pages with ```rust blocks are doctests: each is included in `src/lib.rs`.
* No user-facing page speaks of issue numbers or targets (`FORBIDDEN`).

The counted figures the pages quote are checked in `test_docs_figures.py`. All the commands
run in about 5 s with a warm shape cache (the default one, as a user's).
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

PAGES = [REPO / "README.md"] + sorted((REPO / "docs").glob("*.md"))
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)
MARK = re.compile(r"<!-- (continues|not run: *(.*?)|run by (python/tests/\S+\.py)) -->\s*$")
FORBIDDEN = [
    r"(?i)\bissues?('s|')?\b",  # "issue 13", "the issue's", "the issues'"
    r"(?i)(?<![-_])\btargets?\b(?!/)",  # "target not met", "targets, measured"; not `target/`
    r"DESIGN\.md",
]


def blocks(page):
    """(language, code, mark, line) of each fenced block; mark is the comment line above."""
    text = page.read_text()
    out = []
    for m in FENCE.finditer(text):
        before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        mark = MARK.search(before)
        line = text[: m.start()].count("\n") + 1
        out.append((m.group(1), m.group(2), mark, line))
    return out


def python_programs():
    programs = []
    for page in PAGES:
        for lang, code, mark, line in blocks(page):
            if lang != "python":
                continue
            if mark and mark.group(1).startswith("not run"):
                assert mark.group(2).strip(), f"{page.name}:{line}: `not run` needs a reason"
                continue
            if mark and mark.group(3):
                runner = (REPO / mark.group(3)).read_text()
                assert page.name in runner, f"{page.name}:{line}: {mark.group(3)} does not read {page.name}"
                continue
            if mark and mark.group(1) == "continues":
                assert programs and programs[-1][0] == page.name, f"{page.name}:{line}: nothing to continue"
                programs[-1] = (page.name, programs[-1][1], programs[-1][2] + code)
            else:
                programs.append((page.name, line, code))
    return programs


def commands():
    """(page, line, command, shown): each command a page runs, with the output lines a
    ```console transcript shows after it (empty for ```sh blocks)."""
    found = []
    for page in PAGES:
        for lang, code, mark, line in blocks(page):
            if lang not in ("sh", "console"):
                continue
            if mark and mark.group(1).startswith("not run"):
                assert mark.group(2).strip(), f"{page.name}:{line}: `not run` needs a reason"
                continue
            shown = None  # the output lines of the last command that runs
            for command in code.replace("\\\n", " ").splitlines():
                if lang == "console":
                    if not command.startswith("$ "):
                        if shown is not None:
                            shown.append(command)
                        continue
                    shown = None
                    if not command.startswith("$ polyquery ") or "…" in command:
                        continue
                    command = command[2:]
                elif not command.startswith("polyquery "):
                    continue
                shown = []
                found.append((page.name, line, command, shown))
    return found


# What a transcript may show differently from a run: times and rates (measurements), the shape
# cache's hits (a warm or cold cache) and folder, the seconds and rates of JSON lines, and the
# bytes of a `.nvm` file's metadata (it records the build's times, whose digits vary).
MEASURED = [
    (re.compile(r'"\w*(seconds|per_second)":[-+\d.e]+'), '"seconds":M'),
    (re.compile(r'"cache":\{[^}]*\}'), '"cache":C'),
    (re.compile(r"\d+ (\w+ )?per second"), "M per second"),
    (re.compile(r"META \d+"), "META M"),
    (re.compile(r"^size +\d+ bytes \([\d.]+ per vertex"), "size M bytes (M per vertex"),
    (re.compile(r"\d[\d.,]*(e-?\d+)? ?(ns|µs|ms|s)\b"), "M"),
    (re.compile(r"[\d.,]+/s\b"), "M/s"),
    (re.compile(r"shape cache [^:]*: \d+ hits?, \d+ built"), "shape cache C"),
    (re.compile(r"shape cache \d+ hits?, \d+ built"), "shape cache C"),
]


def masked(line):
    for pattern, replacement in MEASURED:
        line = pattern.sub(replacement, line)
    return line.strip()


def assert_shows(page, line, command, shown, output):
    """Every line a transcript shows after `command` is a line of its output, measurements
    masked (`MEASURED`); `…` shortens: a line holding it must match up to it, a line of it
    alone stands for lines left out."""
    printed = [masked(l) for l in output.splitlines()]
    for expected in shown:
        if expected.strip() in ("", "…"):
            continue
        want = masked(expected.split("…", 1)[0]) if "…" in expected else masked(expected)
        match = (lambda got: got.startswith(want)) if "…" in expected else (lambda got: got == want)
        assert any(match(got) for got in printed), f"{page}:{line}: {command}\nshown but not printed: {expected}\nprinted:\n{output}"


def binary():
    if os.environ.get("POLYQUERY_BIN"):
        return Path(os.environ["POLYQUERY_BIN"])
    built = [REPO / "target" / p / "polyquery" for p in ("release", "debug")]
    built = [b for b in built if b.exists()]
    assert built, "no built polyquery binary: run `cargo build -p polyquery-cli` (or set POLYQUERY_BIN)"
    return max(built, key=lambda b: b.stat().st_mtime)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    """A folder with `data` linked to the repository's and `polyquery` on the PATH."""
    folder = tmp_path_factory.mktemp("docs")
    (folder / "data").symlink_to(REPO / "data")
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    (bin_dir / "polyquery").symlink_to(binary())
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return folder, env


def run_command(command, scratch):
    folder, env = scratch
    return subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("page,line,code", [pytest.param(*p, id=f"{p[0]}:{p[1]}") for p in python_programs()])
def test_python_block_runs(page, line, code):
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, env=os.environ.copy(), timeout=300)
    assert out.returncode == 0, f"{page}:{line}:\n{out.stderr}"


@pytest.mark.parametrize("page,line,command,shown", [pytest.param(*c, id=f"{c[0]}:{c[1]}:{c[2][:40]}") for c in commands()])
def test_shown_command_runs(page, line, command, shown, scratch):
    out = run_command(command, scratch)
    assert out.returncode == 0, f"{page}:{line}: {command}\n{out.stderr}"
    assert_shows(page, line, command, shown, out.stdout + out.stderr)


def test_every_block_found():
    """The block reader sees the README's examples (a reader that found none would pass)."""
    assert len(python_programs()) >= 2 and len(commands()) >= 10
    assert sum(p == "README.md" for p, *_ in commands()) == 3
    assert sum(len(shown) for *_, shown in commands()) >= 40


def test_pages_with_rust_code_are_doctests():
    lib = (REPO / "src" / "lib.rs").read_text()
    for page in PAGES:
        if any(lang == "rust" for lang, *_ in blocks(page)):
            name = "README.md" if page.name == "README.md" else f"docs/{page.name}"
            assert f'include_str!("../{name}")' in lib, f"{name} has Rust code but is not a doctest in src/lib.rs"


def test_no_issue_numbers_or_targets():
    for page in PAGES:
        for n, text in enumerate(page.read_text().splitlines(), 1):
            for pattern in FORBIDDEN:
                assert not re.search(pattern, text), f"{page.name}:{n}: {text}"


def test_mkdocs_nav_lists_every_page():
    """Every page is in mkdocs.yml's nav (CI's `mkdocs build --strict` checks it too, where
    MkDocs is installed)."""
    config = (REPO / "mkdocs.yml").read_text()
    listed = set(re.findall(r":\s*(\S+\.md)\s*$", config, flags=re.M))
    assert listed == {p.name for p in PAGES if p.name != "README.md"}
