"""costplanner settings: read from the environment only, failing loudly on a bad value.

Production sets DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis). `make run`
sets SQLite and kombu's filesystem broker, so the embedded default needs no server.
"""

import datetime as dt
from pathlib import Path

import environ
from django.core.checks.security.base import (SECRET_KEY_INSECURE_PREFIX, SECRET_KEY_MIN_LENGTH,
                                              SECRET_KEY_MIN_UNIQUE_CHARACTERS)
from django.core.exceptions import ImproperlyConfigured
from csp.constants import NONE, SELF

from engine.core import catalogue  # torch-free: the models the engine provisions

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY", default="insecure-development-key" if DEBUG else environ.Env.NOTSET)
# A weak key starts every process and passes `manage.py check` (only `check --deploy` warns, W009), but Django refuses
# an empty one on first use, so every sign-in was a 500; a short one signs sessions and password links that can be
# guessed. Outside DEBUG each process refuses it at start, by Django's own measure of a weak key.
if not DEBUG:
    how_to_make_one = ("set it to 50 or more random characters, e.g. the output of "
                       "python -c 'import secrets; print(secrets.token_urlsafe(50))'")
    # .env.example's placeholder (its every secret says "change-me") is long enough, but anyone who read the example
    # could forge what it signs.
    if "change-me" in SECRET_KEY.lower():
        raise ImproperlyConfigured(f"SECRET_KEY is still .env.example's placeholder: {how_to_make_one}")
    if not SECRET_KEY:
        raise ImproperlyConfigured(f"SECRET_KEY is empty: {how_to_make_one}")
    if (len(SECRET_KEY) < SECRET_KEY_MIN_LENGTH or len(set(SECRET_KEY)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS
            or SECRET_KEY.startswith(SECRET_KEY_INSECURE_PREFIX)):
        raise ImproperlyConfigured(
            f"SECRET_KEY is weak ({len(SECRET_KEY)} characters, {len(set(SECRET_KEY))} distinct; Django asks for "
            f"{SECRET_KEY_MIN_LENGTH} or more, {SECRET_KEY_MIN_UNIQUE_CHARACTERS} or more distinct, and no "
            f"{SECRET_KEY_INSECURE_PREFIX!r} prefix): {how_to_make_one}")
# The secrets that encrypt endpoints' API keys at rest (workloads/models/endpoint_keys.py), comma-separated: the first
# encrypts, each one decrypts, so a new secret goes first and the old one stays until every key was saved again.
# Unset, SECRET_KEY is the one secret, so that a fresh install needs nothing more; production should set its own,
# for rotating SECRET_KEY (it signs sessions and password links) would otherwise make every stored key unreadable.
ENDPOINT_KEY_SECRETS = [secret for secret in env.list("ENDPOINT_KEY_SECRET", default=[]) if secret] or [SECRET_KEY]
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])  # e.g. https://costplanner.example.com
# Behind a TLS-terminating proxy: trust its X-Forwarded-Proto, and keep cookies and browsers on HTTPS.
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if env.bool("TRUST_X_FORWARDED_PROTO", default=False) else None
)
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=False)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0)
# Reverse proxies in front of gunicorn that each append the client's address to X-Forwarded-For (0: none, the
# socket's peer is the client). Failed sign-ins are counted per address (workloads/sign_in_throttle.py).
TRUSTED_PROXIES = env.int("TRUSTED_PROXIES", default=0)

# Failed sign-ins, counted by django-axes (workloads/sign_in_throttle.py): wrong passwords per username at an address,
# unknown API tokens per address; docs/deployment.md says how the defaults were chosen.
LOGIN_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
TOKEN_FAILURE_LIMIT = env.int("TOKEN_FAILURE_LIMIT", default=20)
LOGIN_LOCKOUT_MINUTES = env.int("LOGIN_LOCKOUT_MINUTES", default=15)
AXES_FAILURE_LIMIT = "workloads.sign_in_throttle.failure_limit"
AXES_COOLOFF_TIME = dt.timedelta(minutes=LOGIN_LOCKOUT_MINUTES)
# Username and address together, so that one address (an office behind NAT) cannot lock out the others behind it.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "workloads.sign_in_throttle.client_address"
AXES_LOCKOUT_CALLABLE = "workloads.sign_in_throttle.lockout_response"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "workloads.organisations.member_backend.MemberBackend",  # Django's ModelBackend, the membership read with the user
]

# Content-Security-Policy (django-csp: Django 5.2 has no CSP of its own; 6.0 does). The pages run no inline script
# and no inline style, and load everything, plotly.js included, from this site. plotly.js (7.1.0's bundle) adds two
# <style> elements as it loads: an empty one, which it then fills through the CSSOM (allowed), and its map library's
# fixed CSS. Their hashes allow exactly those two and no other inline style; a plotly upgrade that changes them
# fails tests/workloads/browser/test_charts_draw_under_the_content_security_policy.py, which prints the new hash.
# Its images of a chart are data: URLs.
PLOTLY_STYLE_HASHES = ["'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",  # the empty <style>
                       "'sha256-ji27qzEtxXZW+7dun6UwjHXJ18e6WAin1VvNtkzIE/o='"]  # maplibre-gl's CSS
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, *PLOTLY_STYLE_HASHES],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# Browser features no page uses, turned off for the site and anything it might frame.
PERMISSIONS_POLICY = ("accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), "
                      "payment=(), usb=()")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_celery_beat",
    "ninja",  # serves the API docs page's Swagger UI from static, not a CDN
    "axes",  # failed sign-ins throttled (workloads/sign_in_throttle.py)
    "workloads",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "workloads.middleware.PermissionsPolicy",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files from gunicorn itself, before any view
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "workloads.middleware.OrganisationTimeZone",  # times on pages in the organisation's time zone
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "workloads.middleware.ApiErrorsAsJson",
    "workloads.middleware.MethodNotAllowedPage",
    "axes.middleware.AxesMiddleware",  # last: it answers a sign-in it locked out with its lockout response
]

ROOT_URLCONF = "costplanner.urls"
WSGI_APPLICATION = "costplanner.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default="postgres://postgres@127.0.0.1:5432/costplanner")}
# A process keeps its connection between requests (and tasks) for DB_CONN_MAX_AGE seconds, checked before reuse: a
# connection per request started a PostgreSQL backend per request, with empty caches, which doubled PostgreSQL's CPU
# for the pages (benchmarks/page_cpu.py). 0 connects per request again.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default: a transaction takes SQLite's write lock as it begins, so a concurrent
    # writer waits out the busy timeout; a deferred one that reads first fails at once ("database is locked").
    DATABASES["default"].setdefault("OPTIONS", {})["transaction_mode"] = "IMMEDIATE"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Django's usual four: members set their own passwords, through a link an admin passes on.
AUTH_PASSWORD_VALIDATORS = [{"NAME": f"django.contrib.auth.password_validation.{name}"} for name in (
    "UserAttributeSimilarityValidator", "MinimumLengthValidator", "CommonPasswordValidator",
    "NumericPasswordValidator")]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "login"

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "costplanner.static_finders.PlotlyFinder",  # plotly.js from the plotly package, never a CDN
]
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
# Device profiles measured by `python -m engine bench-model` (<device class>.json): planning shows them as measured.
DEVICE_PROFILE_DIR = Path(env.str("DEVICE_PROFILE_DIR", default=str(BASE_DIR / "benchmarks" / "profiles")))
# The images collect static files at build time with STATIC_MANIFEST on: WhiteNoise then serves them
# compressed, under hashed names, cached for ever. Without it (runserver, tests) nothing is collected:
# WhiteNoise finds each file in the app folders when asked.
STATIC_MANIFEST = env.bool("STATIC_MANIFEST", default=False)
if not STATIC_MANIFEST:
    WHITENOISE_USE_FINDERS = WHITENOISE_AUTOREFRESH = True
# Uploaded files' original bytes (workloads.models.UploadFile.original), where the web process writes them and every
# extraction worker reads them: a folder under MEDIA_ROOT by default, which the web and the workers must share (one
# machine, or a shared volume); or an object store, with no code change, e.g. django-storages' S3 backend:
# FILE_STORAGE_BACKEND=storages.backends.s3.S3Storage FILE_STORAGE_OPTIONS='{"bucket_name": "costplanner-uploads"}'
# (docs/configuration.md). Nothing serves these files over HTTP: MEDIA_URL is not routed.
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(BASE_DIR / "var" / "media")))
STORAGES = {
    "default": {"BACKEND": env.str("FILE_STORAGE_BACKEND", default="django.core.files.storage.FileSystemStorage"),
                "OPTIONS": env.json("FILE_STORAGE_OPTIONS", default={})},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage" if STATIC_MANIFEST
                    else "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Django spools an uploaded file over 2.5 MB to this folder (unset: the system's temporary folder). On the same
# filesystem as MEDIA_ROOT, storing the file is a rename, not a copy.
FILE_UPLOAD_TEMP_DIR = env.str("FILE_UPLOAD_TEMP_DIR", default=None)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}

# Models a workload can target: display name -> a catalogue name (engine/core/catalogue.py) or an engine model
# path ("" = the engine's default). The first is a new workload's default: Qwen2.5-Coder-0.5B reads 32,768
# positions; SmolLM2 (8,192) stays for a fast demo. The optional 1.5B is offered once `make model MODEL=...` has
# provisioned it.
COSTPLANNER_MODELS = env.dict("COSTPLANNER_MODELS", default=catalogue.offered())

# Upload limits, enforced by validators at the edge and again during extraction.
UPLOAD_MAX_FILES = env.int("UPLOAD_MAX_FILES", default=50)
UPLOAD_MAX_FILE_BYTES = env.int("UPLOAD_MAX_FILE_BYTES", default=20 * 2**20)
ARCHIVE_MAX_MEMBERS = env.int("ARCHIVE_MAX_MEMBERS", default=5000)
ARCHIVE_MAX_BYTES = env.int("ARCHIVE_MAX_BYTES", default=200 * 2**20)
WORKLOAD_MAX_TOKENS = env.int("WORKLOAD_MAX_TOKENS", default=1_000_000)
# Each PDF or DOCX is read in a child process with at most this much memory (address space) and time.
EXTRACTION_MAX_MEMORY_BYTES = env.int("EXTRACTION_MAX_MEMORY_BYTES", default=2**30)
EXTRACTION_TIMEOUT_S = env.int("EXTRACTION_TIMEOUT_S", default=120)
# Quotas per organisation (workloads.organisations.quotas), which an organisation's own, set in the admin, replaces.
# Runs and sweeps share the workers' queue with every organisation; uploads are extraction tasks; stored bytes fill
# the database and every backup. docs/configuration.md says how the defaults were chosen.
QUOTA_RUNS_QUEUED = env.int("QUOTA_RUNS_QUEUED", default=10)
QUOTA_UPLOADS_PER_DAY = env.int("QUOTA_UPLOADS_PER_DAY", default=100)
QUOTA_STORED_BYTES = env.int("QUOTA_STORED_BYTES", default=5 * 2**30)
if min(QUOTA_RUNS_QUEUED, QUOTA_UPLOADS_PER_DAY, QUOTA_STORED_BYTES) < 0:
    raise ImproperlyConfigured("QUOTA_RUNS_QUEUED, QUOTA_UPLOADS_PER_DAY and QUOTA_STORED_BYTES must be 0 or more")
# Django's own request limits, sized so that our validators, not a bare 400, answer first.
DATA_UPLOAD_MAX_NUMBER_FILES = UPLOAD_MAX_FILES + 1
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 2**20
# What is kept of an upload's original bytes (workloads/documents/upload_retention.py). Always: an original goes when
# the last document read from it is deleted, and when extraction finishes having kept nothing from it. Unset, an
# original a document holds stays as long as that document; set, every original is deleted this many days after its
# extraction finished (0: as soon as it finishes), the documents' text staying. A failed or cancelled upload keeps
# its files for a retry during UPLOAD_RETRY_DAYS.
_retention_days = env.str("UPLOAD_ORIGINAL_RETENTION_DAYS", default="")  # empty: no period
UPLOAD_ORIGINAL_RETENTION_DAYS = int(_retention_days) if _retention_days else None
UPLOAD_RETRY_DAYS = env.int("UPLOAD_RETRY_DAYS", default=7)
if min(UPLOAD_ORIGINAL_RETENTION_DAYS or 0, UPLOAD_RETRY_DAYS) < 0:
    raise ImproperlyConfigured("UPLOAD_ORIGINAL_RETENTION_DAYS and UPLOAD_RETRY_DAYS must be 0 or more days")

# Mail: each scheduled run's PDF summary goes to its organisation's recipients. EMAIL_URL is
# smtp://user:password@host:587 (or smtp+tls://, smtps://); the default prints mails to the
# worker's log, which the embedded default shows and system check costplanner.W002 flags.
_email = env.email_url("EMAIL_URL", default="consolemail://")
if _email["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend":
    # Django's, keeping per-recipient refusals
    _email["EMAIL_BACKEND"] = "workloads.reporting.summary.smtp.EmailBackend"
vars().update(_email)
EMAIL_TIMEOUT = 30  # a mail server that hangs fails the sending, not the worker
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="costplanner <costplanner@localhost>")
# Mailings of PDFs that an organisation's members may ask for in an hour (the schedule's own are not counted).
SUMMARY_EMAILS_PER_HOUR = env.int("SUMMARY_EMAILS_PER_HOUR", default=20)
# The site's address as people reach it: links in mails point there.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")

# Celery, the official Django pattern: costplanner/celery.py reads every CELERY_* here.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="redis://127.0.0.1:6379/0")
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ROUTES = {"workloads.run_comparison": {"queue": "gpu"},
                      "workloads.run_shard": {"queue": "gpu"},
                      "workloads.run_group_sweep": {"queue": "gpu"}}
CELERY_TASK_ACKS_LATE = True  # a job lost with its worker is delivered again...
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # ...and a long job never holds a second one hostage
CELERY_TASK_IGNORE_RESULT = True  # results live in our own tables
CELERY_TASK_SOFT_TIME_LIMIT = env.int("JOB_SOFT_TIME_LIMIT", default=4 * 3600)
CELERY_TASK_TIME_LIMIT = CELERY_TASK_SOFT_TIME_LIMIT + 300
# The broker must not redeliver a job that is still running: its visibility timeout
# outlasts the hard limit (system check costplanner.E001 holds this).
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_TASK_TIME_LIMIT + 3600}
if CELERY_BROKER_URL.startswith("filesystem://"):
    _broker_folder = Path(env.str("CELERY_BROKER_FOLDER", default=str(BASE_DIR / "var" / "broker")))
    CELERY_BROKER_TRANSPORT_OPTIONS |= {
        "data_folder_in": str(_broker_folder / "messages"),
        "data_folder_out": str(_broker_folder / "messages"),
        "control_folder": str(_broker_folder / "control"),
    }
# A worker's CPU niceness (0 to 19): a worker sharing its machine with the web server runs below it
# (costplanner/worker_priority.py), so that a comparison on every core does not slow the pages.
WORKER_NICENESS = env.int("WORKER_NICENESS", default=0)
if not 0 <= WORKER_NICENESS <= 19:
    raise ImproperlyConfigured(f"WORKER_NICENESS must be 0 to 19, not {WORKER_NICENESS}")
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Besides each workload's own entry (workloads/reporting/scheduling.py), beat installs this one in its database.
# Runs and uploads hold a lease while they work (workloads/workers/leases.py, docs/configuration.md): the worker
# beats every JOB_HEARTBEAT_S; a running job silent for JOB_STALE_AFTER_S lost its worker, and a delivery of it, or
# the sweep (workloads/workers/recovery.py, from beat and from each worker), hands it to a live worker, at most
# JOB_MAX_TAKEOVERS times.
JOB_HEARTBEAT_S = env.int("JOB_HEARTBEAT_S", default=10)
JOB_STALE_AFTER_S = env.int("JOB_STALE_AFTER_S", default=45)
JOB_MAX_TAKEOVERS = env.int("JOB_MAX_TAKEOVERS", default=3)
# A comparison of more questions than this is split into shards of this many, each asked by whichever gpu worker takes
# it (workloads.comparisons.shards); a run of this many or fewer stays one job.
RUN_SHARD_QUESTIONS = env.int("RUN_SHARD_QUESTIONS", default=10)
# A queued job older than this whose message the broker no longer holds (a restart without persistence) is sent
# again, at most JOB_MAX_RESENDS times, then failed with the reason.
JOB_LOST_MESSAGE_AFTER_S = env.int("JOB_LOST_MESSAGE_AFTER_S", default=300)
JOB_MAX_RESENDS = env.int("JOB_MAX_RESENDS", default=3)
CELERY_BEAT_SCHEDULE = {"fail lost jobs": {"task": "workloads.fail_lost_jobs", "schedule": 15 * 60},
                        "recover stalled jobs": {"task": "workloads.recover_jobs", "schedule": JOB_STALE_AFTER_S},
                        "purge upload originals": {"task": "workloads.purge_upload_originals", "schedule": 3600}}
CELERY_TIMEZONE = TIME_ZONE
