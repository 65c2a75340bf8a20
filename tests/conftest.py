"""Before any test module imports torch: OpenMP threads sleep while they wait, so CPU time measures work.
Before any test module imports transformers (which imports Triton): on a machine without CUDA, Triton
kernels run in Triton's interpreter."""

from engine.core.openmp import wait_passively

wait_passively()  # before torch loads, as the CLI and the worker do: CPU time measures work

from engine.attention.backends import interpret_triton_without_cuda  # noqa: E402

interpret_triton_without_cuda()


def pytest_collection_modifyitems(items):
    """Tests under tests/engine/kernels run the Triton kernels in the interpreter (minutes on 2 cores): marked
    `kernels`, so the fast subset can leave them to `make test`."""
    for item in items:
        if "kernels" in item.path.parts:
            item.add_marker("kernels")
