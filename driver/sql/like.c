/*
** like.c — the LIKE matcher: % any run of characters, _ one character,
** the escape character making the next pattern character literal.
**
** Characters are UTF-8 sequences; letters A-Z match a-z (ASCII only, as
** SQLite, Access and SQL Server's default collation do); every other
** character matches only itself.  Patterns without _ or escapes take a
** fast path (literal runs between %s, searched left to right).  The general
** matcher is iterative: on a mismatch after a %, it retries one character
** further (the classic wildcard backtrack), so it needs no memory and no
** recursion.
**
** Access's LIKE (sql_like_access, for Access sources) adds its own
** wildcards: * and ? beside % and _, # for one digit, and [...] lists of
** characters and ranges ([!...] for those not listed); it ignores case for
** every letter LCASE knows, not only ASCII.
*/
#include "collate.h"
#include "exec.h"

/* Bytes of the UTF-8 character starting at s[i] (1 for a stray byte). */
static size_t char_len(const char *s, size_t len, size_t i)
{
    unsigned char c = (unsigned char)s[i];
    size_t n = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (i + n > len)
        return 1;
    for (size_t k = 1; k < n; k++)
        if (((unsigned char)s[i + k] & 0xC0) != 0x80)
            return 1;
    return n;
}

static unsigned char fold(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/* Does the character at p[pi] (pn bytes) equal the one at s[si]? */
static bool same_char(const char *s, size_t slen, size_t si, const char *p, size_t pi,
                      size_t pn)
{
    if (char_len(s, slen, si) != pn)
        return false;
    if (pn == 1)
        return fold((unsigned char)s[si]) == fold((unsigned char)p[pi]);
    for (size_t k = 0; k < pn; k++)
        if (s[si + k] != p[pi + k])
            return false;
    return true;
}

static bool is_escape(const char *p, size_t plen, size_t pi, const char *esc, size_t esc_len)
{
    if (esc_len == 0 || pi + esc_len > plen)
        return false;
    for (size_t k = 0; k < esc_len; k++)
        if (p[pi + k] != esc[k])
            return false;
    return true;
}

/* Case-folded equality of n bytes. */
static bool same_bytes(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (fold((unsigned char)a[i]) != fold((unsigned char)b[i]))
            return false;
    return true;
}

/* Patterns made of literal runs and % only (the usual 'abc%', '%abc%'):
** the first run must start the text, the last end it, the others are found
** left to right; greedy leftmost search is exact for such patterns. */
static int like_runs(const char *s, size_t slen, const char *p, size_t plen)
{
    size_t si = 0, pi = 0;
    bool anchored = true;
    while (pi < plen) {
        if (p[pi] == '%') {
            anchored = false;
            pi++;
            continue;
        }
        size_t run = pi;
        while (run < plen && p[run] != '%')
            run++;
        size_t n = run - pi;
        bool last = run == plen;
        if (anchored) {
            if (slen - si < n || !same_bytes(s + si, p + pi, n))
                return 0;
            si += n;
        } else if (last) {
            /* the final run ends the text */
            if (slen - si < n || !same_bytes(s + slen - n, p + pi, n))
                return 0;
            si = slen;
        } else {
            size_t k = si;
            while (k + n <= slen && !same_bytes(s + k, p + pi, n))
                k++;
            if (k + n > slen)
                return 0;
            si = k + n;
        }
        pi = run;
        anchored = false;
    }
    return plen > 0 && p[plen - 1] == '%' ? 1 : si == slen;
}

static bool simple_pattern(const char *p, size_t plen, const char *esc, size_t esc_len)
{
    for (size_t i = 0; i < plen; i++)
        if (p[i] == '_' || (esc_len > 0 && p[i] == esc[0]))
            return false;
    return true;
}

int sql_like(const char *s, size_t slen, const char *p, size_t plen,
             const char *esc, size_t esc_len)
{
    if (simple_pattern(p, plen, esc, esc_len))
        return like_runs(s, slen, p, plen);

    size_t si = 0, pi = 0;
    size_t star_p = SIZE_MAX, star_s = 0; /* after the last %, and where it began */
    while (si < slen) {
        if (pi < plen) {
            if (is_escape(p, plen, pi, esc, esc_len)) {
                size_t lit = pi + esc_len;
                if (lit >= plen)
                    return -1;
                size_t ln = char_len(p, plen, lit);
                if (same_char(s, slen, si, p, lit, ln)) {
                    si += ln;
                    pi = lit + ln;
                    continue;
                }
            } else if (p[pi] == '%') {
                while (pi < plen && p[pi] == '%')
                    pi++;
                star_p = pi;
                star_s = si;
                continue;
            } else if (p[pi] == '_') {
                si += char_len(s, slen, si);
                pi++;
                continue;
            } else {
                size_t pn = char_len(p, plen, pi);
                if (same_char(s, slen, si, p, pi, pn)) {
                    si += pn;
                    pi += pn;
                    continue;
                }
            }
        }
        if (star_p == SIZE_MAX)
            return 0;
        /* Let the last % take one more character and try again. */
        star_s += char_len(s, slen, star_s);
        si = star_s;
        pi = star_p;
    }
    while (pi < plen && p[pi] == '%')
        pi++;
    if (pi < plen && is_escape(p, plen, pi, esc, esc_len) && pi + esc_len >= plen)
        return -1;
    return pi == plen;
}

/* ------------------------------------------------------------------------ */
/* Access                                                                    */
/* ------------------------------------------------------------------------ */

/* The end of the [...] list starting at p[pi] ('['): the index after its
** ']', or 0 when it is not closed (then '[' is an ordinary character).  A
** ']' right after '[' or '[!' belongs to the list. */
static size_t list_end(const char *p, size_t plen, size_t pi)
{
    size_t k = pi + 1;
    if (k < plen && p[k] == '!')
        k++;
    if (k < plen && p[k] == ']')
        k++;
    while (k < plen && p[k] != ']')
        k++;
    return k < plen ? k + 1 : 0;
}

/* Does the (folded) code point c belong to the list p[from..to) (without
** its brackets)? */
static bool in_list(const char *p, size_t from, size_t to, uint32_t c)
{
    bool negate = from < to && p[from] == '!';
    bool found = false;
    size_t k = from + negate;
    while (k < to && !found) {
        uint32_t n, m;
        uint32_t lo = sql_char_lower(sql_utf8_char(p, (uint32_t)to, (uint32_t)k, &n));
        k += n;
        if (k + 1 < to && p[k] == '-') {
            uint32_t hi = sql_char_lower(sql_utf8_char(p, (uint32_t)to, (uint32_t)k + 1, &m));
            found = c >= lo && c <= hi;
            k += 1 + m;
        } else {
            found = c == lo;
        }
    }
    return found != negate;
}

int sql_like_access(const char *s, size_t slen, const char *p, size_t plen,
                    const char *esc, size_t esc_len)
{
    size_t si = 0, pi = 0;
    size_t star_p = SIZE_MAX, star_s = 0;
    while (si < slen) {
        uint32_t sn;
        uint32_t c = sql_char_lower(sql_utf8_char(s, (uint32_t)slen, (uint32_t)si, &sn));
        if (pi < plen) {
            size_t next = 0; /* where the pattern goes on when this character matches */
            if (is_escape(p, plen, pi, esc, esc_len)) {
                size_t lit = pi + esc_len;
                if (lit >= plen)
                    return -1;
                uint32_t pn;
                if (sql_char_lower(sql_utf8_char(p, (uint32_t)plen, (uint32_t)lit, &pn)) == c)
                    next = lit + pn;
            } else if (p[pi] == '%' || p[pi] == '*') {
                while (pi < plen && (p[pi] == '%' || p[pi] == '*'))
                    pi++;
                star_p = pi;
                star_s = si;
                continue;
            } else if (p[pi] == '_' || p[pi] == '?') {
                next = pi + 1;
            } else if (p[pi] == '#') {
                if (c >= '0' && c <= '9')
                    next = pi + 1;
            } else if (p[pi] == '[' && list_end(p, plen, pi) != 0) {
                size_t end = list_end(p, plen, pi);
                if (in_list(p, pi + 1, end - 1, c))
                    next = end;
            } else {
                uint32_t pn;
                if (sql_char_lower(sql_utf8_char(p, (uint32_t)plen, (uint32_t)pi, &pn)) == c)
                    next = pi + pn;
            }
            if (next != 0) {
                si += sn;
                pi = next;
                continue;
            }
        }
        if (star_p == SIZE_MAX)
            return 0;
        /* Let the last run wildcard take one more character and retry. */
        (void)sql_utf8_char(s, (uint32_t)slen, (uint32_t)star_s, &sn);
        star_s += sn;
        si = star_s;
        pi = star_p;
    }
    while (pi < plen && (p[pi] == '%' || p[pi] == '*'))
        pi++;
    if (pi < plen && is_escape(p, plen, pi, esc, esc_len) && pi + esc_len >= plen)
        return -1;
    return pi == plen;
}
