"""A local Spark server process (the Thrift server, the Connect server): what both need.

The server is a `spark-submit` of the installed pyspark, started in its own session so that
it outlives the command that started it and can be stopped as one process group. Its state
(pid, host, port, log) is a JSON file in a folder of its own; `status` tells a running
server from one still starting (its port not yet open) and from a stopped one (no process,
or a recycled pid that is not a server).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from clinker_sql.codegen.compiler import SESSION_SETTINGS
from clinker_sql.diagnostics import fail
from clinker_sql.runtime.java import ensure_java
from clinker_sql.runtime.local import DEFAULT_CONF

STATE_FILE = "server.json"
HOST = "127.0.0.1"


@dataclass
class ServerState:
    pid: int
    host: str
    port: int
    log: str
    state_dir: str
    started: float
    scheme: str = "thrift"  # the URL scheme clients connect with (thrift, sc)

    @property
    def url(self) -> str:
        return f"{self.scheme}://{self.host}:{self.port}"


@dataclass(frozen=True)
class ServerKind:
    """One kind of server: its name in messages, its main class, its default folder, and
    what its start adds to the shared one (`start`)."""

    name: str  # "Thrift server", "Spark Connect server"
    main_class: str
    default_state_dir: Path
    scheme: str
    jar_glob: str = ""  # the wheel's jar that holds main_class, under jars/
    missing_hint: str = ""  # where to get a server when the wheel has no such jar
    app_name: str = ""
    log_class: str = ""  # the class whose start and stop lines the log keeps
    log_extra: str = ""  # more log4j2 lines (loggers to quiet)
    conf: Callable[[str, int], dict[str, str]] = lambda host, port: {}  # its own settings
    args: Callable[[str, int], list[str]] = lambda host, port: []  # after the --conf options
    warm_up: Callable[[str, int], None] | None = None  # once its port is open

    def jar(self, home: Path) -> Path | None:
        jars = sorted(home.joinpath("jars").glob(self.jar_glob))
        return jars[0] if jars else None

    def log4j(self) -> str:
        """Warnings, and the server class's start and stop lines."""
        return (f"# clinker-sql's local {self.name}: warnings and the start/stop lines only.\n"
                + _LOG4J + f"logger.server.name = {self.log_class}\n"
                "logger.server.level = info\n" + self.log_extra)


_LOG4J = """\
rootLogger.level = warn
rootLogger.appenderRef.file.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{yyyy-MM-dd HH:mm:ss} %p %c{1}: %m%n
"""


def spark_home(what: str = "a local Spark server") -> Path:
    try:
        import pyspark  # heavy: only starting a server needs it
    except ImportError:
        raise fail("CS011", f"{what} runs the installed pyspark, and pyspark is not "
                   "installed (pip install 'clinker-sql[spark]')") from None

    return Path(pyspark.__file__).resolve().parent


def server_conf() -> dict[str, str]:
    """The local run's Spark settings (ANSI, UTC, case-sensitive...) for a server."""
    conf = {k: v for k, v in DEFAULT_CONF.items()
            if k not in ("spark.driver.memory", "spark.sql.warehouse.dir")}
    conf.update(dict(SESSION_SETTINGS))
    return conf


def free_port(host: str = HOST) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def state_dir(kind: ServerKind, folder: Path | None) -> Path:
    return (folder or kind.default_state_dir).expanduser().resolve()


def read_state(kind: ServerKind, folder: Path | None = None) -> ServerState | None:
    path = state_dir(kind, folder) / STATE_FILE
    try:
        return ServerState(**json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return None


def alive(kind: ServerKind, pid: int) -> bool:
    """The process exists and is such a server (not a recycled pid)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        try:
            os.kill(pid, 0)
        except OSError:
            return False
        return True
    return kind.main_class.encode() in cmdline or b"spark-submit" in cmdline


def status(kind: ServerKind, folder: Path | None = None) -> tuple[str, ServerState | None]:
    """('running' | 'starting' | 'stopped', state)."""
    state = read_state(kind, folder)
    if state is None or not alive(kind, state.pid):
        return "stopped", state
    return ("running" if port_open(state.host, state.port) else "starting"), state


def commands(kind: ServerKind):
    """`read_state`, `status`, `start` and `stop` of one kind of server, as its module
    (runtime/thrift_server.py, runtime/connect_server.py) offers them."""
    def read_state_(state_dir: Path | None = None) -> ServerState | None:
        return read_state(kind, state_dir)

    def status_(state_dir: Path | None = None) -> tuple[str, ServerState | None]:
        """('running' | 'starting' | 'stopped', state)."""
        return status(kind, state_dir)

    def start_(state_dir: Path | None = None, port: int | None = None,
               master: str | None = None, driver_memory: str = "2g", timeout: float = 180.0,
               extra_conf: dict[str, str] | None = None) -> ServerState:
        """Launch the server and wait until it accepts connections."""
        return start(kind, state_dir, port, master, driver_memory, timeout, extra_conf)

    def stop_(state_dir: Path | None = None, timeout: float = 30.0) -> ServerState | None:
        return stop(kind, state_dir, timeout)

    return read_state_, status_, start_, stop_


def start(kind: ServerKind, folder: Path | None = None, port: int | None = None,
          master: str | None = None, driver_memory: str = "2g", timeout: float = 180.0,
          extra_conf: dict[str, str] | None = None) -> ServerState:
    """Launch the server on 127.0.0.1 (a free port unless given) with the local run's
    session settings, its warehouse and scratch in `folder`, and wait until it accepts
    connections; the running server's state when one is already there."""
    folder = state_dir(kind, folder)
    current, state = status(kind, folder)
    if current != "stopped" and state is not None:
        return state
    home = spark_home(f"a local {kind.name}")
    if kind.jar(home) is None:
        raise fail("CS036", f"the installed pyspark ({home}) has no "
                   f"{kind.jar_glob.split('_')[0]} jar",
                   hint=kind.missing_hint)
    ensure_java()
    folder.mkdir(parents=True, exist_ok=True)
    host = HOST
    port = port or free_port(host)
    if port_open(host, port):
        raise fail("CS036", f"port {port} on {host} is already in use")
    log4j = folder / "log4j2.properties"
    log4j.write_text(kind.log4j(), encoding="utf-8")
    conf = server_conf()
    conf.update({
        "spark.sql.warehouse.dir": str(folder / "warehouse"),
        "spark.sql.catalogImplementation": "in-memory",
        "spark.local.dir": str(folder / "tmp"),
        **kind.conf(host, port),
        **(extra_conf or {}),
    })
    cmd = spark_submit(home, kind, master, kind.app_name, driver_memory, log4j, conf)
    cmd += [*kind.args(host, port), "spark-internal"]
    return launch(kind, folder, home, cmd, host, port, timeout, kind.warm_up)


def spark_submit(home: Path, kind: ServerKind, master: str | None, app_name: str,
                 driver_memory: str, log4j: Path, conf: dict[str, str]) -> list[str]:
    """`spark-submit --class MAIN ...` with `conf` as --conf options."""
    cmd = [str(home / "bin" / "spark-submit"), "--class", kind.main_class,
           "--master", master or os.environ.get("CLINKER_SQL_MASTER", "local[2]"),
           "--name", app_name,
           "--driver-memory", driver_memory,
           "--driver-java-options", f"-Dlog4j2.configurationFile=file:{log4j}"]
    for key, value in conf.items():
        cmd += ["--conf", f"{key}={value}"]
    return cmd


def launch(kind: ServerKind, folder: Path, home: Path, cmd: list[str], host: str, port: int,
           timeout: float, warm_up: Callable[[str, int], None] | None = None) -> ServerState:
    """Start `cmd` in `folder` (its own session, output to server.log), record its state,
    and wait until it accepts connections on host:port (CS036 when it exits or does not
    within `timeout` seconds)."""
    log = folder / "server.log"
    env = dict(os.environ, SPARK_HOME=str(home), SPARK_LOCAL_IP=host,
               SPARK_CONF_DIR=str(folder))
    env.pop("PYSPARK_SUBMIT_ARGS", None)
    (folder / "tmp").mkdir(exist_ok=True)
    with open(log, "ab") as out:
        proc = subprocess.Popen(cmd, cwd=folder, env=env, stdin=subprocess.DEVNULL,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    state = ServerState(proc.pid, host, port, str(log), str(folder), time.time(), kind.scheme)
    (folder / STATE_FILE).write_text(json.dumps(asdict(state), indent=2) + "\n",
                                     encoding="utf-8")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            (folder / STATE_FILE).unlink(missing_ok=True)
            raise fail("CS036", f"the {kind.name} exited with code {proc.returncode} while "
                       f"starting:\n{tail(log)}", hint=f"full log: {log}")
        if port_open(host, port):
            if warm_up is not None:
                warm_up(host, port)
            return state
        time.sleep(0.25)
    kill_group(kind, proc.pid)
    (folder / STATE_FILE).unlink(missing_ok=True)
    raise fail("CS036", f"the {kind.name} did not accept connections within {timeout:.0f}s",
               hint=f"see {log}")


def stop(kind: ServerKind, folder: Path | None = None,
         timeout: float = 30.0) -> ServerState | None:
    folder = state_dir(kind, folder)
    state = read_state(kind, folder)
    if state is None:
        return None
    if alive(kind, state.pid):
        kill_group(kind, state.pid, timeout)
    (folder / STATE_FILE).unlink(missing_ok=True)
    return state


def kill_group(kind: ServerKind, pid: int, timeout: float = 30.0) -> None:
    """SIGTERM the server's process group (it runs in its own session), then SIGKILL."""
    try:
        os.killpg(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    except PermissionError as exc:
        raise fail("CS036", f"cannot stop the {kind.name} (pid {pid}): {exc}") from None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not exists(pid):
            return
        time.sleep(0.2)
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        return


def exists(pid: int) -> bool:
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


def tail(log: Path, lines: int = 15) -> str:
    try:
        text = log.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    return "\n".join(text[-lines:])
