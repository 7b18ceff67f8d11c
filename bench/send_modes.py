#!/usr/bin/env python3
"""Issue 35, part 2: copy, writev or sendfile for a cached answer's body, measured alone.

Runs bench/bench_send_modes.cpp (a minimal epoll HTTP server answering every request with one
body) in each mode and loads it with `wrk -t2 -c64` over loopback, in alternating rounds. Prints
requests per second and CPU per request (the server's user + system time) of each mode, and each
mode's ratio to `copy` (what serve did before issue 35). The body is a one-year bars answer's size
by default (48 KB of JSON-like text). Nothing here asserts a timing; the last line says whether
the machine was quiet enough for the figures to count (bench/quiet.py).

  python3 bench/send_modes.py build/release/bench/ashare_bench_send_modes [--rounds 3]
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile

from quiet import Quiet, process_seconds

MODES = ("copy", "writev", "sendfile")


def wrk(port, seconds):
    out = subprocess.run(["wrk", "-t2", "-c64", f"-d{seconds}s", f"http://127.0.0.1:{port}/"],
                         check=True, capture_output=True, text=True).stdout
    if "Non-2xx" in out or "Socket errors" in out:
        raise SystemExit("wrk saw errors:\n" + out)
    return int(re.search(r"(\d+) requests in", out).group(1)), float(
        re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("program", help="ashare_bench_send_modes (a Release build)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--bytes", type=int, default=48_000, help="the body's size")
    args = parser.parse_args()

    quiet = Quiet()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as body:
        bar = ('{"trade_date":"2024-01-02","t":1704124800000,"open":1715.0,"high":1718.19,'
               '"low":1678.1,"close":1685.01,"volume":3215644,"turnover":5440082000.0,'
               '"change_pct":-1.92,"factor":8.3926},')
        body.write(("[" + bar * (args.bytes // len(bar) + 1))[:args.bytes])
    servers = {}
    try:
        for mode in MODES:
            process = subprocess.Popen([args.program, mode, body.name], stdout=subprocess.PIPE,
                                       text=True)
            servers[mode] = (process, int(process.stdout.readline().split()[-1]))
        results = {mode: [] for mode in MODES}
        for round_number in range(args.rounds):
            order = MODES if round_number % 2 == 0 else tuple(reversed(MODES))
            for mode in order:
                process, port = servers[mode]
                before = process_seconds(process.pid)
                with quiet.round([process.pid]):
                    requests, rate = wrk(port, args.seconds)
                cpu = process_seconds(process.pid) - before
                results[mode].append((rate, cpu / requests * 1e6))
        print(f"body {args.bytes} bytes; wrk -t2 -c64, {args.rounds} alternating rounds of "
              f"{args.seconds} s; medians")
        print(f"{'mode':<9} {'req/s':>9} {'vs copy':>8} {'CPU/req':>9} {'vs copy':>8}")
        base_rate = statistics.median(r for r, _ in results["copy"])
        base_cpu = statistics.median(c for _, c in results["copy"])
        for mode in MODES:
            rate = statistics.median(r for r, _ in results[mode])
            cpu = statistics.median(c for _, c in results[mode])
            print(f"{mode:<9} {rate:>9.0f} {rate / base_rate:>8.2f} {cpu:>6.2f} µs "
                  f"{base_cpu / cpu:>8.2f}")
    finally:
        for process, _ in servers.values():
            process.kill()
            process.wait()
        os.unlink(body.name)
    print(quiet.summary())


if __name__ == "__main__":
    main()
