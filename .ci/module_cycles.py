#!/usr/bin/env python3
"""Import circles between the modules of each crate.

A module (one `.rs` file, or a `mod name { … }` block inside one, counted with its file)
*imports* another when a path in it — a private `use` line or a path written in code such
as `crate::a::b::f()` or `super::x::Y` — names an item that lives in the other. A re-export
(`pub use child::Item;`, `pub(crate) use …`) is a declaration, like `mod child;`: it makes
no edge, and an item named through it lives where it is defined. So a facade (`lib.rs`, a
`mod.rs`) that only declares and re-exports its children is in no circle with them. A circle is a strongly connected group of two or more
modules; the report names the edges inside it with the line that makes each. The same
check runs again with every module folded into its ancestor at each depth, so that two
folders importing each other (`format::codec` -> `pointloc::memory_hints` and
`pointloc::encode` -> `format::codec`) are a circle too, though no single file is in one.

Crates checked: every `src/` tree of the workspace and of the Python binding. Test trees
(`tests/`, `benches/`) are programs, not modules of a crate, and are not checked.

Usage: python3 .ci/module_cycles.py [--graph]   (exits 1 when a circle is found)
"""

import os
import re
import sys

from rust_items import KINDS, NAME, QUALIFIERS, VISIBILITY

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

ATTRS = r"^\s*(?:#\[[^\]]*\]\s*)*"
ITEM_DEF = re.compile(ATTRS + rf"(?:{VISIBILITY}\s+)?{QUALIFIERS}(macro_rules!|{KINDS[1:-1]})\s+{NAME}")
MOD_DECL = re.compile(ATTRS + rf"(?:{VISIBILITY}\s+)?mod\s+{NAME}\s*;")
INLINE_MOD = re.compile(rf"^\s*(?:{VISIBILITY}\s+)?mod\s+{NAME}\s*\{{")
PATH_ATTR = re.compile(r'#\[path\s*=\s*"([^"]+)"\]')
USE_START = re.compile(rf"^\s*({VISIBILITY}\s+)?use\s+")
CODE_PATH = re.compile(r"(?<![A-Za-z0-9_:])([a-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)+)")


def strip_comments(text):
    """Source without comments and string literals (their contents become spaces)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            end = n if end < 0 else end + 1 + len(hashes)
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:end]))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('"' + "".join(ch if ch == "\n" else " " for ch in text[i + 1:j]) + '"')
            i = j + 1
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 4]) or (c == "'" and text.startswith("'\\", i)):
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\x[0-9a-fA-F]{2}|\\.|[^\\'])'", text[i:])
            if m:
                out.append(" " * len(m.group(0)))
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


class Module:
    def __init__(self, path, file):
        self.path = path          # tuple of names from the crate root
        self.file = file
        self.defs = set()         # names defined here (items and child modules)
        self.children = {}        # child module name -> module path
        self.names = []           # (name or '*', target path) brought in by `use`, public or not
        self.refs = []            # (target path, line): what this module imports


def split_use_tree(tree):
    """`a::{b, c::{d, e as f}}` -> [(('a','b'), None), (('a','c','d'), None), (('a','c','e'), 'f')]."""
    tree = tree.strip()
    results = []

    def walk(prefix, s):
        s = s.strip()
        if not s:
            return
        depth, parts, cur = 0, [], ""
        if "{" in s:
            head, _, rest = s.partition("{")
            body = rest[: rest.rfind("}")]
            head = head.strip().rstrip(":").strip()
            new_prefix = prefix + tuple(p for p in head.split("::") if p)
            for ch in body:
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
                if ch == "," and depth == 0:
                    parts.append(cur)
                    cur = ""
                else:
                    cur += ch
            parts.append(cur)
            for p in parts:
                walk(new_prefix, p)
            return
        alias = None
        m = re.match(r"(.*?)\s+as\s+([A-Za-z_][A-Za-z0-9_]*)$", s)
        if m:
            s, alias = m.group(1), m.group(2)
        segs = tuple(p.strip() for p in s.split("::") if p.strip())
        results.append((prefix + segs, alias))

    walk((), tree)
    return results


def parse_crate(root_file):
    modules = {}

    def load(path, file):
        raw = open(file, encoding="utf-8").read()
        raw_lines = raw.split("\n")   # attributes (`#[path]`, `#[cfg(test)]`) are read here
        mod = Module(path, file)
        modules[path] = mod
        # inline `mod name {` blocks: (is a test module, brace depth at open)
        stack, depth = [], 0
        pending_path_attr = None
        statement = None
        for lineno, line in enumerate(strip_comments(raw).split("\n"), 1):
            inline = bool(stack)
            in_test = any(is_test for is_test, _ in stack)
            m = PATH_ATTR.search(raw_lines[lineno - 1])
            if m:
                pending_path_attr = m.group(1)
            if statement is not None:
                statement[0] += " " + line
                if ";" in line:
                    record_use(mod, *statement)
                    statement = None
            elif not in_test:
                um = USE_START.match(line)
                if um:
                    statement = [line[um.end():], lineno, bool(um.group(1)), inline]
                    if ";" in line:
                        record_use(mod, *statement)
                        statement = None
                else:
                    for pm in CODE_PATH.finditer(line):
                        segs = tuple(pm.group(1).split("::"))
                        if segs[0] in ("crate", "super", "self"):
                            mod.refs.append((rel_to(path, inline, segs), lineno))
                        else:
                            mod.refs.append((("<code>",) + segs, lineno))
            dm = MOD_DECL.match(line)
            if dm:
                name = dm.group(1)
                if not stack:
                    mod.defs.add(name)
                    child_file = child_path(file, name, pending_path_attr)
                    if child_file and os.path.exists(child_file):
                        mod.children[name] = path + (name,)
                        load(path + (name,), child_file)
                pending_path_attr = None
            else:
                im = INLINE_MOD.match(line)
                if im:
                    attrs = " ".join(raw_lines[max(0, lineno - 3):lineno])
                    stack.append(("cfg(test)" in attrs or im.group(1) == "tests", depth))
                dd = ITEM_DEF.match(line)
                if dd and not stack:
                    mod.defs.add(dd.group(2))
            depth += line.count("{") - line.count("}")
            while stack and depth <= stack[-1][1]:
                stack.pop()
        return mod

    def record_use(mod, text, lineno, is_pub, inline):
        """A `use` statement: every name it brings in; a private one also imports."""
        for segs, alias in split_use_tree(text[: text.find(";")]):
            full = rel_to(mod.path, inline, segs)
            if full is None:
                continue
            if not is_pub:
                mod.refs.append((full, lineno))
            mod.names.append((alias or segs[-1], full))

    def child_path(file, name, attr):
        d = os.path.dirname(file)
        base = os.path.basename(file)
        if attr:
            return os.path.join(d, attr)
        if base in ("lib.rs", "main.rs", "mod.rs"):
            cands = [os.path.join(d, name + ".rs"), os.path.join(d, name, "mod.rs")]
        else:
            stem = base[:-3]
            cands = [os.path.join(d, stem, name + ".rs"), os.path.join(d, stem, name, "mod.rs")]
        for c in cands:
            if os.path.exists(c):
                return c
        return None

    load((), root_file)
    return modules


def rel_to(path, inline, segs):
    """Absolute module path (from the crate root) of a path written in module `path`."""
    if not segs:
        return None
    if segs[0] == "crate":
        return segs[1:]
    base = list(path)
    rest = list(segs)
    if rest[0] == "self":
        return tuple(base) + tuple(rest[1:])
    if rest[0] == "super":
        # inside an inline module `super` is the file's module
        if inline:
            rest = rest[1:]
        while rest and rest[0] == "super":
            if not base:
                return None
            base.pop()
            rest = rest[1:]
        return tuple(base) + tuple(rest)
    # a plain path in a `use`: an extern crate, or (edition 2018+) a child module name
    return ("<local>",) + tuple(path) + tuple(segs)


def resolve(modules, full, seen=None):
    """The module (file) where the item named by `full` lives, or None (extern or unknown)."""
    if not full:
        return ()
    seen = seen or set()
    if full[0] == "<local>":
        # `use name::…` written in a module: a child module of it, or an extern crate
        local = tuple(full[1:])
        for k in range(len(local), 0, -1):
            if local[:k] in modules and k > 0:
                parent = modules.get(local[: k - 1])
                if parent is not None and local[k - 1] in parent.children:
                    return resolve(modules, local, seen)
        return None
    # longest module prefix
    for k in range(len(full), -1, -1):
        prefix = tuple(full[:k])
        if prefix in modules:
            rest = full[k:]
            if not rest:
                return prefix
            mod = modules[prefix]
            item = rest[0]
            if item in mod.defs:
                return prefix
            key = (prefix, item)
            if key in seen:
                return prefix
            seen.add(key)
            for name, target in mod.names:
                if name == item:
                    r = resolve(modules, tuple(target) + tuple(rest[1:]), seen)
                    return r if r is not None else prefix
            for name, target in mod.names:
                if name == "*":
                    r = resolve(modules, tuple(target[:-1]) + tuple(rest), seen)
                    if r is not None and r != prefix:
                        return r
            return prefix
    return None


def edges_of(modules):
    edges = {}
    for path, mod in modules.items():
        aliases = {name: target for name, target in mod.names if name != "*"}
        for full, lineno in mod.refs:
            if full and full[0] == "<code>":
                # a path written in code: its first name is a child module or a `use`d name
                head, rest = full[1], tuple(full[2:])
                if head in mod.children:
                    full = mod.children[head] + rest
                elif aliases.get(head):
                    full = tuple(aliases[head]) + rest
                else:
                    continue
            if full and full[0] == "<local>":
                local = full[1:]
                # child module of the current one, or an extern crate (ignored)
                if len(local) > len(path) and tuple(local[: len(path) + 1]) in modules:
                    full = tuple(local)
                else:
                    continue
            if full and full[-1] == "*":
                full = full[:-1]
            target = resolve(modules, tuple(full))
            if target is None or target == path:
                continue
            # a parent declaring its child is not an import; a `use` of it is
            edges.setdefault((path, target), (mod.file, lineno))
    return edges


def sccs(nodes, edges):
    graph = {n: [] for n in nodes}
    for (a, b) in edges:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    sys.setrecursionlimit(10000)

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    for v in list(graph):
        if v not in index:
            strong(v)
    return [c for c in out if len(c) > 1]


def is_ancestor(a, b):
    """Whether module `a` contains module `b` (a parent and its child are one folder)."""
    return len(a) < len(b) and tuple(b[: len(a)]) == tuple(a)


def crate_roots():
    """Every `src/lib.rs` and `src/main.rs` of the workspace and of the Python binding."""
    found = []
    for dirpath, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in ("target", ".git", "node_modules", ".venv-ci", "tests", "benches")]
        if os.path.basename(dirpath) == "src":
            for root in ("lib.rs", "main.rs"):
                if root in files:
                    found.append(os.path.join(dirpath, root))
    return sorted(found)


def main():
    show_graph = "--graph" in sys.argv
    circles = 0
    reported = set()
    for root_file in crate_roots():
        modules = parse_crate(root_file)
        edges = edges_of(modules)
        name = os.path.relpath(root_file, ROOT)
        if show_graph:
            print(f"# {name}")
            for (a, b), (f, l) in sorted(edges.items()):
                print(f"  {'::'.join(a) or 'crate'} -> {'::'.join(b) or 'crate'}   ({os.path.relpath(f, ROOT)}:{l})")
        depth = max((len(m) for m in modules), default=0)
        # files, then the same graph with every module folded into its ancestor at each
        # depth (`format::codec` -> `format`): a circle between two folders counts too
        for level in [None] + list(range(depth - 1, 0, -1)):
            fold = (lambda m: m) if level is None else (lambda m, k=level: m[:k])
            folded = {}
            for (a, b), where in edges.items():
                fa, fb = fold(a), fold(b)
                if fa != fb and not is_ancestor(fa, fb) and not is_ancestor(fb, fa):
                    folded.setdefault((fa, fb), where)
                elif fa != fb and level is None:
                    folded.setdefault((fa, fb), where)
            nodes = sorted({fold(m) for m in modules})
            for comp in sccs(nodes, folded):
                members = sorted("::".join(m) or "crate" for m in comp)
                key = (name, tuple(members))
                if key in reported:
                    continue
                reported.add(key)
                circles += 1
                how = "modules" if level is None else f"folders at depth {level}"
                print(f"circle in {name} ({how}): {', '.join(members)}")
                comp_set = set(comp)
                for (a, b), (f, l) in sorted(edges.items()):
                    if fold(a) in comp_set and fold(b) in comp_set and fold(a) != fold(b):
                        print(f"    {'::'.join(a) or 'crate'} -> {'::'.join(b) or 'crate'}   {os.path.relpath(f, ROOT)}:{l}")
    if circles:
        print(f"{circles} import circle(s) found", file=sys.stderr)
        return 1
    print("no import circles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
