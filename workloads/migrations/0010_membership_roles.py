from django.db import migrations, models


class Migration(migrations.Migration):
    """Members get roles. Everyone who is a member already becomes an admin, so nobody loses what they
    could do before; members added from now on are plain members unless an admin says otherwise."""

    dependencies = [("workloads", "0009_runs_keep_their_time_zone")]

    operations = [
        migrations.AddField(
            model_name="membership", name="role",
            field=models.CharField(choices=[("viewer", "Viewer"), ("member", "Member"), ("admin", "Admin")],
                                   default="admin", max_length=8),
        ),
        migrations.AlterField(
            model_name="membership", name="role",
            field=models.CharField(choices=[("viewer", "Viewer"), ("member", "Member"), ("admin", "Admin")],
                                   default="member", max_length=8),
        ),
    ]
