"""
calibrate_tail.py - scripts/calibrate --tail: the far tail of the pooled
statistics, measured through the program's own code.

For each statistic that pools a 1-D law and each number of samples, the
driver build/sb_calibrate_tail (tests/calibrate_tail.c) draws REPS count
vectors from the statistic's exact null, refers each to the statistic with
the library's own pooling and p-value, and counts the p-values below
1e-2 .. 1e-7.  This script runs the settings two at a time, puts 95%
Clopper-Pearson intervals on the rates (battery_runs.binomial_interval: the
exact interval by bisection on the binomial distribution, the project's own
code - scipy is not assumed), and writes the table into docs/calibration.md
between the markers below, and out/calibration-tail.json.

The replicates per setting: REPS at 2,000 and 5,000 samples, a quarter of
it at 10^5 and a tenth at 10^6 (each replicate costs more there), and a
tenth of those for the statistics whose replicates cost ten times more
(inversions and the deal statistics); how long that takes: docs/speed.md.
--rerender writes the section again from out/calibration-tail.json.  Seeds: 7000000 + 100 i + j
for the i-th statistic and the j-th size, so a second driver (--before)
sees exactly the same counts.
"""

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import battery_runs as br

REPS = 2000000
SIZES = (2000, 5000, 100000, 1000000)
LEVELS = (1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7)
SHOWN = (1e-5, 1e-6, 1e-7)
# (statistic, kind of sample, costly)
STATS = (
    ("successions", "shuffle", False),
    ("fixed-points", "shuffle", False),
    ("cycles", "shuffle", False),
    ("rising", "shuffle", False),
    ("descents", "shuffle", False),
    ("poker7", "shuffle", False),
    ("inversions", "shuffle", True),
    ("serial", "draw of 7", False),
    ("hand-patterns", "deal 4 x 13", True),
    ("suit-lengths", "deal 4 x 13", True),
    ("hcp", "deal 4 x 13", True),
)
BEGIN = "<!-- calibrate --tail: begin -->"
END = "<!-- calibrate --tail: end -->"


def reps_for(reps, samples, costly):
    r = reps if samples <= 5000 else reps // 4 if samples <= 100000 \
        else reps // 10
    return max(1, r // 10 if costly else r)


def seed_for(i, j):
    return 7000000 + 100 * i + j


def run_driver(driver, name, samples, reps, seed):
    t0 = time.monotonic()
    out = subprocess.run([driver, name, str(samples), str(reps), str(seed)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True)
    if out.returncode != 0:
        raise RuntimeError("%s %s %d: %s" % (driver, name, samples,
                                             out.stderr.strip()))
    f = out.stdout.split()
    below = [int(x) for x in f[4:4 + len(LEVELS)]]
    return {"reps": int(f[2]), "below": dict(zip(["%g" % a for a in LEVELS],
                                                 below)),
            "min_p": float(f[4 + len(LEVELS)]),
            "seconds": round(time.monotonic() - t0, 2)}


def measure(driver, settings, jobs, what):
    progress = br.Progress(what, len(settings), unit="settings",
                           estimate=False)
    results = {}

    def one(s):
        r = run_driver(driver, *s)
        progress.step()
        return s, r

    with ThreadPoolExecutor(max_workers=jobs) as ex:
        for s, r in ex.map(one, settings):
            results[(s[0], s[1])] = r
    return results


def cell(r, a):
    if r is None:
        return "-"
    k, n = r["below"]["%g" % a], r["reps"]
    text = br.fmt_rate(k, n)
    lo, _ = br.binomial_interval(k, n)
    return text + (" **high**" if lo > a else "")


def render(cfg, after, before):
    lines = []
    w = lines.append
    w(BEGIN)
    w("## The far tail of the pooled statistics\n")
    w("Made by `%s`, from source %s, in %s on %d jobs.\n"
      % (cfg["command"], cfg["revision"], br.duration(cfg["seconds"]),
         cfg["jobs"]))
    w("The battery runs above cannot reach the level a verdict is decided "
      "at: a fail needs a Holm-adjusted p-value below 1e-6, so a single "
      "statistic's raw p-value below about 1e-7.  Here each statistic that "
      "pools a one-dimensional law is fed counts drawn from its exact null "
      "(a multinomial over its categories, before pooling), and the "
      "program's own pooling and p-value are applied to them "
      "(`build/sb_calibrate_tail`, from `tests/calibrate_tail.c`, which "
      "checks on its first replicates that its p-value is the one the "
      "statistic's own finalize gives).  52 cards; `serial` on draws of 7; "
      "the deal statistics on 4 hands of 13, each hand (and suit) drawn "
      "independently and combined by the statistic's own Bonferroni "
      "step.  Rates come with 95% Clopper-Pearson intervals (the "
      "project's own exact interval, `battery_runs.binomial_interval`); "
      "**high** marks an interval wholly above the level.\n")
    if before is not None:
        w("`before` is the same replicates (same seeds, so the same counts) "
          "through the code before the change, Pearson's X^2 over the pooled "
          "groups referred to chi-square; `after` is the current code, the "
          "exact binomial splits of `stats/gof.c`.  The driver for `before` "
          "was built from source %s: `%s`.\n"
          % (cfg.get("before_revision", "?"), cfg.get("before_how", "")))
    heads = ["statistic", "samples", "replicates"]
    for a in SHOWN:
        if before is not None:
            heads += ["p < %g before" % a, "p < %g after" % a]
        else:
            heads += ["p < %g" % a]
    rows = []
    for name, kind, _ in STATS:
        for n in SIZES:
            r = after.get((name, n))
            if r is None:
                continue
            row = ["`%s` (%s)" % (name, kind), br.fmt_int(n),
                   br.fmt_int(r["reps"])]
            for a in SHOWN:
                if before is not None:
                    row.append(cell(before.get((name, n)), a))
                row.append(cell(r, a))
            rows.append(row)
    w(br.md_table(heads, rows, "lrr" + "l" * (len(heads) - 3)))
    w("")
    w("Each interval misses the true rate one time in forty on the high "
      "side, so a rate that sits exactly at its level is marked **high** "
      "about one time in forty by chance (%d `after` intervals here).  "
      "Where every group is large (10^6 samples) the statistic is very "
      "nearly chi-square and its rate does sit at the level, not below "
      "it.\n" % (len(rows) * len(SHOWN)))
    w("What the counts can and cannot show: a rate of 1e-7 needs about "
      "3 x 10^7 replicates to be told from zero, more than this budget "
      "gives each setting, so the 1e-7 column bounds the rate from above "
      "only loosely; the 1e-5 and 1e-6 columns are where a liberal tail "
      "shows.  That the new p-values are valid at every level, 1e-7 "
      "included, is not left to sampling: it is a theorem (the "
      "construction in `stats/gof.c`), and `tests/test_gof_tail.c` checks "
      "it exactly, with no sampling, by enumerating every outcome of "
      "small multinomials whose groups are as sparse as these.")
    w(END)
    return "\n".join(lines)


def keep_section(md_path, text):
    """The full calibration rewrites docs/calibration.md: keep the tail
    section it holds."""
    try:
        old = open(md_path).read()
    except OSError:
        return text
    i, j = old.find(BEGIN), old.find(END)
    if i < 0 or j < 0:
        return text
    return text.rstrip("\n") + "\n\n" + old[i:j + len(END)] + "\n"


def write_section(md_path, section):
    try:
        old = open(md_path).read()
    except OSError:
        old = "# Calibration of the battery\n"
    i, j = old.find(BEGIN), old.find(END)
    if i >= 0 and j >= 0:
        new = old[:i] + section + old[j + len(END):]
    else:
        new = old.rstrip("\n") + "\n\n" + section + "\n"
    br.write_text(md_path, new)


def rerender():
    """The section again from out/calibration-tail.json."""
    root = br.ROOT
    with open(os.path.join(root, "out", "calibration-tail.json")) as f:
        kept = json.load(f)
    def keyed(rows):
        return None if rows is None else {
            (r["statistic"], r["samples"]): r for r in rows}
    write_section(os.path.join(root, "docs", "calibration.md"),
                  render(kept["cfg"], keyed(kept["after"]),
                         keyed(kept["before"])))
    print("rewrote the tail section of docs/calibration.md")
    return 0


def main(args, argv):
    if args.rerender:
        return rerender()
    root = br.ROOT
    driver = args.driver or os.path.join(root, "build", "sb_calibrate_tail")
    settings = [(name, n, reps_for(args.reps, n, costly), seed_for(i, j))
                for i, (name, _, costly) in enumerate(STATS)
                for j, n in enumerate(SIZES)]
    t0 = time.monotonic()
    after = measure(driver, settings, args.jobs, "calibrate --tail")
    before = None
    cfg = {"command": br.command_line("calibrate", argv),
           "revision": br.source_revision(root), "jobs": args.jobs}
    if args.before:
        before = measure(args.before, settings, args.jobs,
                         "calibrate --tail (before)")
        bdir = os.path.dirname(os.path.dirname(os.path.abspath(args.before)))
        # Dirty by the driver added to it, nothing else.
        rev = br.source_revision(bdir).replace("-dirty", "")
        cfg["before_revision"] = rev
        cfg["before_how"] = ("git worktree add OLD %s; copy "
                             "tests/calibrate_tail.c and its lines of "
                             "CMakeLists.txt there; build OLD/build" % rev)
        cfg["command"] = cfg["command"].replace(
            args.before, "OLD/build/sb_calibrate_tail")
    cfg["seconds"] = time.monotonic() - t0
    md_path = os.path.join(root, "docs", "calibration.md")
    write_section(md_path, render(cfg, after, before))
    br.write_json(os.path.join(root, "out", "calibration-tail.json"), {
        "cfg": cfg,
        "command": cfg["command"], "revision": cfg["revision"],
        "sizes": list(SIZES), "levels": list(LEVELS),
        "after": [dict(statistic=k[0], samples=k[1], seed=s[3], **v)
                  for s in settings for k, v in after.items()
                  if k == (s[0], s[1])],
        "before": None if before is None else
        [dict(statistic=k[0], samples=k[1], **v)
         for k, v in before.items()]})
    print("wrote docs/calibration.md (tail section) and "
          "out/calibration-tail.json (%s)" % br.duration(cfg["seconds"]))
    for name, _, _ in STATS:
        for n in SIZES:
            r = after[(name, n)]
            b = before[(name, n)] if before else None
            print("  %-14s %8d  reps %8d  p<1e-6 %3d  p<1e-7 %3d%s"
                  % (name, n, r["reps"], r["below"]["1e-06"],
                     r["below"]["1e-07"],
                     "  (before %d, %d)" % (b["below"]["1e-06"],
                                            b["below"]["1e-07"])
                     if b else ""))
    return 0
