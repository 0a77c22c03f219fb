"""``tablekeeper bench vision``: recognition accuracy, lighting and speed, printed as tables.

:mod:`vision.bench.main` chooses the tables; :mod:`~vision.bench.accuracy` (real photos,
generated scenes, held-out cards), :mod:`~vision.bench.lighting` (the lighting suite) and
:mod:`~vision.bench.profile` (time per step) print them; :mod:`~vision.bench.scoring` scores
one photo's answer against the truth.
"""

from vision.bench.main import Modes, run_benchmark
from vision.bench.scoring import BenchError

__all__ = ["BenchError", "Modes", "run_benchmark"]
