"""Sweep every single hostile replacement: the hunt for failures the suite's draws miss.

Not a test (the suite runs a bounded Hypothesis sample: ``test_fuzz_public_api.py``); a
tool, run from the repository root::

    python tests/fuzz/fuzz_sweep.py record [--all] [--only NAME ...] [--report FILE]

``record`` runs each baseline of the API table with one argument replaced by one hostile
value (``SWEEP_HOSTILE``, or every value with ``--all``), each in its own forked child
(``fuzz_isolation.run_isolated``), journals every outcome
(``exactpml_fuzz_sweep_journal.jsonl`` in the temporary directory, so an interrupted sweep
resumes; delete it for a fresh sweep) and writes the failures to ``--report`` (default
``exactpml_fuzz_sweep_failures.json`` in the temporary directory), ``case key -> outcome``;
its exit status is 1 when there are any.  The full representative sweep is about 16,000
calls (about 13 minutes on one core).  There is no list of known failures: every case
must pass (issue 21, item 6).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
JOURNAL = Path(tempfile.gettempdir()) / "exactpml_fuzz_sweep_journal.jsonl"
REPORT = Path(tempfile.gettempdir()) / "exactpml_fuzz_sweep_failures.json"

if str(HERE) not in sys.path:  # run as a script
    sys.path.insert(0, str(HERE))


def case_key(name: str, parameter: str, hostile: str) -> str:
    """The key of one replacement: ``name|parameter=hostile``."""
    return f"{name}|{parameter}={hostile}"


def outcome_label(kind: str, detail: str) -> str:
    """What a report keeps of an outcome: its kind and what failed, without
    the message (``"foreign exception: TypeError"``, ``"unprintable: repr of WorstCase
    raised ValueError"``, ``"long message: InvalidArgument"``, ``"hang"``)."""
    head = detail.split(":", 1)[0]
    limit = " (Python's 4300-digit limit)" if "(4300 digits)" in detail else ""
    if kind == "foreign exception":
        return f"{kind}: {head.removeprefix('builtins.')}{limit}"
    if kind == "unprintable":
        return f"{kind}: {head.replace('repr()/str()', 'repr')}{limit}"
    if kind == "long message":
        return f"{kind}: {head.split(' of ')[0]}"
    return kind


def run_case(name: str, parameter: str, hostile: str) -> tuple[str, str, float]:
    """Run one replacement in a child: (kind, detail, CPU seconds)."""
    return run_cases(name, {parameter: hostile})


def run_cases(name: str, replacements: dict[str, str]) -> tuple[str, str, float]:
    """Run a baseline with arguments replaced by hostile values (parameter -> hostile name)
    in a child: (kind, detail, CPU seconds)."""
    from fuzz_api_table import BASELINES
    from fuzz_hostile_values import hostile_value
    from fuzz_isolation import run_isolated

    baseline = BASELINES[name]
    values = {parameter: hostile_value(hostile) for parameter, hostile in replacements.items()}
    outcome = run_isolated(baseline.call_with(values), documented=baseline.documented)
    return outcome.kind, outcome.detail, outcome.cpu_seconds


#: The hostile values of a representative sweep (one or two of each kind); ``--all`` uses
#: every value of ``fuzz_hostile_values`` (5x longer).
SWEEP_HOSTILE = (
    "10**5000",
    "-1",
    "Fraction(1, 10**5000)",
    '"1e-" + 50000 nines',
    '"factorial(10**5000)"',
    '"1/2 + 1e-40"',
    '"١٢" (Arabic-Indic digits)',
    '"nan"',
    "100k-character string",
    "0.5",
    '"exp(10**5000) - 1"',
    "None",
    "[1, 2]",
    "RaisingHash()",
)


def _record(only: list[str], every_value: bool, report: Path) -> int:
    from fuzz_api_table import BASELINES
    from fuzz_hostile_values import NAMES

    hostile_names = NAMES if every_value else SWEEP_HOSTILE

    done: dict[str, tuple[str, str]] = {}
    if JOURNAL.exists():
        for line in JOURNAL.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            done[entry["key"]] = (entry["kind"], entry["detail"])
    cases = [
        (baseline.name, parameter, hostile)
        for baseline in BASELINES.values()
        if not only or any(fragment in baseline.name for fragment in only)
        for parameter in baseline.parameters()
        for hostile in hostile_names
    ]
    with JOURNAL.open("a", encoding="utf-8") as journal:
        for index, (name, parameter, hostile) in enumerate(cases):
            key = case_key(name, parameter, hostile)
            if key in done:
                continue
            kind, detail, seconds = run_case(name, parameter, hostile)
            done[key] = (kind, detail)
            entry = {"key": key, "kind": kind, "detail": detail, "cpu": round(seconds, 3)}
            journal.write(json.dumps(entry, ensure_ascii=False) + "\n")
            journal.flush()
            if index % 500 == 0:
                print(f"{index}/{len(cases)}", file=sys.stderr, flush=True)
    acceptable = {"value", "exactpml error", "documented exception"}
    swept = sorted(case_key(name, parameter, hostile) for name, parameter, hostile in cases)
    failures = {key: outcome_label(*done[key]) for key in swept if done[key][0] not in acceptable}
    report.write_text(json.dumps(failures, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(failures)} failing of {len(done)} cases (report: {report})", file=sys.stderr)
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    record = commands.add_parser("record", help="sweep and report the failures")
    record.add_argument("--only", nargs="*", default=[], help="baselines whose name contains")
    record.add_argument("--all", action="store_true", help="every hostile value, not a sample")
    record.add_argument("--report", type=Path, default=REPORT, help="where the failures go")
    arguments = parser.parse_args(argv)
    return _record(arguments.only, arguments.all, arguments.report)


if __name__ == "__main__":
    sys.exit(main())
