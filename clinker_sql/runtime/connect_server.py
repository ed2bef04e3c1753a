"""Start, stop and inspect a local Spark Connect server.

The pyspark wheel ships `spark-connect_*.jar`, so the server is the installed pyspark's own
`SparkConnectServer`, launched with its `spark-submit` (as its `sbin/start-connect-server.sh`
does), bound to 127.0.0.1 on a free port, in ANSI mode with the same session settings as a
local run. Its state (pid, port, log, warehouse) lives in one folder,
`~/.clinker-sql/connect-server/` unless told otherwise; the process handling is the Thrift
server's (runtime/server_process.py).
"""

from __future__ import annotations

from pathlib import Path

from clinker_sql.runtime import server_process as sp
from clinker_sql.runtime.server_process import ServerState, free_port, port_open, server_conf

MAIN_CLASS = "org.apache.spark.sql.connect.service.SparkConnectServer"
DEFAULT_STATE_DIR = Path("~/.clinker-sql/connect-server")
KIND = sp.ServerKind(
    "Spark Connect server", MAIN_CLASS, DEFAULT_STATE_DIR, "sc",
    jar_glob="spark-connect_*.jar",
    missing_hint="use a Spark distribution's sbin/start-connect-server.sh",
    app_name="clinker-sql-connect-server", log_class=MAIN_CLASS,
    conf=lambda host, port: {"spark.connect.grpc.binding.address": host,
                             "spark.connect.grpc.binding.port": str(port)})

__all__ = ["ServerState", "connect_jar", "free_port", "port_open", "read_state", "server_conf",
           "start", "status", "stop"]


def spark_home() -> Path:
    return sp.spark_home("a local Spark Connect server")


def connect_jar(home: Path | None = None) -> Path | None:
    return KIND.jar(home or spark_home())


read_state, status, start, stop = sp.commands(KIND)
