"""Before any test module imports torch: OpenMP threads sleep while they wait, so CPU time measures work.
Before any test module imports transformers (which imports Triton): on a machine without CUDA, Triton
kernels run in Triton's interpreter."""

from engine.openmp import wait_passively

wait_passively()  # before torch loads, as the CLI and the worker do: CPU time measures work

from engine.attention.backends import interpret_triton_without_cuda  # noqa: E402

interpret_triton_without_cuda()
