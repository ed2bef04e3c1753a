"""Start, stop and inspect a local Spark Thrift server (HiveServer2 protocol).

The pyspark wheel ships `spark-hive-thriftserver_*.jar`, so the server is the
installed pyspark's own `HiveThriftServer2`, launched with its `spark-submit`,
bound to 127.0.0.1 on a free port, in ANSI mode with the same session settings
as a local run. Its state (pid, port, log, warehouse) lives in one folder,
`~/.clinker-sql/thrift-server/` unless told otherwise; the process runs in its
own session so that it outlives the command that started it and can be stopped
as one process group.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from clinker_sql.codegen.compiler import SESSION_SETTINGS
from clinker_sql.diagnostics import fail
from clinker_sql.runtime.java import ensure_java
from clinker_sql.runtime.local import DEFAULT_CONF

MAIN_CLASS = "org.apache.spark.sql.hive.thriftserver.HiveThriftServer2"
DEFAULT_STATE_DIR = Path("~/.clinker-sql/thrift-server")
STATE_FILE = "server.json"

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


@dataclass
class ServerState:
    pid: int
    host: str
    port: int
    log: str
    state_dir: str
    started: float

    @property
    def url(self) -> str:
        return f"thrift://{self.host}:{self.port}"


def spark_home() -> Path:
    try:
        import pyspark  # heavy: only starting a server needs it
    except ImportError:
        raise fail("CS011", "a local Thrift server runs the installed pyspark, and pyspark "
                   "is not installed (pip install 'clinker-sql[spark]')") from None

    return Path(pyspark.__file__).resolve().parent


def thriftserver_jar(home: Path | None = None) -> Path | None:
    jars = sorted((home or spark_home()).joinpath("jars").glob("spark-hive-thriftserver_*.jar"))
    return jars[0] if jars else None


def server_conf() -> dict[str, str]:
    """The local run's Spark settings (ANSI, UTC, case-sensitive...) for the server."""
    conf = {k: v for k, v in DEFAULT_CONF.items()
            if k not in ("spark.driver.memory", "spark.sql.warehouse.dir")}
    conf.update(dict(SESSION_SETTINGS))
    return conf


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def _state_dir(state_dir: Path | None) -> Path:
    return (state_dir or DEFAULT_STATE_DIR).expanduser().resolve()


def read_state(state_dir: Path | None = None) -> ServerState | None:
    path = _state_dir(state_dir) / STATE_FILE
    try:
        return ServerState(**json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return None


def _alive(pid: int) -> bool:
    """The process exists and is a Thrift server (not a recycled pid)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        try:
            os.kill(pid, 0)
        except OSError:
            return False
        return True
    return MAIN_CLASS.encode() in cmdline or b"spark-submit" in cmdline


def status(state_dir: Path | None = None) -> tuple[str, ServerState | None]:
    """('running' | 'starting' | 'stopped', state)."""
    state = read_state(state_dir)
    if state is None or not _alive(state.pid):
        return "stopped", state
    return ("running" if port_open(state.host, state.port) else "starting"), state


def start(state_dir: Path | None = None, port: int | None = None, master: str | None = None,
          driver_memory: str = "2g", timeout: float = 180.0,
          extra_conf: dict[str, str] | None = None) -> ServerState:
    """Launch the server and wait until it accepts connections."""
    folder = _state_dir(state_dir)
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
    host = "127.0.0.1"
    port = port or free_port(host)
    if port_open(host, port):
        raise fail("CS036", f"port {port} on {host} is already in use")
    log4j = folder / "log4j2.properties"
    log4j.write_text(_LOG4J, encoding="utf-8")
    log = folder / "server.log"
    conf = server_conf()
    conf.update({
        "spark.sql.warehouse.dir": str(folder / "warehouse"),
        "spark.sql.catalogImplementation": "in-memory",
        "spark.local.dir": str(folder / "tmp"),
        "spark.sql.hive.thriftServer.singleSession": "false",
    })
    conf.update(extra_conf or {})
    cmd = [str(home / "bin" / "spark-submit"), "--class", MAIN_CLASS,
           "--master", master or os.environ.get("CLINKER_SQL_MASTER", "local[2]"),
           "--name", "clinker-sql-thrift-server",
           "--driver-memory", driver_memory,
           "--driver-java-options", f"-Dlog4j2.configurationFile=file:{log4j}"]
    for key, value in conf.items():
        cmd += ["--conf", f"{key}={value}"]
    for key, value in {"hive.server2.thrift.bind.host": host,
                       "hive.server2.thrift.port": str(port),
                       "hive.server2.transport.mode": "binary",
                       "hive.server2.authentication": "NONE",
                       "hive.server2.logging.operation.enabled": "false"}.items():
        cmd += ["--hiveconf", f"{key}={value}"]
    cmd.append("spark-internal")
    env = dict(os.environ, SPARK_HOME=str(home), SPARK_LOCAL_IP=host,
               SPARK_CONF_DIR=str(folder))
    env.pop("PYSPARK_SUBMIT_ARGS", None)
    (folder / "tmp").mkdir(exist_ok=True)
    with open(log, "ab") as out:
        proc = subprocess.Popen(cmd, cwd=folder, env=env, stdin=subprocess.DEVNULL,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    state = ServerState(proc.pid, host, port, str(log), str(folder), time.time())
    (folder / STATE_FILE).write_text(json.dumps(asdict(state), indent=2) + "\n",
                                     encoding="utf-8")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            (folder / STATE_FILE).unlink(missing_ok=True)
            raise fail("CS036", f"the Thrift server exited with code {proc.returncode} while "
                       f"starting:\n{_tail(log)}", hint=f"full log: {log}")
        if port_open(host, port):
            _warm_up(host, port)
            return state
        time.sleep(0.25)
    _kill_group(proc.pid)
    (folder / STATE_FILE).unlink(missing_ok=True)
    raise fail("CS036", f"the Thrift server did not accept connections within {timeout:.0f}s",
               hint=f"see {log}")


def _warm_up(host: str, port: int) -> None:
    """Open and close one session: the first session of a fresh server takes seconds."""
    try:
        from pyhive import hive

        hive.connect(host=host, port=port, username="clinker-sql").close()
    except Exception:  # noqa: BLE001 - best effort; a real run reports its own errors
        pass


def stop(state_dir: Path | None = None, timeout: float = 30.0) -> ServerState | None:
    folder = _state_dir(state_dir)
    state = read_state(folder)
    if state is None:
        return None
    if _alive(state.pid):
        _kill_group(state.pid, timeout)
    (folder / STATE_FILE).unlink(missing_ok=True)
    return state


def _kill_group(pid: int, timeout: float = 30.0) -> None:
    """SIGTERM the server's process group (it runs in its own session), then SIGKILL."""
    try:
        os.killpg(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    except PermissionError as exc:
        raise fail("CS036", f"cannot stop the Thrift server (pid {pid}): {exc}") from None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not _exists(pid):
            return
        time.sleep(0.2)
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        return


def _exists(pid: int) -> bool:
    try:
        waited, _ = os.waitpid(pid, os.WNOHANG)  # reap it when it is our child
        if waited == pid:
            return False
    except ChildProcessError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _tail(log: Path, lines: int = 15) -> str:
    try:
        text = log.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    return "\n".join(text[-lines:])
