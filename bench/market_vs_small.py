"""P5 of issue 11: a full market served by `ashare serve` against a store of 10 symbols with
histories of the same length, in the same run. Generates both (bench/market_data.py), imports
them, and prints:
  - the store's bytes per bar (target <= 64);
  - one-year bar requests, cold (a symbol's first request since the server started), its first
    repeat (right after) and warm: once every symbol was asked twice (its whole history then
    loaded), random requests over every symbol: median and p99 latency on each store and their ratios
    (target <= 1.3), the two warm loads alternating request by request, and each server's CPU
    time a request over them;
  - the server's RSS after the warm load against `--cache-budget` (target: budget + 64 MB).
Latency is measured by one keep-alive client on 127.0.0.1 (Python's http.client), so both sides
carry the same client overhead.

Usage: market_vs_small.py ASHARE [--symbols 5000] [--days 3000] [--requests 100000] [--work DIR]
"""
import argparse
import datetime
import http.client
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import market_data  # noqa: E402

from quiet import Quiet


class Server:
    """`ashare serve` on 127.0.0.1 over `store`, with a pro key, and a keep-alive client."""

    def __init__(self, ashare, store, budget_mib, env):
        run = lambda command: subprocess.run(command, check=True, capture_output=True, text=True,
                                             env=env)
        self.key = run([ashare, "--db", store, "keys", "create", "--plan", "pro",
                        "--label", "p5"]).stdout.split()[-1]
        self.process = subprocess.Popen(
            [ashare, "--db", store, "serve", "--listen", "127.0.0.1:0",
             "--cache-budget", str(budget_mib)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        self.port = int(self.process.stdout.readline().rsplit(":", 1)[1])
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port)

    def get(self, symbol, to):
        """GET a one-year window of `symbol` ending at `to`; return the seconds it took."""
        start = (to - datetime.timedelta(days=365)).isoformat()
        path = f"/v1/ohlc/range/1/day/{start}/{to.isoformat()}?symbol={symbol}&limit=5000"
        began = time.perf_counter()
        self.connection.request("GET", path, headers={"Authorization": f"Bearer {self.key}"})
        response = self.connection.getresponse()
        body = response.read()
        took = time.perf_counter() - began
        if response.status != 200 or len(body) < 1000:
            sys.exit(f"unexpected answer {response.status} to {path}")
        return took

    def rss_mb(self):
        """Return the server's (current, peak) resident memory in MB."""
        fields = {}
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                name, _, value = line.partition(":")
                fields[name] = value
        return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024

    def wait_until_idle(self, quiet_for=0.5, at_most=120):
        """Wait until the server has used no CPU for `quiet_for` seconds (its background loads
        done), or `at_most` seconds have passed."""
        deadline = time.monotonic() + at_most
        last = self.cpu_seconds()
        while time.monotonic() < deadline:
            time.sleep(quiet_for)
            now = self.cpu_seconds()
            if now == last:
                return
            last = now

    def cpu_seconds(self):
        """Return the server's user and system CPU time so far, in seconds."""
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        self.connection.close()
        self.process.terminate()
        self.process.wait(timeout=30)


def make(ashare, work, name, symbols, days, env):
    """Generate and import a market of `symbols` x `days` as store `name`; return its path, bytes
    per bar and bars."""
    csv = os.path.join(work, name + ".csv")
    store = os.path.join(work, name + ".db")
    made = os.path.join(work, f"{name}-{symbols}x{days}.rows")  # --work: made by an earlier run
    if os.path.exists(made):
        rows = int(open(made).read())
        return store, os.path.getsize(store) / rows, rows
    for stale in (store, store + "-wal", store + "-shm"):
        if os.path.exists(stale):
            os.remove(stale)
    market_data.write(csv, symbols, days)
    rows = sum(1 for _ in open(csv)) - 1
    subprocess.run([ashare, "--db", store, "import", csv, "--source", "bench"], check=True,
                   capture_output=True, env=env)
    os.remove(csv)
    subprocess.run(["sqlite3", store, "PRAGMA wal_checkpoint(TRUNCATE)"], check=True,
                   capture_output=True)
    with open(made, "w") as out:
        out.write(str(rows))
    return store, os.path.getsize(store) / rows, rows


def read_through(path):
    """Read `path` once, so that the OS holds it in its page cache. "Cold" is a symbol's first
    request since the server started, not a read from the disk: a market store just made, or
    reused after a while, is partly out of the page cache (cold measured 1.94 then, against 1.02
    in the next run), while the small one is always in it."""
    with open(path, "rb") as store:
        while store.read(1 << 20):
            pass


def cold_and_repeat(server, symbols, ends, rng, count):
    """Return latencies of `count` first requests of distinct symbols and of their repeats."""
    cold, repeat = [], []
    for symbol in rng.sample(symbols, min(count, len(symbols))):
        to = rng.choice(ends)
        cold.append(server.get(symbol, to))
        repeat.append(server.get(symbol, to))
    return cold, repeat


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ashare", help="the ashare binary (a Release build)")
    parser.add_argument("--symbols", type=int, default=5000)
    parser.add_argument("--days", type=int, default=3000)
    parser.add_argument("--small-symbols", type=int, default=10)
    parser.add_argument("--requests", type=int, default=100_000,
                        help="random requests over every symbol before RSS is read")
    parser.add_argument("--cold", type=int, default=300, help="cold requests on the market")
    parser.add_argument("--cache-budget", type=int, default=256, help="MiB, serve's default")
    parser.add_argument("--work", help="keep the generated stores in this directory and reuse "
                        "them in later runs (default: a temporary one)")
    args = parser.parse_args()
    quiet = Quiet()

    with tempfile.TemporaryDirectory(prefix="ashare-p5-") as scratch:
        work = args.work or scratch
        os.makedirs(work, exist_ok=True)
        env = dict(os.environ, HOME=work, XDG_CONFIG_HOME=os.path.join(work, "config"),
                   XDG_DATA_HOME=os.path.join(work, "data"))
        started = time.perf_counter()
        market, market_bpb, market_rows = make(args.ashare, work, "market", args.symbols,
                                               args.days, env)
        small, small_bpb, _ = make(args.ashare, work, "small", args.small_symbols, args.days, env)
        setup = time.perf_counter() - started
        for store in (market, small):
            read_through(store)
        names = [market_data.symbol_name(i) for i in range(args.symbols)]
        ends = market_data.sessions(args.days)[250:]
        rng = random.Random(5)

        # The small store: cold requests need a fresh server once all its symbols were asked.
        small_cold, small_repeat = [], []
        while len(small_cold) < min(args.cold, 50):
            server = Server(args.ashare, small, args.cache_budget, env)
            cold, repeat = cold_and_repeat(server, names[:args.small_symbols], ends, rng,
                                           args.small_symbols)
            small_cold += cold
            small_repeat += repeat
            server.stop()
        small_server = Server(args.ashare, small, args.cache_budget, env)
        server = Server(args.ashare, market, args.cache_budget, env)
        market_cold, market_repeat = cold_and_repeat(server, names, ends, rng, args.cold)
        # Warm: every symbol asked twice first (a cold read, then its whole history loaded), so
        # that the warm figure holds repeats only, as on the small store after a few requests.
        for warmed, symbols in ((small_server, names[:args.small_symbols]), (server, names)):
            for symbol in symbols:
                for _ in range(2):
                    warmed.get(symbol, rng.choice(ends))
        # The servers load histories on a thread of their own after the requests that ask for
        # them (issue 35): let those loads finish, so that the warm figure holds repeats only.
        for warmed in (small_server, server):
            warmed.wait_until_idle()
        # The warm loads alternate between the two servers request by request, so that both see
        # the same machine at the same moment (a shared one changes speed from second to second).
        warm_small, warm_market = [], []
        cpu_small = -small_server.cpu_seconds()  # the servers' CPU seconds over the warm loads
        cpu_market = -server.cpu_seconds()
        with quiet.round([small_server.process.pid, server.process.pid]):
            for _ in range(args.requests):
                warm_small.append(small_server.get(rng.choice(names[:args.small_symbols]),
                                                   rng.choice(ends)))
                warm_market.append(server.get(rng.choice(names), rng.choice(ends)))
        cpu_small += small_server.cpu_seconds()
        cpu_market += server.cpu_seconds()
        rss, peak = server.rss_mb()
        server.stop()
        small_server.stop()

        ms = lambda values: statistics.median(values) * 1000
        p99 = lambda values: sorted(values)[min(len(values) - 1, int(len(values) * 0.99))] * 1000
        print(f"{os.cpu_count()} cores; market {args.symbols} symbols x {args.days} days "
              f"({market_rows:,} bars) against {args.small_symbols} symbols x {args.days} days; "
              f"setup {setup:.0f} s; --cache-budget {args.cache_budget} MiB")
        print(f"{'figure':<16} {'market':>9} {'small':>9} {'ratio':>6} {'target':>7}"
              f" {'p99 market':>11} {'p99 small':>10} {'p99 ratio':>10}")
        print(f"{'P5 bytes/bar':<16} {market_bpb:>9.1f} {small_bpb:>9.1f} {'':>6} {64:>7}")
        for name, ours, theirs in (("P5 cold ms", market_cold, small_cold),
                                   ("P5 repeat ms", market_repeat, small_repeat),
                                   ("P5 warm ms", warm_market, warm_small)):
            print(f"{name:<16} {ms(ours):>9.3f} {ms(theirs):>9.3f} "
                  f"{ms(ours) / ms(theirs):>6.2f} {1.3:>7.2f} {p99(ours):>11.3f} "
                  f"{p99(theirs):>10.3f} {p99(ours) / p99(theirs):>10.2f}")
        # The server's CPU a request: steadier than latency where the client shares the cores.
        us_market = cpu_market / len(warm_market) * 1e6
        us_small = cpu_small / len(warm_small) * 1e6
        print(f"{'P5 warm CPU us':<16} {us_market:>9.1f} {us_small:>9.1f} "
              f"{us_market / us_small:>6.2f}       -")
        asked = len(market_cold) + len(market_repeat) + 2 * args.symbols + args.requests
        print(f"P5 RSS after {asked:,} requests over every symbol: {rss:.0f} MB "
              f"(peak {peak:.0f} MB); target <= {args.cache_budget + 64} MB "
              f"(--cache-budget {args.cache_budget} MiB + 64 MB)")
    print(quiet.summary())


if __name__ == "__main__":
    main()
