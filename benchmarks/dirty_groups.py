"""Micro-benchmark (issue 4): how to find the records of dirty correlation groups.

    .venv/bin/python benchmarks/dirty_groups.py --rows 1m --bad-share 0.001 --group-size 8

The commit layer (codegen/correlation.py) splits the records that reached the sinks into
clean ones (written) and the members of dirty groups (collaterals). Generated data
(Parquet, written once by Spark from `range()`: `--rows` records, groups of about
`--group-size` records per key, a `--bad-share` of them failing) is split by each method
in one Spark session; each method is warmed up once, then timed `--repeat` times (the
median is reported), writing both results so that nothing is skipped:

  broadcast_join   clean = records LEFT ANTI JOIN broadcast(dirty cells);
                   members = records LEFT SEMI JOIN broadcast(dirty cells)   (the default)
  shuffle_join     the same joins with broadcasting disabled (sort-merge joins)
  not_exists       NOT EXISTS / EXISTS subqueries (Spark plans them as joins)
  window           one pass: MAX(trigger) OVER (PARTITION BY source, key) over the records
                   and the triggers together, then a filter on the flag

Every method must give the same counts (checked). The fastest is the one to keep as the
compiler's default; benchmarks/HISTORY.md records the result.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import parse_size  # noqa: E402

METHODS = {
    "broadcast_join": (
        "SELECT /*+ BROADCAST(d) */ r.* FROM records r LEFT ANTI JOIN dirty d "
        "ON d.src = r.src AND d.k <=> r.k",
        "SELECT /*+ BROADCAST(d) */ r.* FROM records r LEFT SEMI JOIN dirty d "
        "ON d.src = r.src AND d.k <=> r.k"),
    "shuffle_join": (
        "SELECT /*+ MERGE(r, d) */ r.* FROM records r LEFT ANTI JOIN dirty d "
        "ON d.src = r.src AND d.k <=> r.k",
        "SELECT /*+ MERGE(r, d) */ r.* FROM records r LEFT SEMI JOIN dirty d "
        "ON d.src = r.src AND d.k <=> r.k"),
    "not_exists": (
        "SELECT * FROM records r WHERE NOT EXISTS "
        "(SELECT 1 FROM dirty d WHERE d.src = r.src AND d.k <=> r.k)",
        "SELECT * FROM records r WHERE EXISTS "
        "(SELECT 1 FROM dirty d WHERE d.src = r.src AND d.k <=> r.k)"),
    "window": (
        "SELECT id, src, k, v FROM flagged WHERE NOT dirty AND NOT t",
        "SELECT id, src, k, v FROM flagged WHERE dirty AND NOT t"),
}

SETUP = """
CREATE OR REPLACE TEMPORARY VIEW dirty AS
SELECT DISTINCT src, k FROM triggers WHERE k IS NOT NULL;
CREATE OR REPLACE TEMPORARY VIEW flagged AS
SELECT *, MAX(t) OVER (PARTITION BY src, k) AND k IS NOT NULL AS dirty FROM (
  SELECT id, src, k, v, FALSE AS t FROM records
  UNION ALL
  SELECT id, src, k, CAST(NULL AS STRING) AS v, TRUE AS t FROM triggers
) AS u
"""


def generate(spark, folder: Path, rows: int, bad: float, group: float) -> None:
    keys = max(1, int(rows / group))
    stride = int(1 / bad) if bad > 0 else 0
    spark.sql(f"""
        SELECT id, CASE WHEN id % 3 = 0 THEN 'b' ELSE 'a' END AS src,
               CASE WHEN id % 97 = 0 THEN NULL
                    ELSE CONCAT('C', CAST(pmod(hash(id), {keys}) AS STRING)) END AS k,
               CONCAT('value-', CAST(id AS STRING)) AS v
        FROM range({rows})
    """).write.mode("overwrite").parquet(str(folder / "records"))
    where = f"id % {stride} = {stride // 2}" if stride else "FALSE"
    spark.sql(f"SELECT id, src, k FROM parquet.`{folder / 'records'}` WHERE {where}") \
        .write.mode("overwrite").parquet(str(folder / "triggers"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", default="1m")
    ap.add_argument("--bad-share", type=float, default=0.001)
    ap.add_argument("--group-size", type=float, default=8.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--partitions", type=int, default=4)
    a = ap.parse_args(argv)
    from clinker_sql.runtime.local import get_session

    spark = get_session({"spark.sql.shuffle.partitions": str(a.partitions)})
    rows = parse_size(a.rows)
    with tempfile.TemporaryDirectory(prefix="clinker-dirty-") as tmp:
        folder = Path(tmp)
        generate(spark, folder, rows, a.bad_share, a.group_size)
        spark.read.parquet(str(folder / "records")).createOrReplaceTempView("records")
        spark.read.parquet(str(folder / "triggers")).createOrReplaceTempView("triggers")
        for statement in SETUP.strip().split(";\n"):
            spark.sql(statement)
        results: dict[str, tuple[float, int, int]] = {}
        for name, (clean_sql, members_sql) in METHODS.items():
            times = []
            for i in range(a.repeat + 1):
                start = time.perf_counter()
                for n, query in (("clean", clean_sql), ("members", members_sql)):
                    spark.sql(query).write.mode("overwrite").format("noop").save()
                if i:
                    times.append(time.perf_counter() - start)
            clean = spark.sql(f"SELECT COUNT(*) FROM ({clean_sql})").collect()[0][0]
            members = spark.sql(f"SELECT COUNT(*) FROM ({members_sql})").collect()[0][0]
            results[name] = (statistics.median(times), clean, members)
            print(f"{name:15s} {results[name][0]:7.2f}s  clean {clean}  dirty members {members}",
                  flush=True)
    counts = {(c, m) for _, c, m in results.values()}
    best = min(results, key=lambda n: results[n][0])
    base = results["broadcast_join"][0]
    print(f"\n{human(rows)} records, {a.bad_share:.1%} failing, groups of ~{a.group_size:g}:")
    print("| method | seconds | vs broadcast_join |")
    print("|---|---:|---:|")
    for name, (sec, _, _) in results.items():
        print(f"| {name} | {sec:.2f} | {sec / base:.2f}x |")
    print(f"\nfastest: {best}" + ("" if len(counts) == 1 else "   COUNTS DIFFER"))
    return 0 if len(counts) == 1 else 1


def human(n: int) -> str:
    return f"{n / 1e6:g}M" if n >= 1_000_000 else f"{n / 1e3:g}k" if n >= 1000 else str(n)


if __name__ == "__main__":
    sys.exit(main())
