"""Triton kernels of the engine's attention, each beside its torch reference's signature.

Import them through `engine.attention.backends.resolve`, which sets Triton's
interpreter up first when the tensors live on the CPU.
"""
