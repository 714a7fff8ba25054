"""The counted figures the README and docs/ quote are what the code computes today.

Each test runs what a page shows (the built command line, as `test_docs.py` finds it, or the
Python package) and asserts that the page quotes the same counts: colliding configurations
and motions, distance queries per motion, active pairs, the pickled checker's size. Timings
are not checked (they are measurements, with their command and machine beside them). Text is
compared with runs of white space made one space, so a figure may wrap. About 2 s in all with
a warm shape cache.
"""

import importlib.util
import json
import math
import pickle
import re
import subprocess

import pytest

from conftest import PANDA, REPO
from test_docs import binary

ROBOT = ["data/robots/panda/panda.urdf", "--srdf", "data/robots/panda/panda.srdf"]
SCENE = ["--scene", "data/robots/panda/scene_table_shelf.json"]


def page(name):
    return " ".join((REPO / name).read_text().split())


def quoted(name, text):
    text = " ".join(text.split())
    assert text in page(name), f"{name} does not quote: {text}"


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("figures")


def polyquery(*args, cwd=REPO):
    out = subprocess.run([str(binary()), *args], cwd=cwd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stderr


def test_bundled_configurations(out_dir):
    configs = ["--configs", "data/robots/panda/configs_1000.txt"]
    summary = polyquery("robot", "check", *ROBOT, *SCENE, *configs, "--out", str(out_dir / "v.jsonl"))
    counted = re.match(r"1000 configurations, 339 colliding \(33\.9 %\)", summary)
    assert counted, summary  # data/robots/panda/README.md: pinocchio + coal's 339
    for name in ("README.md", "docs/robots.md"):
        quoted(name, counted.group(0))
    lines = (out_dir / "v.jsonl").read_text().splitlines()
    quoted("docs/robots.md", lines[0] + " " + lines[5])


def test_motions_and_their_distance_queries(out_dir):
    motions = ["--random", "2000", "--max-step", "1"]
    certified = polyquery("robot", "motion", *ROBOT, *SCENE, *motions, "--out", str(out_dir / "m.jsonl"))
    sampled = polyquery("robot", "motion", *ROBOT, *SCENE, *motions, "--resolution", "0.01", "--out", str(out_dir / "s.jsonl"))
    for summary in (certified, sampled):
        first = summary.splitlines()[0]
        queries = re.search(r"\d+ distance queries, \d+ per motion", summary).group(0)
        quoted("docs/robots.md", first)
        quoted("docs/robots.md", queries)
    per_motion = re.search(r"(\d+) per motion", certified).group(1)
    quoted("README.md", f"with {per_motion} distance queries per motion")
    quoted("README.md", "`" + re.match(r"2000 motions, \d+ colliding \([\d.]+ %\), certified", certified).group(0) + "`")
    m = (out_dir / "m.jsonl").read_text().splitlines()
    s = (out_dir / "s.jsonl").read_text().splitlines()
    quoted("docs/robots.md", " ".join([m[3], m[846], s[846]]))
    assert '"free":false' in m[846] and '"free":true' in s[846]  # the motion sampling misses


def test_random_configurations_with_distances(out_dir):
    args = ["--random", "10000", "--seed", "7", "--distance", "--json", "--out", str(out_dir / "d.jsonl")]
    summary = polyquery("robot", "check", *ROBOT, *SCENE, *args)
    counted = re.search(r'"colliding":\d+,"colliding_fraction":[\d.]+', summary).group(0)
    quoted("docs/robots.md", '{"configurations":10000,' + counted)
    lines = (out_dir / "d.jsonl").read_text().splitlines()
    quoted("docs/robots.md", lines[0] + " " + lines[1])


def test_robot_info_counts():
    info = subprocess.run([str(binary()), "robot", "info", *ROBOT, *SCENE], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert info.returncode == 0, info.stderr
    text = info.stdout
    links = re.search(r"robot panda: \d+ links, \d+ configuration values", text).group(0)
    quoted("docs/robots.md", links)
    pairs = {k: re.search(rf"^{re.escape(k)}: (\d+)$", text, flags=re.M).group(1) for k in ("allowed link pairs (SRDF)", "active self pairs", "active scene pairs")}
    for k, v in pairs.items():
        quoted("docs/robots.md", f"{k}: {v}")
    quoted("README.md", f"the {pairs['active self pairs']} link pairs and {pairs['active scene pairs']} link–obstacle pairs")


def test_pickled_checker_size():
    import polyquery as pq

    robot = pq.Robot.from_urdf(PANDA / "panda.urdf", srdf=PANDA / "panda.srdf")
    checker = pq.Checker(robot, pq.Scene.from_json(PANDA / "scene_table_shelf.json"))
    size = len(pickle.dumps(checker))
    quoted("docs/python.md", f"{size / 1e6:.2f} MB for the Panda")


def table_row(name, label):
    """The cells of the one Markdown table row of page `name` whose first cell is `label`."""
    rows = []
    for line in (REPO / name).read_text().splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[0] == label:
                rows.append(cells)
    assert len(rows) == 1, f"{name}: {len(rows)} table rows labelled {label!r}"
    return rows[0]


def test_all_700_problems(out_dir):
    """docs/planning.md on all 700 MotionBenchMaker problems at seed 0: its transcript's
    counts and length medians per set, its table's solved and length columns (rounded to two
    decimals: within 0.0055 of the printed three), and the work counted over the run. Each
    problem is planned on one thread with the seed, so these do not depend on the thread count
    or the machine (the times do, and are not checked). About 5 s on two threads."""
    d = "data/robots/mbm_panda/"
    summary = polyquery("robot", "plan", d + "panda.urdf", "--srdf", d + "panda.srdf", "--problems", d + "problems",
                        "--threads", "2", "--out", str(out_dir / "plans.jsonl"))
    transcript = (REPO / "docs/planning.md").read_text().splitlines()
    sets = 0
    for line in summary.splitlines():
        m = re.match(r"(\w+): ((\d+)/\d+ solved, \d+ invalid); planning ms .*; length median ([\d.]+)$", line)
        if not m:
            continue
        sets += 1
        name, counts, solved, length = m.group(1), m.group(2), m.group(3), m.group(4)
        quoted_lines = [t for t in transcript if t.startswith(name + ": ")]
        assert len(quoted_lines) == 1, name
        assert quoted_lines[0].startswith(f"{name}: {counts};"), quoted_lines[0]
        assert quoted_lines[0].endswith(f"length median {length}"), quoted_lines[0]
        label = "**all**" if name == "all" else name.removesuffix("_panda")
        cells = [c.strip("*") for c in table_row("docs/planning.md", label)]
        assert cells[1] == m.group(2).split()[0], (name, cells)
        assert abs(float(cells[-1]) - float(length)) <= 0.0055, (name, cells, length)
    assert sets == 8, summary
    solved_all = re.search(r"^all: (\d+)/(\d+) solved", summary, flags=re.M)
    quoted("README.md", f"{solved_all.group(1)} of {solved_all.group(2)} MotionBenchMaker Panda problems solved")
    for note in (line for line in summary.splitlines() if line.startswith("note: ")):
        assert note in transcript, f"docs/planning.md's transcript lacks: {note}"
    plans = [json.loads(line) for line in (out_dir / "plans.jsonl").read_text().splitlines()]
    assert len(plans) == 700
    first = next(t for t in transcript if t.startswith('{"problem":"bookshelf_small_panda/0001"'))
    plan = next(p for p in plans if p["problem"] == "bookshelf_small_panda/0001")
    assert f'"length":{json.dumps(plan["length"])}' in first, first
    state_checks = sum(p["state_checks"] for p in plans)
    certified = sum(p["certified_checks"] for p in plans)
    quoted("docs/planning.md", f"{state_checks / 1e6:.2f} million of them")
    quoted("docs/planning.md", f"now {state_checks / 1e6:.2f} million (seed 0)")
    quoted("docs/planning.md", f"certified motion checks ({certified:,}: the returned edges")


def test_plan_page_size(out_dir):
    """docs/planning.md's size of one problem's plan page (`--html`), in KB, to within 1 KB
    (the page carries the run's timings, whose digits vary)."""
    d = "data/robots/mbm_panda/"
    p = d + "problems/box_panda/"
    page_file = out_dir / "plan.html"
    polyquery("robot", "plan", d + "panda.urdf", "--srdf", d + "panda.srdf", "--scene", p + "scene0001.yaml",
              "--request", p + "request0001.yaml", "--out", str(out_dir / "plan.jsonl"), "--html", str(page_file))
    size_kb = page_file.stat().st_size / 1000
    kb = re.search(r"One problem's page is about (\d+) KB", page("docs/planning.md"))
    assert kb, "docs/planning.md quotes no page size"
    assert abs(size_kb - int(kb.group(1))) <= 1, size_kb


def three_figures(x):
    """`x` as docs/planning.md writes a time or length: three significant figures, whole
    numbers with grouped thousands from 1,000 on (`2956.575` → `2,957`, `0.5083` → `0.508`)."""
    if x >= 1000:
        return f"{round(x):,}"
    digits = max(0, 2 - math.floor(math.log10(x))) if x > 0 else 2
    return f"{x:.{digits}f}"


@pytest.mark.parametrize(
    "results, limit, per_set",
    [
        ("plan_ompl_1s.jsonl", "1 s limit", "Per set, OMPL with the adapter solved"),
        ("plan_ompl_10s.jsonl", "10 s limit", "OMPL with the adapter then solves"),
    ],
)
def test_ompl_side_by_side(results, limit, per_set):
    """docs/planning.md's side-by-side tables are the summary of the committed runs
    (`benches/results/`, re-summarised by `benches/plan_ompl.py`'s own `summarize`)."""
    spec = importlib.util.spec_from_file_location("plan_ompl", REPO / "benches" / "plan_ompl.py")
    plan_ompl = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plan_ompl)
    rows = [json.loads(line) for line in (REPO / "benches" / "results" / results).read_text().splitlines()]
    summary = plan_ompl.summary(rows)
    quoted("docs/planning.md", f"planner, one thread, {limit} | solved |")
    quoted("docs/planning.md", f"({summary[0]['common']} solved by all")
    labels = {
        "ompl_polyquery": "OMPL 2.0.1 RRTConnect + `polyquery.ompl`",
        "ompl_coal": "OMPL 2.0.1 RRTConnect + pinocchio",
        "polyquery": "polyquery `Planner`",
    }
    table = [
        line
        for line in (REPO / "docs" / "planning.md").read_text().split(f"planner, one thread, {limit}")[1].splitlines()[2:]
        if line.startswith("|")
    ]
    assert [s["planner"] for s in summary] == ["polyquery", "ompl_polyquery", "ompl_coal"]
    for s in summary:
        cells = next(
            [c.strip().replace("*", "") for c in row.strip("|").split("|")]
            for row in table
            if row.startswith(f"| {labels[s['planner']]}")
        )
        solved = f"{s['solved']}/{s['problems']}"
        assert cells[1] == solved, (s, cells)
        assert cells[2] == " / ".join(three_figures(x) for x in s["planning_ms"]), (s, cells)
        assert cells[3].split(" ")[0] == three_figures(s["simplify_ms"]), (s, cells)
        assert cells[4] == f"{three_figures(s['length'])} ({three_figures(s['common_length'])})", (s, cells)
        assert cells[5].split(" ")[0] == f"{s['not_certified_free']}/{s['solved']}", (s, cells)
    # The solved problems per set, in the sets' order (bookshelf small / tall / thin, box,
    # cage, table pick, table under pick), for each OMPL planner.
    def per_set_solved(planner):
        sets = sorted({r["problem"].split("/")[0] for r in rows})
        return " / ".join(
            str(sum(r["solved"] for r in rows if r["planner"] == planner and r["problem"].startswith(s + "/")))
            for s in sets
        )

    quoted("docs/planning.md", f"{per_set} {per_set_solved('ompl_polyquery')}")
    quoted("docs/planning.md", f"OMPL + coal {per_set_solved('ompl_coal')}")
