"""Time clinker-sql next to the same jobs written by hand in plain Spark SQL.

    .venv/bin/python benchmarks/run.py --sizes 100k,1m --bad-share 0,0.001
    .venv/bin/python benchmarks/run.py --sizes 2k --check --repeat 1   # the CI smoke run

One Spark session (local[2] unless CLINKER_SQL_MASTER says otherwise, the same
`--partitions` shuffle partitions for both sides) runs, for every shape in
benchmarks/pipelines/ and every data set: the clinker-sql pipeline in-process
(`Project.run`: compile, every statement, the outputs and the DLQ assembled and
moved into place) and benchmarks/handwritten/<shape>.sql (no error handling, no
DLQ), each warmed up once, then timed `--repeat` times in alternating order; the
median is reported. The ratio is clinker-sql / hand-written.

The work folder holds `data` (a link to the data set under test, switched between
data sets; the pipelines read `./data/...`) and `out/`. Relative paths resolve
against it because the Spark JVM is started there.

Memory: after each clinker-sql run, the JVM heap in use after a full GC and the
Python process's resident set (both on the driver; local mode has no other
process). Flat numbers as the input grows mean nothing is collected to the driver.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import platform
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate import generate, parse_size  # noqa: E402

SHAPES = {
    "transform_chain": ["transform_chain/orders.csv"],
    "ck_dlq": ["ck_dlq/international.csv", "ck_dlq/domestic.csv"],
    "retraction": ["retraction/daily.csv"],
    "window": ["window/orders.csv"],
    "combine": ["combine/orders.csv"],
}
GOAL_CLEAN = 1.1  # no bad rows
GOAL_DIRTY = 1.3  # 0.1% bad rows
GOAL_SCALING = 11.0  # 10M rows / 1M rows


@dataclass
class Measure:
    shape: str
    rows: int
    bad_share: float
    clinker: list[float] = field(default_factory=list)
    hand: list[float] = field(default_factory=list)
    clinker_cpu: list[float] = field(default_factory=list)  # driver JVM + Python CPU seconds
    hand_cpu: list[float] = field(default_factory=list)
    jvm_heap_mb: float = 0.0
    python_rss_mb: float = 0.0
    dlq: int = 0
    written: int = 0
    slowest: list[tuple[str, float]] = field(default_factory=list)
    # seconds of each statement of the clinker-sql run (kind and name), one per timed run
    statements: dict[str, list[float]] = field(default_factory=dict)
    equal: bool | None = None

    @property
    def clinker_s(self) -> float:
        return statistics.median(self.clinker)

    @property
    def hand_s(self) -> float:
        return statistics.median(self.hand)

    @property
    def ratio(self) -> float:
        return self.clinker_s / self.hand_s

    @property
    def cpu_ratio(self) -> float:
        return statistics.median(self.clinker_cpu) / statistics.median(self.hand_cpu)


class Bench:
    def __init__(self, work: Path, partitions: int, explain: Path | None):
        self.work = work
        self.explain = explain
        (work / "out").mkdir(parents=True, exist_ok=True)
        os.chdir(work)  # the JVM inherits it: `./data/...` in the pipelines resolves here
        from clinker_sql.runtime.local import LocalSparkExecutor, get_session

        self.spark = get_session({"spark.sql.shuffle.partitions": str(partitions),
                                  "spark.default.parallelism": "2"})
        self.executor = LocalSparkExecutor()
        self.partitions = partitions
        self.jvm_pid = int(self.spark.sparkContext._jvm.java.lang.ProcessHandle.current().pid())

    def cpu_seconds(self) -> float:
        """CPU time of the Spark JVM and of this process: on a shared machine it moves far
        less with the other processes' load than wall time does."""
        ticks = os.sysconf("SC_CLK_TCK")
        with open(f"/proc/{self.jvm_pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        jvm = (int(fields[11]) + int(fields[12])) / ticks
        return jvm + time.process_time()

    def use(self, data: Path) -> None:
        link = self.work / "data"
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(data.resolve(), target_is_directory=True)
        for shape in SHAPES:
            (self.work / "out" / shape).mkdir(parents=True, exist_ok=True)

    def project(self, pipeline: Path):
        """The pipeline's Project. Its `./data` is a symlink to the data set (`use`), which
        leads out of the working folder: allowed explicitly, as Clinker's own benchmark
        runner does (else E-SEC-001)."""
        from clinker_sql.project import Project

        return Project(pipeline, self.work / "target", allow_absolute_paths=True)

    def run_clinker(self, shape: str):
        pipeline = HERE / "pipelines" / f"{shape}.yaml"
        start = time.perf_counter()
        result = self.project(pipeline).run(executor=self.executor, base=self.work)
        return time.perf_counter() - start, result

    def run_hand(self, shape: str) -> float:
        text = (HERE / "handwritten" / f"{shape}.sql").read_text(encoding="utf-8")
        start = time.perf_counter()
        for statement in statements(text):
            self.spark.sql(statement).collect()
        return time.perf_counter() - start

    def jvm_heap_mb(self) -> float:
        jvm = self.spark.sparkContext._jvm
        runtime = jvm.java.lang.Runtime.getRuntime()
        jvm.java.lang.System.gc()
        return (runtime.totalMemory() - runtime.freeMemory()) / 2**20

    def explain_run(self, shape: str, label: str) -> None:
        """One more (untimed) clinker-sql run that saves EXPLAIN FORMATTED of every
        statement that moves data (checkpoints, writes, the report) into `--explain`."""
        if self.explain is None:
            return
        plans: list[str] = []
        executor = _Explaining(self.executor, plans)
        self.project(HERE / "pipelines" / f"{shape}.yaml").run(executor=executor,
                                                               base=self.work)
        out = self.explain / f"{shape}_{label}.txt"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("\n".join(plans), encoding="utf-8")


class _Explaining:
    """An executor that records Spark's plan of each query before running it."""

    def __init__(self, inner, plans: list[str]):
        self.inner, self.plans = inner, plans
        self.local_files = True

    def _explain(self, sql: str) -> None:
        head, _, query = sql.partition("\n")
        if not head.startswith("INSERT OVERWRITE DIRECTORY"):
            query = sql
        elif " SELECT " in head:  # a one-line checkpoint: ... USING parquet [OPTIONS (...)] SELECT
            query = head[head.index(" SELECT ") + 1:]
        try:
            plan = self.inner.spark.sql(f"EXPLAIN FORMATTED {query}").collect()[0][0]
        except Exception as exc:  # noqa: BLE001 - a plan we cannot show is not an error
            plan = f"(no plan: {exc})"
        self.plans.append(f"==== {sql.splitlines()[0][:160]}\n{plan}")

    def execute(self, sql: str) -> None:
        if sql.startswith("INSERT OVERWRITE DIRECTORY"):
            self._explain(sql)
        self.inner.execute(sql)

    def query(self, sql: str):
        if sql.lstrip().upper().startswith(("SELECT", "WITH")):
            self._explain(sql)
        return self.inner.query(sql)


def statements(text: str) -> list[str]:
    """The statements of a hand-written file: `;` at the end of a line ends one."""
    body = "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("--"))
    parts = (s.strip().rstrip(";").strip() for s in (body + "\n").split(";\n"))
    return [s for s in parts if s]


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def read_rows(path: Path) -> list[tuple[str, ...]]:
    """Data rows of a CSV file, or of every part file in a Spark output folder."""
    files = sorted(p for p in path.iterdir() if p.name.startswith("part-")) \
        if path.is_dir() else [path]
    rows: list[tuple[str, ...]] = []
    for f in files:
        with open(f, encoding="utf-8", newline="") as src:
            reader = csv.reader(src)
            next(reader, None)
            rows.extend(tuple(r) for r in reader)
    return rows


def _cell(value: str):
    try:
        return round(float(value), 6) if value not in ("", "NaN") else value
    except ValueError:
        return value


def same_rows(a: list[tuple[str, ...]], b: list[tuple[str, ...]]) -> bool:
    """Multiset equality of rows; numbers compared by value (1.0 == 1, float noise)."""
    norm = lambda rows: sorted(tuple(str(_cell(c)) for c in r) for r in rows)  # noqa: E731
    return norm(a) == norm(b)


def compare(work: Path, shape: str) -> tuple[bool, str]:
    for rel in SHAPES[shape]:
        mine = work / "out" / rel
        hand = work / "out" / "hand" / rel.rsplit(".", 1)[0]
        a, b = read_rows(mine), read_rows(hand)
        if not same_rows(a, b):
            return False, f"{rel}: clinker-sql {len(a)} rows, hand-written {len(b)} rows differ"
    return True, ""


def measure(bench: Bench, shape: str, rows: int, bad: float, repeat: int,
            check: bool) -> Measure:
    m = Measure(shape, rows, bad)
    for i in range(repeat):
        order = ("clinker", "hand") if i % 2 == 0 else ("hand", "clinker")
        for side in order:
            cpu = bench.cpu_seconds()
            if side == "hand":
                m.hand.append(bench.run_hand(shape))
                m.hand_cpu.append(bench.cpu_seconds() - cpu)
                continue
            seconds, result = bench.run_clinker(shape)
            m.clinker.append(seconds)
            m.clinker_cpu.append(bench.cpu_seconds() - cpu)
            m.dlq, m.written = result.counts["dlq"], result.counts["written"]
            m.slowest = sorted(((t["name"], t["seconds"]) for t in result.timings),
                               key=lambda x: -x[1])[:5]
            seen: dict[str, int] = {}
            for t in result.timings:  # a statement run twice (a retraction pass) numbered
                key = f"{t['kind']} {t['name']}"
                seen[key] = seen.get(key, 0) + 1
                key += f" #{seen[key]}" if seen[key] > 1 else ""
                m.statements.setdefault(key, []).append(t["seconds"])
    m.jvm_heap_mb = bench.jvm_heap_mb()
    m.python_rss_mb = rss_mb()
    if check and bad == 0:
        m.equal, why = compare(bench.work, shape)
        if not m.equal:
            print(f"  MISMATCH {shape}: {why}", flush=True)
    return m


def breakdown(m: Measure, top: int = 12) -> str:
    """The statements that took longest (median over the timed runs), and what is left."""
    medians = sorted(((statistics.median(v), k) for k, v in m.statements.items()),
                     reverse=True)
    lines = [f"    {s:6.2f}s  {k}" for s, k in medians[:top]]
    more = medians[top:]
    lines.append(f"    {sum(s for s, _ in more):6.2f}s  {len(more)} more statements; "
                 f"{m.clinker_s - sum(s for s, _ in medians):.2f}s outside statements "
                 "(compile, assembling the outputs)")
    return "\n".join(lines)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            cpu = next(ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    mem = 0.0
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            mem = int(next(ln for ln in f if ln.startswith("MemTotal")).split()[1]) / 2**20
    except (OSError, StopIteration):
        pass
    import pyspark

    return (f"{os.cpu_count()} cores ({cpu}), {mem:.0f} GiB RAM, Python "
            f"{platform.python_version()}, Spark {pyspark.__version__}, "
            f"master {os.environ.get('CLINKER_SQL_MASTER', 'local[2]')}")


def human(n: int) -> str:
    if n >= 1_000_000 and n % 100_000 == 0:
        return f"{n / 1_000_000:g}M"
    if n >= 1_000 and n % 100 == 0:
        return f"{n / 1_000:g}k"
    return str(n)


def table(results: list[Measure]) -> str:
    lines = ["| shape | rows | bad rows | clinker-sql s | hand-written s | ratio | CPU ratio | "
             "goal | JVM heap MB | Python RSS MB |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for m in results:
        goal = GOAL_CLEAN if m.bad_share == 0 else GOAL_DIRTY
        mark = "" if m.ratio <= goal else " ✗"
        lines.append(f"| {m.shape} | {human(m.rows)} | {m.bad_share:.1%} | {m.clinker_s:.2f} | "
                     f"{m.hand_s:.2f} | {m.ratio:.2f}{mark} | {m.cpu_ratio:.2f} | ≤{goal} | "
                     f"{m.jvm_heap_mb:.0f} | "
                     f"{m.python_rss_mb:.0f} |")
    return "\n".join(lines)


def scaling(results: list[Measure]) -> str:
    by = {(m.shape, m.rows, m.bad_share): m for m in results}
    sizes = sorted({m.rows for m in results})
    lines = []
    for small, big in zip(sizes, sizes[1:]):
        factor = big / small
        lines.append(f"\nScaling {human(small)} -> {human(big)} rows (x{factor:g}; goal for "
                     f"1M -> 10M: ≤{GOAL_SCALING}x):")
        lines.append("| shape | bad rows | clinker-sql | hand-written | clinker-sql CPU |")
        lines.append("|---|---:|---:|---:|---:|")
        for (shape, rows, bad), m in by.items():
            if rows != small or (shape, big, bad) not in by:
                continue
            b = by[(shape, big, bad)]
            cpu = statistics.median(b.clinker_cpu) / statistics.median(m.clinker_cpu)
            lines.append(f"| {shape} | {bad:.1%} | {b.clinker_s / m.clinker_s:.1f}x | "
                         f"{b.hand_s / m.hand_s:.1f}x | {cpu:.1f}x |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="100k", help="comma-separated row counts: 100k,1m,10m")
    ap.add_argument("--bad-share", default="0,0.001",
                    help="comma-separated shares of bad rows (0.001 = 0.1%%)")
    ap.add_argument("--shapes", default=",".join(SHAPES),
                    help=f"comma-separated, from: {', '.join(SHAPES)}")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per side (median)")
    ap.add_argument("--warmup", type=int, default=1,
                    help="untimed runs of each shape first, on 10k rows")
    ap.add_argument("--partitions", type=int, default=4,
                    help="spark.sql.shuffle.partitions (both sides)")
    ap.add_argument("--group-size", type=float, default=8.0)
    ap.add_argument("--data-dir", type=Path, default=Path("bench-data"),
                    help="where generated data sets are kept (and reused)")
    ap.add_argument("--work-dir", type=Path, default=Path("bench-work"))
    ap.add_argument("--check", action="store_true",
                    help="compare clinker-sql's outputs with the hand-written ones "
                         "(data sets without bad rows); exit 1 on a difference")
    ap.add_argument("--explain", type=Path, default=None,
                    help="write EXPLAIN FORMATTED of each write statement into this folder")
    ap.add_argument("--json", type=Path, default=None, help="also write the results here")
    ap.add_argument("--breakdown", action="store_true",
                    help="print where each clinker-sql run spends its time, per statement "
                         "(median over the timed runs)")
    a = ap.parse_args(argv)

    sizes = [parse_size(s) for s in a.sizes.split(",")]
    shares = [float(s) for s in a.bad_share.split(",")]
    shapes = [s.strip() for s in a.shapes.split(",") if s.strip()]
    unknown = [s for s in shapes if s not in SHAPES]
    if unknown:
        ap.error(f"unknown shape(s): {', '.join(unknown)}")
    data_root = a.data_dir.resolve()
    datasets = []
    for rows in sizes:
        for bad in shares:
            folder = data_root / f"{human(rows)}_bad{bad:g}_g{a.group_size:g}"
            start = time.perf_counter()
            generate(folder, rows, bad, a.group_size)
            print(f"data {folder.name}: ready in {time.perf_counter() - start:.1f}s", flush=True)
            datasets.append((rows, bad, folder))

    bench = Bench(a.work_dir.resolve(), a.partitions, a.explain.resolve() if a.explain
                  else None)
    print(f"machine: {machine()}; shuffle partitions {a.partitions}", flush=True)
    results: list[Measure] = []
    warm = data_root / f"10k_bad0.001_g{a.group_size:g}"  # JIT and class loading only
    if a.warmup:
        generate(warm, 10_000, 0.001, a.group_size)
    for shape in shapes:
        if a.warmup:
            bench.use(warm)
            for _ in range(a.warmup):
                bench.run_clinker(shape)
                bench.run_hand(shape)
        for rows, bad, folder in datasets:
            bench.use(folder)
            m = measure(bench, shape, rows, bad, a.repeat, a.check)
            bench.explain_run(shape, f"{human(rows)}_bad{bad:g}")
            results.append(m)
            print(f"{shape:16s} {human(rows):>5s} bad {bad:.1%}: clinker-sql {m.clinker_s:7.2f}s "
                  f"hand {m.hand_s:7.2f}s ratio {m.ratio:5.2f} (CPU {m.cpu_ratio:5.2f})  "
                  f"dlq {m.dlq}  "
                  f"heap {m.jvm_heap_mb:.0f}MB rss {m.python_rss_mb:.0f}MB"
                  + ("" if m.equal is None else "  rows equal" if m.equal else "  ROWS DIFFER"),
                  flush=True)
            print("    slowest: " + ", ".join(f"{n} {s:.2f}s" for n, s in m.slowest),
                  flush=True)
            if a.breakdown:
                print(breakdown(m), flush=True)
    print()
    print(table(results))
    print(scaling(results))
    if a.json:
        a.json.write_text(json.dumps({"machine": machine(), "partitions": a.partitions,
                                      "results": [asdict(m) | {"ratio": m.ratio,
                                                               "cpu_ratio": m.cpu_ratio}
                                                  for m in results]}, indent=2) + "\n")
    return 1 if any(m.equal is False for m in results) else 0


if __name__ == "__main__":
    sys.exit(main())
