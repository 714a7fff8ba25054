"""MkDocs hooks (mkdocs.yml `hooks:`), run by `mkdocs build`.

* A line `<!-- include FILE -->` in a page is replaced by FILE (a path from the repository's
  root), its links into `docs/` rewritten to the site's pages: `docs/index.md` is the
  README, `docs/architecture.md` is ARCHITECTURE.md, so both stay where they are.
* In ```rust blocks, rustdoc's hidden lines (`# ` + code, or a lone `#`) are dropped: the
  pages are doctests (src/lib.rs includes them) and those lines only make them compile.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INCLUDE = re.compile(r"^<!-- include (\S+) -->$", re.M)
RUST_BLOCK = re.compile(r"^```rust\n(.*?)^```$", re.M | re.S)


def _included(match):
    text = (ROOT / match.group(1)).read_text()
    text = text.replace("](docs/", "](").replace("](ARCHITECTURE.md)", "](architecture.md)")
    return text


def _without_hidden_lines(match):
    lines = [
        line
        for line in match.group(1).splitlines(keepends=True)
        if not (line.lstrip().startswith("# ") or line.strip() == "#")
    ]
    return "```rust\n" + "".join(lines) + "```"


def on_page_markdown(markdown, page, config, files):
    markdown = INCLUDE.sub(_included, markdown)
    return RUST_BLOCK.sub(_without_hidden_lines, markdown)
