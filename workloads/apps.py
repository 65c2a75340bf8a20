from django.apps import AppConfig


class WorkloadsConfig(AppConfig):
    name = "workloads"

    def ready(self) -> None:
        from workloads import checks  # noqa: F401  (registers the system checks)
        from workloads import signals  # noqa: F401  (beat entries in step with schedules; a priced run's changes)
        from workloads.workers import worker_watch  # noqa: F401  (a worker asks for the sweep of lost jobs)
