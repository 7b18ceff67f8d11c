"""P6 of issue 11: a remote-mode query answered from the cache, `ashare --base-url URL bars ...`
with every window already cached, against the same query in local mode on the server's own store,
in the same run (target <= 1.1x wall, and not one request reaching the server).

The server is a real `ashare serve` on 127.0.0.1 over a generated market (bench/market_data.py);
its access log (stderr) counts the requests that reach it while the cached queries run.

Usage: remote_cache_vs_local.py ASHARE [--symbols N] [--days N] [--rounds N] [--processes N]
"""
import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import market_data  # noqa: E402
from oneshot_vs_sqlite3 import queries, time_processes  # noqa: E402

from quiet import Quiet


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    market_data.add_arguments(parser, processes=100)
    parser.add_argument("--distinct", type=int, default=40, help="distinct queries, cached first")
    args = parser.parse_args()
    quiet = Quiet()

    with tempfile.TemporaryDirectory(prefix="ashare-p6-") as work:
        env = dict(os.environ, HOME=work, XDG_CONFIG_HOME=os.path.join(work, "config"),
                   XDG_DATA_HOME=os.path.join(work, "data"))
        run = lambda command: subprocess.run(command, check=True, capture_output=True, text=True,
                                             env=env)
        store = market_data.make_store(args.ashare, work, args, "server.db", env)
        key = run([args.ashare, "--db", store, "keys", "create", "--plan", "pro",
                   "--label", "p6"]).stdout.split()[-1]
        log_path = os.path.join(work, "access.log")
        log = open(log_path, "w")
        server = subprocess.Popen([args.ashare, "--db", store, "serve", "--listen", "127.0.0.1:0"],
                                  stdout=subprocess.PIPE, stderr=log, text=True, env=env)
        try:
            port = int(server.stdout.readline().rsplit(":", 1)[1])
            remote = [args.ashare, "--db", os.path.join(work, "client.db"),
                      "--cache-db", os.path.join(work, "client-cache.db"),
                      "--base-url", f"http://127.0.0.1:{port}", "--api-key", key]
            local = [args.ashare, "--db", store]
            calendar = market_data.sessions(args.days)
            pool = queries(random.Random(6), args.symbols, calendar, args.distinct)
            as_args = lambda q: ["bars", q[0], q[1].isoformat(), q[2].isoformat(), "--format", "csv"]
            for query in pool:  # fill the cache, and check that both sides print the same
                ours = run(remote + as_args(query)).stdout
                if ours != run(local + as_args(query)).stdout:
                    sys.exit(f"remote and local mode disagree on {query}")
            time.sleep(0.3)  # the access log is handed over every 100 ms
            logged_before = len(open(log_path).read().splitlines())
            if logged_before == 0:
                sys.exit("the server's access log recorded no request: nothing could be counted")

            rng = random.Random(7)
            figures = {"remote, cached": [], "local": []}
            with quiet.round([server.pid]):
                for round_number in range(args.rounds):
                    batch = [rng.choice(pool) for _ in range(args.processes)]
                    sides = [("remote, cached", [remote + as_args(q) for q in batch]),
                             ("local", [local + as_args(q) for q in batch])]
                    if round_number % 2:
                        sides.reverse()
                    for name, commands in sides:
                        figures[name].append(time_processes(commands))
            time.sleep(0.3)
            reached = len(open(log_path).read().splitlines()) - logged_before
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)

        median = {name: statistics.median(values) * 1000 for name, values in figures.items()}
        print(f"{os.cpu_count()} cores; {args.symbols} symbols x {args.days} days; "
              f"{args.rounds} alternating rounds of {args.processes} processes a side over "
              f"{args.distinct} cached one-year queries")
        print(f"{'figure':<6} {'remote ms':>10} {'local ms':>9} {'ratio':>6} {'target':>7} "
              f"{'requests to the server':>23}")
        print(f"{'P6':<6} {median['remote, cached']:>10.2f} {median['local']:>9.2f} "
              f"{median['remote, cached'] / median['local']:>6.2f} {1.1:>7.2f} {reached:>23}")
    print(quiet.summary())


if __name__ == "__main__":
    main()
