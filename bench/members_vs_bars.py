"""Issue 44's membership figure: `ashare members 000300.SH --on 2023-06-30 --format csv` on a
store holding 20 years of CSI 300 spans (the sample's announcements, 2005-2026: 1225 spans of 949
symbols, scripts/load-sample.sh) against a one-year `ashare bars 600519.SH 2024-01-01 2024-12-31
--format csv` on the same store, both one cold process each. Target: within 1.2x.

The two sides run in alternating rounds (the order flips each round), --processes processes a
side a round, --rounds rounds (default 15); each round's figure is the mean wall time per process,
and the figure printed is the median of the rounds, with the CPU time (user + system) per process
beside it. Each side's answer is checked once before timing (300 members; 242 bars).

Usage: members_vs_bars.py ASHARE [--rounds N] [--processes N]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from oneshot_as_users import load_sample, time_processes  # noqa: E402
from quiet import Quiet  # noqa: E402

TARGET = 1.2


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ashare", help="the ashare binary (a Release build)")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--processes", type=int, default=100, help="processes a side a round")
    args = parser.parse_args()
    ashare = os.path.abspath(args.ashare)
    quiet = Quiet()

    with tempfile.TemporaryDirectory(prefix="ashare-members-") as work:
        store = os.path.join(work, "ashare.db")
        load_sample(ashare, store)
        sides = {
            "members": [ashare, "--db", store, "members", "000300.SH", "--on", "2023-06-30",
                        "--format", "csv"],
            "bars": [ashare, "--db", store, "bars", "600519.SH", "2024-01-01", "2024-12-31",
                     "--format", "csv"],
        }
        rows = {name: len(subprocess.run(command, check=True, capture_output=True,
                                         text=True).stdout.splitlines()) - 1
                for name, command in sides.items()}
        if rows != {"members": 300, "bars": 242}:
            sys.exit(f"unexpected answers: {rows}")

        walls = {name: [] for name in sides}
        cpus = {name: [] for name in sides}
        with quiet.round():
            for round_number in range(args.rounds):
                order = list(sides) if round_number % 2 == 0 else list(reversed(sides))
                for name in order:
                    wall, cpu = time_processes(sides[name], args.processes)
                    walls[name].append(wall)
                    cpus[name].append(cpu)

    wall = {name: statistics.median(figures) * 1000 for name, figures in walls.items()}
    cpu = {name: statistics.median(figures) * 1000 for name, figures in cpus.items()}
    print(f"{os.cpu_count()} cores; {args.rounds} alternating rounds of {args.processes} "
          f"processes a side; members of 000300.SH on 2023-06-30 (300 of 1225 spans) against "
          f"242 bars of 600519.SH")
    print(f"{'figure':<8} {'members ms':>11} {'bars ms':>8} {'ratio':>6} {'target':>7}")
    print(f"{'wall':<8} {wall['members']:>11.3f} {wall['bars']:>8.3f} "
          f"{wall['members'] / wall['bars']:>6.2f} {TARGET:>7.2f}")
    print(f"{'CPU':<8} {cpu['members']:>11.3f} {cpu['bars']:>8.3f} "
          f"{cpu['members'] / cpu['bars']:>6.2f}      -")
    print(quiet.summary())


if __name__ == "__main__":
    main()
