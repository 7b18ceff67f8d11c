#!/usr/bin/env python3
"""Issue 14's bench: `serve` replicas behind nginx with their stores (bars, keys and credits) on
PostgreSQL, against the same on SQLite, in one run, with a metered key (a charge per request, D7).

Four set-ups, each behind one nginx (deploy/nginx-replicas.conf's proxy rules, loopback, no TLS)
and driven by the P1 load (bench/http/requests.lua: one-year bars requests over the sample's
symbols, `wrk -t2 -c64`): 1 and 3 replicas, the stores in SQLite files or in the throwaway
PostgreSQL of scripts/with-postgres.sh (which this script starts when ASHARE_TEST_POSTGRES is
unset; it runs with fsync off, like SQLite's synchronous=NORMAL not waiting on the disk per
commit). Rounds alternate between the backends; each
figure is the median, with the CPU time per request of every server process (replicas, nginx,
PostgreSQL), which stays comparable on a noisy machine. Prints figures only; asserts nothing.

Usage: bench/replicas_vs_sqlite.py ASHARE [--rounds N] [--seconds S]
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from quiet import Quiet  # noqa: E402
from serve_vs_nginx import (HTTP_DIR, ROOT, Ashare, cpu_seconds, free_port, run, targets,  # noqa: E402
                            wrk)


def nginx_conf(work, port, upstream_ports):
    location = []
    keep = False
    for line in open(os.path.join(ROOT, "deploy", "nginx-replicas.conf")):
        keep = keep or line.startswith("  location / {")
        if keep:
            location.append(line.rstrip("\n"))
            if line.startswith("  }"):
                break
    servers = "\n".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;"
                        for p in upstream_ports)
    temps = "\n".join(f"  {t}_temp_path {work}/tmp;"
                      for t in ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"])
    return f"""worker_processes {os.cpu_count() or 1};
pid {work}/nginx.pid;
error_log {work}/nginx-error.log;
daemon on;
events {{ worker_connections 4096; }}
http {{
  access_log off;
{temps}
  upstream ashare {{
{servers}
    keepalive 64;
  }}
  server {{
    listen 127.0.0.1:{port} reuseport;
{os.linesep.join(location)}
  }}
}}
"""


class Proxy:
    def __init__(self, work, upstream_ports):
        self.work = work
        os.makedirs(os.path.join(work, "tmp"), exist_ok=True)
        self.port = free_port()
        self.conf = os.path.join(work, "nginx.conf")
        open(self.conf, "w").write(nginx_conf(work, self.port, upstream_ports))
        run(["nginx", "-c", self.conf, "-p", work])
        time.sleep(0.3)
        master = int(open(os.path.join(work, "nginx.pid")).read())
        self.pids = [master] + [int(p) for p in run(["pgrep", "-P", str(master)]).stdout.split()]

    def stop(self):
        subprocess.run(["nginx", "-c", self.conf, "-p", self.work, "-s", "stop"], check=False,
                       capture_output=True)


def postgres_pids():
    out = subprocess.run(["pgrep", "-u", "postgres", "postgres"], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def main():
    if not os.environ.get("ASHARE_TEST_POSTGRES"):
        os.execv(os.path.join(ROOT, "scripts", "with-postgres.sh"),
                 [os.path.join(ROOT, "scripts", "with-postgres.sh"), sys.executable] + sys.argv)
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ashare", help="the ashare binary (a Release build)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=64)
    args = parser.parse_args()
    quiet = Quiet()

    work = tempfile.mkdtemp(prefix="ashare-replicas-bench-")
    os.chmod(work, 0o755)
    server = os.environ["ASHARE_TEST_POSTGRES"]
    run([os.path.join(os.environ["PG_BINDIR"], "psql"), server, "-qc", "CREATE DATABASE bench"])
    # --db alone: the keys beside the data (NAME-keys.db, or the same database).
    locators = {"sqlite": os.path.join(work, "ashare.db"), "postgresql": server + "&dbname=bench"}
    for locator in locators.values():
        run([os.path.join(ROOT, "scripts", "load-sample.sh"), args.ashare],
            env=dict(os.environ, ASHARE_DB=locator))
    keys = {name: run([args.ashare, "--db", locator, "keys", "create", "--plan", "pro",
                       "--credits", "1000000000000"]).stdout.split()[-1]
            for name, locator in locators.items()}
    targets_file = os.path.join(work, "targets.txt")
    open(targets_file, "w").write("\n".join(targets(random.Random(9), 400)) + "\n")
    script = os.path.join(HTTP_DIR, "requests.lua")

    print(f"{os.cpu_count()} cores; nginx in front; wrk -t2 -c{args.connections}, metered key, "
          f"{args.rounds} alternating rounds of {args.seconds} s")
    print(f"{'replicas':>8} {'stores':>10} {'req/s':>9} {'CPU us/req':>11} {'vs SQLite':>10}")
    for count in (1, 3):
        results = {name: [] for name in locators}
        for round_number in range(args.rounds):
            order = list(locators)
            if round_number % 2:
                order.reverse()
            for name in order:
                replicas, proxy = [], None
                try:
                    for _ in range(count):
                        replicas.append(Ashare(args.ashare, locators[name], []))
                    proxy = Proxy(os.path.join(work, f"nginx-{name}-{count}-{round_number}"),
                                  [r.port for r in replicas])
                    env = dict(os.environ, BENCH_TARGETS=targets_file, BENCH_KEY=keys[name])
                    # Warm up first: the replicas open their PostgreSQL connections (whose
                    # backends must be counted) and cache their histories, as on SQLite.
                    wrk(f"http://127.0.0.1:{proxy.port}", 1, args.connections, 2, script, env)
                    pids = [p for r in replicas for p in r.pids] + proxy.pids
                    if name == "postgresql":
                        pids += postgres_pids()
                    before = cpu_seconds(pids)
                    with quiet.round(pids):
                        requests, rate = wrk(f"http://127.0.0.1:{proxy.port}", args.seconds,
                                             args.connections, 2, script, env)
                    cpu = cpu_seconds([p for p in pids if os.path.exists(f"/proc/{p}")]) - before
                    results[name].append((rate, cpu / requests * 1e6))
                finally:
                    if proxy:
                        proxy.stop()
                    for replica in replicas:
                        replica.stop()
        sqlite_rate = statistics.median(r for r, _ in results["sqlite"])
        for name in locators:
            rate = statistics.median(r for r, _ in results[name])
            cpu = statistics.median(c for _, c in results[name])
            print(f"{count:>8} {name:>10} {rate:>9.0f} {cpu:>11.1f} {rate / sqlite_rate:>9.2f}x")
    print(quiet.summary())


if __name__ == "__main__":
    main()
