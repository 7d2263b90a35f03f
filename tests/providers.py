"""The providers a test runs on without a GPU (`from providers import PROVIDERS_WITHOUT_GPU`, as
`example_args`): `interp`, and `cpu`, skipped with its reason where it is unavailable."""

import pytest

from gpuir.runtime import unavailable_reason

PROVIDERS_WITHOUT_GPU = [
    "interp",
    pytest.param(
        "cpu",
        marks=pytest.mark.skipif(
            unavailable_reason("cpu") is not None, reason=f"cpu: {unavailable_reason('cpu')}"
        ),
    ),
]
