"""Django's SMTP backend, keeping the recipients a mail server refused while it took the others.

smtplib's sendmail returns those refusals ({address: (code, reply)}) and Django's backend drops
them, so a summary mailed to three managers, one of whom the server does not know, would look
delivered to all three. settings.py puts this backend in place of Django's for smtp:// URLs.
"""

from django.core.mail.backends import smtp


class EmailBackend(smtp.EmailBackend):
    def _send(self, email_message):
        """Send as Django does, and leave the server's refusals on the message as `refused`."""
        email_message.refused = {}
        sendmail = self.connection.sendmail

        def keeping_refusals(*args, **kwargs):
            email_message.refused = sendmail(*args, **kwargs)
            return email_message.refused

        self.connection.sendmail = keeping_refusals
        try:
            return super()._send(email_message)
        finally:
            del self.connection.sendmail  # the instance attribute: the class's method shows again
