"""Named run targets from a dbt-style profiles file.

```yaml
# ~/.clinker-sql/profiles.yml
outputs:
  dev:
    type: thrift
    host: 127.0.0.1
    port: 10000
  prod:
    type: thrift
    host: spark-thrift.internal
    port: 10000
    database: etl
    user: "{{ env_var('SPARK_USER', 'etl') }}"
    auth: LDAP
    password_env: SPARK_PASSWORD        # or: password: "{{ env_var('SPARK_PASSWORD') }}"
    shared_filesystem: true             # the server sees this machine's paths (shared mount)
    statement_timeout: 1800
  connect:
    type: connect                       # a Spark Connect server (sc://host:port)
    host: spark-connect.internal
    port: 15002
    token_env: SPARK_CONNECT_TOKEN      # or: token: "{{ env_var('SPARK_CONNECT_TOKEN') }}"
    use_ssl: true
    user: etl                           # Spark Connect's user_id
    shared_filesystem: true
```

dbt's shape is read too: profiles by name, each with its default `target:` and its
`outputs:`. `--target NAME` picks an output of the profile that `--profile` names, or of
the only profile; `--target default` picks the profile's own `target:`.

```yaml
clinker:                 # a profile
  target: dev            # its default output
  outputs:
    dev: { type: thrift, host: 127.0.0.1, port: 10000 }
    prod: { type: thrift, host: spark-thrift.internal, port: 10000 }
```

String values may use `{{ env_var('NAME') }}` or `{{ env_var('NAME', 'default') }}`;
nothing else is templated. Secret values are never printed.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from clinker_sql.config.yamlnodes import load_yaml, plain
from clinker_sql.diagnostics import DiagnosticError, fail
from clinker_sql.runtime.connect import ConnectTarget
from clinker_sql.runtime.remote import seconds as _seconds
from clinker_sql.runtime.thrift import ThriftTarget

DEFAULT_PROFILES_DIR = Path("~/.clinker-sql")
PROFILES_FILE = "profiles.yml"

_ENV_VAR = re.compile(
    r"\{\{\s*env_var\(\s*(['\"])([A-Za-z_][A-Za-z0-9_]*)\1\s*"
    r"(?:,\s*(['\"])(.*?)\3\s*)?\)\s*\}\}")
_KEYS = {"type", "host", "port", "database", "schema", "user", "auth", "password",
         "password_env", "shared_filesystem", "statement_timeout", "connect_timeout",
         "token", "token_env", "use_ssl"}
_THRIFT_ONLY = {"database", "schema", "auth", "password", "password_env"}
_CONNECT_ONLY = {"token", "token_env", "use_ssl"}
_TRUE = ("1", "true", "yes", "on")


def profiles_path(profiles_dir: Path | None = None) -> Path:
    folder = (profiles_dir or Path(os.environ.get("CLINKER_SQL_PROFILES_DIR", "")
                                   or DEFAULT_PROFILES_DIR)).expanduser()
    return folder / PROFILES_FILE


def render_env(value: str, where: str) -> str:
    """Replace every `{{ env_var('X') }}`; a missing variable without default is CS035."""
    def sub(m: re.Match[str]) -> str:
        name, default = m.group(2), m.group(4)
        if name in os.environ:
            return os.environ[name]
        if default is not None:
            return default
        raise fail("CS035", f"environment variable {name} is not set ({where})")
    out = _ENV_VAR.sub(sub, value)
    if "{{" in out and "{{" in _ENV_VAR.sub("", value):
        raise fail("CS035", f"only {{{{ env_var('NAME') }}}} may be templated ({where})")
    return out


def load_target(name: str, profiles_dir: Path | None = None,
                profile: str | None = None) -> ThriftTarget | ConnectTarget:
    """The target `name` of the profiles file, read as YAML 1.2 like a pipeline; `profile`:
    the profile of a file in dbt's shape (default: its only one)."""
    path = profiles_path(profiles_dir)
    try:
        data = plain(load_yaml(path.read_text(encoding="utf-8"), str(path)))
    except FileNotFoundError:
        raise fail("CS035", f"unknown target '{name}': there is no profiles file at {path}",
                   hint="use --target local, --target thrift://host:port, or write "
                        f"{path} (see docs/cluster.md)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise fail("CS035", f"cannot read {path}: {str(exc).splitlines()[0]}") from None
    except DiagnosticError as exc:
        d = exc.diagnostics[0]
        raise fail("CS035", f"cannot read {path}: {d.message}", d.location) from None
    outputs, name = _outputs(data, path, name, profile)
    entry = outputs.get(name)
    if not isinstance(entry, dict):
        known = ", ".join(sorted(str(k) for k in outputs)) or "none"
        raise fail("CS035", f"unknown target '{name}' in {path} (known: {known})")
    return _target(name, entry, path)


def _outputs(data: Any, path: Path, name: str,
             profile: str | None) -> tuple[dict[str, Any], str]:
    """The named outputs to pick `name` from, and the name (a dbt profile's `target:`
    for `default`): the top-level `outputs:`, or those of a profile in dbt's shape."""
    if not isinstance(data, dict):
        raise fail("CS035", f"{path} is not a mapping of profiles or outputs")
    if "outputs" in data and profile is None:
        outputs = data["outputs"]
        if not isinstance(outputs, dict):
            raise fail("CS035", f"{path}: `outputs:` must map target names to targets")
        return outputs, name
    profiles = {k: v for k, v in data.items() if isinstance(v, dict) and "outputs" in v}
    if profile is None:
        if len(profiles) != 1:
            known = ", ".join(sorted(map(str, profiles))) or "none"
            raise fail("CS035", f"{path} has {len(profiles)} profiles: name one with "
                       f"--profile (known: {known})" if profiles else
                       f"{path} has no `outputs:` mapping of named targets, nor a profile "
                       "with one")
        profile = next(iter(profiles))
    chosen = profiles.get(profile)
    if chosen is None:
        known = ", ".join(sorted(map(str, profiles))) or "none"
        raise fail("CS035", f"unknown profile '{profile}' in {path} (known: {known})")
    outputs = chosen["outputs"]
    if not isinstance(outputs, dict):
        raise fail("CS035", f"{path}: profile {profile}'s `outputs:` must map target names "
                   "to targets")
    if name == "default":
        default = chosen.get("target")
        if not isinstance(default, str):
            raise fail("CS035", f"profile {profile} in {path} has no `target:` to default to")
        name = default
    return outputs, name


def _target(name: str, entry: dict[str, Any], path: Path) -> ThriftTarget | ConnectTarget:
    where = f"{path}, target {name}"
    unknown = sorted(str(k) for k in entry if k not in _KEYS)
    if unknown:
        raise fail("CS035", f"unknown key '{unknown[0]}' ({where})",
                   hint=f"known keys: {', '.join(sorted(_KEYS))}")
    kind = str(entry.get("type", "thrift"))
    if kind not in ("thrift", "connect"):
        raise fail("CS035", f"target type '{kind}' is not supported; use 'thrift' or "
                   f"'connect' ({where})")
    other = sorted(str(k) for k in entry if k in (
        _THRIFT_ONLY if kind == "connect" else _CONNECT_ONLY))
    if other:
        raise fail("CS035", f"key '{other[0]}' does not apply to a {kind} target ({where})")

    def text(key: str) -> str | None:
        value = entry.get(key)
        if value is None:
            return None
        return render_env(str(value), f"{where}, key {key}")

    host = text("host")
    if not host:
        raise fail("CS035", f"`host:` is required ({where})")
    kwargs: dict[str, Any] = {"host": host, "name": name}
    port = text("port")
    if port is not None:
        try:
            kwargs["port"] = int(port)
        except ValueError:
            raise fail("CS035", f"port must be a number ({where})") from None
    for key in ("statement_timeout", "connect_timeout"):
        if text(key) is not None:
            kwargs[key] = _seconds(text(key), f"{key} ({where})")
    for key in ("shared_filesystem", "use_ssl"):
        if entry.get(key) is not None:
            kwargs[key] = render_env(str(entry[key]), where).lower() in _TRUE
    if text("user"):
        kwargs["user"] = text("user")
    if kind == "connect":
        kwargs["token"] = _secret(text("token"), text("token_env"), "token", where)
        return ConnectTarget(**kwargs).validate()
    kwargs["password"] = _secret(text("password"), text("password_env"), "password", where)
    database = text("database") or text("schema")
    if database:
        kwargs["database"] = database
    if text("auth"):
        kwargs["auth"] = text("auth")
    return ThriftTarget(**kwargs).validate()


def _secret(value: str | None, env_name: str | None, what: str, where: str) -> str | None:
    """A password or token: given (templated from the environment), or read from the
    environment variable that `<what>_env` names."""
    if env_name:
        if value is not None:
            raise fail("CS035", f"give either {what} or {what}_env, not both ({where})")
        value = password_from_env(env_name, where)
    return value or None


def password_from_env(name: str, where: str = "--password-env") -> str:
    value = os.environ.get(name)
    if not value:
        raise fail("CS035", f"environment variable {name} is not set or empty ({where})",
                   hint="export it before the run; the password is never read from the "
                        "command line")
    return value
