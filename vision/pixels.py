"""The largest picture any reader decodes, and OpenCV told so before it loads.

OpenCV's decoders allocate the whole picture as soon as they have read its header: a 36-byte
WebP claiming 16383 x 16383, or a 900 KB TIFF claiming 30000 x 30000, asks for gigabytes, the
Pi's OOM killer. OpenCV checks width x height against ``OPENCV_IO_MAX_IMAGE_PIXELS`` after the
header and before allocating, whatever the format (then ``cv2.imread``/``imdecode`` raise
``cv2.error``), but it reads that variable once, when the library loads: this module sets it at
import, and ``vision/__init__.py`` imports it before any module that imports cv2.
(``device.frames`` holds the same limit for the camera side, and a header check.)
"""

from __future__ import annotations

import os

#: 40 megapixels: a camera module gives 12, a phone's full-resolution mode up to ~50 (taken
#: at 12 by default). Decoded as BGR that is 120 MB, and the pipeline's copies keep the whole
#: run under 400 MB (``tablekeeper check faults`` measures it).
MAX_IMAGE_PIXELS = 40_000_000

ENVIRONMENT_VARIABLE = "OPENCV_IO_MAX_IMAGE_PIXELS"


def limit_opencv(environ: os._Environ[str] | dict[str, str] | None = None) -> int:
    """Set ``OPENCV_IO_MAX_IMAGE_PIXELS`` to our limit (or keep a lower one already set);
    returns the limit in force. Must run before ``import cv2`` to take effect."""
    env = os.environ if environ is None else environ
    try:
        current = int(env.get(ENVIRONMENT_VARIABLE, "") or MAX_IMAGE_PIXELS)
    except ValueError:
        current = MAX_IMAGE_PIXELS
    limit = min(current, MAX_IMAGE_PIXELS) if current > 0 else MAX_IMAGE_PIXELS
    env[ENVIRONMENT_VARIABLE] = str(limit)
    return limit


limit_opencv()
