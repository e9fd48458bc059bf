#!/bin/bash
# A quiet window on a shared machine: stops (SIGSTOP) every other process
# (not the kernel's threads, not pid 1, not this script's own ancestors),
# runs the command given, and lets them go on (SIGCONT) when it ends, even
# on failure or Ctrl-C. Builds and tests of other worktrees just pause.
#
#   bench/quiet.sh bench/run.sh
#   bench/quiet.sh env ROUNDS=5 bench/against.sh OLD_BIN
#
# Killed with SIGKILL it cannot resume them: `kill -CONT` them by hand
# (`ps -eo pid,stat | awk '$2 ~ /^T/'`). Not for a machine serving anything.
set -u
ME=$$
ANC=" "; p=$ME; while [ "$p" -gt 1 ]; do ANC="$ANC$p "; p=$(awk '{print $4}' /proc/$p/stat); done
PIDS=""
for d in /proc/[0-9]*; do
  pid=${d#/proc/}
  [ "$pid" -le 2 ] && continue
  ppid=$(awk '{print $4}' $d/stat 2>/dev/null) || continue
  [ "$ppid" = 2 ] && continue
  case "$ANC" in *" $pid "*) continue;; esac
  PIDS="$PIDS $pid"
done
kill -STOP $PIDS 2>/dev/null
trap 'kill -CONT $PIDS 2>/dev/null' EXIT
sleep 3
echo "frozen: $(echo $PIDS | wc -w) processes; load $(cut -d' ' -f1 /proc/loadavg)"
"$@"
