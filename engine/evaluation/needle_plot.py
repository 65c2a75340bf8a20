"""The needle grid's heat map: accuracy per length (rows) and depth (columns), one panel per setting; for a join
grid (hops 2) the columns are the distances between each fact's two halves."""

from __future__ import annotations

import math
import os

import matplotlib

matplotlib.use("Agg")  # files only: no display on a server or a worker
import matplotlib.pyplot as plt  # noqa: E402


def plot_grid(report: dict, path: str | os.PathLike) -> None:
    """Write report's (engine.evaluation.needle.run_grid) accuracy heat maps to path (PNG)."""
    summary = report["summary"]
    joins = report.get("hops") == 2  # reports before join mode have no hops
    lengths = report["lengths"]
    columns = report["distances"] if joins else report["depths"]
    cells_key, xlabel = ("distance_cells", "distance between the halves") if joins else ("cells", "fact depth")
    names = list(summary)
    fig, axes = plt.subplots(1, len(names), figsize=(3.2 * len(names) + 1, 0.6 * len(lengths) + 2), squeeze=False)
    image = None
    for column, (ax, name) in enumerate(zip(axes[0], names)):
        cells = summary[name][cells_key]
        # A grid stopped early has no cells for the lengths it did not reach: left blank.
        grid = [[cells.get(f"{n}@{d}", math.nan) * 100 for d in columns] for n in lengths]
        image = ax.imshow(grid, vmin=0, vmax=100, cmap="RdYlGn", aspect="auto")
        for i, row in enumerate(grid):
            for j, value in enumerate(row):
                ax.text(j, i, "-" if math.isnan(value) else f"{value:.0f}", ha="center", va="center", fontsize=8)
        ax.set_xticks(range(len(columns)), [f"{d:.0%}" for d in columns])
        # Lengths are labelled once, on the left: beside a neighbour's cells they read as its own.
        ax.set_yticks(range(len(lengths)), [f"{n:,}" for n in lengths] if column == 0 else [])
        recall = summary[name]["recall"]
        subtitle = f"acc {summary[name]['accuracy']:.0%}" + ("" if recall is None else f", recall {recall:.2f}")
        ax.set_title(f"{name}\n{subtitle}", fontsize=8)
        ax.set_xlabel(xlabel)
    axes[0][0].set_ylabel("prompt tokens")
    fig.colorbar(image, ax=axes[0].tolist(), label="% facts found", shrink=0.8)
    distractors = report.get("distractors_per_prompt") or 0  # reports before distractors have none
    kind = f"joins from {report['depths'][0]:.0%} depth" if joins else "grid"
    title = (f"Needle {kind}: {report['model']}, {report['facts_per_cell']} facts a cell"
             f"{f', {distractors} distractors a prompt' if distractors else ''}, {report['date']}")
    fig.suptitle(title, fontsize=9, y=1.06)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
