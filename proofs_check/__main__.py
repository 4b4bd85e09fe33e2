"""``python -m proofs_check``: check the claims and print the report.

The process ends with :func:`proofs_check.cli.exit_without_teardown` (exit handlers, flush,
``os._exit``): the interpreter's teardown only cost wall time once the report was out.
"""

from proofs_check.cli import exit_without_teardown, main

if __name__ == "__main__":
    exit_without_teardown(main())
