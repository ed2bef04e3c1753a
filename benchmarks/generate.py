"""Deterministic benchmark data: order lines and their customers, as CSV files.

    python benchmarks/generate.py --rows 1000000 --bad-share 0.001 --out bench-data/1m

writes

    <out>/orders/part-NNNN.csv   order lines, `--rows-per-file` rows per file, in order_id order
    <out>/customers.csv          one row per customer (the build side of the combine)
    <out>/manifest.json          the parameters, so that a folder is reused only if they match

Order lines belong to customers (the correlation key of the CK shapes) in groups of
`--group-size` lines on average (Poisson-like, from the seeded generator), to one of 40
departments with a skewed (Zipf-like) share, and to one of 366 days. A bad row carries
`n/a` as its amount, which fails `amount.to_int()` in the pipelines; the share of bad rows
is exact to the row (`round(rows * bad_share)` rows, spread evenly). The same arguments
always give byte-identical files.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
from pathlib import Path

VERSION = 2
ORDERS_HEADER = "order_id,customer_id,department,region,day,amount,qty,status,note\n"
CUSTOMERS_HEADER = "customer_id,name,segment,country\n"
REGIONS = ("north", "south", "east", "west", "central", "intl")
STATUSES = ("new", "paid", "shipped", "returned")
SEGMENTS = ("retail", "wholesale", "online")
COUNTRIES = ("DE", "FR", "NL", "PL", "SE", "ES", "IT", "US")
DEPARTMENTS = 40
DAYS = 366
EPOCH = dt.date(2024, 1, 1)


def parse_size(text: str) -> int:
    """`100k`, `1m`, `2.5M`, `2000` -> a row count."""
    t = text.strip().lower().replace("_", "")
    scale = {"k": 1_000, "m": 1_000_000}.get(t[-1:], 1)
    return int(float(t[:-1] if scale != 1 else t) * scale)


def _department_weights() -> list[float]:
    return [1.0 / (i + 1) ** 0.8 for i in range(DEPARTMENTS)]


def params(rows: int, bad_share: float, group_size: float, rows_per_file: int,
           seed: int) -> dict:
    return {"version": VERSION, "rows": rows, "bad_share": bad_share, "group_size": group_size,
            "rows_per_file": rows_per_file, "seed": seed}


def generate(out: Path, rows: int, bad_share: float = 0.0, group_size: float = 8.0,
             rows_per_file: int = 250_000, seed: int = 42) -> Path:
    """Write the data set into `out` (skipped when `out` already holds the same one)."""
    wanted = params(rows, bad_share, group_size, rows_per_file, seed)
    manifest = out / "manifest.json"
    if manifest.exists() and json.loads(manifest.read_text()) == wanted:
        return out
    (out / "orders").mkdir(parents=True, exist_ok=True)
    for old in (out / "orders").glob("*.csv"):
        old.unlink()
    rng = random.Random(seed)
    customers = max(1, round(rows / group_size))
    bad = round(rows * bad_share)
    stride = rows / bad if bad else 0.0
    next_bad = stride / 2 if bad else float("inf")
    days = [(EPOCH + dt.timedelta(days=d)).isoformat() for d in range(DAYS)]
    departments = [f"D{d:02d}" for d in range(DEPARTMENTS)]
    dept_cum = _cumulative(_department_weights())
    n = 0
    part = 0
    while n < rows:
        path = out / "orders" / f"part-{part:04d}.csv"
        end = min(rows, n + rows_per_file)
        lines = [ORDERS_HEADER]
        for i in range(n, end):
            r = rng.random
            amount = str(1 + int(r() * 100_000))
            if i >= next_bad:
                amount = "n/a"
                next_bad += stride
            dept = departments[_pick(dept_cum, r())]
            lines.append(
                f"O{i:010d},C{int(r() * customers):08d},{dept},{REGIONS[int(r() * 6)]},"
                f"{days[int(r() * DAYS)]},{amount},{1 + int(r() * 50)},"
                f"{STATUSES[int(r() * 4)]},item-{int(r() * 5000)}\n")
        path.write_text("".join(lines), encoding="utf-8")
        n = end
        part += 1
    lines = [CUSTOMERS_HEADER]
    for c in range(customers):
        lines.append(f"C{c:08d},customer {c},{SEGMENTS[c % 3]},{COUNTRIES[(c * 7) % 8]}\n")
    (out / "customers.csv").write_text("".join(lines), encoding="utf-8")
    manifest.write_text(json.dumps(wanted, indent=2) + "\n")
    return out


def _cumulative(weights: list[float]) -> list[float]:
    total = sum(weights)
    out, acc = [], 0.0
    for w in weights:
        acc += w / total
        out.append(acc)
    return out


def _pick(cumulative: list[float], u: float) -> int:
    for i, edge in enumerate(cumulative):
        if u < edge:
            return i
    return len(cumulative) - 1


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", default="100k", help="order lines: 100k, 1m, 10m, 2000 ...")
    ap.add_argument("--bad-share", type=float, default=0.001,
                    help="share of order lines with a bad amount (0.001 = 0.1%%)")
    ap.add_argument("--group-size", type=float, default=8.0,
                    help="average order lines per customer (correlation group)")
    ap.add_argument("--rows-per-file", type=int, default=250_000)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    generate(a.out, parse_size(a.rows), a.bad_share, a.group_size, a.rows_per_file, a.seed)
    print(a.out)


if __name__ == "__main__":
    main()
