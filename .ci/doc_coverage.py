#!/usr/bin/env python3
"""Doc coverage: every public item states what it is with an example or a formula.

Rule checked (issue 12, item 3): every public item of the library (`src/`) and of the
command-line crate (`crates/polyquery-cli/src/`, including the binary-only `cli/` modules)
has a doc comment that contains EITHER

  * a fenced code block (a line starting with ```), i.e. a runnable example (doctest), OR
  * an inline code span (`...`) holding a formula or definition: it contains one of
    `=`, `→`, `←`, `≤`, `≥`, `≠`, `≈`, `×`, `·`, `⊖`, `∈`, `∉`, `⊂`, `⊆`, `∪`, `∩`, `√`, `Σ`, `∑`, `∞`, `‖`, `⟺`, `⇔`, `⟶`, `⇒`, `⟹`, `↦`,
    `<=`, `>=`, `<-`, `->`, `=>`, or a binary operator surrounded by spaces (` + `, ` - ` or ` − `,
    ` * `, ` / `, ` % `, ` < `, ` > `), OR
  * a definition `` `name` = … `` / `` `name` ≤ … `` / `` … × `name` ``: an inline code span
    directly before or after (spaces aside) one of the symbols above.

Public items: `pub` (exactly `pub`, not `pub(crate)` / `pub(super)`) fn, struct, enum, trait,
union, const, static, type and mod; `pub` fields of structs and of enum struct-variants;
the variants of `pub` enums; the methods, constants and types declared in `pub` traits.
Items inside `#[cfg(test)]` modules and files named `tests.rs` are skipped. Fields and variants
carrying a clap attribute (`#[arg(..)]`, `#[command(..)]`) are command-line options whose doc is
their `--help` text, written for users: they need a doc, not a formula (the CLI test
`help_speaks_the_users_words` keeps Rust internals out of those texts). The doc comment
is the run of `///` lines (or `#[doc = "..."]` attributes) before the item; attributes
(`#[derive(..)]`, `#[must_use]`, `#[serde(..)]`, multi-line ones) and plain `//` comments
between the doc and the item are skipped. For `pub mod name;` the module file's `//!` inner
doc counts as well.

Usage: python3 .ci/doc_coverage.py [--list] [--summary] [ROOT ...]
Exits 1 (and lists the items) when any public item lacks an example or a formula.
"""

import os
import re
import sys

from rust_items import KINDS, NAME, QUALIFIERS

ROOTS = ["src", "crates/polyquery-cli/src", "crates/polyquery-report/src"]

FORMULA_SYMBOLS = [
    "=", "→", "←", "≤", "≥", "≠", "≈", "×", "·", "⊖", "∈", "∉", "⊂", "⊆", "∪", "∩", "√", "Σ", "∑", "∞", "‖", "⟺", "⇔", "⟶", "⇒", "⟹", "↦",
    "<-", "->",
]
FORMULA_OPS = re.compile(r"\S \s*[-−+*/%<>] \s*\S")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")

ITEM_RE = re.compile(rf"^pub\s+{QUALIFIERS}{KINDS}\s+(?:mut\s+)?{NAME}")
FIELD_RE = re.compile(r"^pub\s+([A-Za-z_][A-Za-z0-9_]*)\s*:")
VARIANT_FIELD_RE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*:")
VARIANT_RE = re.compile(r"^([A-Z][A-Za-z0-9_]*)\s*(?:[({,=]|$)")
TRAIT_ITEM_RE = re.compile(
    r"^(?:(?:const|async|unsafe)\s+)*(fn|const|type)\s+([A-Za-z_][A-Za-z0-9_]*)"
)


def has_example_or_formula(doc_lines):
    """True if the doc has a ``` block or a formula-like inline code span."""
    for line in doc_lines:
        if line.lstrip().startswith("```"):
            return True
    text = " ".join(line.strip() for line in doc_lines)
    for match in CODE_SPAN.finditer(text):
        span = match.group(2)
        if any(sym in span for sym in FORMULA_SYMBOLS):
            return True
        if FORMULA_OPS.search(span):
            return True
        # a span inside a link, [`name`](target) or [`name`], counts as the span itself
        after = re.sub(r"^\](\([^)]*\))?", "", text[match.end():]).lstrip()
        before = text[: match.start()].rstrip("[").rstrip()
        for sym in FORMULA_SYMBOLS:
            if after.startswith(sym) or before.endswith(sym):
                return True
    return False


def strip_code(line, state):
    """Removes strings, char literals and comments; returns (code, state).

    `state` is None, or ("block", depth) inside a block comment, or ("str", hashes) inside
    a (raw) string literal that spans lines.
    """
    out = []
    i = 0
    n = len(line)
    while i < n:
        if state is not None:
            kind, val = state
            if kind == "block":
                if line.startswith("*/", i):
                    val -= 1
                    i += 2
                    state = None if val == 0 else ("block", val)
                    continue
                if line.startswith("/*", i):
                    state = ("block", val + 1)
                    i += 2
                    continue
                i += 1
                continue
            # inside a string
            if val is None:  # ordinary string
                if line[i] == "\\":
                    i += 2
                    continue
                if line[i] == '"':
                    state = None
                    out.append('""')
                i += 1
                continue
            closing = '"' + "#" * val
            if line.startswith(closing, i):
                state = None
                out.append('""')
                i += len(closing)
                continue
            i += 1
            continue
        c = line[i]
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            state = ("block", 1)
            i += 2
            continue
        m = re.match(r'b?r(#*)"', line[i:])
        if m and (i == 0 or not (line[i - 1].isalnum() or line[i - 1] == "_")):
            state = ("str", len(m.group(1)))
            i += m.end()
            continue
        if c == '"' or (c == "b" and line.startswith('b"', i)):
            state = ("str", None)
            i += 2 if c == "b" else 1
            continue
        if c == "'":
            m = re.match(r"'(\\.|\\u\{[0-9a-fA-F]+\}|[^\\'])'", line[i:])
            if m:
                out.append("' '")
                i += m.end()
                continue
        out.append(c)
        i += 1
    return "".join(out), state


def inner_doc(path):
    """The `//!` lines at the top of a module file."""
    lines = []
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                s = line.strip()
                if s.startswith("//!"):
                    lines.append(s[3:])
                elif s.startswith("#![") or s == "" or (s.startswith("//") and not s.startswith("///")):
                    continue
                else:
                    break
    except OSError:
        pass
    return lines


def module_file(path, name):
    base = os.path.dirname(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    if stem not in ("mod", "lib", "main"):
        base = os.path.join(base, stem)
    for cand in (os.path.join(base, name + ".rs"), os.path.join(base, name, "mod.rs")):
        if os.path.exists(cand):
            return cand
    return None


def scan_file(path):
    """Yields (line_no, kind, name, ok) for every public item of one file."""
    with open(path, encoding="utf-8") as f:
        raw_lines = f.read().split("\n")

    doc = []            # doc lines collected for the next item
    attr_depth = 0      # bracket depth while inside a multi-line attribute
    attr_text = ""
    cfg_test_pending = False
    clap_pending = False  # the next field or variant is a command-line option (`#[arg(..)]`)
    state = None        # lexer state across lines
    depth = 0           # brace depth
    # stack of (kind, depth_inside) for pub struct / pub enum / pub trait bodies and
    # skipped (#[cfg(test)]) modules
    stack = []
    pending = None      # (kind, header_complete?) waiting for its opening brace
    variant_struct_depth = None

    for idx, raw in enumerate(raw_lines):
        line_no = idx + 1
        if state is None:
            s = raw.strip()
            # doc comments
            if s.startswith("///") and not s.startswith("////"):
                doc.append(s[3:])
                continue
            if s.startswith("//!"):
                continue
            if s.startswith("//") or s == "":
                continue
            # attributes (possibly multi-line), including #[doc = "..."]
            if attr_depth == 0 and s.startswith("#[") or attr_depth > 0:
                code, _ = strip_code(s, None)
                if attr_depth == 0:
                    attr_text = s
                else:
                    attr_text += " " + s
                attr_depth += code.count("[") - code.count("]")
                if attr_depth <= 0:
                    attr_depth = 0
                    m = re.match(r'#\[\s*doc\s*=\s*"(.*)"\s*\]$', attr_text)
                    if m:
                        doc.append(m.group(1))
                    elif re.match(r"#\[\s*doc\s*=", attr_text):
                        doc.append("```")  # include_str!: an included document with code
                    if re.match(r"#\[\s*cfg\s*\(\s*test\s*\)\s*\]", attr_text):
                        cfg_test_pending = True
                    if re.match(r"#\[\s*(arg|command)\b", attr_text):
                        clap_pending = True
                continue
        else:
            s = raw.strip()

        code, state = strip_code(raw, state)
        cs = code.strip()
        in_skip = any(k == "skip" for k, _ in stack)
        top = stack[-1] if stack else None

        if not in_skip and cs:
            m = ITEM_RE.match(cs)
            ctx = top[0] if top and top[1] == depth else None
            if cfg_test_pending:
                if re.match(r"(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{", cs):
                    pending = "skip"
            elif m:
                kind, name = m.group(1), m.group(2)
                item_doc = list(doc)
                if kind == "mod" and cs.rstrip().endswith(";"):
                    mf = module_file(path, name)
                    if mf:
                        item_doc += inner_doc(mf)
                if kind == "mod" and "{" in cs:
                    pass
                yield line_no, kind, name, has_example_or_formula(item_doc)
                if kind in ("struct", "enum", "trait", "union"):
                    pending = kind
            elif ctx in ("struct", "union", "variant"):
                fm = (FIELD_RE if ctx != "variant" else VARIANT_FIELD_RE).match(cs)
                if fm:
                    ok = bool(doc) if clap_pending else has_example_or_formula(doc)
                    yield line_no, "field", fm.group(1), ok
            elif ctx == "enum":
                vm = VARIANT_RE.match(cs)
                if vm:
                    ok = bool(doc) if clap_pending else has_example_or_formula(doc)
                    yield line_no, "variant", vm.group(1), ok
                    if "{" in cs:
                        pending = "variant"
            elif ctx == "trait":
                tm = TRAIT_ITEM_RE.match(cs)
                if tm:
                    yield line_no, "trait " + tm.group(1), tm.group(2), has_example_or_formula(doc)
            elif not cs.startswith("pub"):
                # a non-public item with braces (impl, fn, mod) opens an untracked block
                pass
        doc = []
        cfg_test_pending = False
        clap_pending = False

        # brace tracking
        for ch in code:
            if ch == "{":
                depth += 1
                if pending is not None:
                    stack.append((pending, depth))
                    pending = None
            elif ch == "}":
                if stack and stack[-1][1] == depth:
                    stack.pop()
                depth -= 1
            elif ch == ";" and pending is not None and pending != "variant":
                # unit / tuple struct: no body
                if pending in ("struct", "union", "skip"):
                    pending = None
        if pending == "variant" and "{" not in code:
            pending = None


def collect(roots):
    missing = []
    total = 0
    per_module = {}
    for root in roots:
        walk = [(os.path.dirname(root), [], [os.path.basename(root)])] if os.path.isfile(root) else os.walk(root)
        for dirpath, _, files in walk:
            for fname in sorted(files):
                if not fname.endswith(".rs") or fname == "tests.rs":
                    continue
                path = os.path.join(dirpath, fname)
                for line_no, kind, name, ok in scan_file(path):
                    total += 1
                    if not ok:
                        missing.append((path, line_no, kind, name))
                        key = os.path.dirname(path)
                        per_module[key] = per_module.get(key, 0) + 1
    return total, missing, per_module


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    roots = args or ROOTS
    here = os.path.dirname(os.path.abspath(__file__))
    os.chdir(os.path.dirname(here))
    total, missing, per_module = collect(roots)
    if "--summary" in argv or missing:
        for key in sorted(per_module):
            print(f"{per_module[key]:4d}  {key}/")
    for path, line_no, kind, name in missing:
        print(f"{path}:{line_no}: {kind} `{name}` has no example (```) or formula in its doc")
    print(
        f"doc coverage: {total - len(missing)} of {total} public items have an example or a "
        f"formula; {len(missing)} lack one"
    )
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
