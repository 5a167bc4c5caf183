#!/usr/bin/env python3
# png-check.py FILE MIN_BYTES - a PNG with real content: a valid 8-bit RGB/RGBA image of at
# least MIN_BYTES, whose pixels are not one flat colour (at least 16 distinct colours, and at
# least 2 % of the pixels differ from the most common one). Exit 0 ok, 1 with the reason.
import struct
import sys
import zlib


def fail(why):
    print(f"png-check: {sys.argv[1]}: {why}", file=sys.stderr)
    sys.exit(1)


def main():
    path, min_bytes = sys.argv[1], int(sys.argv[2])
    data = open(path, "rb").read()
    if len(data) < min_bytes:
        fail(f"{len(data)} bytes, expected at least {min_bytes}")
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("not a PNG")
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if not hdr:
        fail("no IHDR")
    w, h, depth, ctype = hdr[:4]
    if depth != 8 or ctype not in (2, 6):
        fail(f"unexpected format depth {depth} colour type {ctype}")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    counts = {}
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        if y % 4 == 0:  # every fourth line is plenty
            for x in range(0, stride, bpp * 2):
                px = bytes(line[x:x + 3])
                counts[px] = counts.get(px, 0) + 1
        prev = line
    total = sum(counts.values())
    top = max(counts.values())
    if len(counts) < 16 or (total - top) < total * 0.02:
        fail(f"blank: {len(counts)} colours, {100 * (total - top) / total:.1f} % off the background")
    print(f"png-check: {w}x{h}, {len(data)} bytes, {len(counts)} colours, "
          f"{100 * (total - top) / total:.1f} % off the background")


main()
