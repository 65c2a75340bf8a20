"""The Dockerfile: CPU images without CUDA, a GPU image with CUDA PyTorch and Triton, gunicorn for the web."""

import json
import re

from tests.deploy.conftest import ROOT, dockerfile_stages, image_env, instructions


def _requirements(name: str) -> list[str]:
    lines = (ROOT / "deploy" / name).read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def test_it_has_a_stage_per_image_the_compose_file_builds(services):
    stages = dockerfile_stages()
    targets = {s["build"]["target"] for s in services.values() if "build" in s}
    assert targets == {"cpu", "web", "gpu"} and targets <= set(stages)


def test_the_gpu_image_installs_cuda_torch_and_triton():
    runs = " ".join(instructions(dockerfile_stages()["gpu"], "RUN"))
    assert "pip install -r deploy/requirements-gpu.txt" in runs
    gpu = _requirements("requirements-gpu.txt")
    assert "-r ../requirements.txt" in gpu and "triton==3.7.1" in gpu
    assert not any("whl/cpu" in line or "+cpu" in line for line in gpu)
    # requirements.txt pins the version whose PyPI build for Linux is CUDA's (and requires triton 3.7.1).
    assert "torch==2.13.0" in (ROOT / "requirements.txt").read_text().splitlines()
    assert image_env(dockerfile_stages()["gpu"])["NVIDIA_DRIVER_CAPABILITIES"] == "compute,utility"
    assert "gcc" in runs  # Triton compiles its kernel launcher at run time


def test_the_cpu_images_install_torchs_cpu_build_and_no_cuda():
    stages = dockerfile_stages()
    cpu = _requirements("requirements-cpu.txt")
    assert cpu == ["--extra-index-url https://download.pytorch.org/whl/cpu", "torch==2.13.0+cpu",
                   "-r ../requirements.txt"]
    for name in ["cpu", "web"]:
        runs = " ".join(instructions(stages[name], "RUN"))
        assert "pip install -r deploy/requirements-cpu.txt" in runs, name
        assert not re.search(r"requirements-gpu|triton|nvidia|cuda", runs, re.I), name
        assert "NVIDIA_VISIBLE_DEVICES" not in image_env(stages[name]), name


def test_the_web_image_runs_gunicorn_with_a_health_check():
    web = dockerfile_stages()["web"]
    assert json.loads(instructions(web, "CMD")[-1])[:2] == ["gunicorn", "costplanner.wsgi"]
    assert instructions(web, "HEALTHCHECK")[-1].endswith('CMD ["python", "deploy/healthcheck.py"]')
    assert image_env(web)["PORT"] == "8000" and "EXPOSE" in dict(web)


def test_static_files_are_collected_at_build_with_the_manifest_on():
    cpu = dockerfile_stages()["cpu"]
    assert image_env(cpu)["STATIC_MANIFEST"] == "1"
    assert any("manage.py collectstatic --noinput" in run for run in instructions(cpu, "RUN"))


def test_every_image_runs_as_a_user_without_root():
    for name in ["cpu", "web", "gpu"]:
        assert instructions(dockerfile_stages()[name], "USER")[-1] == "costplanner", name


def test_the_cpu_image_runs_the_cpu_worker_as_compose_does(services):
    assert json.loads(instructions(dockerfile_stages()["cpu"], "CMD")[-1]) == services["worker-cpu"]["command"]
    assert "command" not in services["web"]  # the web image's gunicorn CMD
