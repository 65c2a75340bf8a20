from engine.core.openmp import wait_passively

wait_passively()  # before anything loads torch, whose OpenMP reads it once (engine/core/openmp.py)

from engine.attention.backends import interpret_triton_without_cuda  # noqa: E402

interpret_triton_without_cuda()  # before engine.cli imports transformers, which imports Triton

from engine.cli import main  # noqa: E402

raise SystemExit(main())
