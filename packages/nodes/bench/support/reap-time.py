"""Runs a command and reports what it cost, as GNU time does, counting every process it started.

As a child subreaper (Linux), this process adopts the descendants a parent leaves behind when it
exits (`quarry partition` ends without waiting while the system tears its killed partition process
down) and reaps them too, so their CPU time and peak memory are counted; the wall time is the
command's own, to its exit.

Usage: reap-time.py OUT_FILE COMMAND [ARGS...]. Writes "wall_seconds peak_rss_kb user_seconds
system_seconds" into OUT_FILE and exits with the command's exit code.
"""
import ctypes
import os
import resource
import sys
import time

PR_SET_CHILD_SUBREAPER = 36

libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
    sys.exit(f"reap-time: cannot become a child subreaper (errno {ctypes.get_errno()})")
out, argv = sys.argv[1], sys.argv[2:]
start = time.monotonic()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)
_, status = os.waitpid(pid, 0)
wall = time.monotonic() - start
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(out, "w") as f:
    f.write(f"{wall:.4f} {usage.ru_maxrss} {usage.ru_utime:.3f} {usage.ru_stime:.3f}\n")
sys.exit(os.waitstatus_to_exitcode(status) & 0xFF)
