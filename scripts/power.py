"""
power.py - the measured power of the battery (scripts/power).

For each flawed setting at 52 cards: the number of samples at which the
default battery, with its default escalation, fails the algorithm (exit 1)
in at least 9 of 10 seeds.  N doubles from 100 (or the setting's own start);
at each N the runs go in seed order and the N is settled as soon as the
answer is known - 9 fails (found), or 2 runs that did not fail (too few
samples: double N) - so a hopeless N costs two runs, not ten.  A setting
still not found at the cap is reported as "> cap".  The statistic credited
with the catch is, in each failing run at the N found, the failing test with
the smallest Holm-adjusted p-value (all of them when tied, as when several
underflow to 0), and the one credited in the most runs is reported.

Which settings: the parameterised ones below (the named flaws, and the riffle
family pass by pass), plus every other algorithm that 'shufflebias list
--json' marks biased, at its defaults - so a flawed algorithm added later is
measured without a change here.

Writes docs/power.md and out/power.json (--quick: two settings, a small cap,
out/power-quick.{md,json}; docs/ only ever holds full runs).
"""

import argparse
import os
import sys
import time
from dataclasses import dataclass
from typing import Optional, Tuple

import battery_runs as br

N_CARDS = 52
START = 100
CAP = 2 ** 23
QUICK_CAP = 2 ** 15
RUNS, NEED = 10, 9


@dataclass(frozen=True)
class Setting:
    alg: str
    params: Tuple[str, ...] = ()
    rng: Optional[str] = None
    start: int = START

    @property
    def label(self):
        words = [self.alg] + list(self.params)
        if self.rng:
            words.append("--rng " + self.rng)
        return " ".join(words)


def named_settings():
    """The flaws the battery exists to catch, with the parameters that make
    them flaws (a key of 8 bits ties often; a riffle is biased for every
    number of passes)."""
    s = [Setting("naive-swap"), Setting("sattolo"),
         Setting("fisher-yates-mod"),
         Setting("sort-random-keys", ("key-bits=8",))]
    s += [Setting("sort-random-comparator", ("sort=" + sort,))
          for sort in ("exchange", "insertion", "merge", "quick", "qsort")]
    s += [Setting("riffle", ("passes=%d" % k,)) for k in range(1, 11)]
    s += [Setting("human-packet", ("passes=%d" % k,)) for k in range(1, 11)]
    s += [Setting("riffle-until-uniform-forward"), Setting("inverse-riffle"),
          Setting("deal-random-hand"),
          Setting("fisher-yates", rng="reseed32:mt19937")]
    return s


def all_settings(listing):
    """The named settings that this build has, then every other algorithm
    the listing marks biased.  Returns (settings, notes on what was left
    out)."""
    algs = {a["name"]: a for a in listing.get("algorithms", [])}
    settings, notes = [], []
    named = named_settings()
    for s in named:
        if s.alg in algs:
            settings.append(s)
        else:
            notes.append("`%s`: no such algorithm in this build" % s.label)
    covered = {s.alg for s in named}
    for name, a in algs.items():
        if name in covered or a.get("literature") != "biased":
            continue
        lo, hi = a.get("n_min", 1), a.get("n_max", N_CARDS)
        if not lo <= N_CARDS <= hi:
            notes.append("`%s`: takes %d to %d cards, not %d"
                         % (name, lo, hi, N_CARDS))
            continue
        settings.append(Setting(name))
    return settings, notes


def catchers(report):
    """The failing tests with the smallest Holm-adjusted p-value (several
    when tied)."""
    failing = [t for t in report.get("tests", [])
               if t.get("verdict") == "fail" and t.get("p_adjusted") is not None]
    if not failing:
        return []
    best = min(float(t["p_adjusted"]) for t in failing)
    return sorted(t["name"] for t in failing if float(t["p_adjusted"]) == best)


def settle(outcomes, runs=RUNS, need=NEED):
    """The decision at one N from the run outcomes in seed order (True: the
    run failed the algorithm; False: it did not; None: not back yet).  Only
    the unbroken prefix counts, so the answer does not depend on which run
    finished first.  Returns ('found' | 'below' | None, runs counted)."""
    fails = others = 0
    for i, o in enumerate(outcomes[:runs]):
        if o is None:
            break
        if o:
            fails += 1
        else:
            others += 1
        if fails >= need:
            return "found", i + 1
        if others > runs - need:
            return "below", i + 1
    return None, fails + others


def seed_of(n, r):
    """Run r (0..15) at N samples: seed 16 N + r, so no two runs of a search
    share a seed (and so share their first decks)."""
    return 16 * n + r


class Search:
    """The doubling search of one setting.  take() hands out the next run,
    record() takes a run back, settles the N when it can and returns the
    runs that have become pointless (to cancel)."""

    def __init__(self, index, setting, cap, runs=RUNS, need=NEED):
        self.index, self.setting, self.cap = index, setting, cap
        self.runs, self.need = runs, need
        self.n = setting.start
        self.levels = []          # settled levels, in order
        self.results = {}         # r -> RunResult at the current N
        self.next_r = 0
        self.in_flight = set()    # (n, r)
        self.done = False
        self.outcome = None       # 'found', 'capped' or 'error'
        self.error = ""
        self.seconds = 0.0

    def want(self):
        return not self.done and self.next_r < self.runs

    def take(self):
        r = self.next_r
        self.next_r += 1
        self.in_flight.add((self.n, r))
        s = self.setting
        return (self.n, r), br.RunSpec(s.alg, N_CARDS, self.n,
                                       seed_of(self.n, r), rng=s.rng,
                                       params=s.params)

    def record(self, key, res):
        self.in_flight.discard(key)
        self.seconds += res.seconds
        n, r = key
        if self.done or n != self.n or res.cancelled:
            return []
        self.results[r] = res
        outcomes = []
        for i in range(self.runs):
            x = self.results.get(i)
            if x is not None and x.code not in (br.EXIT_PASS, br.EXIT_FAIL,
                                                br.EXIT_SUSPECT):
                self.outcome, self.done = "error", True
                self.error = "seed %d: exit %s: %s" % (
                    x.spec.seed, x.code, x.error or "(no message)")
                return sorted(self.in_flight)
            outcomes.append(None if x is None else x.failed)
        decision, counted = settle(outcomes, self.runs, self.need)
        if decision is None:
            return []
        self.levels.append(self._level_record(decision, counted))
        if decision == "found":
            self.outcome, self.done = "found", True
        elif self.n * 2 > self.cap:
            self.outcome, self.done = "capped", True
        else:
            self.n *= 2
            self.results, self.next_r = {}, 0
        return sorted(k for k in self.in_flight if k[0] == n)

    def _level_record(self, decision, counted):
        runs = []
        for r in range(counted):
            x = self.results[r]
            rep = x.report or {}
            runs.append({"seed": x.spec.seed, "exit": x.code,
                         "verdict": rep.get("verdict"),
                         "stages": len(rep.get("stages") or []) or 1,
                         "samples_total": x.samples_total,
                         "seconds": round(x.seconds, 3),
                         "caught_by": catchers(rep) if x.failed else []})
        return {"n": self.n, "decision": decision, "runs": runs,
                "fails": sum(1 for x in runs if x["exit"] == br.EXIT_FAIL),
                "counted": counted}

    def summary(self):
        found = self.levels[-1] if self.outcome == "found" else None
        below = [lv["n"] for lv in self.levels if lv["decision"] == "below"]
        credit = {}
        if found:
            for run in found["runs"]:
                for name in run["caught_by"]:
                    credit[name] = credit.get(name, 0) + 1
        top = max(credit.values()) if credit else 0
        return {"setting": self.setting.label, "algorithm": self.setting.alg,
                "params": list(self.setting.params), "rng": self.setting.rng,
                "start": self.setting.start, "cap": self.cap,
                "outcome": self.outcome, "error": self.error or None,
                "n_found": found["n"] if found else None,
                "n_below": max(below) if below else None,
                "fails_at_found": [found["fails"], found["counted"]]
                if found else None,
                "caught_first_by": sorted(k for k, v in credit.items()
                                          if v == top),
                "credits": credit, "seconds": round(self.seconds, 2),
                "levels": self.levels}


def search_all(cli, settings, cap, jobs, progress):
    """Run every search, 'jobs' runs at a time.  The next run goes to the
    setting with the fewest runs in flight, then the largest N: the long
    runs start first, so the last minutes are not one long run on one core
    while the other idles."""
    searches = [Search(i, s, cap) for i, s in enumerate(settings)]
    with br.Pool(cli, jobs) as pool:
        while True:
            while not pool.full:
                cand = [s for s in searches
                        if s.want() and len(s.in_flight) < pool.jobs]
                if not cand:
                    break
                s = min(cand, key=lambda s: (len(s.in_flight), -s.n, s.index))
                key, spec = s.take()
                pool.start((s.index,) + key, spec)
            if not pool.running:
                break
            (i, n, r), res = pool.wait()
            if res.code == br.EXIT_INTERRUPTED:
                raise KeyboardInterrupt
            s = searches[i]
            was_done = s.done
            for k in s.record((n, r), res):
                pool.cancel((i,) + k)
            if s.done and not was_done:
                progress.step()
                progress.note(describe(s.summary()))
    return [s.summary() for s in searches]


def n_cell(sm):
    if sm["outcome"] == "found":
        return br.fmt_int(sm["n_found"])
    if sm["outcome"] == "capped":
        return "> " + br.fmt_int(sm["n_below"])
    return "error"


def range_cell(sm):
    if sm["outcome"] != "found":
        return "-"
    if sm["n_below"] is None:
        return "<= " + br.fmt_int(sm["n_found"])
    return "%s - %s" % (br.fmt_int(sm["n_below"]), br.fmt_int(sm["n_found"]))


def describe(sm):
    if sm["outcome"] == "found":
        what = "fails %d of %d at %s samples (%s), caught by %s" % (
            sm["fails_at_found"][0], sm["fails_at_found"][1],
            br.fmt_int(sm["n_found"]), range_cell(sm),
            ", ".join(sm["caught_first_by"]) or "?")
    elif sm["outcome"] == "capped":
        what = "not caught up to %s samples" % br.fmt_int(sm["n_below"])
    else:
        what = "error: " + sm["error"]
    return "%s: %s (%s)" % (sm["setting"], what, br.duration(sm["seconds"]))


def render(cfg, summaries, notes):
    lines = []
    w = lines.append
    w("# Power of the battery\n")
    w("Made by `%s`, from source %s.\n" % (cfg["command"], cfg["revision"]))
    w("## Setup\n")
    w("Each flawed setting is run at %d cards (deals: 4 hands of 13) with "
      "the default battery and %s, as `%s`.  N doubles from %s; at each N "
      "the runs use seeds 16 N + r, r = 0, 1, ..., in order, and the N is "
      "settled as soon as %d of %d runs have failed (exit 1: found) or %d "
      "have not (exit 0 or 3: double N), so a hopeless N costs %d runs.  "
      "The cap is %s samples.  %s runs at a time; %s in all.\n"
      % (N_CARDS, "its default escalation" if cfg["escalation"] else
         "no escalation (this build has none)", cfg["example"],
         br.fmt_int(START), NEED, RUNS, RUNS - NEED + 1, RUNS - NEED + 1,
         br.fmt_int(cfg["cap"]), cfg["jobs"], br.duration(cfg["seconds"])))
    w("**N** is the first N at which %d of %d runs failed; **between** is "
      "the last N below it and that N (the true 90%%-power point lies "
      "between, up to the luck of 10 runs); `> N` means not found up to "
      "the cap.  **Caught first by** is the statistic with the smallest "
      "Holm-adjusted p-value among the failing ones, in the most failing "
      "runs at N (ties listed).  **Seconds** is the wall-clock time of the "
      "setting's runs, summed, including runs cancelled once the N was "
      "settled.\n" % (NEED, RUNS))
    rows = []
    for sm in summaries:
        rows.append(["`%s`" % sm["setting"], n_cell(sm), range_cell(sm),
                     "%d of %d" % tuple(sm["fails_at_found"])
                     if sm["fails_at_found"] else "-",
                     ", ".join("`%s`" % c for c in sm["caught_first_by"])
                     or ("-" if sm["outcome"] != "error" else sm["error"]),
                     "%.1f" % sm["seconds"]])
    w(br.md_table(["setting", "N", "between", "fails at N",
                   "caught first by", "seconds"], rows, "lrlrlr"))
    w("")
    if notes:
        w("Left out:\n")
        for note in notes:
            w("- " + note)
        w("")
    w("A setting beyond the cap is not proof of fairness: the battery may "
      "need more samples than the cap, or a statistic it does not have.  "
      "Exact mode (`shufflebias exact`) settles small decks without "
      "sampling.\n")
    return "\n".join(lines)


# The sections of docs/power.md from this heading on are written by hand
# (they hold sessions that tests/test_readme.py runs): a new table keeps
# them.
HAND_WRITTEN = "\n## Planning a run\n"


def hand_written_tail(path):
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return ""
    at = text.find(HAND_WRITTEN)
    return text[at:] if at >= 0 else ""


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="scripts/power",
                                 description="Measure how many samples the "
                                 "battery needs to fail each flawed setting.")
    ap.add_argument("--quick", action="store_true",
                    help="two settings and a small cap, for smoke testing")
    ap.add_argument("--cap", type=int, help="largest N (default 2^23; "
                    "--quick 2^15)")
    ap.add_argument("--only", action="append", default=[], metavar="TEXT",
                    help="only the settings whose label contains TEXT "
                    "(repeatable)")
    ap.add_argument("--jobs", type=int, default=2,
                    help="runs at a time (default 2)")
    ap.add_argument("--cli", help="the shufflebias binary (default: "
                    "build/shufflebias)")
    return ap.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    root = br.ROOT
    cli = br.Cli(args.cli or os.path.join(root, "build", "shufflebias"))
    cap = args.cap or (QUICK_CAP if args.quick else CAP)
    settings, notes = all_settings(cli.listing())
    if args.quick:
        settings = [s for s in settings
                    if s.label in ("naive-swap", "deal-random-hand")]
    if args.only:
        settings = [s for s in settings if any(t in s.label for t in args.only)]
    if not settings:
        print("power: no setting to run", file=sys.stderr)
        return 2
    stem = "power-quick" if args.quick else "power"
    md_path = os.path.join(root, "out" if args.quick else "docs", stem + ".md")
    json_path = os.path.join(root, "out", stem + ".json")

    progress = br.Progress("power", len(settings), every=0,
                           unit="settings", estimate=False)
    progress.note("%d settings, cap %s samples, %d runs at a time"
                  % (len(settings), br.fmt_int(cap), args.jobs))
    t0 = time.monotonic()
    summaries = search_all(cli, settings, cap, args.jobs, progress)
    seconds = time.monotonic() - t0
    cfg = {"command": br.command_line("power", argv),
           "revision": br.source_revision(root), "cap": cap,
           "jobs": args.jobs, "seconds": seconds,
           "escalation": cli.supports("--escalate"),
           "example": cli.shown(br.RunSpec("naive-swap", N_CARDS, 100,
                                           seed_of(100, 0)))}
    br.write_text(md_path, render(cfg, summaries, notes)
                  + hand_written_tail(os.path.join(root, "docs", "power.md")))
    br.write_json(json_path, {
        "command": cfg["command"], "revision": cfg["revision"],
        "n": N_CARDS, "start": START, "cap": cap, "runs": RUNS,
        "need": NEED, "jobs": args.jobs, "seconds": seconds,
        "escalation": cfg["escalation"], "left_out": notes,
        "settings": summaries})
    print("wrote %s and %s (%s)" % (os.path.relpath(md_path, root),
                                    os.path.relpath(json_path, root),
                                    br.duration(seconds)))
    return 2 if any(sm["outcome"] == "error" for sm in summaries) else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        print("power: interrupted", file=sys.stderr)
        sys.exit(130)
