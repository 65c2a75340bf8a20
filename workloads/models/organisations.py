import re
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import models

MAX_RECIPIENTS = 20


def parse_recipients(text: str) -> list[str]:
    """The addresses in a list separated by commas, semicolons, spaces or new lines, once each."""
    return list(dict.fromkeys(a for a in re.split(r"[\s,;]+", text.strip()) if a))


def validate_recipients(text: str) -> None:
    addresses = parse_recipients(text)
    if len(addresses) > MAX_RECIPIENTS:
        raise ValidationError(f"at most {MAX_RECIPIENTS} addresses, not {len(addresses)}: use a mailing list")
    for address in addresses:
        try:
            validate_email(address)
        except ValidationError:
            raise ValidationError(f"{address[:80]!r} is not an e-mail address such as cfo@example.com") from None


# Every zone the system knows but "localtime", which is whatever the server's /etc/localtime is, and
# "Factory", tzdata's placeholder for machines whose zone was never set: neither is a place.
TIME_ZONES = sorted(zoneinfo.available_timezones() - {"localtime", "Factory"})


def validate_timezone(name: str) -> None:
    if name not in TIME_ZONES:
        raise ValidationError(f"{name!r} is not a time zone name such as Europe/Berlin or America/New_York")


class Organisation(models.Model):
    """A business. Everything it owns hangs off it, and members see only their own."""

    name = models.CharField(max_length=200, unique=True)
    # Scheduled comparisons fire at local hours in this zone (quarters start on local dates).
    timezone = models.CharField(max_length=64, default="UTC", validators=[validate_timezone])
    # Who is e-mailed each scheduled run's PDF summary: managers do not open dashboards.
    summary_recipients = models.TextField(blank=True, validators=[validate_recipients],
                                          help_text="e-mail addresses, one per line")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name

    @property
    def recipients(self) -> list[str]:
        return parse_recipients(self.summary_recipients)


class Membership(models.Model):
    # One organisation per user keeps every query a plain filter on request.user's organisation.
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="membership")
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="memberships")

    def __str__(self) -> str:
        return f"{self.user} in {self.organisation}"
