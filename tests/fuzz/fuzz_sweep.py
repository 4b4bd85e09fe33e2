"""Sweep every single hostile replacement, and keep ``known_failing.json`` honest.

Not a test (the suite runs a bounded Hypothesis sample: ``test_fuzz_public_api.py``); a
tool, run from the repository root::

    python tests/fuzz/fuzz_sweep.py record [--all] [--only NAME ...]   # every (function,
                                          # parameter) with SWEEP_HOSTILE (or every value)
    python tests/fuzz/fuzz_sweep.py shrink                     # re-run each known failure,
                                                              # drop the ones that now pass
    python tests/fuzz/fuzz_sweep.py merge FILE                 # list a fuzz run's new ones

``record`` runs each baseline of the API table with one argument replaced by one hostile
value, each in its own forked child (``fuzz_isolation.run_isolated``), journals every
outcome (entries it did not run are kept) (``exactpml_fuzz_sweep_journal.jsonl`` in the temporary directory, so an
interrupted sweep resumes) and writes the failures
to ``known_failing.json``, grouped by module.  ``shrink`` only ever removes entries: the
set of known failures can only shrink as fixes land.  ``merge FILE`` adds the new failures
that a run of the fuzz test appended to ``FILE`` (``EXACTPML_FUZZ_NEW_FAILURES=FILE``, one
JSON object per line): for a
failure whose fix is under way elsewhere, so that the suite stays green meanwhile.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
KNOWN_FAILING_FILE = HERE / "known_failing.json"
JOURNAL = Path(tempfile.gettempdir()) / "exactpml_fuzz_sweep_journal.jsonl"

if str(HERE) not in sys.path:  # run as a script
    sys.path.insert(0, str(HERE))


def case_key(name: str, parameter: str, hostile: str) -> str:
    """The key of one replacement in ``known_failing.json``: ``name|parameter=hostile``."""
    return f"{name}|{parameter}={hostile}"


def outcome_label(kind: str, detail: str) -> str:
    """What ``known_failing.json`` keeps of an outcome: its kind and what failed, without
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


def load_known_failing(path: Path = KNOWN_FAILING_FILE) -> dict[str, str]:
    """``known_failing.json`` flattened: case key -> outcome label.

    The file nests module -> ``function|parameter`` -> hostile value -> outcome label; a
    failing pair of replacements is listed under ``"&"`` as ``{"KEY & KEY": label}``.
    """
    if not path.exists():
        return {}
    known: dict[str, str] = {}
    for groups in json.loads(path.read_text(encoding="utf-8")).values():
        for head, cases in groups.items():
            for hostile, label in cases.items():
                known[hostile if head == "&" else f"{head}={hostile}"] = label
    return known


def write_known_failing(known: dict[str, str], path: Path = KNOWN_FAILING_FILE) -> None:
    """Write the failures nested and sorted (stable diffs; see :func:`load_known_failing`)."""
    from fuzz_api_table import BASELINES

    nested: dict[str, dict[str, dict[str, str]]] = {}
    for key in sorted(known):
        name = key.split("|", 1)[0]
        module = BASELINES[name].module if name in BASELINES else name.rsplit(".", 1)[0]
        head, hostile = ("&", key) if " & " in key else key.split("=", 1)
        nested.setdefault(module, {}).setdefault(head, {})[hostile] = known[key]
    text = json.dumps(dict(sorted(nested.items())), indent=1, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")


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


def _current(key: str) -> bool:
    """Whether a journalled key still names a baseline, one of its parameters and a hostile
    value (the table and the values may have changed since it was journalled)."""
    from fuzz_api_table import BASELINES
    from fuzz_hostile_values import NAMES

    name, rest = key.split("|", 1)
    parameter, hostile = rest.split("=", 1)
    return name in BASELINES and parameter in BASELINES[name].parameters() and hostile in NAMES


def _record(only: list[str], every_value: bool) -> None:
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
    previous = load_known_failing()
    known = {key: label for key, label in previous.items() if key not in done}
    known.update(
        (key, outcome_label(kind, detail))
        for key, (kind, detail) in done.items()
        if kind not in acceptable and _current(key)
    )
    for key, label in previous.items():  # a hang seen once stays listed (see Outcome.fixes)
        if label == "hang" and key not in known and _current(key):
            known[key] = label
    write_known_failing(known)
    print(f"{len(known)} failing of {len(done)} cases", file=sys.stderr)


def _merge(path: Path) -> None:
    """Add a fuzz run's new failures; a failing pair of replacements is listed by those of
    its single replacements that fail on their own, or as the pair when neither does."""
    acceptable = ("value", "exactpml error", "documented exception")
    known = load_known_failing()
    added: dict[str, str] = {}
    reported: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        reported.update(json.loads(line) if line.strip() else {})
    for joint, label in reported.items():
        singles = joint.split(" & ")
        failing = {}
        for key in singles if len(singles) > 1 else []:
            name, rest = key.split("|", 1)
            parameter, hostile = rest.split("=", 1)
            kind, detail, _ = run_case(name, parameter, hostile)
            if kind not in acceptable:
                failing[key] = outcome_label(kind, detail)
        added.update(failing or {joint: label})
    known.update(added)
    write_known_failing(known)
    print(f"{len(added)} entries merged", file=sys.stderr)


def _shrink() -> None:
    from fuzz_isolation import Outcome

    known = load_known_failing()
    kept: dict[str, str] = {}
    for joint, label in known.items():
        replacements: dict[str, str] = {}
        name = ""
        for key in joint.split(" & "):
            name, rest = key.split("|", 1)
            parameter, hostile = rest.split("=", 1)
            replacements[parameter] = hostile
        kind, detail, seconds = run_cases(name, replacements)
        if not Outcome(kind, detail, seconds).fixes(label):
            kept[joint] = label
    write_known_failing(kept)
    print(f"{len(known) - len(kept)} entries now pass and were removed", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    record = commands.add_parser("record", help="sweep and write known_failing.json")
    record.add_argument("--only", nargs="*", default=[], help="baselines whose name contains")
    record.add_argument("--all", action="store_true", help="every hostile value, not a sample")
    commands.add_parser("shrink", help="drop the known failures that now pass")
    merge = commands.add_parser("merge", help="add the failures a fuzz run wrote to FILE")
    merge.add_argument("file", type=Path)
    arguments = parser.parse_args(argv)
    if arguments.command == "record":
        _record(arguments.only, arguments.all)
    elif arguments.command == "merge":
        _merge(arguments.file)
    else:
        _shrink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
