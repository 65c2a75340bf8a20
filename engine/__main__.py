from engine.attention.backends import interpret_triton_without_cuda

interpret_triton_without_cuda()  # before engine.cli imports transformers, which imports Triton

from engine.cli import main  # noqa: E402

raise SystemExit(main())
