from django.db import migrations, models


class Migration(migrations.Migration):
    """Runs keep where Index Share's groups started. Those queued before ran with uniform groups, so they say so;
    new runs start at the model's calibrated anchor layers (engine.calibration) unless asked for uniform groups."""

    dependencies = [
        ("workloads", "0024_runs_default_to_the_pooled_mass_indexer"),
    ]

    operations = [
        migrations.AddField(
            model_name="comparisonrun",
            name="anchors",
            field=models.CharField(default="uniform", max_length=10,
                                   help_text="where Index Share's groups start: calibrated for the model, or uniform"),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="comparisonrun",
            name="anchors",
            field=models.CharField(default="calibrated", max_length=10,
                                   help_text="where Index Share's groups start: calibrated for the model, or uniform"),
        ),
    ]
