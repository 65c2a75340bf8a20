"""Before any test module imports transformers (which imports Triton): on a machine
without CUDA, Triton kernels run in Triton's interpreter."""

from engine.attention.backends import interpret_triton_without_cuda

interpret_triton_without_cuda()
