#!/bin/sh
# Flower, the Celery monitor, behind HTTP basic auth. It shows every task's arguments and can revoke
# tasks, so it refuses to start without FLOWER_BASIC_AUTH ("user:password", several separated by commas).
set -eu
case "${FLOWER_BASIC_AUTH:-}" in
  ?*:?*) ;;
  *) echo "flower: set FLOWER_BASIC_AUTH=user:password in .env; not starting without a password" >&2
     exit 1 ;;
esac
exec celery -A costplanner flower --port="${FLOWER_PORT:-5555}" --basic-auth="$FLOWER_BASIC_AUTH"
