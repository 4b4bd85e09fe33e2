"""Shared test configuration: Hypothesis profiles (dev, ci, thorough, mutation).

Select with ``HYPOTHESIS_PROFILE=ci`` (``.ci/run`` does); ``mutation`` (derandomized, fewer
examples) is what ``tools/mutation_score.py`` runs against each mutant, so that its score is
the same on every run.  No example database is written,
so runs are reproducible and leave no files behind.
"""

import os

from hypothesis import HealthCheck, settings

_common = {
    "deadline": None,  # exact arithmetic has no meaningful per-example time limit
    "database": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}
settings.register_profile("dev", max_examples=60, **_common)
settings.register_profile("ci", max_examples=150, derandomize=True, **_common)
settings.register_profile("thorough", max_examples=2000, **_common)
settings.register_profile("mutation", max_examples=60, derandomize=True, **_common)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
