#!/usr/bin/env bash
# The embedded default: no server to install. SQLite for the database, kombu's
# filesystem transport for the broker, then the web server, a worker per queue and beat.
# Usage: scripts/embedded.sh [port]   (from `make run`; state lives in var/)
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${1:-8000}"
PY=.venv/bin/python
VAR="${COSTPLANNER_VAR:-$PWD/var}"

export DEBUG="${DEBUG:-1}"
export DATABASE_URL="sqlite:///$VAR/costplanner.sqlite3?timeout=30"
export CELERY_BROKER_URL="filesystem://"
export CELERY_BROKER_FOLDER="$VAR/broker"
mkdir -p "$VAR/broker/messages" "$VAR/broker/control"

$PY manage.py migrate --noinput -v 0
$PY manage.py loadsample --user demo --password demo-password ${SAMPLE_STRATEGIES:+--strategies "$SAMPLE_STRATEGIES"}

# The workers run below the web server (costplanner/worker_priority.py): a comparison keeps both cores busy
# for minutes, and the pages must stay quick meanwhile.
export WORKER_NICENESS="${WORKER_NICENESS:-10}"
# Two workers, as in production: comparisons on `gpu` one at a time (this machine is its own GPU
# worker), and uploads, PDFs and mails on `default`, which would otherwise wait behind a comparison.
.venv/bin/celery -A costplanner worker -Q gpu -n gpu@%h --concurrency 1 --loglevel INFO >"$VAR/worker.log" 2>&1 &
WORKER=$!
.venv/bin/celery -A costplanner worker -Q default -n default@%h --concurrency 1 --loglevel INFO \
    >"$VAR/worker-default.log" 2>&1 &
DEFAULT_WORKER=$!
.venv/bin/celery -A costplanner beat --loglevel INFO --pidfile= >"$VAR/beat.log" 2>&1 &
BEAT=$!
# A worker stops warm: it finishes its current job first. Ctrl-C again stops it at once.
trap 'echo "stopping: the workers finish their jobs first"; kill $WORKER $DEFAULT_WORKER $BEAT 2>/dev/null; wait' EXIT

echo
echo "costplanner is running at http://127.0.0.1:$PORT/  (log in as demo / demo-password)"
echo "the sample comparison runs in the worker: watch it on the sample workload's page; logs in $VAR/"
echo
$PY manage.py runserver --noreload "127.0.0.1:$PORT"
