#!/usr/bin/python3
"""Write the workbook pyodbc's upstream Excel tests read (its test.xls):
a BIFF8 .xls in a compound file, built byte by byte so that it is the same
on every machine and needs nothing but Python.

Layout, as in pyodbc's tests2/test.xls:
  sheet "Read Data": two lines of text, then num/val headers in A3:B3 and
  1..10 / 'a'..'j' in A4:B13; the workbook-level name Table1 covers A3:B13.
  sheet "Sheet2": s2num/s2val headers, then 10..50 / abc..mno.
Usage: make_excel_fixture.py OUT.xls
"""
import struct
import sys


def record(rtype, data=b""):
    return struct.pack("<HH", rtype, len(data)) + data


def bof(kind):
    # BIFF8, build/year of Excel 97, no history flags, lowest version 6.
    return record(0x0809, struct.pack("<HHHHII", 0x0600, kind, 0x0DBB, 0x07CC, 0, 6))


def short_unicode(text):
    # ShortXLUnicodeString, compressed (every character here is Latin-1).
    raw = text.encode("latin-1")
    return struct.pack("<BB", len(raw), 0) + raw


def label(row, col, text):
    raw = text.encode("latin-1")
    return record(0x0204, struct.pack("<HHHHB", row, col, 0, len(raw), 0) + raw)


def number(row, col, value):
    return record(0x0203, struct.pack("<HHHd", row, col, 0, float(value)))


def sheet(cells):
    rows = max(r for r, _, _ in cells) + 1
    cols = max(c for _, c, _ in cells) + 1
    body = bof(0x0010) + record(0x0200, struct.pack("<IIHHH", 0, rows, 0, cols, 0))
    for r, c, v in cells:
        body += label(r, c, v) if isinstance(v, str) else number(r, c, v)
    return body + record(0x000A)


def workbook():
    read_data = [(0, 0, "The values below are named 'Table1'"),
                 (1, 0, "(In Excel 2007, use Data | Name Manager)"),
                 (2, 0, "num"), (2, 1, "val")]
    read_data += [(3 + i, 0, i + 1) for i in range(10)]
    read_data += [(3 + i, 1, chr(ord("a") + i)) for i in range(10)]
    sheet2 = [(0, 0, "s2num"), (0, 1, "s2val")]
    for i, v in enumerate(["abc", "def", "ghi", "jkl", "mno"]):
        sheet2 += [(1 + i, 0, (i + 1) * 10), (1 + i, 1, v)]
    sheets = [("Read Data", sheet(read_data)), ("Sheet2", sheet(sheet2))]

    def globals_(offsets):
        g = bof(0x0005) + record(0x0042, struct.pack("<H", 1200))
        for (name, _), off in zip(sheets, offsets):
            g += record(0x0085, struct.pack("<IBB", off, 0, 0) + short_unicode(name))
        g += record(0x01AE, struct.pack("<HH", len(sheets), 0x0401))   # SUPBOOK: this workbook
        g += record(0x0017, struct.pack("<HHHH", 1, 0, 0, 0))          # EXTERNSHEET: sheet 0
        # NAME Table1 = ptgArea3d on XTI 0, rows 3..13, columns A..B (0-based).
        rgce = struct.pack("<BHHHHH", 0x3B, 0, 2, 12, 0, 1)
        name = b"Table1"
        g += record(0x0018, struct.pack("<HBBHHHBBBB", 0, 0, len(name), len(rgce), 0, 0, 0, 0, 0, 0)
                    + b"\x00" + name + rgce)
        return g + record(0x000A)

    size = len(globals_([0] * len(sheets)))
    offsets = []
    for _, body in sheets:
        offsets.append(size)
        size += len(body)
    return globals_(offsets) + b"".join(body for _, body in sheets)


def compound_file(stream_name, stream):
    """A version-3 compound file holding one stream below the 4096-byte
    cutoff, so in the mini stream.  Sectors: 0 FAT, 1 directory, 2 mini FAT,
    3.. the mini stream's container."""
    assert len(stream) < 4096
    END, FREE, FATSECT, NOSTREAM = 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFD, 0xFFFFFFFF
    mini_sectors = (len(stream) + 63) // 64
    mini = stream.ljust(mini_sectors * 64, b"\0")
    container = mini.ljust((len(mini) + 511) // 512 * 512, b"\0")
    nsect = len(container) // 512

    header = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1" + b"\0" * 16
    header += struct.pack("<HHHHH", 0x003E, 0x0003, 0xFFFE, 9, 6) + b"\0" * 6
    header += struct.pack("<IIIIIIIII", 0, 1, 1, 0, 4096, 2, 1, END, 0)
    header += struct.pack("<I", 0) + struct.pack("<I", FREE) * 108

    fat = [FATSECT, END, END] + [3 + i + 1 for i in range(nsect - 1)] + [END]
    fat_sector = struct.pack("<128I", *(fat + [FREE] * (128 - len(fat))))
    minifat = [i + 1 for i in range(mini_sectors - 1)] + [END]
    minifat_sector = struct.pack("<128I", *(minifat + [FREE] * (128 - len(minifat))))

    def entry(name, kind, child, start, size):
        raw = name.encode("utf-16-le") + b"\0\0" if name else b""
        return (raw.ljust(64, b"\0") + struct.pack("<HBB", len(raw), kind, 1 if kind else 0)
                + struct.pack("<III", NOSTREAM, NOSTREAM, child) + b"\0" * 16
                + struct.pack("<I", 0) + b"\0" * 16 + struct.pack("<IQ", start, size))

    directory = (entry("Root Entry", 5, 1, 3, len(mini))
                 + entry(stream_name, 2, NOSTREAM, 0, len(stream))
                 + entry("", 0, NOSTREAM, 0, 0) * 2)
    return header + fat_sector + directory + minifat_sector + container


if __name__ == "__main__":
    with open(sys.argv[1], "wb") as out:
        out.write(compound_file("Workbook", workbook()))
