"""``python -m proofs_check``: check the claims and print the report."""

import sys

from proofs_check.cli import main

if __name__ == "__main__":
    sys.exit(main())
