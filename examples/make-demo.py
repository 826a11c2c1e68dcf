#!/usr/bin/env python3
"""Write demo.dbf: a small dBASE III table for the README's demo query.

Standard library only; deterministic.  Run: python3 make-demo.py
"""
import struct

FIELDS = [  # name, type, width, decimals
    (b'ID', b'N', 5, 0),
    (b'CITY', b'C', 20, 0),
    (b'COUNTRY', b'C', 16, 0),
    (b'POP_K', b'N', 8, 1),
    (b'FOUNDED', b'D', 8, 0),
    (b'CAPITAL', b'L', 1, 0),
]
ROWS = [
    (1, 'Lisboa', 'Portugal', 545.8, '11470101', 'T'),
    (2, 'Porto', 'Portugal', 231.8, '', 'F'),
    (3, 'Zürich', 'Switzerland', 421.9, '', 'F'),
    (4, 'Bern', 'Switzerland', 134.6, '11910101', 'T'),
    (5, 'Kraków', 'Poland', 804.2, '', 'F'),
]


def main():
    reclen = 1 + sum(f[2] for f in FIELDS)
    hdrlen = 32 + 32 * len(FIELDS) + 1
    out = bytearray()
    out += struct.pack('<BBBBIHH20x', 0x03, 124, 1, 1, len(ROWS), hdrlen, reclen)
    out[29] = 0x57  # language driver: ANSI (cp1252)
    for name, typ, width, dec in FIELDS:
        out += struct.pack('<11sc4xBB14x', name, typ, width, dec)
    out += b'\r'
    for row in ROWS:
        rec = b' '
        for (name, typ, width, dec), value in zip(FIELDS, row):
            if typ == b'N':
                text = ('%*.*f' % (width, dec, value)).encode()
            elif typ == b'C':
                text = value.encode('cp1252').ljust(width)
            else:
                text = value.encode().ljust(width)
            rec += text
        out += rec
    out += b'\x1a'
    with open('demo.dbf', 'wb') as f:
        f.write(out)


if __name__ == '__main__':
    main()
