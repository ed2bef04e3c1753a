"""The bad-input corpus: every generated pipeline (gen_corpus.py) and a run of generated
whole pipelines (strategies.py) through `validate` and `compile`, in this process.

Each must end in a clean pass or a coded diagnostic (`error[CODE]`): never CS999 or
CS041 (codes that report a bug in clinker-sql), never a Python traceback, never a
failure without a code, and never longer than the time bound. For the injection family,
every compiled file must keep the injected text inside a comment, a quoted identifier or
a string literal (injection.py). The counts appear at the end of pytest's output.

To look at a failing case: `python tests/reliability/gen_corpus.py --out /tmp/corpus`,
then `clinker-sql validate pipeline.yaml` in /tmp/corpus/<case id>/.
"""

from __future__ import annotations

import itertools
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from tests.reliability.gen_corpus import Case, generate
from tests.reliability.injection import check_target
from tests.reliability.outcomes import run_command, stats
from tests.reliability.strategies import pipelines

CASES = generate()


def _run(case: Case, folder: Path, group: str) -> str:
    """Validate and compile the case in `folder` (the working folder); '' when it passed,
    else what went wrong."""
    case.write(folder)
    cpu = time.process_time()
    outcomes = [run_command("validate", Path("pipeline.yaml")),
                run_command("compile", Path("pipeline.yaml"), Path("target"))]
    problems = None
    if case.inject and outcomes[1].kind == "clean":
        targets = [d for d in Path("target").iterdir() if d.is_dir()]
        problems = check_target(targets[0]) if len(targets) == 1 else [
            f"compile wrote {len(targets)} folders"]
    record = stats(group)
    kind = record.add(case.family, outcomes, bool(problems) if problems is not None else None,
                      time.process_time() - cpu)
    record.note_time(case.id, sum(o.seconds for o in outcomes))
    if kind in ("clean", "refused"):
        return ""
    report = [o.describe() for o in outcomes if o.kind not in ("clean", "refused")]
    report += problems or []
    return f"{case.id}: {kind}\n" + "\n".join(report)


def test_corpus_size():
    assert len(CASES) >= 600
    assert len({c.family for c in CASES}) == 5


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case: Case, tmp_path, monkeypatch):
    monkeypatch.delenv("CLINKER_SQL_DEBUG", raising=False)
    monkeypatch.chdir(tmp_path)
    problem = _run(case, tmp_path, "corpus")
    assert not problem, problem


GENERATED = 30  # whole pipelines from strategies.py, the same ones every run


def test_generated_pipelines():
    """Every example is run and counted (no shrinking: each costs a validate and a
    compile); the test fails at the end, listing the failures."""
    failures: list[str] = []
    counter = itertools.count()

    @settings(max_examples=GENERATED, derandomize=True, database=None, deadline=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(pipelines())
    def run(generated):
        text, data = generated
        with pytest.MonkeyPatch.context() as mp, \
                tempfile.TemporaryDirectory(prefix="clinker-corpus-") as folder:
            mp.delenv("CLINKER_SQL_DEBUG", raising=False)
            mp.chdir(folder)
            case = Case(f"generated/{next(counter)}", "generated", text.encode("utf-8"), data)
            problem = _run(case, Path(folder), "generated")
        if problem:
            failures.append(problem + "\n" + text)

    run()
    assert not failures, f"{len(failures)} generated pipelines failed:\n" + "\n\n".join(
        failures[:3])
