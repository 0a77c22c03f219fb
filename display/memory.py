"""The tablekeeper process keeps the memory it frees, for the next photo.

Naming a photo's cards makes and drops a few hundred arrays, some of them megabytes: half a
million candidate pairs of features and their descriptors, the outline search's gradients and
edge maps, copies of the photo. In the main thread glibc's allocator hands large freed blocks
back to the kernel (blocks above its mmap threshold, and free memory at the top of the heap
above its trim threshold), so the next photo faults the same pages in again: on the Pi's stack
(numpy 1.24, OpenCV 4.11) ~3,500 page faults and ~11 ms of system time a photo. The appliance
names photos in its worker thread, whose arena mostly kept them already; ``tablekeeper bench``
and ``tablekeeper vision identify`` name them in the main thread. Kept, the main thread's
faults fall to ~90 a photo and its CPU time a photo ~5-8 %, to what the worker thread spent
(timed photo by photo, main thread and worker thread, with and without: 8 and 6 rounds of the
30 profile photos, on both stacks). The process then holds ~30 MB more between photos; its peak
does not grow.

The ``tablekeeper`` command asks for this once, at start (:func:`display.cli.main`).
"""

from __future__ import annotations

import ctypes
import sys

# glibc's mallopt parameters (malloc.h).
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
# Blocks up to this size come from the heap and are kept when freed: every array of a photo's
# naming (the largest, ~15 MB, are the candidate pairs' descriptors; a 12-megapixel camera
# frame is ~37 MB). By default glibc's threshold follows the largest block freed so far, up to
# 32 MB, and gives back free memory at the heap's top beyond twice the threshold: less than a
# photo's arrays take together.
KEEP_BLOCKS_UP_TO = 64 << 20
# Free memory at the heap's top is given back only beyond this much.
KEEP_FREE_UP_TO = 256 << 20


def keep_freed_memory() -> bool:
    """Ask the C library to keep freed memory for reuse (see the module's notes). True when
    it agreed; False, with nothing changed, where the C library is not glibc."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None)  # the C library this process already runs on
        libc.gnu_get_libc_version  # noqa: B018 - only glibc has it (musl's mallopt does nothing)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, KEEP_BLOCKS_UP_TO)) and bool(
        mallopt(_M_TRIM_THRESHOLD, KEEP_FREE_UP_TO)
    )
