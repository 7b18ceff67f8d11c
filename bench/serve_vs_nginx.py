#!/usr/bin/env python3
"""P1, P1m and P1h of issue 9: `ashare serve` against nginx on the same machine, in one run.

Loads the bundled sample (data/sample) into a temporary store and serves one-year single-symbol
bar requests over random symbols and windows (bench/http/requests.lua) with `wrk -t2 -c64`
(keep-alive, loopback), against nginx serving a static file of the median response's size
(bench/http/nginx.conf.in). Runs alternate between the two servers; each figure is the median of
its rounds, with the CPU time per request of each server (user + system, from /proc), which
stays comparable on a noisy machine. Prints ratios only: nothing here asserts a timing. The last
line says whether the machine was quiet enough for the figures to count (bench/quiet.py).

  P1   unmetered key, HTTP     target >= 0.9 x nginx, CPU per request ratio >= 0.85 (issue 35)
  P1m  metered key (a charge per request), HTTP     target >= 0.8
  P1h  unmetered key, HTTPS against nginx over HTTPS with the same certificate     target >= 0.9
  P1z  unmetered key, HTTP, gzip accepted, against nginx's gzip_static serving the same file
       compressed beforehand (D17, issue 15)     target >= 0.9

It also prints what an answer costs on the wire: the median one-year answer's bytes plain and
gzip-compressed, and the whole response (head included) of a 200 against a revalidation's 304.
"""
import gzip
import argparse
import datetime
import os
import random
import re
import shutil
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

from quiet import Quiet

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HTTP_DIR = os.path.join(ROOT, "bench", "http")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def run(command, **kwargs):
    return subprocess.run(command, check=True, capture_output=True, text=True, **kwargs)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cpu_seconds(pids):
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / CLOCK_TICKS


def wrk(url, seconds, connections, threads, script=None, env=None, headers=()):
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s"]
    for header in headers:
        command += ["-H", header]
    if script:
        command += ["-s", script]
    command.append(url)
    out = run(command, env=env).stdout
    if "Non-2xx" in out or "Socket errors" in out:
        raise SystemExit("wrk saw errors:\n" + out)
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    return requests, rate


class Ashare:
    def __init__(self, binary, store, extra, keys_db=None):
        keys = ["--keys-db", keys_db] if keys_db else []
        self.process = subprocess.Popen(
            [binary, "--db", store] + keys + ["serve", "--listen", "127.0.0.1:0"] + extra,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        self.port = int(line.rsplit(":", 1)[1])
        self.pids = [self.process.pid]

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)


class Nginx:
    def __init__(self, workdir, port, tls_port, workers):
        conf = open(os.path.join(HTTP_DIR, "nginx.conf.in")).read()
        for name, value in {"DIR": workdir, "PORT": port, "TLS_PORT": tls_port,
                            "WORKERS": workers}.items():
            conf = conf.replace(f"@{name}@", str(value))
        os.makedirs(os.path.join(workdir, "tmp"), exist_ok=True)
        self.conf = os.path.join(workdir, "nginx.conf")
        open(self.conf, "w").write(conf)
        run(["nginx", "-c", self.conf])
        time.sleep(0.3)
        master = int(open(os.path.join(workdir, "nginx.pid")).read())
        children = run(["pgrep", "-P", str(master)]).stdout.split()
        self.pids = [master] + [int(pid) for pid in children]

    def stop(self):
        subprocess.run(["nginx", "-c", self.conf, "-s", "stop"], check=False,
                       capture_output=True)


def targets(rng, count):
    symbols = ["000001.SZ", "000333.SZ", "000858.SZ", "002594.SZ", "600036.SH", "600276.SH",
               "600519.SH", "600887.SH", "601166.SH", "601318.SH"]
    start = datetime.date(2020, 1, 2)
    out = []
    for _ in range(count):
        first = start + datetime.timedelta(days=rng.randrange(0, 4 * 365 - 1))
        last = first + datetime.timedelta(days=364)
        symbol = rng.choice(symbols)
        out.append(f"/v1/ohlc/range/1/day/{first}/{last}?symbol={symbol}")
    return out


def fetch(url, key, context=None, headers=None):
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {key}",
                                                   **(headers or {})})
    with urllib.request.urlopen(request, context=context) as response:
        return response.read()


def raw_response_bytes(port, path, key, extra=""):
    """The whole response (head and body) to one GET on a connection of its own."""
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                            f"{key}\r\n{extra}Connection: close\r\n\r\n").encode())
        data = b""
        while chunk := connection.recv(65536):
            data += chunk
        return data


def wire_bytes(port, paths, key):
    """Print what an answer moves: bodies plain and gzip-compressed (medians over `paths`), and
    the whole response of a 200 against that of a 304 to a revalidation (D17)."""
    plain = sorted(len(fetch(f"http://127.0.0.1:{port}{p}", key)) for p in paths)
    zipped = sorted(len(fetch(f"http://127.0.0.1:{port}{p}", key, None,
                              {"Accept-Encoding": "gzip"})) for p in paths)
    path = paths[0]
    full = raw_response_bytes(port, path, key, "Accept-Encoding: gzip\r\n")
    etag = re.search(rb"\r\nETag: ([^\r]+)\r\n", full).group(1).decode()
    revalidated = raw_response_bytes(port, path, key,
                                     f"Accept-Encoding: gzip\r\nIf-None-Match: {etag}\r\n")
    assert revalidated.startswith(b"HTTP/1.1 304"), revalidated[:40]
    median_plain, median_zipped = plain[len(plain) // 2], zipped[len(zipped) // 2]
    print(f"wire: one-year answer body {median_plain} bytes plain, {median_zipped} gzip "
          f"({median_zipped / median_plain:.2f}); whole response gzip 200 {len(full)} bytes, "
          f"304 revalidation {len(revalidated)} bytes")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ashare", help="the ashare binary (a Release build)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per figure")
    parser.add_argument("--seconds", type=int, default=5, help="duration of one wrk run")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--wrk-threads", type=int, default=2)
    parser.add_argument("--figures", default="P1,P1m,P1h,P1z",
                        help="comma-separated figures to measure (default all)")
    args = parser.parse_args()

    quiet = Quiet()
    cores = os.cpu_count() or 1
    work = tempfile.mkdtemp(prefix="ashare-bench-")
    os.chmod(work, 0o755)  # nginx's workers run as another user
    store = os.path.join(work, "ashare.db")
    servers = []
    try:
        env = dict(os.environ, ASHARE_DB=store)
        run([os.path.join(ROOT, "scripts", "load-sample.sh"), args.ashare], env=env)
        key = run([args.ashare, "--db", store, "keys", "create", "--plan", "pro",
                   "--label", "bench"]).stdout.split()[-1]
        metered = run([args.ashare, "--db", store, "keys", "create", "--plan", "pro",
                       "--credits", "1000000000000", "--label", "bench-metered"]).stdout.split()[-1]
        run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
             "-subj", "/CN=127.0.0.1", "-keyout", os.path.join(work, "key.pem"),
             "-out", os.path.join(work, "cert.pem")])
        tls_args = ["--tls-cert", os.path.join(work, "cert.pem"),
                    "--tls-key", os.path.join(work, "key.pem")]

        plain = Ashare(args.ashare, store, [])
        servers.append(plain)
        secure = Ashare(args.ashare, store, tls_args)
        servers.append(secure)

        paths = targets(random.Random(9), 400)
        targets_file = os.path.join(work, "targets.txt")
        open(targets_file, "w").write("\n".join(paths) + "\n")
        # The static file: the response of median size, byte for byte.
        bodies = sorted((fetch(f"http://127.0.0.1:{plain.port}{path}", key) for path in paths),
                        key=len)
        median_body = bodies[len(bodies) // 2]
        os.makedirs(os.path.join(work, "www"), exist_ok=True)
        open(os.path.join(work, "www", "bars.json"), "wb").write(median_body)
        # gzip_static's file: compressed beforehand at zlib's default level, as ashare does.
        open(os.path.join(work, "www", "bars.json.gz"), "wb").write(
            gzip.compress(median_body, compresslevel=6, mtime=0))
        nginx_port, nginx_tls_port = free_port(), free_port()
        nginx = Nginx(work, nginx_port, nginx_tls_port, cores)
        servers.append(nginx)

        script = os.path.join(HTTP_DIR, "requests.lua")
        figures = [
            ("P1", 0.9, plain, "http", key, f"http://127.0.0.1:{nginx_port}/bars.json"),
            ("P1m", 0.8, plain, "http", metered, f"http://127.0.0.1:{nginx_port}/bars.json"),
            ("P1h", 0.9, secure, "https", key, f"https://127.0.0.1:{nginx_tls_port}/bars.json"),
            ("P1z", 0.9, plain, "http", key, f"http://127.0.0.1:{nginx_port}/bars.json"),
        ]
        print(f"{cores} cores; wrk -t{args.wrk_threads} -c{args.connections}, "
              f"{args.rounds} alternating rounds of {args.seconds} s; median response "
              f"{len(median_body)} bytes (responses {len(bodies[0])}..{len(bodies[-1])})")
        print(f"{'figure':<6} {'ashare req/s':>13} {'nginx req/s':>12} {'ratio':>6} {'target':>7}"
              f" {'ashare CPU/req':>15} {'nginx CPU/req':>14} {'CPU ratio':>10}")
        wanted = args.figures.split(",")
        wire_bytes(plain.port, paths[:100], key)
        for name, target, server, scheme, bearer, baseline_url in figures:
            if name not in wanted:
                continue
            headers = ["Accept-Encoding: gzip"] if name == "P1z" else []
            ours, theirs = [], []
            for round_number in range(args.rounds):
                order = [("ashare", server), ("nginx", nginx)]
                if round_number % 2:
                    order.reverse()
                for label, measured in order:
                    before = cpu_seconds(measured.pids)
                    with quiet.round([pid for each in servers for pid in each.pids]):
                        if label == "ashare":
                            url = f"{scheme}://127.0.0.1:{server.port}"
                            wrk_env = dict(os.environ, BENCH_TARGETS=targets_file,
                                           BENCH_KEY=bearer, BENCH_GZIP="1" if headers else "")
                            requests, rate = wrk(url, args.seconds, args.connections,
                                                 args.wrk_threads, script, wrk_env)
                        else:
                            requests, rate = wrk(baseline_url, args.seconds, args.connections,
                                                 args.wrk_threads, headers=headers)
                    cpu = cpu_seconds(measured.pids) - before
                    (ours if label == "ashare" else theirs).append((rate, cpu / requests * 1e6))
            rate_ours = statistics.median(r for r, _ in ours)
            rate_theirs = statistics.median(r for r, _ in theirs)
            cpu_ours = statistics.median(c for _, c in ours)
            cpu_theirs = statistics.median(c for _, c in theirs)
            print(f"{name:<6} {rate_ours:>13.0f} {rate_theirs:>12.0f} {rate_ours / rate_theirs:>6.2f}"
                  f" {target:>7.2f} {cpu_ours:>12.1f} µs {cpu_theirs:>11.1f} µs"
                  f" {cpu_theirs / cpu_ours:>10.2f}")
            sys.stdout.flush()
    finally:
        for server in servers:
            try:
                server.stop()
            except Exception:  # noqa: BLE001 - best effort on the way out
                pass
        shutil.rmtree(work, ignore_errors=True)
    print(quiet.summary())


if __name__ == "__main__":
    main()
