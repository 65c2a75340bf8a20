import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models


def validate_timezone(name: str) -> None:
    if name not in zoneinfo.available_timezones():
        raise ValidationError(f"{name!r} is not a time zone name such as Europe/Berlin or America/New_York")


class Organisation(models.Model):
    """A business. Everything it owns hangs off it, and members see only their own."""

    name = models.CharField(max_length=200, unique=True)
    # Scheduled comparisons fire at local hours in this zone (quarters start on local dates).
    timezone = models.CharField(max_length=64, default="UTC", validators=[validate_timezone])
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    # One organisation per user keeps every query a plain filter on request.user's organisation.
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="membership")
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="memberships")

    def __str__(self) -> str:
        return f"{self.user} in {self.organisation}"
