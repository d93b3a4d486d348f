#!/bin/bash
# One 'shufflebias test' run shared between the MPI ranks of a plain
# mpirun on a set of hosts, without a batch system:
#
#   HOSTS=hosts.txt RANKS=16 ./mpirun-hosts.sh
#   ALG=riffle OPTS='--param passes=7' SAMPLES=1e11 ./mpirun-hosts.sh
#
# HOSTS is an Open MPI hostfile, one host a line: 'node1 slots=8'.  The
# program must be installed on every host (SHUFFLEBIAS=/path/shufflebias
# otherwise) and $OUT must be on a file system every host sees.
#
# Ctrl-C stops the run: mpirun passes it to the ranks as SIGTERM after
# SIGKILL_TIMEOUT seconds and kills them that long again later, so they
# need that time to finish the samples under way and save their state.
# The run then writes a partial report and its counts to $OUT/run.state;
# running the script again with the same settings goes on from there.
set -eu

SHUFFLEBIAS=${SHUFFLEBIAS:-shufflebias}
ALG=${ALG:-fisher-yates}         # the algorithm ('shufflebias list')
N=${N:-52}                       # deck size
SAMPLES=${SAMPLES:-1e10}         # decks in the whole run
SEED=${SEED:-1}                  # fixes the run: same seed, same counts
OPTS=${OPTS:-}                   # more options of a new run: --rng, --param
OUT=${OUT:-shufflebias-$ALG-n$N-$SAMPLES-seed$SEED}
HOSTS=${HOSTS:-hosts.txt}        # the hostfile
RANKS=${RANKS:-}                 # ranks (default: one per slot)
MPIRUN_OPTS=${MPIRUN_OPTS:-}     # more mpirun options: --bind-to none
SIGKILL_TIMEOUT=${SIGKILL_TIMEOUT:-20}

mkdir -p "$OUT"
state=$OUT/run.state
if [ -e "$state" ]; then
    # The state file fixes the algorithm, n, samples, seed and statistics.
    echo "going on with $state" >&2
    set -- --resume "$state"
else
    # shellcheck disable=SC2086 # OPTS is a list of words
    set -- "$ALG" --n "$N" --samples "$SAMPLES" --seed "$SEED" $OPTS \
        --state "$state"
fi
if [ -n "$RANKS" ]; then
    set -- -n "$RANKS" "$SHUFFLEBIAS" test "$@"
else
    set -- "$SHUFFLEBIAS" test "$@"
fi

# mpirun binds each rank to one core (one thread each); with one slot a
# host and MPIRUN_OPTS='--bind-to none' a rank uses every core of its host.
rc=0
# shellcheck disable=SC2086 # MPIRUN_OPTS is a list of words
mpirun --hostfile "$HOSTS" \
    --mca odls_base_sigkill_timeout "$SIGKILL_TIMEOUT" $MPIRUN_OPTS \
    "$@" --json "$OUT/report.json" --html "$OUT/report.html" || rc=$?

# 0 pass, 1 fail, 3 inconclusive; after Ctrl-C mpirun says 1 and the
# report says partial.
if [ "$rc" -ne 0 ] &&
    grep -q '"partial": *true' "$OUT/report.json" 2>/dev/null; then
    echo "stopped: the counts so far are in $state;" \
         "run this again to go on" >&2
fi
exit "$rc"
