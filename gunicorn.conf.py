"""gunicorn's settings for the web image: gunicorn reads ./gunicorn.conf.py from its working directory (/app), and its
command line (Dockerfile) and environment (WEB_CONCURRENCY) add to them.

The app is loaded once, in the master, before the workers are forked, and its URLconf with it: every view, template
tag library and the API's schema models. Each worker then starts ready, instead of paying for those imports (about a
second on a 2-core machine) on its first request, and the imports' memory is shared between the workers.
"""

preload_app = True


def when_ready(server):
    from django.urls import get_resolver

    get_resolver().resolve("/")  # imports the URLconf, and through it every view module
