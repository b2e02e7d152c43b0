"""Measures the refusal of the fragment-doubling GraphQL query and a concurrent receipt read (run by
bench/graphql_cost.sh, which starts the server and passes BENCH_BASE and BENCH_KEY)."""

import json
import os
import threading
import time
import urllib.request

BASE = os.environ["BENCH_BASE"]
KEY = os.environ["BENCH_KEY"]
READS = int(os.environ.get("BENCH_READS", "2000"))
ATTACKERS = int(os.environ.get("BENCH_ATTACKERS", "2"))


def fragment_doubling(levels):
    """Fragment Fn spreads F(n-1) twice: about 100 bytes per level, 5 * 2^n fields once expanded."""
    lines = [f"query {{ leaderboard(first: 1) {{ ...F{levels} }} }}", "fragment F0 on User { wallet }"]
    for level in range(1, levels + 1):
        spread = f"follows(first: 1) {{ nodes {{ ...F{level - 1} }} }}"
        lines.append(f"fragment F{level} on User {{ a: {spread} b: {spread} }}")
    return "\n".join(lines)


def request(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(BASE + path, data=data, method=method)
    req.add_header("X-Gateway-Subscription-Key", KEY)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    started = time.perf_counter()
    with urllib.request.urlopen(req, timeout=120) as response:
        answer = response.read()
        status = response.status
    return (time.perf_counter() - started) * 1000, status, answer


def percentile(samples, fraction):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def shown(samples):
    return (f"n={len(samples)} p50 {percentile(samples, 0.5):.2f} ms, p99 {percentile(samples, 0.99):.2f} ms, "
            f"max {max(samples):.2f} ms")


def reads():
    samples = []
    for _ in range(READS):
        elapsed, status, _ = request("GET", "/api/receipts/bench-read")
        assert status == 200, status
        samples.append(elapsed)
    return samples


def refusal(levels):
    document = fragment_doubling(levels)
    elapsed, status, answer = request("POST", "/api/graphql", {"query": document})
    body = json.loads(answer)
    assert status == 200 and body.get("data") is None, answer[:300]
    return elapsed, len(document), body["errors"][0]


def main():
    for levels in (30, 60):
        elapsed, size, error = refusal(levels)
        print(f"== doubling query, {levels} levels ({size} bytes): refused in {elapsed:.2f} ms: "
              f"{error['extensions']['code']}: {error['message']}")

    print(f"\n== receipt read alone ({READS} sequential GET /api/receipts/bench-read)")
    print("   " + shown(reads()))

    stop = threading.Event()
    refusals = {30: [], 60: []}

    def attack(levels):
        while not stop.is_set():
            refusals[levels].append(refusal(levels)[0])

    attackers = [threading.Thread(target=attack, args=((30, 60)[i % 2],)) for i in range(ATTACKERS)]
    for thread in attackers:
        thread.start()
    under_attack = reads()
    stop.set()
    for thread in attackers:
        thread.join()
    print(f"\n== receipt read while {ATTACKERS} clients post the doubling queries without pause")
    print("   " + shown(under_attack))
    for levels, samples in refusals.items():
        if samples:
            print(f"   doubling query, {levels} levels, refused: " + shown(samples))


if __name__ == "__main__":
    main()
