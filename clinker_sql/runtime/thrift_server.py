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

from clinker_sql.diagnostics import fail
from clinker_sql.runtime import server_process as sp
from clinker_sql.runtime.java import ensure_java
from clinker_sql.runtime.server_process import (  # noqa: F401 - this module's API
    STATE_FILE,
    ServerState,
    free_port,
    port_open,
    server_conf,
)

MAIN_CLASS = "org.apache.spark.sql.hive.thriftserver.HiveThriftServer2"
DEFAULT_STATE_DIR = Path("~/.clinker-sql/thrift-server")
KIND = sp.ServerKind("Thrift server", MAIN_CLASS, DEFAULT_STATE_DIR, "thrift")

_LOG4J = """\
# clinker-sql's local Thrift server: warnings and the start/stop lines only.
rootLogger.level = warn
rootLogger.appenderRef.file.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{yyyy-MM-dd HH:mm:ss} %p %c{1}: %m%n
logger.hts.name = org.apache.spark.sql.hive.thriftserver.HiveThriftServer2
logger.hts.level = info
logger.thrift.name = org.apache.thrift.server
logger.thrift.level = error
"""


def spark_home() -> Path:
    return sp.spark_home("a local Thrift server")


def thriftserver_jar(home: Path | None = None) -> Path | None:
    jars = sorted((home or spark_home()).joinpath("jars").glob("spark-hive-thriftserver_*.jar"))
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
    if thriftserver_jar(home) is None:
        raise fail("CS036", f"the installed pyspark ({home}) has no spark-hive-thriftserver jar",
                   hint="install a Spark distribution built with -Phive-thriftserver and use "
                        "its sbin/start-thriftserver.sh")
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
        "spark.sql.hive.thriftServer.singleSession": "false",
    })
    conf.update(extra_conf or {})
    cmd = sp.spark_submit(home, KIND, master, "clinker-sql-thrift-server", driver_memory,
                          log4j, conf)
    for key, value in {"hive.server2.thrift.bind.host": host,
                       "hive.server2.thrift.port": str(port),
                       "hive.server2.transport.mode": "binary",
                       "hive.server2.authentication": "NONE",
                       "hive.server2.logging.operation.enabled": "false"}.items():
        cmd += ["--hiveconf", f"{key}={value}"]
    cmd.append("spark-internal")
    return sp.launch(KIND, folder, home, cmd, host, port, timeout, _warm_up)


def _warm_up(host: str, port: int) -> None:
    """Open and close one session: the first session of a fresh server takes seconds."""
    try:
        from pyhive import hive

        hive.connect(host=host, port=port, username="clinker-sql").close()
    except Exception:  # noqa: BLE001 - best effort; a real run reports its own errors
        pass


def stop(state_dir: Path | None = None, timeout: float = 30.0) -> ServerState | None:
    return sp.stop(KIND, state_dir, timeout)
