"""Test-wide settings: hypothesis profiles sized for 2-core CI machines.

No timing in unit tests: deadlines are off (speed is measured by benchmarks/ scripts), and
the too_slow health check is off because CI machines are shared and noisy.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile("ci" if os.environ.get("CI") else "default")
