"""
calibrate.py - the measured calibration of the battery (scripts/calibrate).

Under a fair shuffle every raw p-value of the battery should be uniform on
[0, 1]: P(p < a) = a for every a.  That is what the thresholds rest on, and
it can be measured where the rates are large enough to count: run the
default battery with no escalation on shuffles that are exactly uniform,
over many seeds at a small sample size, and compare

  - the rate of raw p-values below 1e-2 and below 1e-3 with the nominal
    rate, with a 95% Clopper-Pearson interval;
  - the whole distribution of the p-values with U(0, 1), by a
    Kolmogorov-Smirnov test; a discrete statistic's p-value, P(T >= t), is
    not uniform even under a true null, so it is replaced by the randomized
    p-value drawn in its p_interval, which is; a statistic that combines
    sub-tests by Bonferroni is valid but conservative by construction (a
    mass at 1), so only its tails are checked, one-sided;
  - the battery's suspect and fail verdicts (Holm-adjusted, any statistic)
    with the family-wise bounds 1e-3 and 1e-6 Holm guarantees.

Writes docs/calibration.md and out/calibration.json (--quick: a few seeds,
out/calibration-quick.{md,json}, for smoke tests; docs/ only ever holds full
runs).

--tail measures what the battery runs cannot: the far tail, P(p < 1e-6) and
P(p < 1e-7), of every statistic that pools a 1-D law.  The counts are drawn
from each statistic's exact null (a multinomial over its categories, before
pooling) and referred to it by the program's own code, through the driver
build/sb_calibrate_tail (tests/calibrate_tail.c), at 52 cards and 2,000,
5,000, 10^5 and 10^6 samples.  --before DRIVER runs a second driver (built
from an older source) on the same replicates - the same seeds give the same
counts - for a before/after table.  Writes the section between the tail
markers of docs/calibration.md and out/calibration-tail.json.
"""

import argparse
import json
import math
import os
import sys
import time

import battery_runs as br
import calibrate_tail as ct

# The shuffles known to be exactly uniform, one per kind of sample and two
# sources: (algorithm, --rng or None).  Deals and draws take their default
# parameters (4 hands of 13; a hand of 7).
FAIR = [
    ("fisher-yates", None),
    ("deal-fisher-yates", None),
    ("riffle-until-uniform", None),
    ("gsl-shuffle", "mt19937"),
    ("partial-deal", None),
]
N = 52
TAILS = (1e-2, 1e-3)
SUSPECT_BOUND, FAIL_BOUND = 1e-3, 1e-6   # Holm: family-wise rate <= alpha
KS_FLAG = 1e-3

FULL = dict(seeds=3000, samples=5000)
QUICK = dict(seeds=10, samples=2000)


def seed_of(alg_index, i):
    """Seeds of different algorithms never meet: algorithm j uses
    1000000 (j + 1) + i, i < 1000000."""
    return 1000000 * (alg_index + 1) + i


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="scripts/calibrate",
                                 description="Measure the calibration of the "
                                 "default battery on fair shuffles.")
    ap.add_argument("--quick", action="store_true",
                    help="a few seeds at a small size, for smoke testing")
    ap.add_argument("--seeds", type=int, help="runs per algorithm "
                    "(default %d; --quick %d)" % (FULL["seeds"],
                                                 QUICK["seeds"]))
    ap.add_argument("--samples", type=int, help="decks per run (default %d; "
                    "--quick %d)" % (FULL["samples"], QUICK["samples"]))
    ap.add_argument("--jobs", type=int, default=2,
                    help="runs at a time (default 2)")
    ap.add_argument("--cli", help="the shufflebias binary (default: "
                    "build/shufflebias)")
    ap.add_argument("--rerender", action="store_true",
                    help="re-analyse the runs kept in out/calibration.json "
                    "(with --tail: out/calibration-tail.json) and rewrite "
                    "docs/calibration.md, running nothing")
    ap.add_argument("--tail", action="store_true",
                    help="the far tail of the pooled statistics instead "
                    "(see the top of calibrate.py)")
    ap.add_argument("--reps", type=int, default=ct.REPS,
                    help="--tail: replicates per setting at 2,000 and 5,000 "
                    "samples (default %d; fewer at 10^5 and 10^6 and for "
                    "the costly statistics, see calibrate_tail.py)"
                    % ct.REPS)
    ap.add_argument("--driver", help="--tail: the driver (default: "
                    "build/sb_calibrate_tail)")
    ap.add_argument("--before", metavar="DRIVER",
                    help="--tail: also run this driver, built from an older "
                    "source, on the same replicates")
    return ap.parse_args(argv)


def collect(results):
    """Per run, what the analysis needs: the battery verdict and, per
    applicable statistic, the raw p-value, the p_interval of a discrete one,
    and the p-value used for calibration (randomized when discrete)."""
    runs, errors = [], []
    for res in results:
        spec = res.spec
        if res.code not in (br.EXIT_PASS, br.EXIT_FAIL, br.EXIT_SUSPECT) \
                or not res.report:
            errors.append({"algorithm": spec.alg, "seed": spec.seed,
                           "exit": res.code, "error": res.error[-500:]})
            continue
        tests, skipped = {}, []
        for t in res.report.get("tests", []):
            name = t.get("name")
            p = t.get("p_value")
            if p is None:
                skipped.append(name)
                continue
            entry = {"p": float(p)}
            iv = t.get("p_interval")
            if iv:
                entry["interval"] = [float(iv[0]), float(iv[1])]
                entry["u"] = br.randomized_p(iv[0], iv[1], spec.alg,
                                             spec.seed, name)
            else:
                entry["u"] = float(p)
            if t.get("subtests", 1) > 1:
                entry["subtests"] = int(t["subtests"])
            tests[name] = entry
        runs.append({"algorithm": spec.alg, "seed": spec.seed,
                     "exit": res.code,
                     "verdict": res.report.get("verdict"),
                     "seconds": round(res.seconds, 4),
                     "tests": tests, "not_applicable": skipped})
    return runs, errors


# Statistics whose p-value is valid but conservative by construction: the
# pooled 1-D laws, tested by exact binomial splits (stats/gof.c), whose
# discreteness leaves P(p <= a) below a.  Their p-values are held to the
# one-sided check (no excess of small p-values), not to uniformity; so is
# 'serial' on draws, whose overlaps are such a law.
POOLED = {"fixed-points", "cycles", "rising", "descents", "inversions",
          "successions", "poker7"}


def pooled(name, algorithms):
    return name in POOLED or (name == "serial"
                              and set(algorithms) == {"partial-deal"})


def ks_above(xs):
    """One-sided Kolmogorov-Smirnov: D+ = sup (F_n(a) - a), the largest
    excess of small p-values, and its p-value exp(-2 n D+^2) (Smirnov's
    limit, a bound for every n)."""
    n = len(xs)
    if n == 0:
        return math.nan, math.nan
    d = max(0.0, max((i + 1) / n - x for i, x in enumerate(sorted(xs))))
    return d, math.exp(-2.0 * n * d * d)


def summarize(ps, discrete, subtests=1, one_sided=False):
    """Tail counts, intervals and KS for one list of calibration p-values;
    a Bonferroni combination (subtests > 1) gets no KS: it is meant to sit
    below the uniform, and only its tails can be held to the nominal
    rates; a conservative statistic (one_sided) gets the one-sided KS."""
    n = len(ps)
    out = {"runs": n, "discrete": discrete, "subtests": subtests,
           "tails": {}}
    for a in TAILS:
        k = sum(1 for p in ps if p < a)
        lo, hi = br.binomial_interval(k, n) if n else (0.0, 1.0)
        out["tails"]["%g" % a] = {"count": k, "rate": k / n if n else None,
                                  "ci95": [lo, hi]}
    if one_sided and subtests == 1:
        d, p = ks_above(ps)
    else:
        d, p = br.ks_uniform(ps) if n and subtests == 1 \
            else (math.nan, math.nan)
    out["ks"] = {"D": d, "p_value": p, "one_sided": bool(one_sided)}
    return out


def analyse(runs):
    stats = {}   # name -> list of (algorithm, u, raw p, discrete, subtests)
    for r in runs:
        for name, t in r["tests"].items():
            stats.setdefault(name, []).append(
                (r["algorithm"], t["u"], t["p"], "interval" in t,
                 t.get("subtests", 1)))
    per_stat, per_pair = {}, {}
    for name, rows in stats.items():
        discrete = any(x[3] for x in rows)
        subtests = max(x[4] for x in rows)
        algs = sorted({x[0] for x in rows})
        s = summarize([x[1] for x in rows], discrete, subtests,
                      pooled(name, algs))
        s["algorithms"] = algs
        # For a discrete statistic, the reported p-value's tails as well:
        # what the battery itself compares with its thresholds.
        if discrete:
            s["mid_p_tails"] = {"%g" % a: sum(1 for x in rows if x[2] < a)
                                for a in TAILS}
        per_stat[name] = s
        for alg in s["algorithms"]:
            per_pair["%s/%s" % (alg, name)] = summarize(
                [x[1] for x in rows if x[0] == alg], discrete, subtests,
                pooled(name, [alg]))
    battery = {}
    for alg in [a for a, _ in FAIR] + ["all"]:
        rs = [r for r in runs if alg == "all" or r["algorithm"] == alg]
        if not rs:
            continue
        sus = sum(1 for r in rs if r["verdict"] in ("suspect", "fail"))
        fail = sum(1 for r in rs if r["verdict"] == "fail")
        battery[alg] = {"runs": len(rs),
                        "suspect_or_fail": sus,
                        "suspect_or_fail_ci95": br.binomial_interval(sus, len(rs)),
                        "fail": fail,
                        "fail_ci95": br.binomial_interval(fail, len(rs))}
    return per_stat, per_pair, battery


def tail_cell(s, a):
    t = s["tails"]["%g" % a]
    cell = br.fmt_rate(t["count"], s["runs"])
    lo, hi = t["ci95"]
    if lo > a:
        cell += " high"
    elif hi < a and s.get("subtests", 1) == 1:
        cell += " low"
    return cell


def ks_cells(s):
    if s.get("subtests", 1) > 1:
        return ["-", "conservative"]
    d, p = s["ks"]["D"], s["ks"]["p_value"]
    flag = " **reject**" if p < KS_FLAG else ""
    if s["ks"].get("one_sided"):
        return ["D+ %.4f" % d, br.fmt_p(p) + flag]
    return ["%.4f" % d, br.fmt_p(p) + flag]


def render(cfg, per_stat, per_pair, battery, errors):
    cli, spec_example = cfg["cli"], cfg["example"]
    lines = []
    w = lines.append
    w("# Calibration of the battery\n")
    w("Made by `%s`, from source %s." % (cfg["command"], cfg["revision"]))
    w("Every number below can be remade from it: each run is reproducible "
      "from its algorithm, n, samples, seed and generator.\n")
    w("## Setup\n")
    w("The default battery (no `--tests`) with escalation off, on shuffles "
      "that are exactly uniform, %s seeds each, %s decks of %d cards per run:"
      "\n" % (br.fmt_int(cfg["seeds"]), br.fmt_int(cfg["samples"]), N))
    for alg, rng in FAIR:
        w("- `%s`%s" % (alg, " with `--rng %s`" % rng if rng else ""))
    w("\nOne run is `%s`, with seeds 1000000 (j + 1) + i for the j-th "
      "algorithm above and i = 0, 1, ...%s  Runs: %s, %s at a time, "
      "%s in all.\n" % (spec_example,
                        "" if cli.supports("--escalate") else
                        "  (This build has no escalation, so none was "
                        "turned off.)",
                        br.fmt_int(cfg["runs"]), cfg["jobs"],
                        br.duration(cfg["seconds"])))
    w("Under a fair shuffle each raw p-value is uniform on [0, 1], so it falls "
      "below a with probability a.  The measured rates below 1e-2 and 1e-3 "
      "come with 95%% Clopper-Pearson intervals; `high` marks an interval "
      "wholly above the nominal rate (more false alarms than promised), "
      "`low` one wholly below it (a conservative test, which loses power). "
      "Each interval misses the true rate one time in twenty, so among the "
      "%d intervals of the first table about %.1f such marks are expected by "
      "chance; a mark matters when it recurs across algorithms or sits far "
      "outside.  KS is the Kolmogorov-Smirnov test of the p-values against "
      "U(0, 1) (D and its p-value, Stephens' approximation); `reject` marks "
      "p < %g.  A discrete statistic (one that reports `p_interval`) gives "
      "P(T >= t), which is valid but not uniform even under the null; its "
      "rates and KS use the randomized p-value P(T > t) + U P(T = t) "
      "instead, U drawn from a fixed seed in the script, which is exactly "
      "uniform when the null is right.  A statistic that tests each hand (or "
      "hand and suit) on its own and combines them by Bonferroni, "
      "min(1, T p_min), is valid whatever the dependence but conservative by "
      "construction, with a mass at 1: for those (`conservative` in the KS "
      "columns) only `high` tails would be a defect, and KS does not "
      "apply.  The statistics that pool a 1-D law (%s, and `serial` on "
      "draws) test their groups by exact binomial splits, whose p-values "
      "are valid and, by the binomials' discreteness, conservative: "
      "P(p <= a) is at most a, and below it where groups are small "
      "(`inversions`, with hundreds of groups of a few dozen decks each at "
      "this size, most of all).  For them `low` is expected and KS is "
      "one-sided, `D+` = the largest excess of the empirical distribution "
      "over the uniform one, with its p-value exp(-2 n D+^2): what it "
      "rejects is an excess of small p-values, the only defect for a "
      "valid test.\n" % (2 * len(per_stat), 0.05 * 2 * len(per_stat), KS_FLAG,
         ", ".join("`%s`" % x for x in sorted(POOLED))))
    w("## Per statistic\n")
    rows = []
    for name in sorted(per_stat):
        s = per_stat[name]
        rows.append(["`%s`%s" % (name, " (discrete)" if s["discrete"] else ""),
                     ", ".join(s["algorithms"]), br.fmt_int(s["runs"]),
                     tail_cell(s, 1e-2), tail_cell(s, 1e-3)] + ks_cells(s))
    w(br.md_table(["statistic", "algorithms", "runs", "p < 1e-2",
                   "p < 1e-3", "KS D", "KS p"], rows, "llrllrl"))
    w("")
    w("## Battery verdicts\n")
    w("A run is suspect when some Holm-adjusted p-value is below 1e-3 and "
      "fails when one is below 1e-6.  Holm's method keeps the probability "
      "of any such verdict under a fair shuffle at or below the threshold, "
      "whatever the dependence between the statistics, so the bounds are "
      "%g and %g; the measured rate may sit well below them (the statistics "
      "are correlated, and Holm is then conservative).\n"
      % (SUSPECT_BOUND, FAIL_BOUND))
    rows = []
    for alg, b in battery.items():
        rows.append(["all algorithms" if alg == "all" else "`%s`" % alg,
                     br.fmt_int(b["runs"]),
                     br.fmt_rate(b["suspect_or_fail"], b["runs"]),
                     br.fmt_rate(b["fail"], b["runs"])])
    w(br.md_table(["algorithm", "runs", "suspect or fail (bound 1e-3)",
                   "fail (bound 1e-6)"], rows, "lrll"))
    w("")
    w("## Per algorithm and statistic\n")
    rows = []
    for key in sorted(per_pair):
        alg, name = key.split("/", 1)
        s = per_pair[key]
        rows.append(["`%s`" % alg, "`%s`" % name, br.fmt_int(s["runs"]),
                     tail_cell(s, 1e-2), tail_cell(s, 1e-3)] + ks_cells(s))
    w(br.md_table(["algorithm", "statistic", "runs", "p < 1e-2", "p < 1e-3",
                   "KS D", "KS p"], rows, "llrllrl"))
    w("")
    if errors:
        w("## Runs that failed to run\n")
        w("%d runs ended with an error instead of a verdict; they are left "
          "out of every table above.  The first: `%s` seed %s, exit %s: %s\n"
          % (len(errors), errors[0]["algorithm"], errors[0]["seed"],
             errors[0]["exit"], errors[0]["error"] or "(no message)"))
    w("## What the tables can and cannot show\n")
    w("A fail rate of 1e-6 cannot be measured directly: a million fair runs "
      "would show it about once, and telling 1e-6 from 3e-6 would take tens "
      "of millions.  It follows instead from calibrated tails.  Holm's "
      "method bounds the rate of a fail verdict by 1e-6 whatever the "
      "dependence between the statistics, provided each raw p-value is "
      "valid: P(p < a) <= a for every a.  The tables check that premise "
      "where it can be counted - at 1e-2 and 1e-3, and over the whole "
      "distribution with KS.  Below 1e-3 it rests on each null being right "
      "in its far tail: exact distributions computed from their formulas "
      "(the pooled 1-D statistics through exact binomial splits, whose "
      "p-values are valid at every level by construction; their far tail "
      "is measured in the last section, by `scripts/calibrate --tail`), "
      "and chi-square limits for the tables of many cells (each "
      "statistic's source file gives its null and why it holds).\n")
    w("A KS rejection means that statistic's p-values are not uniform under "
      "a fair shuffle: its null is wrong somewhere - wrong degrees of "
      "freedom, a margin correction missing, a chi-square approximation used "
      "where the expectations are too small, pooling that shifts the "
      "distribution, or, for a discrete statistic, a wrong p_interval.  The "
      "tail columns say which way it errs: too many small p-values means "
      "false alarms beyond the stated rates, too few means a conservative "
      "test that loses power.  A rejection for one algorithm alone, with the "
      "same statistic calibrated on the others, points at that algorithm or "
      "its generator rather than at the statistic.  With no rejection, the "
      "p-values are uniform to within what this many runs can resolve (a KS "
      "distance of about 1.36/sqrt(runs) would be caught at 5%).\n")
    return "\n".join(lines)


def rerender(args):
    """docs/calibration.md again from the runs of out/calibration.json: the
    same runs, analysed by this script as it is now."""
    root = br.ROOT
    md_path = os.path.join(root, "docs", "calibration.md")
    with open(os.path.join(root, "out", "calibration.json")) as f:
        kept = json.load(f)
    cli = br.Cli(args.cli or os.path.join(root, "build", "shufflebias"))
    runs = kept["runs"]
    per_stat, per_pair, battery = analyse(runs)
    samples = kept["samples"]
    cfg = {"command": kept["command"], "revision": kept["revision"],
           "cli": cli,
           "example": cli.shown(br.RunSpec("fisher-yates", N, samples,
                                           seed_of(0, 0), escalate=0)),
           "seeds": kept["seeds_per_algorithm"], "samples": samples,
           "runs": len(runs) + len(kept["errors"]), "jobs": kept["jobs"],
           "seconds": kept["seconds"]}
    text = render(cfg, per_stat, per_pair, battery, kept["errors"])
    br.write_text(md_path, ct.keep_section(md_path, text))
    print("rewrote %s from %s runs" % (os.path.relpath(md_path, root),
                                      br.fmt_int(len(runs))))
    return 0


def main(argv):
    args = parse_args(argv)
    if args.tail:
        return ct.main(args, argv)
    if args.rerender:
        return rerender(args)
    base = QUICK if args.quick else FULL
    seeds = args.seeds or base["seeds"]
    samples = args.samples or base["samples"]
    root = br.ROOT
    stem = "calibration-quick" if args.quick else "calibration"
    md_path = os.path.join(root, "out" if args.quick else "docs", stem + ".md")
    json_path = os.path.join(root, "out", stem + ".json")

    cli = br.Cli(args.cli or os.path.join(root, "build", "shufflebias"))
    specs = [br.RunSpec(alg, N, samples, seed_of(j, i), rng=rng, escalate=0)
             for j, (alg, rng) in enumerate(FAIR) for i in range(seeds)]
    progress = br.Progress("calibrate", len(specs))
    progress.note("%d runs: %d algorithms x %d seeds, %d decks each, %d at a "
                  "time" % (len(specs), len(FAIR), seeds, samples, args.jobs))
    t0 = time.monotonic()
    with br.Pool(cli, args.jobs) as pool:
        results = br.run_all(pool, specs, progress)
    seconds = time.monotonic() - t0

    runs, errors = collect(results)
    per_stat, per_pair, battery = analyse(runs)
    cfg = {"command": br.command_line("calibrate", argv),
           "revision": br.source_revision(root), "cli": cli,
           "example": cli.shown(br.RunSpec("fisher-yates", N, samples,
                                           seed_of(0, 0), escalate=0)),
           "seeds": seeds, "samples": samples, "runs": len(specs),
           "jobs": args.jobs, "seconds": seconds}
    text = render(cfg, per_stat, per_pair, battery, errors)
    if not args.quick:
        text = ct.keep_section(md_path, text)
    br.write_text(md_path, text)
    per_alg_seconds = {}
    for r in runs:
        per_alg_seconds.setdefault(r["algorithm"], []).append(r["seconds"])
    br.write_json(json_path, {
        "command": cfg["command"], "revision": cfg["revision"],
        "n": N, "seeds_per_algorithm": seeds, "samples": samples,
        "algorithms": [{"name": a, "rng": r} for a, r in FAIR],
        "escalation_off": cli.supports("--escalate"),
        "randomize_seed": br.RANDOMIZE_SEED,
        "tails": list(TAILS), "ks_flag": KS_FLAG,
        "seconds": seconds, "jobs": args.jobs,
        "mean_run_seconds": {a: sum(v) / len(v)
                             for a, v in per_alg_seconds.items()},
        "statistics": per_stat, "per_algorithm": per_pair,
        "battery": battery, "errors": errors, "runs": runs})
    rel = os.path.relpath
    print("wrote %s and %s (%s)" % (rel(md_path, root), rel(json_path, root),
                                    br.duration(seconds)))
    for name in sorted(per_stat):
        s = per_stat[name]
        print("  %-20s runs %6d  p<1e-2 %6d  p<1e-3 %5d  KS p %s"
              % (name, s["runs"], s["tails"]["0.01"]["count"],
                 s["tails"]["0.001"]["count"], br.fmt_p(s["ks"]["p_value"])))
    b = battery.get("all")
    if b:
        print("  battery: %d runs, %d suspect or fail, %d fail"
              % (b["runs"], b["suspect_or_fail"], b["fail"]))
    if errors:
        print("%d runs ended in an error; the first: %s seed %s exit %s: %s"
              % (len(errors), errors[0]["algorithm"], errors[0]["seed"],
                 errors[0]["exit"], errors[0]["error"]), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        print("calibrate: interrupted", file=sys.stderr)
        sys.exit(130)
