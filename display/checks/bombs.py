"""Image bombs for ``tablekeeper check faults`` and the tests: small files whose headers claim
pictures far too large to decode on a Pi (each would need gigabytes as pixels). They are
built in memory by hand, never by encoding the huge picture."""

from __future__ import annotations

import struct
import zlib

import cv2
import numpy as np


def tiff_bomb(side: int = 30000) -> bytes:
    """A deflate-compressed grey TIFF of ``side`` x ``side`` pixels, all black (~1 KB a
    thousand rows: the strips are a few bytes each)."""
    row_block = 512  # rows a strip
    strips = (side + row_block - 1) // row_block
    one_strip = zlib.compress(b"\0" * side * row_block, 9)
    last_rows = side - row_block * (strips - 1)
    last_strip = zlib.compress(b"\0" * side * last_rows, 9)
    entries = [
        (256, 4, 1, side),  # ImageWidth (LONG)
        (257, 4, 1, side),  # ImageLength
        (258, 3, 1, 8),  # BitsPerSample
        (259, 3, 1, 8),  # Compression: deflate
        (262, 3, 1, 1),  # Photometric: black is zero
        (273, 4, strips, 0),  # StripOffsets (patched below)
        (277, 3, 1, 1),  # SamplesPerPixel
        (278, 4, 1, row_block),  # RowsPerStrip
        (279, 4, strips, 0),  # StripByteCounts (patched below)
    ]
    ifd_at = 8
    ifd_size = 2 + 12 * len(entries) + 4
    offsets_at = ifd_at + ifd_size
    counts_at = offsets_at + 4 * strips
    data_at = counts_at + 4 * strips
    sizes = [len(one_strip)] * (strips - 1) + [len(last_strip)]
    offsets = []
    position = data_at
    for size in sizes:
        offsets.append(position)
        position += size
    out = bytearray(b"II*\0" + struct.pack("<I", ifd_at))
    out += struct.pack("<H", len(entries))
    for tag, kind, count, value in entries:
        if tag == 273:
            value = offsets_at
        elif tag == 279:
            value = counts_at
        if kind == 3 and count == 1:
            out += struct.pack("<HHIHH", tag, kind, count, value, 0)
        else:
            out += struct.pack("<HHII", tag, kind, count, value)
    out += struct.pack("<I", 0)
    out += struct.pack(f"<{strips}I", *offsets)
    out += struct.pack(f"<{strips}I", *sizes)
    out += one_strip * (strips - 1) + last_strip
    return bytes(out)


def jpeg_bomb(side: int = 30000, padding: int = 128 * 1024) -> bytes:
    """A small JPEG whose frame header (claiming ``side`` x ``side``) sits behind ``padding``
    bytes of APP segments, past where a header check that reads only the start would look."""
    ok, encoded = cv2.imencode(".jpg", np.full((16, 16, 3), 128, np.uint8))
    assert ok
    data = bytearray(encoded.tobytes())
    for marker in (0xC0, 0xC1, 0xC2):
        at = data.find(bytes([0xFF, marker]))
        if at > 0:
            data[at + 5 : at + 9] = struct.pack(">HH", side, side)
            break
    apps = bytearray()
    chunk = 65533  # an APP segment's largest body
    while len(apps) < padding:
        body = b"Tablekeeper" + b"\0" * (chunk - 11)
        apps += b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body
    return bytes(data[:2] + apps + data[2:])


def webp_bomb(side: int = 16383) -> bytes:
    """A lossless WebP (VP8L) of ``side`` x ``side`` (16383, the format's largest) in one
    colour: its pixels compress to a few bytes."""
    # A VP8L stream: signature, 14-bit width-1 and height-1, no alpha, version 0; then no
    # transforms, no colour cache, no meta codes, and five simple one-symbol Huffman codes
    # (green, red, blue, alpha, distance): every pixel is the same, decoded from zero bits.
    bits: list[tuple[int, int]] = [(side - 1, 14), (side - 1, 14), (0, 1), (0, 3)]
    bits += [(0, 1), (0, 1), (0, 1)]  # no transform, no colour cache, no meta prefix codes
    for _ in range(5):  # simple code, one symbol, 1-bit symbol, symbol 0
        bits += [(1, 1), (0, 1), (0, 1), (0, 1)]
    value, count = 0, 0
    for field, width in bits:
        value |= field << count
        count += width
    stream = b"\x2f" + value.to_bytes((count + 7) // 8, "little") + b"\0" * 8
    chunk = b"VP8L" + struct.pack("<I", len(stream)) + stream
    if len(stream) % 2:
        chunk += b"\0"
    return b"RIFF" + struct.pack("<I", 4 + len(chunk)) + b"WEBP" + chunk


def png_bomb(side: int = 30000) -> bytes:
    """A PNG header claiming ``side`` x ``side`` (the case the old header check already held)."""
    header = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    ihdr = b"IHDR" + header
    chunk = struct.pack(">I", len(header)) + ihdr + struct.pack(">I", zlib.crc32(ihdr))
    idat_body = zlib.compress(b"\0" * (side + 1) * 64)
    idat = b"IDAT" + idat_body
    idat_chunk = struct.pack(">I", len(idat_body)) + idat + struct.pack(">I", zlib.crc32(idat))
    end = struct.pack(">I", 0) + b"IEND" + struct.pack(">I", zlib.crc32(b"IEND"))
    return b"\x89PNG\r\n\x1a\n" + chunk + idat_chunk + end


BOMBS = {
    "tiff": ("30000 x 30000 TIFF", tiff_bomb, ".tif"),
    "jpeg": ("30000 x 30000 JPEG behind 128 KB of APP segments", jpeg_bomb, ".jpg"),
    "webp": ("16383 x 16383 WebP", webp_bomb, ".webp"),
    "png": ("30000 x 30000 PNG", png_bomb, ".png"),
}
