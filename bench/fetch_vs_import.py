"""Issue 32: `ashare fetch tushare` of whole-market days from the stand-in Tushare server
(tests/standin, `--generate N` synthetic symbols a day), against `ashare import --format tushare
--adj-factor` of the same rows (dumped from the stand-in first, numbers as their text), in
alternating rounds of the same run. Pacing is off (`fetch --pace 0`, documented for benchmarks
against a stand-in). Prints the median wall times, their ratio (target <= 1.2), the cost per
whole-market day, each side's peak RSS (target for fetch: < 64 MB), the CPU time of the fetch
process per day, and whether the machine was quiet enough for the figures to count
(bench/quiet.py).

Issue 44 (D20) adds a second figure from the same stand-in, which also generates `--funds N`
synthetic ETFs (fund_daily and fund_adj, whole-market per day) and D20's eight default indices
(index_daily by ts_code): `fetch tushare` of every kind against `fetch tushare --kind stock` over
the same days, in alternating rounds (target <= 1.3).

Usage: fetch_vs_import.py ASHARE STANDIN [--symbols N] [--funds N] [--from YYYYMMDD]
                          [--to YYYYMMDD] [--rounds N]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

from quiet import Quiet

TOKEN = "standin-token"


def call(url, api, params, fields=""):
    body = json.dumps({"api_name": api, "token": TOKEN, "params": params, "fields": fields}).encode()
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as reply:
        # Numbers as the text the stand-in sent, as the importer would read them from a file.
        answer = json.loads(reply.read(), parse_float=str, parse_int=str)
    if str(answer["code"]) != "0":
        sys.exit(f"stand-in refused {api}: {answer['msg']}")
    return answer["data"]


def dump(url, days, work):
    """Write the stand-in's daily rows and adj factors of `days` as Tushare CSV files."""
    daily, adj = os.path.join(work, "daily.csv"), os.path.join(work, "adj.csv")
    rows = 0
    with open(daily, "w") as out_daily, open(adj, "w") as out_adj:
        for index, day in enumerate(days):
            for api, out in (("daily", out_daily), ("adj_factor", out_adj)):
                data = call(url, api, {"trade_date": day, "limit": 100000})
                if index == 0:
                    out.write(",".join(data["fields"]) + "\n")
                for item in data["items"]:
                    out.write(",".join("" if cell is None else str(cell) for cell in item) + "\n")
                rows += len(data["items"]) if api == "daily" else 0
    return daily, adj, rows


def run(command, env, work):
    """Run `command`; return wall seconds, peak RSS in MB and CPU seconds (GNU time)."""
    report = os.path.join(work, "rusage")
    start = time.perf_counter()
    process = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", report] + command,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    wall = time.perf_counter() - start
    if process.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}: {process.stderr.decode()}")
    with open(report) as text:
        rss, user, system = text.read().split()[-3:]
    return wall, int(rss) / 1024, float(user) + float(system)


def fresh(work, name):
    for leftover in os.listdir(work):
        if leftover.startswith(name):
            os.remove(os.path.join(work, leftover))
    return os.path.join(work, name)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ashare", help="the ashare binary (a Release build)")
    parser.add_argument("standin", help="the tushare_standin binary (a Release build)")
    parser.add_argument("--symbols", type=int, default=5000)
    parser.add_argument("--funds", type=int, default=1000, help="synthetic ETFs (D20)")
    parser.add_argument("--from", dest="first", default="20240102")
    parser.add_argument("--to", dest="last", default="20240131")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds")
    args = parser.parse_args()
    quiet = Quiet()

    standin = subprocess.Popen([args.standin, "--port", "0", "--generate", str(args.symbols),
                                "--generate-from", args.first, "--generate-to", args.last,
                                "--generate-funds", str(args.funds), "--generate-indices", "1"],
                               stdout=subprocess.PIPE, text=True)
    try:
        port = standin.stdout.readline().strip().rsplit(":", 1)[-1]
        url = f"http://127.0.0.1:{port}"
        calendar = call(url, "trade_cal", {"start_date": args.first, "end_date": args.last})
        at = calendar["fields"].index("cal_date"), calendar["fields"].index("is_open")
        days = sorted(item[at[0]] for item in calendar["items"] if str(item[at[1]]) == "1")
        with tempfile.TemporaryDirectory(prefix="ashare-fetch-bench-") as work:
            daily, adj, rows = dump(url, days, work)
            env = dict(os.environ, ASHARE_TUSHARE_TOKEN=TOKEN, ASHARE_TUSHARE_URL=url,
                       ASHARE_NOW=f"{days[-1][:4]}-{days[-1][4:6]}-{days[-1][6:]}T16:00:00+08:00")
            first = f"{days[0][:4]}-{days[0][4:6]}-{days[0][6:]}"
            print(f"{os.cpu_count()} cores; {len(days)} whole-market days of {args.symbols} symbols "
                  f"({rows:,} rows); {args.rounds} alternating rounds")
            fetches, imports, every_kind = [], [], []
            with quiet.round([standin.pid]):
                for _ in range(args.rounds):
                    store = fresh(work, "kinds.db")
                    every_kind.append(run([args.ashare, "--db", store, "fetch", "tushare",
                                           "--from", first, "--pace", "0", "--quiet"], env, work))
                    store = fresh(work, "fetch.db")
                    fetches.append(run([args.ashare, "--db", store, "fetch", "tushare",
                                        "--kind", "stock", "--from", first, "--pace", "0", "--quiet"], env, work))
                    store = fresh(work, "import.db")
                    imports.append(run([args.ashare, "--db", store, "import", "--format",
                                        "tushare", "--adj-factor", adj, daily], env, work))
    finally:
        standin.terminate()
        standin.wait()
    print("rounds (wall s): fetch " + " ".join(f"{r[0]:.2f}" for r in fetches)
          + "; import " + " ".join(f"{r[0]:.2f}" for r in imports))
    ours = statistics.median(r[0] for r in fetches)
    theirs = statistics.median(r[0] for r in imports)
    cpu = statistics.median(r[2] for r in fetches)
    print(f"{'figure':<22} {'fetch s':>8} {'import s':>9} {'ratio':>6} {'target':>7} "
          f"{'fetch MB':>9} {'import MB':>10}")
    print(f"{'fetch vs import':<22} {ours:>8.2f} {theirs:>9.2f} {ours / theirs:>6.2f} {1.2:>7.2f} "
          f"{max(r[1] for r in fetches):>9.1f} {max(r[1] for r in imports):>10.1f}")
    print(f"per whole-market day: fetch {ours / len(days) * 1000:.0f} ms wall, "
          f"{cpu / len(days) * 1000:.0f} ms CPU of the ashare process; import "
          f"{theirs / len(days) * 1000:.0f} ms wall")
    kinds = statistics.median(r[0] for r in every_kind)
    kinds_cpu = statistics.median(r[2] for r in every_kind)
    print(f"D20: every kind ({args.symbols} stocks, {args.funds} funds, 8 indices) against the "
          f"stocks alone; rounds (wall s): " + " ".join(f"{r[0]:.2f}" for r in every_kind))
    print(f"{'every kind vs stocks':<22} {kinds:>8.2f} {ours:>9.2f} {kinds / ours:>6.2f} {1.3:>7.2f} "
          f"{max(r[1] for r in every_kind):>9.1f} {max(r[1] for r in fetches):>10.1f}")
    print(f"per whole-market day, every kind: {kinds / len(days) * 1000:.0f} ms wall, "
          f"{kinds_cpu / len(days) * 1000:.0f} ms CPU of the ashare process")
    print(quiet.summary())


if __name__ == "__main__":
    main()
