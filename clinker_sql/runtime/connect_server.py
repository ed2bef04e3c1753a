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

from clinker_sql.diagnostics import fail
from clinker_sql.runtime import server_process as sp
from clinker_sql.runtime.java import ensure_java
from clinker_sql.runtime.server_process import ServerState, free_port, port_open, server_conf

MAIN_CLASS = "org.apache.spark.sql.connect.service.SparkConnectServer"
DEFAULT_STATE_DIR = Path("~/.clinker-sql/connect-server")
KIND = sp.ServerKind("Spark Connect server", MAIN_CLASS, DEFAULT_STATE_DIR, "sc")

__all__ = ["ServerState", "connect_jar", "read_state", "server_conf", "start", "status",
           "stop"]

_LOG4J = """\
# clinker-sql's local Spark Connect server: warnings and the start/stop lines only.
rootLogger.level = warn
rootLogger.appenderRef.file.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{yyyy-MM-dd HH:mm:ss} %p %c{1}: %m%n
logger.connect.name = org.apache.spark.sql.connect.service.SparkConnectServer
logger.connect.level = info
"""


def spark_home() -> Path:
    return sp.spark_home("a local Spark Connect server")


def connect_jar(home: Path | None = None) -> Path | None:
    jars = sorted((home or spark_home()).joinpath("jars").glob("spark-connect_*.jar"))
    return jars[0] if jars else None


def read_state(state_dir: Path | None = None) -> ServerState | None:
    return sp.read_state(KIND, state_dir)


def status(state_dir: Path | None = None) -> tuple[str, ServerState | None]:
    """('running' | 'starting' | 'stopped', state)."""
    return sp.status(KIND, state_dir)


def start(state_dir: Path | None = None, port: int | None = None, master: str | None = None,
          driver_memory: str = "2g", timeout: float = 180.0,
          extra_conf: dict[str, str] | None = None) -> ServerState:
    """Launch the server and wait until it accepts connections."""
    folder = sp.state_dir(KIND, state_dir)
    current, state = status(folder)
    if current != "stopped" and state is not None:
        return state
    home = spark_home()
    if connect_jar(home) is None:
        raise fail("CS036", f"the installed pyspark ({home}) has no spark-connect jar",
                   hint="use a Spark distribution's sbin/start-connect-server.sh")
    ensure_java()
    folder.mkdir(parents=True, exist_ok=True)
    host = sp.HOST
    port = port or free_port(host)
    if port_open(host, port):
        raise fail("CS036", f"port {port} on {host} is already in use")
    log4j = folder / "log4j2.properties"
    log4j.write_text(_LOG4J, encoding="utf-8")
    conf = server_conf()
    conf.update({
        "spark.sql.warehouse.dir": str(folder / "warehouse"),
        "spark.sql.catalogImplementation": "in-memory",
        "spark.local.dir": str(folder / "tmp"),
        "spark.connect.grpc.binding.address": host,
        "spark.connect.grpc.binding.port": str(port),
    })
    conf.update(extra_conf or {})
    cmd = sp.spark_submit(home, KIND, master, "clinker-sql-connect-server", driver_memory,
                          log4j, conf)
    cmd.append("spark-internal")
    return sp.launch(KIND, folder, home, cmd, host, port, timeout)


def stop(state_dir: Path | None = None, timeout: float = 30.0) -> ServerState | None:
    return sp.stop(KIND, state_dir, timeout)
