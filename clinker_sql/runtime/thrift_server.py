"""Start, stop and inspect a local Spark Thrift server (HiveServer2 protocol).

The pyspark wheel ships `spark-hive-thriftserver_*.jar`, so the server is the
installed pyspark's own `HiveThriftServer2`, launched with its `spark-submit`,
bound to 127.0.0.1 on a free port, in ANSI mode with the same session settings
as a local run. Its state (pid, port, log, warehouse) lives in one folder,
`~/.clinker-sql/thrift-server/` unless told otherwise; the process runs in its
own session so that it outlives the command that started it and can be stopped
as one process group (runtime/server_process.py, shared with the Connect server).
"""

from __future__ import annotations

from pathlib import Path

from clinker_sql.runtime import server_process as sp
from clinker_sql.runtime.server_process import (  # noqa: F401 - this module's API
    STATE_FILE,
    ServerState,
    free_port,
    port_open,
    server_conf,
)

MAIN_CLASS = "org.apache.spark.sql.hive.thriftserver.HiveThriftServer2"
DEFAULT_STATE_DIR = Path("~/.clinker-sql/thrift-server")


def _warm_up(host: str, port: int) -> None:
    """Open and close one session: the first session of a fresh server takes seconds."""
    try:
        from pyhive import hive

        hive.connect(host=host, port=port, username="clinker-sql").close()
    except Exception:  # noqa: BLE001 - best effort; a real run reports its own errors
        pass


def _args(host: str, port: int) -> list[str]:
    hive = {"hive.server2.thrift.bind.host": host, "hive.server2.thrift.port": str(port),
            "hive.server2.transport.mode": "binary", "hive.server2.authentication": "NONE",
            "hive.server2.logging.operation.enabled": "false"}
    return [arg for key, value in hive.items() for arg in ("--hiveconf", f"{key}={value}")]


KIND = sp.ServerKind(
    "Thrift server", MAIN_CLASS, DEFAULT_STATE_DIR, "thrift",
    jar_glob="spark-hive-thriftserver_*.jar",
    missing_hint="install a Spark distribution built with -Phive-thriftserver and use its "
                 "sbin/start-thriftserver.sh",
    app_name="clinker-sql-thrift-server", log_class=MAIN_CLASS,
    log_extra="logger.thrift.name = org.apache.thrift.server\nlogger.thrift.level = error\n",
    conf=lambda host, port: {"spark.sql.hive.thriftServer.singleSession": "false"},
    args=_args, warm_up=_warm_up)


def spark_home() -> Path:
    return sp.spark_home("a local Thrift server")


def thriftserver_jar(home: Path | None = None) -> Path | None:
    return KIND.jar(home or spark_home())


read_state, status, start, stop = sp.commands(KIND)
