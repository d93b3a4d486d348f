"""
battery_runs.py - what scripts/calibrate and scripts/power share.

Both run 'shufflebias test' many times and read nothing but its command line
and its JSON (docs/guarantees.md, "Verdicts in JSON"): the exit code,
'verdict', 'tests[]' with 'name', 'p_value', 'p_adjusted', 'verdict' and,
for a discrete statistic, 'p_interval'; 'stages[]' when the run escalated.
So a statistic added to the battery is picked up here without a change.  Options the binary may not
have yet ('--escalate', '--threads') are passed only when 'test --help'
lists them.

This module holds:
  - RunSpec, Cli, RunResult: one run, its command line, what came back;
  - Pool: at most 'jobs' runs at a time, each its own process, results handed
    back as they finish; a run can be cancelled (its process is terminated);
  - Progress: a line on stderr now and then, so a long run shows it is alive;
  - the statistics of the analysis, in plain Python so that nothing beyond
    python3 needs installing: the Clopper-Pearson binomial interval, the
    Kolmogorov-Smirnov test of uniformity, the randomized p-value of a
    discrete statistic;
  - Markdown tables, number formats and the source revision, for the two
    reports.

The two modes live in calibrate.py and power.py; scripts/calibrate and
scripts/power install, build and call them.
"""

import hashlib
import json
import math
import os
import queue
import re
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Optional, Tuple

# The source tree this file sits in (scripts/..): reports are written there.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Exit codes of 'shufflebias test' (docs/guarantees.md, "Exit codes").
EXIT_PASS, EXIT_FAIL, EXIT_USAGE, EXIT_SUSPECT, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


# --------------------------------------------------------------------------
# One run

@dataclass(frozen=True)
class RunSpec:
    """Everything that makes a run reproducible: 'shufflebias test ALG' with
    these options gives the same decks and the same JSON (timing aside)."""
    alg: str
    n: int
    samples: int
    seed: int
    rng: Optional[str] = None
    params: Tuple[str, ...] = ()      # "name=value" each, for --param
    escalate: Optional[int] = None    # None: the binary's default


@dataclass
class RunResult:
    spec: RunSpec
    code: Optional[int]      # exit code; None when cancelled
    report: Optional[dict]   # the parsed JSON; None when none was written
    seconds: float           # wall-clock time of the process
    error: str = ""          # stderr, when the run went wrong
    cancelled: bool = False

    @property
    def failed(self):
        """The battery found bias (exit 1)."""
        return self.code == EXIT_FAIL

    @property
    def samples_total(self):
        """Samples drawn over all escalation stages (just 'samples' when the
        run did not escalate, or the binary has no escalation)."""
        if not self.report:
            return 0
        stages = self.report.get("stages")
        if stages:
            return sum(int(s.get("samples", 0)) for s in stages)
        return int(self.report.get("samples", 0))


class Cli:
    """The 'shufflebias' binary: how to call it, and which optional options
    it has."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        if not os.access(self.path, os.X_OK):
            raise SystemExit("no shufflebias binary at '%s'" % path)
        out = subprocess.run([self.path, "test", "--help"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True)
        self.test_options = set(re.findall(r"--[a-z][a-z0-9-]*", out.stdout))

    def supports(self, option):
        return option in self.test_options

    def argv(self, spec, json_path):
        a = [self.path, "test", spec.alg, "--n", str(spec.n),
             "--samples", str(spec.samples), "--seed", str(spec.seed),
             "--json", json_path, "--quiet"]
        if spec.rng:
            a += ["--rng", spec.rng]
        for p in spec.params:
            a += ["--param", p]
        if spec.escalate is not None and self.supports("--escalate"):
            a += ["--escalate", str(spec.escalate)]
        # One thread per process: the pool is what runs things in parallel,
        # and a run that took every core would oversubscribe the machine.
        if self.supports("--threads"):
            a += ["--threads", "1"]
        return a

    def shown(self, spec, json_path="FILE"):
        """The command line of a run as a reader would type it."""
        a = self.argv(spec, json_path)
        a[0] = "shufflebias"
        a.remove("--quiet")
        return shlex.join(a)

    def listing(self):
        """'shufflebias list --json': algorithms, statistics, generators."""
        out = subprocess.run([self.path, "list", "--json"], check=True,
                             stdout=subprocess.PIPE, universal_newlines=True)
        return json.loads(out.stdout)


# --------------------------------------------------------------------------
# Running many

class Pool:
    """At most 'jobs' runs at a time.  start() launches one under a key of
    the caller's choosing; wait() blocks until some run ends and returns its
    (key, RunResult); cancel() terminates a run that is no longer wanted.
    Each run writes its JSON to its own file in a private directory, so no
    pipe can fill up however large the report grows."""

    def __init__(self, cli, jobs):
        self.cli = cli
        self.jobs = max(1, int(jobs))
        self._done = queue.Queue()
        self._lock = threading.Lock()
        self._procs = {}        # key -> Popen, while running
        self._cancelled = set()
        self._running = set()
        self._count = 0
        self._dir = tempfile.TemporaryDirectory(prefix="shufflebias-runs-")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for key in list(self._running):
            self.cancel(key)
        while self._running:
            self.wait()
        self._dir.cleanup()
        return False

    @property
    def running(self):
        return len(self._running)

    @property
    def full(self):
        return len(self._running) >= self.jobs

    def start(self, key, spec):
        if key in self._running:
            raise ValueError("run %r is already running" % (key,))
        self._count += 1
        path = os.path.join(self._dir.name, "run-%d.json" % self._count)
        self._running.add(key)
        threading.Thread(target=self._run, args=(key, spec, path),
                         daemon=True).start()

    def _run(self, key, spec, path):
        t0 = time.monotonic()
        err, code = "", None
        try:
            with self._lock:
                if key in self._cancelled:
                    raise _Cancelled()
                proc = subprocess.Popen(self.cli.argv(spec, path),
                                        stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE,
                                        universal_newlines=True)
                self._procs[key] = proc
            _, err = proc.communicate()
            code = proc.returncode
        except _Cancelled:
            pass
        except OSError as e:
            err, code = str(e), EXIT_USAGE
        seconds = time.monotonic() - t0
        report = None
        try:
            with open(path) as f:
                report = json.load(f)
        except (OSError, ValueError):
            pass
        try:
            os.unlink(path)
        except OSError:
            pass
        with self._lock:
            self._procs.pop(key, None)
            cancelled = key in self._cancelled
            self._cancelled.discard(key)
        if cancelled:
            code, report = None, None
        self._done.put((key, RunResult(spec, code, report, seconds,
                                       (err or "").strip(), cancelled)))

    def wait(self):
        key, result = self._done.get()
        self._running.discard(key)
        return key, result

    def cancel(self, key):
        with self._lock:
            if key not in self._running:
                return
            self._cancelled.add(key)
            proc = self._procs.get(key)
            if proc is not None and proc.poll() is None:
                proc.terminate()


class _Cancelled(Exception):
    pass


def run_all(pool, specs, progress=None):
    """Run every spec through the pool; returns the results in the order of
    'specs', whatever order they finished in."""
    results = [None] * len(specs)
    todo = iter(range(len(specs)))
    pending = True
    while pending or pool.running:
        while pending and not pool.full:
            i = next(todo, None)
            if i is None:
                pending = False
                break
            pool.start(i, specs[i])
        if not pool.running:
            break
        i, res = pool.wait()
        if res.code == EXIT_INTERRUPTED:
            raise KeyboardInterrupt
        results[i] = res
        if progress:
            progress.step()
    return results


class Progress:
    """A line on stderr at most every 'every' seconds: runs done, time spent,
    and the time left at the rate so far."""

    def __init__(self, what, total, every=15.0, unit="runs", estimate=True):
        self.what, self.total, self.every, self.unit = what, total, every, unit
        self.estimate = estimate   # units of unequal cost make it a guess
        self.done = 0
        self.t0 = self.last = time.monotonic()

    def step(self, n=1):
        self.done += n
        now = time.monotonic()
        if now - self.last < self.every and self.done != self.total:
            return
        self.last = now
        spent = now - self.t0
        line = "%s: %d/%d %s, %s" % (self.what, self.done, self.total,
                                     self.unit, duration(spent))
        if self.estimate and 0 < self.done < self.total:
            line += ", about %s left" % duration(
                spent * (self.total - self.done) / self.done)
        print(line, file=sys.stderr, flush=True)

    def note(self, text):
        print("%s: %s" % (self.what, text), file=sys.stderr, flush=True)


def duration(seconds):
    if seconds < 90:
        return "%.0f s" % seconds
    if seconds < 5400:
        return "%.1f min" % (seconds / 60)
    return "%.1f h" % (seconds / 3600)


# --------------------------------------------------------------------------
# Statistics of the analysis

def _log_binom_pmf(k, n, p):
    if p <= 0.0:
        return 0.0 if k == 0 else -math.inf
    if p >= 1.0:
        return 0.0 if k == n else -math.inf
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
            + k * math.log(p) + (n - k) * math.log1p(-p))


def binom_cdf(k, n, p):
    """P(X <= k) for X ~ Binomial(n, p), summed term by term (k is small
    here: the count of tail events)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return min(1.0, math.fsum(math.exp(_log_binom_pmf(i, n, p))
                              for i in range(k + 1)))


def _bisect(f, lo, hi, iterations=200):
    """The root of an increasing f on [lo, hi]."""
    for _ in range(iterations):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if f(mid) < 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def binomial_interval(k, n, level=0.95):
    """Clopper-Pearson interval for a proportion, k events in n trials
    (Clopper & Pearson, Biometrika 26(4), 1934): the lower end is the p at
    which P(X >= k) = (1 - level)/2, the upper end the p at which
    P(X <= k) = (1 - level)/2.  It covers the true rate with probability at
    least 'level' whatever the rate, which matters here: the rates measured
    are near 0, where the normal approximation fails."""
    if n <= 0:
        return (0.0, 1.0)
    a = (1.0 - level) / 2.0
    lo = 0.0 if k == 0 else _bisect(
        lambda p: (1.0 - binom_cdf(k - 1, n, p)) - a, 0.0, 1.0)
    hi = 1.0 if k == n else _bisect(
        lambda p: a - binom_cdf(k, n, p), 0.0, 1.0)
    return (lo, hi)


def ks_statistic(xs):
    """Kolmogorov-Smirnov distance D = sup |F_n(x) - x| between the
    empirical distribution of xs and the uniform distribution on [0, 1]."""
    n = len(xs)
    if n == 0:
        return math.nan
    d = 0.0
    for i, x in enumerate(sorted(xs)):
        d = max(d, (i + 1) / n - x, x - i / n)
    return d


def kolmogorov_q(lam):
    """P(K > lam) for Kolmogorov's limit distribution,
    P(K <= lam) = 1 - 2 sum_{k>=1} (-1)^(k-1) exp(-2 k^2 lam^2).
    That alternating series is slow for small lam, where the equivalent
    theta-function form sqrt(2 pi)/lam sum_{k>=1} exp(-(2k-1)^2 pi^2/(8 lam^2))
    (Kolmogorov 1933; Marsaglia, Tsang & Wang, J. Stat. Softw. 8(18), 2003)
    converges in a few terms instead."""
    if lam <= 0.0:
        return 1.0
    if lam < 1.18:
        s = sum(math.exp(-((2 * k - 1) ** 2) * math.pi ** 2 / (8 * lam * lam))
                for k in range(1, 12))
        return max(0.0, min(1.0, 1.0 - math.sqrt(2 * math.pi) / lam * s))
    s = sum((-1) ** (k - 1) * math.exp(-2.0 * k * k * lam * lam)
            for k in range(1, 101))
    return max(0.0, min(1.0, 2.0 * s))


def ks_pvalue(d, n):
    """P(D_n >= d) under uniformity, by Stephens' finite-n correction of the
    limit law: Q_K((sqrt(n) + 0.12 + 0.11/sqrt(n)) d) (Stephens, JRSS B
    32(1), 1970; Numerical Recipes 3rd ed., 14.3.3).  Good to a few percent
    of the p-value for n >= 35 and the p-values that matter here; the runs
    analysed number in the hundreds to thousands."""
    if n <= 0 or math.isnan(d):
        return math.nan
    rn = math.sqrt(n)
    return kolmogorov_q((rn + 0.12 + 0.11 / rn) * d)


def ks_uniform(xs):
    """(D, p-value) of the Kolmogorov-Smirnov test that xs are U(0, 1)."""
    d = ks_statistic(xs)
    return d, ks_pvalue(d, len(xs))


# The fixed seed of the randomized p-values: changing it changes the draws,
# and the reports made with it.
RANDOMIZE_SEED = "shufflebias-calibration-1"


def uniform_from(*key):
    """A number in [0, 1) fixed by 'key' and RANDOMIZE_SEED: the same key
    always gives the same number, in whatever order the runs are analysed."""
    text = "|".join(str(k) for k in (RANDOMIZE_SEED,) + key)
    h = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(h[:8], "big") / 2.0 ** 64


def randomized_p(p_lower, p_upper, *key):
    """The randomized p-value of a discrete statistic with observed value t:
    P(T > t) + U P(T = t), U uniform on [0, 1) - exactly U(0, 1) under the
    null, where the mid-p (U = 1/2) and the plain p (U = 1) are not.  The
    JSON's p_interval is [P(T > t), P(T >= t)]."""
    return p_lower + uniform_from(*key) * (p_upper - p_lower)


# --------------------------------------------------------------------------
# Reports

def md_table(headers, rows, align=None):
    """A Markdown table; align is a string of 'l'/'r' per column."""
    align = align or "l" * len(headers)
    sep = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join(sep) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def fmt_int(n):
    return "{:,}".format(int(n))


def fmt_p(p):
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "-"
    if p == 0:
        return "0"
    if p >= 0.001:
        return "%.3f" % p
    return "%.1e" % p


def fmt_rate(k, n):
    """'k/n = rate [lo, hi]' with the 95% Clopper-Pearson interval."""
    if n == 0:
        return "-"
    lo, hi = binomial_interval(k, n)
    return "%d/%s = %s [%s, %s]" % (k, fmt_int(n), _sci(k / n), _sci(lo),
                                    _sci(hi))


def _sci(x):
    if x == 0:
        return "0"
    return "%.2g" % x


def source_revision(root):
    """The commit the tree is at ('-dirty' when it has changes), or
    'unknown' outside a git checkout."""
    try:
        out = subprocess.run(["git", "-C", root, "describe", "--always",
                              "--dirty"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL,
                             universal_newlines=True, timeout=30)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def write_text(path, text):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def write_json(path, value):
    write_text(path, json.dumps(value, indent=1, sort_keys=False) + "\n")


def command_line(script, argv):
    return " ".join(["scripts/" + script] + [shlex.quote(a) for a in argv])
