#!/usr/bin/env python3
"""Load generator of bench/soak.sh (stdlib only, loopback only, bounded in count and time).

  soak.py slow --port P --pid PID --key KEY [--connections 1200] [--wait 60]
      Opens CONNECTIONS sockets that each send the headers of an authenticated POST /api/inventory with
      Content-Length: 1000000 and then nothing. While they are held, measures GET /healthz latency and the
      server's RSS; then waits (at most WAIT s) for the server to answer and close every one, and counts the
      answers (408 body_timeout, 503 overloaded, ...).
  bigbody --port P --pid PID [--requests 100]
      Sends REQUESTS unauthenticated POST /healthz, each announcing and sending 8 MiB - 1 bytes, all at once;
      measures /healthz latency and the server's RSS meanwhile, and counts the answers.

Prints one JSON object with the figures.
"""

import argparse
import http.client
import json
import resource
import socket
import statistics
import threading
import time

HOST = "127.0.0.1"


def rss_kib(pid):
    """(VmRSS, VmHWM) of the server in KiB, from /proc."""
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, rest = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                values[name] = int(rest.split()[0])
    return values.get("VmRSS", 0), values.get("VmHWM", 0)


class RssSampler(threading.Thread):
    """Samples the server's RSS every 50 ms and keeps the largest value."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.peak, self.stop = pid, 0, threading.Event()

    def run(self):
        while not self.stop.is_set():
            try:
                self.peak = max(self.peak, rss_kib(self.pid)[0])
            except OSError:
                return
            time.sleep(0.05)


def healthz_latencies(port, count=20, timeout=5.0):
    """`count` sequential GET /healthz on fresh connections: latencies in ms, and the failures."""
    latencies, failures = [], []
    for _ in range(count):
        started = time.monotonic()
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
            conn.request("GET", "/healthz")
            response = conn.getresponse()
            response.read()
            conn.close()
            if response.status == 200:
                latencies.append((time.monotonic() - started) * 1000)
            else:
                failures.append(response.status)
        except OSError as error:
            failures.append(type(error).__name__)
    return summary(latencies, failures)


def summary(latencies, failures):
    if not latencies:
        return {"ok": 0, "failures": failures}
    ordered = sorted(latencies)
    return {
        "ok": len(ordered),
        "p50_ms": round(statistics.median(ordered), 2),
        "max_ms": round(ordered[-1], 2),
        "failures": failures,
    }


def status_of(data):
    line = data.split(b"\r\n", 1)[0].decode("latin-1")
    parts = line.split(" ")
    return parts[1] if len(parts) > 1 and line.startswith("HTTP/") else "closed-unanswered"


def raise_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def slow(args):
    raise_fd_limit()
    head = (
        "POST /api/inventory HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n"
        f"x-gateway-subscription-key: {args.key}\r\ncontent-length: 1000000\r\n\r\n"
    ).encode()
    before = rss_kib(args.pid)[0]
    baseline = healthz_latencies(args.port)
    sockets, connect_failures = [], 0
    started = time.monotonic()
    for _ in range(args.connections):
        try:
            sock = socket.create_connection((HOST, args.port), timeout=5)
            sock.sendall(head)
            sockets.append(sock)
        except OSError:
            connect_failures += 1
    opened_s = time.monotonic() - started
    time.sleep(1)
    during = healthz_latencies(args.port)
    rss_during = rss_kib(args.pid)[0]
    answers, deadline = {}, time.monotonic() + args.wait
    for sock in sockets:
        sock.settimeout(max(0.1, deadline - time.monotonic()))
        data = b""
        try:
            while True:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                data += chunk
        except socket.timeout:
            data = data or b"still-open"
        except OSError:
            pass
        status = "still-open" if data == b"still-open" else status_of(data)
        answers[status] = answers.get(status, 0) + 1
        sock.close()
    all_closed_s = time.monotonic() - started
    after = healthz_latencies(args.port)
    return {
        "case": "slow",
        "connections": args.connections,
        "connect_failures": connect_failures,
        "opened_in_s": round(opened_s, 2),
        "healthz_before": baseline,
        "healthz_while_held": during,
        "healthz_after": after,
        "rss_kib_before": before,
        "rss_kib_while_held": rss_during,
        "rss_kib_after": rss_kib(args.pid)[0],
        "answers": answers,
        "all_answered_or_closed_after_s": round(all_closed_s, 2),
    }


def big_body_request(port, results, index):
    size = 8 * 1024 * 1024 - 1
    head = (
        "POST /healthz HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/octet-stream\r\n"
        f"content-length: {size}\r\n\r\n"
    ).encode()
    chunk = b"x" * (256 * 1024)
    sent, status = 0, "closed-unanswered"
    try:
        sock = socket.create_connection((HOST, port), timeout=10)
        sock.sendall(head)
        try:
            while sent < size:
                sent += sock.send(chunk[: min(len(chunk), size - sent)])
        except OSError:
            pass  # the server answered without reading and closed: expected
        data = b""
        try:
            while True:
                part = sock.recv(4096)
                if not part:
                    break
                data += part
        except OSError:
            pass
        status = status_of(data) if data else status
        sock.close()
    except OSError as error:
        status = type(error).__name__
    results[index] = (status, sent)


def bigbody(args):
    before = rss_kib(args.pid)[0]
    sampler = RssSampler(args.pid)
    sampler.start()
    results = [None] * args.requests
    threads = [
        threading.Thread(target=big_body_request, args=(args.port, results, i), daemon=True)
        for i in range(args.requests)
    ]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    during = healthz_latencies(args.port)
    for thread in threads:
        thread.join(timeout=60)
    elapsed = time.monotonic() - started
    sampler.stop.set()
    sampler.join()
    answers = {}
    for status, _ in (result for result in results if result):
        answers[status] = answers.get(status, 0) + 1
    sent = [result[1] for result in results if result]
    return {
        "case": "bigbody",
        "requests": args.requests,
        "healthz_during": during,
        "rss_kib_before": before,
        "rss_kib_peak": sampler.peak,
        "rss_kib_after": rss_kib(args.pid)[0],
        "answers": answers,
        "bytes_sent_per_request_max": max(sent) if sent else 0,
        "seconds": round(elapsed, 2),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="case", required=True)
    slow_parser = sub.add_parser("slow")
    slow_parser.add_argument("--key", required=True)
    slow_parser.add_argument("--connections", type=int, default=1200)
    slow_parser.add_argument("--wait", type=float, default=60)
    big_parser = sub.add_parser("bigbody")
    big_parser.add_argument("--requests", type=int, default=100)
    for each in (slow_parser, big_parser):
        each.add_argument("--port", type=int, required=True)
        each.add_argument("--pid", type=int, required=True)
    args = parser.parse_args()
    # Bounded: never more than a few thousand sockets, never another host.
    if getattr(args, "connections", 0) > 5000 or getattr(args, "requests", 0) > 1000:
        parser.error("counts are bounded (connections <= 5000, requests <= 1000)")
    result = slow(args) if args.case == "slow" else bigbody(args)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
