#!/usr/bin/env python3
"""gen-codepages.py — make the code page tables from Python's own codecs.

Writes readers/common/codepage_tables.c (the tables lt_codepage_decode uses)
and tests/unit/codepage_expect.inc (what the unit test expects, computed
straight from the codecs, not from the tables).  Both are committed; run this
by hand after changing the list of code pages, never at build time:

    python3 scripts/gen-codepages.py

Decoding follows the dBASE oracle (shared/corpus/dbf/make-oracle.py): a byte
a single-byte code page leaves undefined decodes to the code point equal to
its value; each invalid or truncated sequence of a multi-byte code page or of
UTF-8 decodes to one U+FFFD, with the error ranges Python's decoders report.

Slots: every table entry is three bytes of UTF-8, padded with spaces; a
multi-byte table marks "no character" with "~~~".  The C source is UTF-8
(printable letters are written as themselves so the tables can be read);
controls, marks, spaces, private-use and right-to-left characters are
written as escapes.
"""
import codecs
import os
import random
import sys
import unicodedata

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
TABLES = os.path.join(ROOT, 'readers', 'common', 'codepage_tables.c')
EXPECT = os.path.join(ROOT, 'tests', 'unit', 'codepage_expect.inc')

SINGLE = [
    (437, 'cp437'), (737, 'cp737'), (775, 'cp775'), (850, 'cp850'), (852, 'cp852'),
    (855, 'cp855'), (857, 'cp857'), (858, 'cp858'), (860, 'cp860'), (861, 'cp861'),
    (862, 'cp862'), (863, 'cp863'), (864, 'cp864'), (865, 'cp865'), (866, 'cp866'),
    (869, 'cp869'), (874, 'cp874'),
    (1250, 'cp1250'), (1251, 'cp1251'), (1252, 'cp1252'), (1253, 'cp1253'),
    (1254, 'cp1254'), (1255, 'cp1255'), (1256, 'cp1256'), (1257, 'cp1257'),
    (1258, 'cp1258'),
    (10000, 'mac_roman'), (10006, 'mac_greek'), (10007, 'mac_cyrillic'),
    (10029, 'mac_latin2'),
    (20866, 'koi8_r'), (21866, 'koi8_u'),
    (28591, 'latin_1'), (28592, 'iso8859_2'), (28593, 'iso8859_3'),
    (28594, 'iso8859_4'), (28595, 'iso8859_5'), (28596, 'iso8859_6'),
    (28597, 'iso8859_7'), (28598, 'iso8859_8'), (28599, 'iso8859_9'),
    (28603, 'iso8859_13'), (28605, 'iso8859_15'),
]
MULTI = [(932, 'cp932'), (936, 'gbk'), (949, 'cp949'), (950, 'cp950')]
UTF8 = 65001

SLOT = 3
NO_CHAR = '~~~'
RTL = {'R', 'AL', 'AN', 'RLE', 'RLO', 'LRE', 'LRO', 'PDF', 'RLI', 'LRI', 'FSI', 'PDI'}


def lector_errors(exc):
    """The oracle's error handler: U+FFFD per error range in multi-byte
    code pages and UTF-8, the byte's own value in single-byte ones."""
    if isinstance(exc.object, bytes) and exc.encoding.replace('-', '').replace('_', '') in (
            'cp932', 'gbk', 'cp949', 'cp950', 'utf8'):
        return '\ufffd', exc.end
    return ''.join(chr(b) for b in exc.object[exc.start:exc.end]), exc.end


codecs.register_error('lector', lector_errors)


def decode(name, data):
    return data.decode(name, 'lector')


# ---- C literal text -------------------------------------------------------

def plain(ch):
    """True when `ch` may stand in the C source as itself."""
    c = ord(ch)
    if c < 0x80:
        return 0x20 <= c < 0x7F and ch not in '"\\?'
    return (unicodedata.category(ch)[0] not in 'CZM'
            and unicodedata.bidirectional(ch) not in RTL)


def tokens(text):
    """`text` as (source text, is_hex_escape) pieces."""
    out = []
    for ch in text:
        if plain(ch):
            out.append((ch, False))
        else:
            out.extend(('\\x%02X' % b, True) for b in ch.encode('utf-8'))
    return out


def literal(pieces):
    """Join pieces into one "..." literal, splitting it where a hex escape
    would swallow a following hex digit."""
    s, prev_hex = '"', False
    for text, is_hex in pieces:
        if prev_hex and not is_hex and text[0] in '0123456789abcdefABCDEF':
            s += '" "'
        s += text
        prev_hex = is_hex
    return s + '"'


def slot(ch):
    """Pieces of one three-byte slot holding `ch` (None: no character)."""
    if ch is None:
        return [(NO_CHAR, False)]
    n = len(ch.encode('utf-8'))
    assert n <= SLOT, ch
    return tokens(ch) + [(' ' * (SLOT - n), False)] if n < SLOT else tokens(ch)


def slot_lines(chars, first, indent, per_line=16):
    """Slots of `chars` (code of chars[0] is `first`) as literal lines, a
    line ending at each multiple of `per_line`."""
    lines, cur = [], []
    for i, ch in enumerate(chars):
        cur.extend(slot(ch))
        if (first + i) % per_line == per_line - 1 or i == len(chars) - 1:
            lines.append(indent + literal(cur))
            cur = []
    return lines


# ---- single-byte code pages -----------------------------------------------

def single_page(cp, name):
    chars = [decode(name, bytes([b])) for b in range(256)]
    assert all(len(c) == 1 for c in chars), name
    low_ascii = all(chars[b] == chr(b) for b in range(128))
    return chars, low_ascii


def emit_single(out, cp, name):
    chars, low_ascii = single_page(cp, name)
    out.append('/* %d: Python %s */' % (cp, name))
    out.append('static const char cp%d_high[] =' % cp)
    out.extend(slot_lines(chars[128:], 128, '    '))
    out[-1] += ';'
    if not low_ascii:
        out.append('static const char cp%d_low[] =' % cp)
        out.extend(slot_lines(chars[:128], 0, '    '))
        out[-1] += ';'
    out.append('static const lt_cp_single cp%d_page = {cp%d_high, %s};'
               % (cp, cp, 'lt_cp_ascii' if low_ascii else 'cp%d_low' % cp))
    out.append('')


# ---- double-byte code pages -----------------------------------------------

def strict(name, data):
    try:
        return data.decode(name)
    except UnicodeDecodeError:
        return None


def multi_page(name):
    """(single, rows): single[b - 0x80] is the character of byte b alone or
    None; rows[lead - 0x80] is (first, chars) or None."""
    single = []
    for b in range(0x80, 0x100):
        s = strict(name, bytes([b]))
        single.append(s)
    assert all(strict(name, bytes([b])) == chr(b) for b in range(0x80)), name
    rows = []
    for lead in range(0x80, 0x100):
        pairs = {}
        for t in range(256):
            s = strict(name, bytes([lead, t]))
            if s is not None and len(s) == 1:
                pairs[t] = s
        if not pairs:
            rows.append(None)
            continue
        assert single[lead - 0x80] is None, 'byte 0x%02X is both lead and single in %s' % (lead, name)
        first, last = min(pairs), max(pairs)
        rows.append((first, [pairs.get(t) for t in range(first, last + 1)]))
    return single, rows


def model_decode(single, rows, data):
    """What codepage.c does; checked against Python below."""
    out, i = [], 0
    while i < len(data):
        b = data[i]
        if b < 0x80:
            out.append(chr(b))
            i += 1
            continue
        row = rows[b - 0x80]
        if row and i + 1 < len(data):
            first, chars = row
            k = data[i + 1] - first
            if 0 <= k < len(chars) and chars[k] is not None:
                out.append(chars[k])
                i += 2
                continue
        out.append(single[b - 0x80] or '\ufffd')
        i += 1
    return ''.join(out)


def check_model(name, single, rows, rng):
    leads = [0x80 + i for i, r in enumerate(rows) if r]
    for _ in range(20000):
        data = bytes(rng.choice(leads) if rng.random() < 0.4 else rng.randrange(256)
                     for _ in range(rng.randrange(1, 9)))
        want = decode(name, data)
        got = model_decode(single, rows, data)
        assert got == want, (name, data, got, want)


def emit_multi(out, cp, name, single, rows):
    out.append('/* %d: Python %s */' % (cp, name))
    out.append('static const char cp%d_single[] =' % cp)
    out.extend(slot_lines(single, 0x80, '    '))
    out[-1] += ';'
    out.append('')
    out.append('static const lt_cp_row cp%d_rows[128] = {' % cp)
    for i, row in enumerate(rows):
        lead = 0x80 + i
        if row is None:
            out.append('    /* 0x%02X */ {0, 0, NULL},' % lead)
            continue
        first, chars = row
        out.append('    /* 0x%02X */ {0x%02X, 0x%02X,' % (lead, first, first + len(chars) - 1))
        out.extend(slot_lines(chars, first, '        ', 32))
        out[-1] += '},'
    out.append('};')
    out.append('static const lt_cp_multi cp%d_page = {cp%d_single, cp%d_rows};' % (cp, cp, cp))
    out.append('')


def hash_size(cps):
    """The smallest table size where `cp % size` tells every page apart."""
    size = len(cps)
    while len({cp % size for cp in cps}) < len(cps):
        size += 1
    return size


def write_tables(multi):
    cps = [cp for cp, _ in SINGLE + MULTI]
    size = hash_size(cps)
    out = ['/*',
           '** codepage_tables.c — GENERATED by scripts/gen-codepages.py from the codecs',
           '** of Python %d.%d; do not edit.  Run the script again to change it.' % sys.version_info[:2],
           '**',
           '** Each table holds UTF-8, three bytes a slot, padded with spaces (see',
           '** codepage_tables.h); "~~~" marks byte pairs that are no character.  This',
           '** source is UTF-8 (MSVC needs /utf-8).',
           '*/',
           '#include "codepage_tables.h"',
           '',
           'const char lt_cp_ascii[] =']
    out.extend(slot_lines([chr(b) for b in range(128)], 0, '    '))
    out[-1] += ';'
    out.append('')
    for cp, name in SINGLE:
        emit_single(out, cp, name)
    for cp, name in MULTI:
        emit_multi(out, cp, name, *multi[cp])
    kinds = dict([(cp, 'single') for cp, _ in SINGLE] + [(cp, 'multi') for cp, _ in MULTI])
    out.append('/* Every page at index cp %% %d, the smallest size where no two collide. */' % size)
    out.append('#define PAGES_SIZE %d' % size)
    out.append('static const lt_cp_page pages[PAGES_SIZE] = {')
    for cp in sorted(cps, key=lambda c: c % size):
        ref = '&cp%d_page' % cp
        out.append('    [%d] = {%d, %s, %s},' % (cp % size, cp, ref if kinds[cp] == 'single' else 'NULL',
                                               ref if kinds[cp] == 'multi' else 'NULL'))
    out.append('};')
    out.append('')
    out.append('const lt_cp_page *lt_cp_find(int cp)')
    out.append('{')
    out.append('    const lt_cp_page *page = &pages[(unsigned)cp % PAGES_SIZE];')
    out.append('    return cp != 0 && page->cp == cp ? page : NULL;')
    out.append('}')
    with open(TABLES, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out) + '\n')


# ---- the test's expectations ----------------------------------------------

def bytes_literal(data):
    return '"' + ''.join('\\x%02X' % b for b in data) + '"'


def multi_samples(cp, name, single, rows, rng):
    """Byte strings worth checking in a double-byte code page."""
    valid = [(0x80 + i, row[0] + k) for i, row in enumerate(rows) if row
             for k, ch in enumerate(row[1]) if ch is not None]
    samples = []
    # The first and last pair of every lead, then a random sample, 16 a string.
    edges = []
    for i, row in enumerate(rows):
        if row:
            ks = [k for k, ch in enumerate(row[1]) if ch is not None]
            edges += [(0x80 + i, row[0] + ks[0]), (0x80 + i, row[0] + ks[-1])]
    pairs = edges + rng.sample(valid, 256)
    for j in range(0, len(pairs), 16):
        samples.append(b''.join(bytes(p) for p in pairs[j:j + 16]))
    # Every byte 0x80..0xFF alone (a lead byte alone is truncated), and after
    # ASCII text.
    samples += [bytes([b]) for b in range(0x80, 0x100)]
    samples += [b'abc' + bytes([b]) for b in range(0x80, 0x100, 7)]
    # Lead bytes with trail bytes that make no character.
    leads = [0x80 + i for i, r in enumerate(rows) if r]
    bad = [(l, t) for l in leads for t in range(256)
           if decode(name, bytes([l, t])).startswith('\ufffd')]
    samples += [bytes(p) + b'x' for p in rng.sample(bad, 48)]
    # Random mixtures, long enough to cross the 8-byte ASCII steps.
    for _ in range(40):
        n = rng.randrange(2, 40)
        samples.append(bytes(rng.choice(leads) if rng.random() < 0.3 else
                             rng.randrange(0x20, 0x7F) if rng.random() < 0.5 else
                             rng.randrange(256) for _ in range(n)))
    return samples


UTF8_SAMPLES = [
    b'plain ASCII text, longer than eight bytes',
    'é ü ß € 中文 😀 𐍈'.encode('utf-8'),
    b'\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf\xf0\x90\x80\x80\xf4\x8f\xbf\xbf',
    b'\xc0\x80', b'\xc1\xbf', b'\xe0\x80\x80', b'\xe0\x9f\xbf', b'\xf0\x80\x80\x80',
    b'\xf0\x8f\xbf\xbf', b'\xed\xa0\x80', b'\xed\xbf\xbf', b'\xed\x9f\xbf',
    b'\xf4\x90\x80\x80', b'\xf5\x80\x80\x80', b'\xf8\x88\x80\x80\x80', b'\xfe\xff',
    b'\x80', b'\xbf\x80abc', b'a\xe2\x82', b'a\xe2\x82b', b'\xe2\x82\xe2\x82\xac',
    b'\xf0\x9f\x98', b'\xf0\x9f\x98a', b'\xf0\x9f', b'\xf0', b'\xc3', b'\xc3a', b'\xc3\xc3\xa9',
    b'12345678\xc3\xa912345678\xff12345678',
]


def utf8_samples(rng):
    samples = list(UTF8_SAMPLES)
    alphabet = 'aZ09 é€中😀'
    for _ in range(120):
        text = ''.join(rng.choice(alphabet) for _ in range(rng.randrange(1, 12))).encode('utf-8')
        data = bytearray(text)
        for _ in range(rng.randrange(0, 3)):
            data[rng.randrange(len(data))] = rng.randrange(0x80, 0x100)
        if rng.random() < 0.3:
            data = data[:rng.randrange(1, len(data) + 1)]
        samples.append(bytes(data))
    return samples


def write_expect(multi, rng):
    out = ['/*',
           '** codepage_expect.inc — GENERATED by scripts/gen-codepages.py from the codecs',
           '** of Python %d.%d; do not edit.  What test_common_codepage.c expects,' % sys.version_info[:2],
           '** computed from the codecs and not from readers/common/codepage_tables.c.',
           '*/',
           '',
           '/* Single-byte code pages: the code point of each byte 0x80..0xFF, and of',
           '** 0x00..0x7F where that is not ASCII. */']
    for cp, name in SINGLE:
        chars, low_ascii = single_page(cp, name)
        if not low_ascii:
            out.append('static const uint16_t cp%d_low[128] = {' % cp)
            for j in range(0, 128, 16):
                out.append('    ' + ' '.join('0x%04X,' % ord(c) for c in chars[j:j + 16]))
            out.append('};')
    out.append('static const struct expect_single {')
    out.append('    int cp;')
    out.append('    const uint16_t *low;     /* NULL: ASCII */')
    out.append('    uint16_t high[128];')
    out.append('} expect_single[] = {')
    for cp, name in SINGLE:
        chars, low_ascii = single_page(cp, name)
        out.append('    {%d, %s, {' % (cp, 'NULL' if low_ascii else 'cp%d_low' % cp))
        for j in range(128, 256, 16):
            out.append('        ' + ' '.join('0x%04X,' % ord(c) for c in chars[j:j + 16]))
        out.append('    }},')
    out.append('};')
    out.append('')
    out.append('/* Byte strings of multi-byte code pages and UTF-8, and their UTF-8. */')
    out.append('static const struct expect_case {')
    out.append('    int cp;')
    out.append('    size_t in_len;')
    out.append('    const char *in;')
    out.append('    size_t out_len;')
    out.append('    const char *out;')
    out.append('} expect_cases[] = {')
    cases = []
    for cp, name in MULTI:
        cases += [(cp, s, decode(name, s)) for s in multi_samples(cp, name, *multi[cp], rng)]
    cases += [(UTF8, s, decode('utf-8', s)) for s in utf8_samples(rng)]
    for cp, data, text in cases:
        out.append('    {%d, %d, %s, %d, %s},' % (cp, len(data), bytes_literal(data),
                                                 len(text.encode('utf-8')), literal(tokens(text))))
    out.append('};')
    with open(EXPECT, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out) + '\n')


def main():
    rng = random.Random(20240601)
    multi = {}
    for cp, name in MULTI:
        single, rows = multi_page(name)
        check_model(name, single, rows, rng)
        multi[cp] = (single, rows)
    write_tables(multi)
    write_expect(multi, rng)
    for path in (TABLES, EXPECT):
        print('%s: %d bytes' % (os.path.relpath(path, ROOT), os.path.getsize(path)))


if __name__ == '__main__':
    main()
