"""Whether a benchmark's figures can be trusted (issue 35).

A figure taken while other processes use the cores drifts toward 1: both servers end up waiting
on a starved client. So every bench says how quiet the machine was. `Quiet` reads the load average
when the bench starts and, around each measured round, the CPU time the whole machine spent
(/proc/stat) less what the bench itself spent (this process, the children it has waited for, and
the server processes it names). A run is BUSY, not a figure, when the load average started at
LOAD_LIMIT or above, or when other processes used more than OTHERS_LIMIT of the cores' time
during the rounds. Benches print `Quiet.summary()` last; docs/performance.md keeps only quiet runs.

As a command, `python3 bench/quiet.py PROGRAM [ARG...]` runs a bench program that measures itself
(bench/bench_*.cpp) as one round and prints the summary after its output.
"""
import contextlib
import os
import resource
import subprocess
import sys
import time

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
LOAD_LIMIT = 0.5
OTHERS_LIMIT = 0.05


def machine_busy_seconds():
    """CPU seconds every core spent on anything but idling and waiting for I/O, since boot."""
    with open("/proc/stat") as stat:
        fields = [int(value) for value in stat.readline().split()[1:9]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS


def process_seconds(pid):
    """User and system CPU seconds of process `pid` (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def own_seconds():
    """CPU seconds of this process and of every child it has waited for."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


class Quiet:
    def __init__(self):
        self.load_before = os.getloadavg()[0]
        self.cores = os.cpu_count() or 1
        self.others = 0.0  # CPU seconds other processes used during the rounds
        self.wall = 0.0  # seconds the rounds took

    @contextlib.contextmanager
    def round(self, pids=()):
        """Measure one round; `pids` are the bench's own servers (not its waited children)."""
        pids = list(pids)
        servers_before = {pid: process_seconds(pid) or 0.0 for pid in pids}
        wall, busy, own = time.monotonic(), machine_busy_seconds(), own_seconds()
        yield
        servers = 0.0
        for pid, before in servers_before.items():
            after = process_seconds(pid)
            servers += (after if after is not None else before) - before
        ours = own_seconds() - own + servers
        self.others += max(0.0, machine_busy_seconds() - busy - ours)
        self.wall += time.monotonic() - wall

    def others_share(self):
        """The share of the cores' time other processes used during the rounds."""
        return self.others / (self.wall * self.cores) if self.wall > 0 else 0.0

    def is_quiet(self):
        return self.load_before < LOAD_LIMIT and self.others_share() <= OTHERS_LIMIT

    def summary(self):
        verdict = "quiet" if self.is_quiet() else "BUSY: not a figure"
        return (f"machine: load average {self.load_before:.2f} before, "
                f"{os.getloadavg()[0]:.2f} after; other processes used {self.others:.2f} s of CPU "
                f"in {self.wall:.1f} s of rounds ({100 * self.others_share():.1f}% of "
                f"{self.cores} cores; limits: load {LOAD_LIMIT}, others "
                f"{100 * OTHERS_LIMIT:.0f}%): {verdict}")


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: quiet.py PROGRAM [ARG...]")
    quiet = Quiet()
    with quiet.round():
        status = subprocess.run(sys.argv[1:], check=False).returncode
    print(quiet.summary())
    sys.exit(status)


if __name__ == "__main__":
    main()
