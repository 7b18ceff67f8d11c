#!/usr/bin/env python3
"""Soak `ashare serve` under mixed load (issue 13); run by scripts/soak.sh SECONDS.

Load: single- and multi-symbol bars, every indicator, requests that end in errors (400, 401, 403,
404, 405), metered and unmetered keys, HEAD, and slow readers that take a response a few bytes
at a time; halfway through, an import of a new symbol lands. Every 10 s it prints requests,
statuses, p50/p99 latency and the server's RSS. It fails when RSS grows by more than 10% after
the first minute of steady load, when a status is not one the API documents, or when a sampled
answer differs from the same request answered by a fresh `ashare serve` on the same store
(request ids aside). Steady load is each side of the import: the import changes the data, so the
server rebuilds its history cache once (old histories still held by requests in flight while new
ones are built); that step is reported, and each side is held to the 10%.
"""
import http.client
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

DOCUMENTED = {200, 400, 401, 402, 403, 404, 405}
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(REPO, "tests", "data")
SYMBOLS = ["600519.SH", "600036.SH", "000001.SZ", "002594.SZ"]
FIXTURES = ["bancob_600519.SH.csv", "bancob_600036.SH.csv", "jenny_000001.SZ.csv",
            "bancob_002594.SZ.csv"]


def run(binary, *args, db):
    out = subprocess.run([binary, "--db", db, *args], check=True, capture_output=True, text=True)
    return out.stdout


def create_key(binary, db, plan, credits=None):
    args = ["keys", "create", "--plan", plan, "--label", "soak"]
    if credits is not None:
        args += ["--credits", str(credits)]
    for word in run(binary, *args, db=db).split():
        if word.startswith("ask_"):
            return word
    raise SystemExit("no key in the output of keys create")


def start_server(binary, db):
    process = subprocess.Popen([binary, "--db", db, "serve", "--listen", "127.0.0.1:0",
                                "--threads", "2"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()  # "listening on http://127.0.0.1:PORT"
    if "listening on" not in line:
        process.kill()
        raise SystemExit("serve did not start: " + line)
    port = int(line.rsplit(":", 1)[1].strip().strip("/"))
    return process, port


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def requests_mix(keys, new_symbol_ready):
    """Return (method, target, key) drawn from the mix."""
    r = random.random()
    symbol = random.choice(SYMBOLS + ([new_symbol_ready[0]] if new_symbol_ready else []))
    key = random.choice([keys["pro"], keys["metered"], keys["basic"]])
    if r < 0.35:
        start = random.choice(["2024-01-01", "2024-06-01", "2025-01-01"])
        return "GET", f"/v1/ohlc/range/1/day/{start}/2025-12-31?symbol={symbol}&limit=250", key
    if r < 0.45:
        return "GET", ("/v1/ohlc/range/1/day/2025-01-01/2025-12-31?symbol=" + ",".join(SYMBOLS)
                       + "&include=summary"), keys["pro"]
    if r < 0.70:
        name = random.choice(["sma", "ema", "rsi", "macd", "bbands", "atr", "kdj"])
        convention = random.choice(["talib", "tdx"])
        return "GET", f"/v1/indicators/{name}?symbol={symbol}&convention={convention}&limit=50", key
    if r < 0.78:
        return "HEAD", f"/v1/ohlc/range/1/day/2025-01-01/2025-06-30?symbol={symbol}", key
    if r < 0.82:
        return "GET", "/healthz", None
    errors = [
        ("GET", f"/v1/ohlc/range/1/day/2025-13-01/2025-12-31?symbol={symbol}", key),  # 400
        ("GET", f"/v1/ohlc/range/1/day/2025-01-01/2025-12-31?symbol={symbol}", "ask_wrong"),  # 401
        ("GET", "/v1/ohlc/range/1/day/2000-01-01/2025-12-31?symbol=" + symbol, keys["free"]),  # 403
        ("GET", "/v1/nothing", key),  # 404
        ("POST", f"/v1/ohlc/range/1/day/2025-01-01/2025-12-31?symbol={symbol}", key),  # 405
    ]
    return random.choice(errors)


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.statuses = {}
        self.latencies = []
        self.total = 0
        self.undocumented = []
        self.samples = []  # (method, target, key, status, body without request_id)

    def add(self, status, seconds):
        with self.lock:
            self.total += 1
            self.statuses[status] = self.statuses.get(status, 0) + 1
            self.latencies.append(seconds)

    def take_window(self):
        with self.lock:
            window, self.latencies = self.latencies, []
            return window


def comparable(body):
    try:
        value = json.loads(body)
    except ValueError:
        return body
    if isinstance(value, dict):
        value.pop("request_id", None)
    return value


def client(port, keys, stats, stop, new_symbol_ready, import_done_at):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while not stop.is_set():
        method, target, key = requests_mix(keys, new_symbol_ready)
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        started = time.monotonic()
        try:
            connection.request(method, target, headers=headers)
            response = connection.getresponse()
            body = response.read()
        except (OSError, http.client.HTTPException):
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            continue
        stats.add(response.status, time.monotonic() - started)
        if response.status not in DOCUMENTED:
            stats.undocumented.append((method, target, response.status))
        # Sample answers given after the import landed, to replay on a fresh process.
        if method == "GET" and import_done_at[0] and started > import_done_at[0] \
                and random.random() < 0.01 and len(stats.samples) < 2000:
            with stats.lock:
                stats.samples.append((method, target, key, response.status, comparable(body)))


def slow_reader(port, keys, stop):
    """Ask for a year of bars and read the answer 64 bytes every 50 ms."""
    request = (f"GET /v1/ohlc/range/1/day/2025-01-01/2025-12-31?symbol=600519.SH HTTP/1.1\r\n"
               f"Host: 127.0.0.1\r\nAuthorization: Bearer {keys['pro']}\r\n\r\n").encode()
    while not stop.is_set():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
                sock.sendall(request)
                for _ in range(40):
                    if stop.is_set() or not sock.recv(64):
                        break
                    time.sleep(0.05)
        except OSError:
            time.sleep(0.1)


def main():
    seconds = int(sys.argv[1]) if len(sys.argv) > 1 else 600
    binary = sys.argv[2] if len(sys.argv) > 2 else os.path.join(REPO, "build/release/src/cli/ashare")
    work = tempfile.mkdtemp(prefix="ashare-soak-")
    server = None
    try:
        db = os.path.join(work, "ashare.db")
        run(binary, "import", *[os.path.join(DATA, name) for name in FIXTURES], db=db)
        keys = {"pro": create_key(binary, db, "pro"), "basic": create_key(binary, db, "basic"),
                "free": create_key(binary, db, "free"),
                "metered": create_key(binary, db, "pro", 10**15)}
        # The import that lands midway: a new symbol whose last bar is before as_of, so that
        # answers about the other symbols do not change with it.
        new_file = os.path.join(work, "600276.SH.csv")
        shutil.copy(os.path.join(DATA, "jenny_600276.SH.csv"), new_file)
        server, port = start_server(binary, db)
        stats = Stats()
        stop = threading.Event()
        new_symbol_ready = []
        import_done_at = [None]
        threads = [threading.Thread(target=client,
                                    args=(port, keys, stats, stop, new_symbol_ready, import_done_at))
                   for _ in range(4)]
        threads += [threading.Thread(target=slow_reader, args=(port, keys, stop)) for _ in range(2)]
        for thread in threads:
            thread.start()
        started = time.monotonic()
        # Per steady phase (before the import, after it): RSS one minute in, and the peak since.
        phases = [{"name": "before the import", "start": 0.0, "baseline": None, "peak": 0},
                  {"name": "after the import", "start": None, "baseline": None, "peak": 0}]
        imported = False
        rss_before_import = 0
        print(f"{'t(s)':>6} {'requests':>10} {'req/s':>8} {'p50(ms)':>8} {'p99(ms)':>8} "
              f"{'RSS(MiB)':>9}  statuses", flush=True)
        last_total = 0
        while time.monotonic() - started < seconds:
            time.sleep(min(10, max(0.1, seconds - (time.monotonic() - started))))
            elapsed = time.monotonic() - started
            if not imported and elapsed >= seconds / 2:
                rss_before_import = rss_kib(server.pid)
                run(binary, "import", new_file, db=db)
                imported = True
                time.sleep(1.5)  # the servers see a new generation within a second
                new_symbol_ready.append("600276.SH")
                import_done_at[0] = time.monotonic()
                phases[1]["start"] = time.monotonic() - started
            window = sorted(stats.take_window())
            rss = rss_kib(server.pid)
            phase = phases[1] if imported else phases[0]
            if phase["start"] is not None and elapsed >= phase["start"] + 60:
                if phase["baseline"] is None:
                    phase["baseline"] = rss
                phase["peak"] = max(phase["peak"], rss)
            p50 = window[len(window) // 2] * 1000 if window else 0
            p99 = window[int(len(window) * 0.99)] * 1000 if window else 0
            total = stats.total
            print(f"{elapsed:6.0f} {total:10d} {(total - last_total) / 10:8.0f} {p50:8.2f} "
                  f"{p99:8.2f} {rss / 1024:9.1f}  {dict(sorted(stats.statuses.items()))}",
                  flush=True)
            last_total = total
        stop.set()
        for thread in threads:
            thread.join()

        failures = []
        if stats.undocumented:
            failures.append(f"undocumented statuses: {stats.undocumented[:5]}")
        if seconds >= 240 and not all(phase["baseline"] for phase in phases):
            failures.append("no RSS one minute into each phase")
        for phase in phases:
            if phase["baseline"] and phase["peak"] > phase["baseline"] * 1.10:
                failures.append(f"RSS grew {phase['name']} from {phase['baseline']} KiB one minute "
                                f"in to {phase['peak']} KiB")
        # Replay the sampled answers on a fresh process.
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        fresh, fresh_port = start_server(binary, db)
        server = fresh
        connection = http.client.HTTPConnection("127.0.0.1", fresh_port, timeout=30)
        differing = 0
        for method, target, key, status, body in stats.samples:
            connection.request(method, target, headers={"Authorization": f"Bearer {key}"} if key else {})
            response = connection.getresponse()
            again = comparable(response.read())
            if response.status != status or again != body:
                differing += 1
                if differing <= 3:
                    print(f"differs on a fresh process: {method} {target}: {status} vs {response.status}")
        if differing:
            failures.append(f"{differing} of {len(stats.samples)} sampled answers differ on a fresh process")
        rss_text = "; ".join(
            f"{p['name']}: {p['baseline'] / 1024:.1f} MiB one minute in, peak {p['peak'] / 1024:.1f} MiB"
            for p in phases if p["baseline"])
        print(f"soak: {stats.total} requests in {seconds} s, statuses {dict(sorted(stats.statuses.items()))}; "
              f"RSS {rss_text}; the import's step from {rss_before_import / 1024:.1f} MiB; "
              f"{len(stats.samples)} answers replayed on a fresh process")
        if failures:
            print("soak FAILED: " + "; ".join(failures))
            return 1
        print("soak passed")
        return 0
    finally:
        if server is not None and server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
