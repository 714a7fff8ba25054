#!/usr/bin/env python3
"""Checks each workspace member's declared `rust-version` (MSRV) against its dependencies.

For every member of the workspace, walks the resolved dependency graph of `cargo metadata`
(the member's normal, build and dev dependencies; below the member, normal and build
dependencies, as Cargo builds them) and fails when the member declares no `rust-version`,
when it is lower than the highest `rust-version` any of those packages declares, or lower
than its edition needs (2024: 1.85, 2021: 1.56). Prints the binding package per member.

It cannot check the member's own code against an older compiler (none can be installed
here); `cargo clippy` does part of that: its `incompatible_msrv` lint rejects standard
library items stabilised after the declared `rust-version`.
"""
import json
import subprocess
import sys

EDITION_MIN = {"2015": (1, 0, 0), "2018": (1, 31, 0), "2021": (1, 56, 0), "2024": (1, 85, 0)}


def version(text):
    parts = [int(x) for x in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def show(v):
    return ".".join(str(x) for x in v)


meta = json.loads(
    subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--locked"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
)
packages = {p["id"]: p for p in meta["packages"]}
nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
members = set(meta["workspace_members"])


def deps(node_id, kinds):
    for d in nodes[node_id]["deps"]:
        if any(k["kind"] in kinds for k in d["dep_kinds"]):
            yield d["pkg"]


failed = False
for member in sorted(members, key=lambda m: packages[m]["name"]):
    pkg = packages[member]
    declared = pkg.get("rust_version")
    if not declared:
        print(f"{pkg['name']}: no rust-version declared")
        failed = True
        continue
    need, why = EDITION_MIN[pkg["edition"]], f"edition {pkg['edition']}"
    seen, stack = set(), list(deps(member, {None, "build", "dev"}))
    while stack:
        dep = stack.pop()
        if dep in seen:
            continue
        seen.add(dep)
        dv = packages[dep].get("rust_version")
        if dv and dep not in members and version(dv) > need:
            need, why = version(dv), f"{packages[dep]['name']} {packages[dep]['version']}"
        stack.extend(deps(dep, {None, "build"}))
    ok = version(declared) >= need
    failed |= not ok
    print(
        f"{pkg['name']}: rust-version {declared} {'>=' if ok else '<'} {show(need)} "
        f"(needed by {why}; {len(seen)} dependencies checked)"
    )
sys.exit(1 if failed else 0)
