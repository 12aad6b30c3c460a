/* Compiled scanner for Chrome-trace event arrays (the fast path of workbench.core.profiling.timeline.fast).
 *
 * Scanner.scan() walks a buffer holding part of the JSON event array, validates every event as
 * strictly as msgspec does (or more strictly), and writes per-event fields into caller-owned
 * numpy arrays (reached through the buffer protocol, no numpy C API):
 *   - complete 'X' events: exact ts/dur in ns (decimal text, never via double), interned
 *     lane (pid, tid), name and cat codes, args length (the args bytes are gathered into one
 *     bytes object per call, in event order);
 *   - flow events 's'/'t'/'f': ts, lane, cat, bp == "e", id as a canonical int64 or an interned code;
 *   - rarer phases (metadata, counters, B/E, instants, odd 'ph'): the event's byte span, for
 *     Python to decode with msgspec; ignored phases are counted by phase character.
 * Strings are interned by exact bytes (a hash table that compares bytes), so Python decodes each
 * distinct name once. Anything unusual (escaped keys or phases, odd pid types, bad separators,
 * malformed JSON, an event cut by the end of the data) stops the scan with a status telling
 * Python where the event starts; Python then handles the rest with the exact msgspec path.
 * The scan itself runs without the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MORE (-1)  /* the data ends inside the value: read more */
#define BAD (-2)   /* not something the fast path accepts: let Python decide */
#define MAX_DEPTH 128

enum { ST_END = 0, ST_FULL = 1, ST_MORE = 2, ST_ANOMALY = 3 };
enum { F_ESC = 1, F_NONASCII = 2 };
enum { SLOW_TS = 1, SLOW_DUR = 2 };

/* ---------------------------------------------------------------------------------------------
 * Interner: distinct byte strings -> dense codes in order of first occurrence. */
typedef struct {
    uint64_t h;
    size_t off;
    size_t len;
} Entry;

typedef struct {
    int32_t *slots;  /* -1 = empty, else index into ent */
    size_t mask;
    Entry *ent;
    size_t n, ent_cap;
    char *keys;
    size_t keys_len, keys_cap;
    size_t reported;  /* entries already handed to Python */
    int oom;
} Interner;

static uint64_t hash_bytes(const unsigned char *p, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
        p += 8;
        n -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, p, n);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 29;
    h *= 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 32);
}

static int interner_init(Interner *t)
{
    memset(t, 0, sizeof(*t));
    t->mask = 1023;
    t->slots = (int32_t *)malloc((t->mask + 1) * sizeof(int32_t));
    t->ent_cap = 256;
    t->ent = (Entry *)malloc(t->ent_cap * sizeof(Entry));
    t->keys_cap = 4096;
    t->keys = (char *)malloc(t->keys_cap);
    if (!t->slots || !t->ent || !t->keys)
        return -1;
    memset(t->slots, 0xff, (t->mask + 1) * sizeof(int32_t));
    return 0;
}

static void interner_free(Interner *t)
{
    free(t->slots);
    free(t->ent);
    free(t->keys);
    memset(t, 0, sizeof(*t));
}

static int interner_grow(Interner *t)
{
    size_t cap = (t->mask + 1) * 2;
    int32_t *slots = (int32_t *)malloc(cap * sizeof(int32_t));
    if (!slots)
        return -1;
    memset(slots, 0xff, cap * sizeof(int32_t));
    for (size_t k = 0; k < t->n; k++) {
        size_t at = t->ent[k].h & (cap - 1);
        while (slots[at] >= 0)
            at = (at + 1) & (cap - 1);
        slots[at] = (int32_t)k;
    }
    free(t->slots);
    t->slots = slots;
    t->mask = cap - 1;
    return 0;
}

/* Code of key[0:n] (added if new), or -1 when out of memory (t->oom is set). */
static int32_t intern(Interner *t, const unsigned char *key, size_t n)
{
    uint64_t h = hash_bytes(key, n);
    size_t at = h & t->mask;
    for (;;) {
        int32_t k = t->slots[at];
        if (k < 0)
            break;
        Entry *e = &t->ent[k];
        if (e->h == h && e->len == n && memcmp(t->keys + e->off, key, n) == 0)
            return k;
        at = (at + 1) & t->mask;
    }
    if (t->n >= 0x7fffffff)
        goto oom;
    if (t->n == t->ent_cap) {
        Entry *ent = (Entry *)realloc(t->ent, t->ent_cap * 2 * sizeof(Entry));
        if (!ent)
            goto oom;
        t->ent = ent;
        t->ent_cap *= 2;
    }
    if (t->keys_len + n > t->keys_cap) {
        size_t cap = t->keys_cap * 2;
        while (cap < t->keys_len + n)
            cap *= 2;
        char *keys = (char *)realloc(t->keys, cap);
        if (!keys)
            goto oom;
        t->keys = keys;
        t->keys_cap = cap;
    }
    memcpy(t->keys + t->keys_len, key, n);
    int32_t code = (int32_t)t->n;
    t->ent[code].h = h;
    t->ent[code].off = t->keys_len;
    t->ent[code].len = n;
    t->keys_len += n;
    t->n++;
    t->slots[at] = code;
    if (t->n * 2 > t->mask + 1 && interner_grow(t) < 0)
        goto oom;
    return code;
oom:
    t->oom = 1;
    return -1;
}

/* ---------------------------------------------------------------------------------------------
 * JSON scanning. Functions take the buffer, a position and the end of the data; they return the
 * position after the value, MORE or BAD. */
static unsigned char STR_SPECIAL[256];  /* '"', '\\' and control characters */

static unsigned char IS_WS[256];  /* ' ', '\t', '\n', '\r' */

static inline Py_ssize_t ws(const unsigned char *b, Py_ssize_t i, Py_ssize_t n)
{
    if (i < n && b[i] > ' ')  /* the usual case: no whitespace at all */
        return i;
    while (i < n && IS_WS[b[i]])
        i++;
    return i;
}

static inline int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static int hex4(const unsigned char *p)
{
    int v = 0;
    for (int k = 0; k < 4; k++) {
        unsigned char c = p[k];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= c - '0';
        else if (c >= 'a' && c <= 'f')
            v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v |= c - 'A' + 10;
        else
            return -1;
    }
    return v;
}

#if defined(__GNUC__) && defined(__SSE2__)
#include <emmintrin.h>
#define USE_SSE2 1
#else
#define USE_SSE2 0
#endif

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SWAR 1
static inline uint64_t has_zero(uint64_t v) { return (v - 0x0101010101010101ULL) & ~v & 0x8080808080808080ULL; }
#else
#define SWAR 0
#endif

/* i: just after the opening quote. Returns the position after the closing quote. */
static Py_ssize_t scan_str(const unsigned char *b, Py_ssize_t i, Py_ssize_t n, int *flags)
{
    int fl = 0;
    unsigned hi = 0;  /* high bits seen: non-ASCII text */
    for (;;) {
        /* up to the next '"', '\\' or control character */
#if USE_SSE2
        const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'), c1f = _mm_set1_epi8(0x1f);
        while (i + 16 <= n) {
            __m128i x = _mm_loadu_si128((const __m128i *)(b + i));
            __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, bslash)),
                                       _mm_cmpeq_epi8(_mm_min_epu8(x, c1f), x));
            unsigned m = (unsigned)_mm_movemask_epi8(hit);
            unsigned top = (unsigned)_mm_movemask_epi8(x);
            if (m) {
                int k = __builtin_ctz(m);
                hi |= top & ((1u << k) - 1);
                i += k;
                goto found;
            }
            hi |= top;
            i += 16;
        }
#elif SWAR
        while (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, b + i, 8);
            uint64_t m = has_zero(w ^ 0x2222222222222222ULL) | has_zero(w ^ 0x5C5C5C5C5C5C5C5CULL) |
                         ((w - 0x2020202020202020ULL) & ~w & 0x8080808080808080ULL);
            if (m) {
                int k = __builtin_ctzll(m) >> 3;
                hi |= (k && (w & (~0ULL >> (64 - 8 * k)) & 0x8080808080808080ULL)) ? 1u : 0u;
                i += k;
                goto found;
            }
            hi |= (w & 0x8080808080808080ULL) ? 1u : 0u;
            i += 8;
        }
#endif
        while (i < n && !STR_SPECIAL[b[i]])
            hi |= b[i++] & 0x80;
        if (i >= n)
            return MORE;
#if USE_SSE2 || SWAR
    found:;
#endif
        unsigned char c = b[i];
        if (c == '"') {
            if (hi)
                fl |= F_NONASCII;
            *flags = fl;
            return i + 1;
        }
        if (c != '\\')
            return BAD;  /* a raw control character */
        fl |= F_ESC;
        if (i + 1 >= n)
            return MORE;
        unsigned char e = b[i + 1];
        if (e == 'u') {
            if (i + 6 > n)
                return MORE;
            int u = hex4(b + i + 2);
            if (u < 0)
                return BAD;
            if (u >= 0xD800 && u <= 0xDBFF) {  /* must be followed by a low surrogate */
                if (i + 12 > n)
                    return MORE;
                if (b[i + 6] != '\\' || b[i + 7] != 'u')
                    return BAD;
                int u2 = hex4(b + i + 8);
                if (u2 < 0xDC00 || u2 > 0xDFFF)
                    return BAD;
                i += 12;
            } else if (u >= 0xDC00 && u <= 0xDFFF) {
                return BAD;
            } else {
                i += 6;
            }
        } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' ||
                   e == 't') {
            i += 2;
        } else {
            return BAD;
        }
    }
}

static Py_ssize_t scan_num(const unsigned char *b, Py_ssize_t i, Py_ssize_t n)
{
    if (b[i] == '-' && ++i >= n)
        return MORE;
    if (b[i] == '0') {
        i++;
    } else if (b[i] >= '1' && b[i] <= '9') {
        while (i < n && is_digit(b[i]))
            i++;
    } else {
        return BAD;
    }
    if (i >= n)
        return MORE;
    if (b[i] == '.') {
        if (++i >= n)
            return MORE;
        if (!is_digit(b[i]))
            return BAD;
        while (i < n && is_digit(b[i]))
            i++;
        if (i >= n)
            return MORE;
    }
    if (b[i] == 'e' || b[i] == 'E') {
        if (++i >= n)
            return MORE;
        if ((b[i] == '+' || b[i] == '-') && ++i >= n)
            return MORE;
        if (!is_digit(b[i]))
            return BAD;
        while (i < n && is_digit(b[i]))
            i++;
        if (i >= n)
            return MORE;
    }
    return i;
}

static Py_ssize_t scan_lit(const unsigned char *b, Py_ssize_t i, Py_ssize_t n, const char *word, Py_ssize_t len)
{
    for (Py_ssize_t k = 0; k < len; k++) {
        if (i + k >= n)
            return MORE;
        if (b[i + k] != (unsigned char)word[k])
            return BAD;
    }
    return i + len;
}

static Py_ssize_t skip_value(const unsigned char *b, Py_ssize_t i, Py_ssize_t n, int depth)
{
    if (i >= n)
        return MORE;
    unsigned char c = b[i];
    int fl;
    switch (c) {
    case '"':
        return scan_str(b, i + 1, n, &fl);
    case '{':
    case '[': {
        unsigned char close = c == '{' ? '}' : ']';
        if (depth >= MAX_DEPTH)
            return BAD;
        i = ws(b, i + 1, n);
        if (i >= n)
            return MORE;
        if (b[i] == close)
            return i + 1;
        for (;;) {
            if (c == '{') {
                if (b[i] != '"')
                    return BAD;
                i = scan_str(b, i + 1, n, &fl);
                if (i < 0)
                    return i;
                i = ws(b, i, n);
                if (i >= n)
                    return MORE;
                if (b[i] != ':')
                    return BAD;
                i = ws(b, i + 1, n);
            }
            i = skip_value(b, i, n, depth + 1);
            if (i < 0)
                return i;
            i = ws(b, i, n);
            if (i >= n)
                return MORE;
            if (b[i] == close)
                return i + 1;
            if (b[i] != ',')
                return BAD;
            i = ws(b, i + 1, n);
            if (i >= n)
                return MORE;
        }
    }
    case 't':
        return scan_lit(b, i, n, "true", 4);
    case 'f':
        return scan_lit(b, i, n, "false", 5);
    case 'n':
        return scan_lit(b, i, n, "null", 4);
    default:
        if (c == '-' || is_digit(c))
            return scan_num(b, i, n);
        return BAD;
    }
}

/* ---------------------------------------------------------------------------------------------
 * One event object. */
typedef struct {
    Py_ssize_t off, len;  /* string content (between the quotes) or the value's text */
    int is_str, flags;    /* valid only for the fields in Ev.present */
} Span;

enum { K_PH, K_NAME, K_CAT, K_PID, K_TID, K_TS, K_DUR, K_ID, K_BP, K_ARGS, K_N, K_OTHER = -1 };

typedef struct {
    Span f[K_N];
    unsigned present;  /* bit k: field k was given */
} Ev;

#define HAS(ev, k) (((ev)->present >> (k)) & 1u)

static int key_of(const unsigned char *k, Py_ssize_t n)
{
    switch (n) {
    case 2:
        if (k[0] == 'p' && k[1] == 'h') return K_PH;
        if (k[0] == 't' && k[1] == 's') return K_TS;
        if (k[0] == 'i' && k[1] == 'd') return K_ID;
        if (k[0] == 'b' && k[1] == 'p') return K_BP;
        return K_OTHER;
    case 3:
        if (!memcmp(k, "pid", 3)) return K_PID;
        if (!memcmp(k, "tid", 3)) return K_TID;
        if (!memcmp(k, "cat", 3)) return K_CAT;
        if (!memcmp(k, "dur", 3)) return K_DUR;
        return K_OTHER;
    case 4:
        if (!memcmp(k, "name", 4)) return K_NAME;
        if (!memcmp(k, "args", 4)) return K_ARGS;
        return K_OTHER;
    default:
        return K_OTHER;
    }
}

/* i at '{'. Returns the position after the closing '}'. */
static Py_ssize_t parse_event(const unsigned char *b, Py_ssize_t i, Py_ssize_t n, Ev *ev)
{
    int fl;
    ev->present = 0;
    i = ws(b, i + 1, n);
    if (i >= n)
        return MORE;
    if (b[i] == '}')
        return i + 1;
    for (;;) {
        if (b[i] != '"')
            return BAD;
        Py_ssize_t k0 = i + 1;
        i = scan_str(b, k0, n, &fl);
        if (i < 0)
            return i;
        if (fl & F_ESC)
            return BAD;  /* msgspec matches keys by their raw text: leave escaped keys to it */
        int key = key_of(b + k0, i - 1 - k0);
        i = ws(b, i, n);
        if (i >= n)
            return MORE;
        if (b[i] != ':')
            return BAD;
        i = ws(b, i + 1, n);
        if (i >= n)
            return MORE;
        if (key == K_OTHER) {
            i = skip_value(b, i, n, 1);
        } else {
            Span *s = &ev->f[key];
            if (HAS(ev, key))
                return BAD;  /* a repeated field: msgspec keeps the last one */
            ev->present |= 1u << key;
            s->flags = 0;
            if (b[i] == '"') {
                s->is_str = 1;
                s->off = i + 1;
                i = scan_str(b, i + 1, n, &s->flags);
                s->len = i - 1 - s->off;
            } else {
                if (key == K_PH || key == K_NAME || key == K_CAT || key == K_BP)
                    return BAD;  /* must be strings */
                s->is_str = 0;
                s->off = i;
                i = skip_value(b, i, n, 1);
                s->len = i - s->off;
            }
            if (key == K_ARGS && s->is_str) {  /* args keep their raw text, quotes included */
                s->off -= 1;
                s->len += 2;
            }
        }
        if (i < 0)
            return i;
        i = ws(b, i, n);
        if (i >= n)
            return MORE;
        if (b[i] == '}')
            return i + 1;
        if (b[i] != ',')
            return BAD;
        i = ws(b, i + 1, n);
        if (i >= n)
            return MORE;
    }
}

/* ---------------------------------------------------------------------------------------------
 * Field conversions. */
static const int64_t P10[19] = {
    1LL, 10LL, 100LL, 1000LL, 10000LL, 100000LL, 1000000LL, 10000000LL, 100000000LL, 1000000000LL,
    10000000000LL, 100000000000LL, 1000000000000LL, 10000000000000LL, 100000000000000LL,
    1000000000000000LL, 10000000000000000LL, 100000000000000000LL, 1000000000000000000LL};

#if SWAR
/* The value of 8 ASCII digits at p (little-endian SWAR), or 0 when they are not all digits. */
static inline int eight_digits(const unsigned char *p, uint64_t *out)
{
    uint64_t x;
    memcpy(&x, p, 8);
    if ((x & 0xF0F0F0F0F0F0F0F0ULL) != 0x3030303030303030ULL ||
        ((x + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) != 0x3030303030303030ULL)
        return 0;
    x -= 0x3030303030303030ULL;
    x = (x * 10) + (x >> 8);
    x = (((x & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
         (((x >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >> 32;
    *out = x;
    return 1;
}
#endif

/* Exact ns of a plain decimal µs text (-?digits[.digits]): round(x * 1000) with halves towards
 * +inf, as _trace_num does (any number of decimals). Returns 0 for anything else, or a value
 * near the int64 limits: Python converts (or rejects) those. */
static int parse_us(const unsigned char *p, Py_ssize_t len, int64_t *out)
{
    const uint64_t limit = 9223372036854774ULL;  /* limit * 1000 + 1000 <= INT64_MAX */
    Py_ssize_t i = 0, d0;
    int neg = 0, first = 0, rest = 0, k = 0;
    uint64_t ip = 0;
    int64_t f3 = 0;
    if (len > 0 && p[0] == '-') {
        neg = 1;
        i = 1;
    }
    d0 = i;
#if SWAR
    uint64_t eight;
    while (i + 8 <= len && eight_digits(p + i, &eight)) {
        if (ip > limit / 100000000ULL)
            return 0;
        ip = ip * 100000000ULL + eight;
        if (ip > limit)
            return 0;
        i += 8;
    }
#endif
    for (; i < len && is_digit(p[i]); i++) {
        ip = ip * 10 + (p[i] - '0');
        if (ip > limit)
            return 0;
    }
    if (i == d0)
        return 0;
    if (i < len) {
        if (p[i] != '.')
            return 0;
        for (i++; i < len && is_digit(p[i]); i++, k++) {
            int d = p[i] - '0';
            if (k < 3)
                f3 = f3 * 10 + d;
            else if (k == 3)
                first = d;
            else if (d)
                rest = 1;
        }
        if (i != len || k == 0)
            return 0;
        if (k < 3)
            f3 *= P10[3 - k];
    }
    int64_t a = (int64_t)ip * 1000 + f3;
    /* the digits after the third decimal: r in [0, 1); floor(+-(a + r) + 0.5) */
    *out = neg ? -a - (first > 5 || (first == 5 && rest)) : a + (first >= 5);
    return 1;
}

static int span_us(const unsigned char *b, const Span *s, int64_t *out)
{
    if (s->is_str && s->flags)
        return 0;
    return parse_us(b + s->off, s->len, out);
}

/* A canonical int64 text (what _trace_part._canonical_int accepts): no sign '+', no leading zero,
 * not "-0", and -2**63 <= v < 2**63 - 1. */
static int canonical_i64(const unsigned char *p, Py_ssize_t len, int64_t *out)
{
    Py_ssize_t i = 0;
    int neg = 0;
    if (len > 0 && p[0] == '-') {
        neg = 1;
        i = 1;
    }
    Py_ssize_t nd = len - i;
    if (nd <= 0 || nd > 19 || (p[i] == '0' && (nd > 1 || neg)))
        return 0;
    uint64_t v = 0;
    for (; i < len; i++) {
        if (!is_digit(p[i]))
            return 0;
        v = v * 10 + (p[i] - '0');
    }
    if (!neg) {
        if (v >= (uint64_t)INT64_MAX)
            return 0;
        *out = (int64_t)v;
    } else {
        if (v > (uint64_t)INT64_MAX + 1)
            return 0;
        *out = (int64_t)(0 - v);
    }
    return 1;
}

/* pid/tid/id: a string, or an integer number other than "-0" (whose text is the same whichever
 * way msgspec decodes it). */
static int ident_ok(const unsigned char *b, const Span *s)
{
    if (s->is_str)
        return 1;
    const unsigned char *p = b + s->off;
    if (s->len == 2 && p[0] == '-' && p[1] == '0')
        return 0;
    for (Py_ssize_t k = 0; k < s->len; k++)
        if (!is_digit(p[k]) && !(k == 0 && p[k] == '-'))
            return 0;
    return s->len > 0;
}

/* ---------------------------------------------------------------------------------------------
 * The Scanner object. */
enum {  /* output columns, in the order Scanner() takes them */
    X_TS, X_DUR, X_LANE, X_NAME, X_CAT, X_ALEN, X_FLAGS, X_OFF, X_LEN,
    F_KIND, F_TS, F_LANE, F_CAT, F_ENC, F_IDNUM, F_IDCODE, F_FLAGS, F_OFF, F_LEN,
    R_OFF, R_LEN, IGNORED, X_AOFF, S_NAME, N_COLS
};
static const Py_ssize_t COL_SIZE[N_COLS] = {  /* bytes per row (IGNORED: 256 rows, S_NAME: 3 per row) */
    8, 8, 4, 4, 4, 8, 1, 8, 8,
    1, 8, 4, 4, 1, 8, 4, 1, 8, 8,
    8, 8, 8, 8, 24};
enum { I_NAME, I_CAT, I_LANE, I_ID, N_INTERN };

typedef struct {
    PyObject_HEAD
    Py_ssize_t cap;
    int ready;
    Interner in[N_INTERN];
    unsigned char *lane_key;
    size_t lane_key_cap;
} Scanner;

/* One call's output columns (caller-owned arrays; X_AOFF: args offset in the input of each X
 * row, S_NAME: (offset, length, flags) of each 's' event's name) and row counts. */
typedef struct {
    Py_buffer cols[N_COLS];
    int ncols;
    Py_ssize_t nx, nf, nr, ns;
} Out;

#define COL(o, k, T) ((T *)(o)->cols[k].buf)

static void out_release(Out *o)
{
    for (int k = 0; k < o->ncols; k++)
        PyBuffer_Release(&o->cols[k]);
    o->ncols = 0;
}

/* Take the column arrays of the tuple ``cols`` (each big enough for ``cap`` rows). */
static int out_acquire(Out *o, PyObject *cols, Py_ssize_t cap)
{
    memset(o, 0, sizeof(*o));
    if (!PyTuple_Check(cols) || PyTuple_GET_SIZE(cols) != N_COLS) {
        PyErr_Format(PyExc_ValueError, "expected a tuple of %d writable arrays", N_COLS);
        return -1;
    }
    for (int k = 0; k < N_COLS; k++) {
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(cols, k), &o->cols[k], PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
            out_release(o);
            return -1;
        }
        o->ncols = k + 1;
        Py_ssize_t need = COL_SIZE[k] * (k == IGNORED ? 256 : cap);
        if (o->cols[k].len < need) {
            PyErr_Format(PyExc_ValueError, "column %d holds %zd bytes, needs %zd", k, o->cols[k].len, need);
            out_release(o);
            return -1;
        }
    }
    return 0;
}

static int lane_code(Scanner *s, const unsigned char *b, const Span *pid, const Span *tid, int32_t *out)
{
    size_t n = (size_t)pid->len + 1 + (size_t)tid->len;
    if (n > s->lane_key_cap) {
        unsigned char *k = (unsigned char *)realloc(s->lane_key, n * 2);
        if (!k)
            return -1;
        s->lane_key = k;
        s->lane_key_cap = n * 2;
    }
    memcpy(s->lane_key, b + pid->off, pid->len);
    s->lane_key[pid->len] = 0;  /* no raw NUL inside a JSON string or number */
    memcpy(s->lane_key + pid->len + 1, b + tid->off, tid->len);
    *out = intern(&s->in[I_LANE], s->lane_key, n);
    return *out < 0 ? -1 : 0;
}

static int32_t str_code(Scanner *s, int which, const unsigned char *b, const Ev *ev, int key)
{
    static const unsigned char empty = 0;
    return HAS(ev, key) ? intern(&s->in[which], b + ev->f[key].off, ev->f[key].len) : intern(&s->in[which], &empty, 0);
}

/* Record one parsed event. Returns 0, BAD (let Python handle the event) or -3 (out of memory).
 * Everything is checked before anything is interned or written. */
static int emit(Scanner *s, const unsigned char *b, Ev *ev, Py_ssize_t start, Py_ssize_t end, Out *c)
{
    Span *ph = &ev->f[K_PH];
    int has_ph = HAS(ev, K_PH);
    if (has_ph && (ph->flags & F_ESC))
        return BAD;
    unsigned char code = (has_ph && ph->len == 1 && !ph->flags) ? b[ph->off] : 0;
    if (code == 'X' || code == 's' || code == 't' || code == 'f') {
        Span *pid = &ev->f[K_PID], *tid = &ev->f[K_TID], *id = &ev->f[K_ID], *bp = &ev->f[K_BP];
        if (!HAS(ev, K_PID) || !HAS(ev, K_TID) || !ident_ok(b, pid) || !ident_ok(b, tid))
            return BAD;
        int flags = 0;
        int64_t ts = 0, dur = 0;
        if (!HAS(ev, K_TS) || !span_us(b, &ev->f[K_TS], &ts)) {
            flags |= SLOW_TS;
            ts = 0;
        }
        int32_t lane, cat;
        if (code == 'X') {
            if (HAS(ev, K_DUR) && !span_us(b, &ev->f[K_DUR], &dur)) {
                flags |= SLOW_DUR;
                dur = 0;
            }
            int32_t name;
            if (lane_code(s, b, pid, tid, &lane) < 0 || (name = str_code(s, I_NAME, b, ev, K_NAME)) < 0 ||
                (cat = str_code(s, I_CAT, b, ev, K_CAT)) < 0)
                return -3;
            Py_ssize_t j = c->nx++;
            COL(c, X_TS, int64_t)[j] = ts;
            COL(c, X_DUR, int64_t)[j] = dur;
            COL(c, X_LANE, int32_t)[j] = lane;
            COL(c, X_NAME, int32_t)[j] = name;
            COL(c, X_CAT, int32_t)[j] = cat;
            COL(c, X_FLAGS, uint8_t)[j] = (uint8_t)flags;
            COL(c, X_OFF, int64_t)[j] = start;
            COL(c, X_LEN, int64_t)[j] = end - start;
            Span *args = &ev->f[K_ARGS];
            COL(c, X_ALEN, int64_t)[j] = HAS(ev, K_ARGS) ? args->len : 0;
            COL(c, X_AOFF, int64_t)[j] = HAS(ev, K_ARGS) ? args->off : 0;
            return 0;
        }
        int has_bp = HAS(ev, K_BP);
        if (has_bp && bp->flags)
            return BAD;
        int64_t idnum = 0;
        int32_t idcode = -1;
        int numeric = 0;
        if (HAS(ev, K_ID)) {
            /* a number keeps its text (floats too: msgspec never reads them as int); "-0" and
             * other kinds (null, objects) go to Python */
            unsigned char f0 = b[id->off];
            if (!id->is_str && ((f0 != '-' && !is_digit(f0)) || (id->len == 2 && f0 == '-' && b[id->off + 1] == '0')))
                return BAD;
            numeric = !(id->is_str && id->flags) && canonical_i64(b + id->off, id->len, &idnum);
        }
        if (lane_code(s, b, pid, tid, &lane) < 0 || (cat = str_code(s, I_CAT, b, ev, K_CAT)) < 0)
            return -3;
        if (!numeric && (idcode = str_code(s, I_ID, b, ev, K_ID)) < 0)
            return -3;
        Py_ssize_t j = c->nf++;
        COL(c, F_KIND, uint8_t)[j] = code == 's' ? 0 : (code == 't' ? 1 : 2);
        COL(c, F_TS, int64_t)[j] = ts;
        COL(c, F_LANE, int32_t)[j] = lane;
        COL(c, F_CAT, int32_t)[j] = cat;
        COL(c, F_ENC, uint8_t)[j] = has_bp && bp->len == 1 && b[bp->off] == 'e';
        COL(c, F_IDNUM, int64_t)[j] = numeric ? idnum : 0;
        COL(c, F_IDCODE, int32_t)[j] = numeric ? -1 : idcode;
        COL(c, F_FLAGS, uint8_t)[j] = (uint8_t)flags;
        COL(c, F_OFF, int64_t)[j] = start;
        COL(c, F_LEN, int64_t)[j] = end - start;
        if (code == 's') {
            Span *nm = &ev->f[K_NAME];
            int64_t *r = COL(c, S_NAME, int64_t) + 3 * c->ns++;
            int has = HAS(ev, K_NAME);
            r[0] = has ? nm->off : 0;
            r[1] = has ? nm->len : 0;
            r[2] = has ? nm->flags : 0;
        }
        return 0;
    }
    if (code == 0 || code == 'M' || code == 'C' || code == 'B' || code == 'E' || code == 'i' || code == 'I' ||
        code == 'R') {
        Py_ssize_t j = c->nr++;
        COL(c, R_OFF, int64_t)[j] = start;
        COL(c, R_LEN, int64_t)[j] = end - start;
        return 0;
    }
    COL(c, IGNORED, int64_t)[code]++;
    return 0;
}

static void Scanner_dealloc(Scanner *s)
{
    for (int k = 0; k < N_INTERN; k++)
        interner_free(&s->in[k]);
    free(s->lane_key);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int Scanner_init(Scanner *s, PyObject *args, PyObject *kwds)
{
    Py_ssize_t cap;
    static char *kw[] = {"cap", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "n:Scanner", kw, &cap))
        return -1;
    if (s->ready) {
        PyErr_SetString(PyExc_RuntimeError, "Scanner is already initialised");
        return -1;
    }
    if (cap <= 0) {
        PyErr_SetString(PyExc_ValueError, "Scanner needs cap > 0");
        return -1;
    }
    s->cap = cap;
    s->lane_key_cap = 256;
    s->lane_key = (unsigned char *)malloc(s->lane_key_cap);
    if (!s->lane_key) {
        PyErr_NoMemory();
        return -1;
    }
    for (int k = 0; k < N_INTERN; k++) {
        if (interner_init(&s->in[k]) < 0) {
            PyErr_NoMemory();
            return -1;
        }
    }
    s->ready = 1;
    return 0;
}

/* The loop over events; runs without the GIL. */
static int scan_loop(Scanner *s, const unsigned char *b, Py_ssize_t pos, Py_ssize_t n, int at_start,
                     Py_ssize_t *events, Py_ssize_t *resume, Out *c)
{
    Py_ssize_t i = pos, nev = 0;
    Ev ev;
    *events = 0;
    if (at_start) {
        i = ws(b, i, n);
        *resume = i;
        if (i >= n)
            return ST_MORE;
        if (b[i] == ']') {
            *resume = i + 1;
            return ST_END;
        }
        if (b[i] != '{')
            return ST_ANOMALY;
    }
    for (;;) {
        *resume = i;
        *events = nev;
        if (nev >= s->cap)
            return ST_FULL;
        Py_ssize_t e = parse_event(b, i, n, &ev);
        if (e == MORE)
            return ST_MORE;
        if (e < 0)
            return ST_ANOMALY;
        Py_ssize_t j = ws(b, e, n);
        if (j >= n)
            return ST_MORE;
        int last = b[j] == ']';
        if (!last) {
            if (b[j] != ',')
                return ST_ANOMALY;
            j = ws(b, j + 1, n);
            if (j >= n)
                return ST_MORE;
            if (b[j] != '{')
                return ST_ANOMALY;
        }
        int r = emit(s, b, &ev, i, e, c);
        if (r == -3)
            return -3;
        if (r < 0)
            return ST_ANOMALY;
        nev++;
        if (last) {
            *events = nev;
            *resume = j + 1;
            return ST_END;
        }
        i = j;
    }
}

static PyObject *Scanner_scan(Scanner *s, PyObject *args)
{
    Py_buffer in;
    Py_ssize_t pos, end;
    int at_start;
    PyObject *cols;
    Out o;
    if (!s->ready) {
        PyErr_SetString(PyExc_RuntimeError, "Scanner is not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "y*nnpO:scan", &in, &pos, &end, &at_start, &cols))
        return NULL;
    if (pos < 0 || end > in.len || pos > end) {
        PyBuffer_Release(&in);
        PyErr_SetString(PyExc_ValueError, "scan: bad range");
        return NULL;
    }
    if (out_acquire(&o, cols, s->cap) < 0) {
        PyBuffer_Release(&in);
        return NULL;
    }
    const unsigned char *b = (const unsigned char *)in.buf;
    Py_ssize_t events = 0, resume = pos;
    memset(o.cols[IGNORED].buf, 0, 256 * sizeof(int64_t));
    int st;
    Py_BEGIN_ALLOW_THREADS
    st = scan_loop(s, b, pos, end, at_start, &events, &resume, &o);
    Py_END_ALLOW_THREADS
    for (int k = 0; k < N_INTERN; k++)
        if (s->in[k].oom)
            st = -3;
    out_release(&o);
    PyBuffer_Release(&in);
    if (st == -3)
        return PyErr_NoMemory();
    return Py_BuildValue("(innnnnn)", st, events, resume, o.nx, o.nf, o.nr, o.ns);
}

/* collect(buffer, columns, n_x, n_s): the args of a scan's X rows (one bytes object, in order)
 * and the names of its flow starts; called with the buffer and columns of that scan, before they
 * change. Kept apart from scan() so that a caller scanning in a worker thread can allocate these
 * in its main thread. */
static PyObject *collect(PyObject *self, PyObject *args)
{
    Py_buffer in;
    PyObject *cols, *blob = NULL, *names = NULL;
    Py_ssize_t nx, ns, total = 0, odd = 0;
    Out o;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*Onn:collect", &in, &cols, &nx, &ns))
        return NULL;
    if (nx < 0 || ns < 0 || out_acquire(&o, cols, nx > ns ? nx : ns) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "collect: bad counts");
        PyBuffer_Release(&in);
        return NULL;
    }
    const unsigned char *b = (const unsigned char *)in.buf;
    const int64_t *alen = COL(&o, X_ALEN, int64_t), *aoff = COL(&o, X_AOFF, int64_t);
    const int64_t *sn = COL(&o, S_NAME, int64_t);
    for (Py_ssize_t j = 0; j < nx; j++) {
        if (aoff[j] < 0 || alen[j] < 0 || aoff[j] + alen[j] > in.len) {
            PyErr_SetString(PyExc_ValueError, "collect: not the buffer that was scanned");
            goto fail;
        }
        total += alen[j];
    }
    for (Py_ssize_t j = 0; j < ns; j++) {
        if (sn[3 * j] < 0 || sn[3 * j + 1] < 0 || sn[3 * j] + sn[3 * j + 1] > in.len) {
            PyErr_SetString(PyExc_ValueError, "collect: not the buffer that was scanned");
            goto fail;
        }
    }
    blob = PyBytes_FromStringAndSize(NULL, total);
    names = PyList_New(ns);
    if (!blob || !names)
        goto fail;
    char *out = PyBytes_AS_STRING(blob);
    for (Py_ssize_t j = 0; j < nx; j++) {
        memcpy(out, b + aoff[j], alen[j]);
        out += alen[j];
    }
    /* names of the flow starts: str, or (offset, length) for Python to JSON-decode. Repeated
     * names (torch_npu: a handful of names over hundreds of thousands of flows) share one str
     * through a small direct-mapped cache, instead of one object per flow. */
    enum { NCACHE = 64 };
    PyObject *cache_obj[NCACHE] = {NULL};
    const unsigned char *cache_p[NCACHE];
    Py_ssize_t cache_n[NCACHE];
    int64_t cache_fl[NCACHE];
    for (Py_ssize_t j = 0; j < ns; j++) {
        const int64_t *r = sn + 3 * j;
        PyObject *v = NULL;
        const unsigned char *p = b + r[0];
        size_t slot = (size_t)(hash_bytes(p, (size_t)r[1]) & (NCACHE - 1));
        if ((r[2] == 0 || r[2] == F_NONASCII) && cache_obj[slot] && cache_n[slot] == r[1] &&
            cache_fl[slot] == r[2] && memcmp(cache_p[slot], p, (size_t)r[1]) == 0) {
            v = cache_obj[slot];
            Py_INCREF(v);
            PyList_SET_ITEM(names, j, v);
            continue;
        }
        if (r[2] == 0) {
            v = PyUnicode_FromStringAndSize((const char *)p, r[1]);
        } else if (r[2] == F_NONASCII) {
            v = PyUnicode_DecodeUTF8((const char *)p, r[1], "strict");
            if (!v && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError))
                PyErr_Clear();
        }
        if (v) {
            Py_INCREF(v);
            Py_XSETREF(cache_obj[slot], v);
            cache_p[slot] = p;
            cache_n[slot] = r[1];
            cache_fl[slot] = r[2];
        }
        if (!v && !PyErr_Occurred()) {
            v = Py_BuildValue("(nn)", (Py_ssize_t)r[0], (Py_ssize_t)r[1]);
            odd++;
        }
        if (!v) {
            for (int c = 0; c < NCACHE; c++)
                Py_XDECREF(cache_obj[c]);
            goto fail;
        }
        PyList_SET_ITEM(names, j, v);
    }
    for (int c = 0; c < NCACHE; c++)
        Py_XDECREF(cache_obj[c]);
    out_release(&o);
    PyBuffer_Release(&in);
    return Py_BuildValue("(NNn)", blob, names, odd);
fail:
    Py_XDECREF(blob);
    Py_XDECREF(names);
    out_release(&o);
    PyBuffer_Release(&in);
    return NULL;
}

static PyObject *Scanner_new_keys(Scanner *s, PyObject *arg)
{
    long which = PyLong_AsLong(arg);
    if (which == -1 && PyErr_Occurred())
        return NULL;
    if (which < 0 || which >= N_INTERN || !s->ready || !s->in[which].ent) {
        PyErr_SetString(PyExc_ValueError, "new_keys: no such table");
        return NULL;
    }
    Interner *t = &s->in[which];
    PyObject *out = PyList_New((Py_ssize_t)(t->n - t->reported));
    if (!out)
        return NULL;
    for (size_t k = t->reported; k < t->n; k++) {
        PyObject *v = PyBytes_FromStringAndSize(t->keys + t->ent[k].off, (Py_ssize_t)t->ent[k].len);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)(k - t->reported), v);
    }
    t->reported = t->n;
    return out;
}

static PyMethodDef Scanner_methods[] = {
    {"scan", (PyCFunction)Scanner_scan, METH_VARARGS,
     "scan(buffer, pos, end, at_start, columns) -> (status, events, resume, n_x, n_flow, n_rare, n_flow_starts)\n\n"
     "Scan events from buffer[pos:end]; status 0 = the array closed, 1 = the columns are full,\n"
     "2 = the data ends inside an event, 3 = an event Python must handle. ``resume`` is where to go on."},
    {"new_keys", (PyCFunction)Scanner_new_keys, METH_O,
     "new_keys(table) -> list of bytes interned since the last call (0 name, 1 cat, 2 lane, 3 id)."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject ScannerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "workbench.core.profiling.timeline._fastscan.Scanner",
    .tp_basicsize = sizeof(Scanner),
    .tp_dealloc = (destructor)Scanner_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Scanner(cap): fills caller-owned column arrays from trace event text; keeps the interned strings.",
    .tp_methods = Scanner_methods,
    .tp_init = (initproc)Scanner_init,
    .tp_new = PyType_GenericNew,
};

/* ---------------------------------------------------------------------------------------------
 * first_codes(items, index, out) -> uniques: codes of items[index[k]] in order of first occurrence
 * (str items, compared by their UTF-8 bytes: the same as comparing the strings). The table holds
 * (code, hash tag) slots and points into the strings themselves: one cache line per lookup. */
typedef struct {
    uint32_t code;  /* UINT32_MAX: empty */
    uint32_t tag;
} Slot;

typedef struct {
    const char *p;
    Py_ssize_t len;
    uint64_t h;
} Key;

static int slots_grow(Slot **slots, size_t *mask, const Key *keys, size_t n)
{
    size_t cap = (*mask + 1) * 2;
    Slot *grown = (Slot *)malloc(cap * sizeof(Slot));
    if (!grown)
        return -1;
    memset(grown, 0xff, cap * sizeof(Slot));
    for (size_t k = 0; k < n; k++) {
        size_t at = keys[k].h & (cap - 1);
        while (grown[at].code != UINT32_MAX)
            at = (at + 1) & (cap - 1);
        grown[at].code = (uint32_t)k;
        grown[at].tag = (uint32_t)(keys[k].h >> 32);
    }
    free(*slots);
    *slots = grown;
    *mask = cap - 1;
    return 0;
}

static PyObject *first_codes(PyObject *self, PyObject *args)
{
    PyObject *items, *uniq = NULL;
    Py_buffer idx, out;
    size_t mask = 1023, nkeys = 0, keys_cap = 1024;
    Slot *slots = NULL;
    Key *keys = NULL, *item_keys = NULL;
    Py_ssize_t *first = NULL;
    int failed = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!y*w*:first_codes", &PyList_Type, &items, &idx, &out))
        return NULL;
    Py_ssize_t n = idx.len / 8, m = PyList_GET_SIZE(items);
    if (out.len < n * 4) {
        PyErr_SetString(PyExc_ValueError, "first_codes: output too small");
        goto done;
    }
    /* with the GIL: each item's UTF-8 (cached by the str object, which the list keeps alive) */
    item_keys = (Key *)malloc((m ? m : 1) * sizeof(Key));
    slots = (Slot *)malloc((mask + 1) * sizeof(Slot));
    keys = (Key *)malloc(keys_cap * sizeof(Key));
    first = (Py_ssize_t *)malloc(keys_cap * sizeof(Py_ssize_t));
    if (!item_keys || !slots || !keys || !first) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t k = 0; k < m; k++) {
        PyObject *v = PyList_GET_ITEM(items, k);
        Py_ssize_t len;
        const char *u = PyUnicode_Check(v) ? PyUnicode_AsUTF8AndSize(v, &len) : NULL;
        if (!u) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "first_codes: items must be str");
            goto fail;
        }
        item_keys[k].p = u;
        item_keys[k].len = len;
    }
    memset(slots, 0xff, (mask + 1) * sizeof(Slot));
    const int64_t *ix = (const int64_t *)idx.buf;
    int32_t *o = (int32_t *)out.buf;
    /* without the GIL: number the strings in order of first use (1 = bad index, 2 = no memory) */
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < n && !failed; k++) {
        if (ix[k] < 0 || ix[k] >= m) {
            failed = 1;
            break;
        }
        const Key *it = &item_keys[ix[k]];
        uint64_t h = hash_bytes((const unsigned char *)it->p, (size_t)it->len);
        uint32_t tag = (uint32_t)(h >> 32);
        size_t at = h & mask;
        uint32_t code = UINT32_MAX;
        while (slots[at].code != UINT32_MAX) {
            const Key *key = &keys[slots[at].code];
            if (slots[at].tag == tag && key->len == it->len && memcmp(key->p, it->p, it->len) == 0) {
                code = slots[at].code;
                break;
            }
            at = (at + 1) & mask;
        }
        if (code == UINT32_MAX) {  /* a new string */
            if (nkeys >= 0x7fffffff) {
                failed = 2;
                break;
            }
            if (nkeys == keys_cap) {
                Key *grown = (Key *)realloc(keys, keys_cap * 2 * sizeof(Key));
                if (grown)
                    keys = grown;
                Py_ssize_t *fgrown = grown ? (Py_ssize_t *)realloc(first, keys_cap * 2 * sizeof(Py_ssize_t)) : NULL;
                if (!grown || !fgrown) {
                    failed = 2;
                    break;
                }
                first = fgrown;
                keys_cap *= 2;
            }
            code = (uint32_t)nkeys;
            keys[nkeys] = *it;
            keys[nkeys].h = h;
            first[nkeys] = (Py_ssize_t)ix[k];
            nkeys++;
            slots[at].code = code;
            slots[at].tag = tag;
            if (nkeys * 2 > mask + 1 && slots_grow(&slots, &mask, keys, nkeys) < 0) {
                failed = 2;
                break;
            }
        }
        o[k] = (int32_t)code;
    }
    Py_END_ALLOW_THREADS
    if (failed == 1) {
        PyErr_SetString(PyExc_IndexError, "first_codes: index out of range");
        goto fail;
    }
    if (failed) {
        PyErr_NoMemory();
        goto fail;
    }
    uniq = PyList_New((Py_ssize_t)nkeys);
    if (!uniq)
        goto fail;
    for (size_t k = 0; k < nkeys; k++) {
        PyObject *v = PyList_GET_ITEM(items, first[k]);
        Py_INCREF(v);
        PyList_SET_ITEM(uniq, (Py_ssize_t)k, v);
    }
    goto done;
fail:
    Py_CLEAR(uniq);
done:
    free(slots);
    free(keys);
    free(item_keys);
    free(first);
    PyBuffer_Release(&idx);
    PyBuffer_Release(&out);
    return uniq;
}

/* decimal_texts(int64 values) -> (bytes, width): each value's decimal text, NUL-padded to the
 * width of the longest (at least 1), back to back: a numpy "S<width>" array's buffer. */
static PyObject *decimal_texts(PyObject *self, PyObject *arg)
{
    Py_buffer in;
    (void)self;
    if (PyObject_GetBuffer(arg, &in, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    const int64_t *v = (const int64_t *)in.buf;
    Py_ssize_t n = in.len / 8, width = 1;
    char tmp[24];
    for (Py_ssize_t k = 0; k < n; k++) {
        uint64_t u = v[k] < 0 ? 0 - (uint64_t)v[k] : (uint64_t)v[k];
        Py_ssize_t w = 1 + (v[k] < 0);
        while (u >= 10) {
            u /= 10;
            w++;
        }
        if (w > width)
            width = w;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * width);
    if (out) {
        char *p = PyBytes_AS_STRING(out);
        Py_BEGIN_ALLOW_THREADS
        memset(p, 0, (size_t)PyBytes_GET_SIZE(out));
        for (Py_ssize_t k = 0; k < n; k++) {
            uint64_t u = v[k] < 0 ? 0 - (uint64_t)v[k] : (uint64_t)v[k];
            int len = 0;
            do {
                tmp[len++] = (char)('0' + u % 10);
                u /= 10;
            } while (u);
            if (v[k] < 0)
                tmp[len++] = '-';
            for (int j = 0; j < len; j++)
                p[k * width + j] = tmp[len - 1 - j];
        }
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&in);
    return out ? Py_BuildValue("(Nn)", out, width) : NULL;
}

/* ---------------------------------------------------------------------------------------------
 * Nesting of sorted slices and binding of points, the loops of _trace_merge._depth_parent and
 * bind_points (same definitions, one pass instead of sorts and searches). */
typedef struct {
    Py_buffer b[8];
    int n;
} Bufs;

static void bufs_release(Bufs *v)
{
    for (int k = 0; k < v->n; k++)
        PyBuffer_Release(&v->b[k]);
    v->n = 0;
}

/* Take ``count`` buffers from args (items of the given sizes, same length ``len`` each unless 0). */
static int bufs_take(Bufs *v, PyObject *args, const int *itemsize, const int *writable, int count, Py_ssize_t *lens)
{
    v->n = 0;
    if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) != count) {
        PyErr_Format(PyExc_TypeError, "expected %d arrays", count);
        return -1;
    }
    for (int k = 0; k < count; k++) {
        int flags = PyBUF_C_CONTIGUOUS | (writable[k] ? PyBUF_WRITABLE : 0);
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(args, k), &v->b[k], flags) < 0) {
            bufs_release(v);
            return -1;
        }
        v->n = k + 1;
        if (v->b[k].len % itemsize[k]) {
            PyErr_Format(PyExc_ValueError, "array %d: wrong item size", k);
            bufs_release(v);
            return -1;
        }
        lens[k] = v->b[k].len / itemsize[k];
    }
    return 0;
}

static void heap_push(int64_t *h, Py_ssize_t *n, int64_t v)
{
    Py_ssize_t i = (*n)++;
    while (i > 0) {
        Py_ssize_t p = (i - 1) / 2;
        if (h[p] <= v)
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = v;
}

static void heap_pop(int64_t *h, Py_ssize_t *n)
{
    int64_t v = h[--(*n)];
    Py_ssize_t i = 0, m = *n;
    for (;;) {
        Py_ssize_t c = 2 * i + 1;
        if (c >= m)
            break;
        if (c + 1 < m && h[c + 1] < h[c])
            c++;
        if (h[c] >= v)
            break;
        h[i] = h[c];
        i = c;
    }
    if (m)
        h[i] = v;
}

/* nest(lane int32, start int64, dur int64, depth int32 out, parent int32 out)
 *     -> (max depth, max of 2 * (end - first start) + (dur == 0), overflowed).
 * Slices sorted by (lane, start, -dur). depth = slices of the lane started before and still open
 * (end > start, or end == start for a zero-length one); parent = the last slice before with
 * depth - 1 (-1 at depth 0). */
static PyObject *nest(PyObject *self, PyObject *args)
{
    static const int size[5] = {4, 8, 8, 4, 4}, wr[5] = {0, 0, 0, 1, 1};
    Bufs v;
    Py_ssize_t len[5];
    (void)self;
    if (bufs_take(&v, args, size, wr, 5, len) < 0)
        return NULL;
    Py_ssize_t n = len[0];
    if (len[1] != n || len[2] != n || len[3] != n || len[4] != n) {
        bufs_release(&v);
        PyErr_SetString(PyExc_ValueError, "nest: arrays differ in length");
        return NULL;
    }
    const int32_t *lane = v.b[0].buf;
    const int64_t *start = v.b[1].buf, *dur = v.b[2].buf;
    int32_t *depth = v.b[3].buf, *parent = v.b[4].buf;
    int64_t *heap = (int64_t *)malloc((n ? n : 1) * sizeof(int64_t));
    Py_ssize_t last_cap = 64;
    Py_ssize_t *last = (Py_ssize_t *)malloc(last_cap * sizeof(Py_ssize_t));  /* last index per depth */
    if (!heap || !last) {
        free(heap);
        free(last);
        bufs_release(&v);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t d = 0; d < last_cap; d++)
        last[d] = -1;
    int64_t lo = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (i == 0 || start[i] < lo)
            lo = start[i];
    Py_ssize_t hn = 0, maxd = 0;
    int64_t e2max = 0;
    int oom = 0, overflow = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        if (i > 0 && lane[i] != lane[i - 1])
            hn = 0;
        int64_t s2 = (start[i] - lo) * 2;
        while (hn && heap[0] <= s2)
            heap_pop(heap, &hn);
        Py_ssize_t d = hn;
        depth[i] = (int32_t)d;
        parent[i] = d > 0 && last[d - 1] >= 0 ? (int32_t)last[d - 1] : -1;
        if (d >= last_cap) {
            Py_ssize_t cap = last_cap;
            while (cap <= d)
                cap *= 2;
            Py_ssize_t *grown = (Py_ssize_t *)realloc(last, cap * sizeof(Py_ssize_t));
            if (!grown) {
                oom = 1;
                break;
            }
            for (Py_ssize_t k = last_cap; k < cap; k++)
                grown[k] = -1;
            last = grown;
            last_cap = cap;
        }
        last[d] = i;
        if (d > maxd)
            maxd = d;
        int64_t e2;
#if defined(__GNUC__)
        if (__builtin_sub_overflow(start[i], lo, &e2) || __builtin_add_overflow(e2, dur[i], &e2) || __builtin_mul_overflow(e2, 2, &e2) ||
            __builtin_add_overflow(e2, (int64_t)(dur[i] == 0), &e2)) {
            overflow = 1;
            e2 = INT64_MAX;
        }
#else
        e2 = (start[i] - lo + dur[i]) * 2 + (dur[i] == 0);
#endif
        if (i == 0 || e2 > e2max)
            e2max = e2;
        heap_push(heap, &hn, e2);
    }
    Py_END_ALLOW_THREADS
    free(heap);
    free(last);
    bufs_release(&v);
    if (oom)
        return PyErr_NoMemory();
    return Py_BuildValue("(nLi)", maxd, (long long)e2max, overflow);
}

/* First index in [lo, hi) whose value is not < x (right: not <= x), searched outwards from
 * ``hint`` (the previous answer in this lane: points come mostly in time order). */
static Py_ssize_t gallop(const int64_t *a, Py_ssize_t lo, Py_ssize_t hi, int64_t x, int right, Py_ssize_t hint)
{
#define BEFORE(i) (a[i] < x || (right && a[i] == x))
    Py_ssize_t l, r, step = 1;
    if (hint < lo)
        hint = lo;
    if (hint > hi)
        hint = hi;
    if (hint < hi && BEFORE(hint)) {  /* the answer is after hint */
        l = r = hint + 1;
        while (r < hi && BEFORE(r)) {
            l = r + 1;
            r += step;
            step *= 2;
            if (r > hi)
                r = hi;
        }
    } else {  /* the answer is at or before hint */
        l = r = hint;
        while (l > lo && !BEFORE(l - 1)) {
            r = l - 1;
            l -= step;
            step *= 2;
            if (l < lo)
                l = lo;
        }
    }
    while (l < r) {  /* the answer is in [l, r] */
        Py_ssize_t m = l + (r - l) / 2;
        if (BEFORE(m))
            l = m + 1;
        else
            r = m;
    }
    return l;
#undef BEFORE
}

/* bind(lane int32, start int64, end int64, parent int32, p_lane int32, p_ts int64, enclosing bool,
 * out int64): see _trace_merge.bind_points. */
static PyObject *bind(PyObject *self, PyObject *args)
{
    static const int size[8] = {4, 8, 8, 4, 4, 8, 1, 8}, wr[8] = {0, 0, 0, 0, 0, 0, 0, 1};
    Bufs v;
    Py_ssize_t len[8];
    (void)self;
    if (bufs_take(&v, args, size, wr, 8, len) < 0)
        return NULL;
    Py_ssize_t n = len[0], m = len[4];
    if (len[1] != n || len[2] != n || len[3] != n || len[5] != m || len[6] != m || len[7] != m) {
        bufs_release(&v);
        PyErr_SetString(PyExc_ValueError, "bind: arrays differ in length");
        return NULL;
    }
    const int32_t *lane = v.b[0].buf, *parent = v.b[3].buf, *p_lane = v.b[4].buf;
    const int64_t *start = v.b[1].buf, *end = v.b[2].buf, *p_ts = v.b[5].buf;
    const uint8_t *enc = v.b[6].buf;
    int64_t *out = v.b[7].buf;
    int32_t top = n ? lane[n - 1] : -1;  /* lanes are sorted */
    Py_ssize_t lanes = (Py_ssize_t)(top >= 0 ? top : -1) + 1;
    Py_ssize_t *bounds = (Py_ssize_t *)malloc((lanes + 1) * sizeof(Py_ssize_t));
    Py_ssize_t *hints = (Py_ssize_t *)malloc(2 * (lanes ? lanes : 1) * sizeof(Py_ssize_t));
    if (!bounds || !hints) {
        free(bounds);
        free(hints);
        bufs_release(&v);
        return PyErr_NoMemory();
    }
    int bad = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t ln = 0, i = 0; ln <= lanes; ln++) {  /* bounds[ln]: first slice of lane >= ln */
        while (i < n && lane[i] < ln)
            i++;
        bounds[ln] = i;
    }
    for (Py_ssize_t ln = 0; ln < lanes; ln++)
        hints[2 * ln] = hints[2 * ln + 1] = bounds[ln];
    for (Py_ssize_t k = 0; k < m; k++) {
        out[k] = -1;
        int32_t pl = p_lane[k];
        if (pl < 0 || pl >= lanes)
            continue;  /* a lane without slices */
        Py_ssize_t lo = bounds[pl], hi = bounds[pl + 1];
        int64_t ts = p_ts[k];
        if (!enc[k]) {  /* the next slice starting at or after ts */
            Py_ssize_t j = gallop(start, lo, hi, ts, 0, hints[2 * pl]);
            hints[2 * pl] = j;
            out[k] = j < hi ? j : -1;
            continue;
        }
        Py_ssize_t after = gallop(start, lo, hi, ts, 1, hints[2 * pl + 1]);
        hints[2 * pl + 1] = after;
        Py_ssize_t cur = after - 1;  /* the last slice starting at or before ts */
        if (cur < lo)
            continue;
        for (;;) {
            if (end[cur] >= ts) {
                out[k] = cur;
                break;
            }
            if (parent[cur] < 0)
                break;
            if (parent[cur] >= n) {
                bad = 1;
                break;
            }
            cur = parent[cur];
        }
    }
    Py_END_ALLOW_THREADS
    free(bounds);
    free(hints);
    bufs_release(&v);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "bind: parent index out of range");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---------------------------------------------------------------------------------------------
 * arg_values(buffer, off, len, keys, outs) -> (uniques, slow_rows): picks a few top-level keys
 * out of many small JSON objects (the args of device tasks) without building Python objects.
 * Row r is the object at buffer[off[r]:off[r]+len[r]] (len 0: no args). For key k, outs[k][r]
 * (int32) is the code of the value's raw JSON text in uniques[k] (in order of first occurrence),
 * or -1 when the object lacks the key; a repeated key keeps the last value, as a JSON decoder
 * does. Rows that are not plain objects, or whose keys are escaped, go to slow_rows (their codes
 * stay -1) for Python to decode exactly. Optional ``ints``: a tuple holding, per key, None or an
 * int64 array; where given, a value that is a canonical integer, as a JSON number or a string of
 * digits, is written there with code -2 instead of being interned (task ids: many distinct
 * values). Runs without the GIL. */
#define MAX_PICK 8
static PyObject *arg_values(PyObject *self, PyObject *args)
{
    Py_buffer in, ob, lb, outs[MAX_PICK], ibuf[MAX_PICK];
    PyObject *keys, *outl, *intl = Py_None, *uniques = NULL, *slow = NULL, *result = NULL;
    int has_int[MAX_PICK] = {0};
    Interner tab[MAX_PICK];
    const char *kp[MAX_PICK];
    Py_ssize_t kn[MAX_PICK];
    int nk = 0, nbuf = 0, ntab = 0, oom = 0;
    Py_ssize_t rows = 0, *slow_rows = NULL, n_slow = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*y*OO|O:arg_values", &in, &ob, &lb, &keys, &outl, &intl))
        return NULL;
    if (!PyTuple_Check(keys) || !PyTuple_Check(outl) || PyTuple_GET_SIZE(keys) != PyTuple_GET_SIZE(outl) ||
        PyTuple_GET_SIZE(keys) > MAX_PICK || ob.len % 8 || lb.len != ob.len ||
        (intl != Py_None && (!PyTuple_Check(intl) || PyTuple_GET_SIZE(intl) != PyTuple_GET_SIZE(keys)))) {
        PyErr_SetString(PyExc_ValueError, "arg_values: bad arguments");
        goto fail;
    }
    nk = (int)PyTuple_GET_SIZE(keys);
    rows = ob.len / 8;
    for (int k = 0; k < nk; k++) {
        PyObject *key = PyTuple_GET_ITEM(keys, k);
        if (!PyBytes_Check(key)) {
            PyErr_SetString(PyExc_TypeError, "arg_values: keys must be bytes");
            goto fail;
        }
        kp[k] = PyBytes_AS_STRING(key);
        kn[k] = PyBytes_GET_SIZE(key);
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(outl, k), &outs[k], PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0)
            goto fail;
        nbuf = k + 1;
        if (outs[k].len != rows * 4) {
            PyErr_SetString(PyExc_ValueError, "arg_values: an output array has the wrong size");
            goto fail;
        }
        if (intl != Py_None && PyTuple_GET_ITEM(intl, k) != Py_None) {
            if (PyObject_GetBuffer(PyTuple_GET_ITEM(intl, k), &ibuf[k], PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0)
                goto fail;
            has_int[k] = 1;
            if (ibuf[k].len != rows * 8) {
                PyErr_SetString(PyExc_ValueError, "arg_values: an int array has the wrong size");
                goto fail;
            }
        }
    }
    for (int k = 0; k < nk; k++) {
        if (interner_init(&tab[k]) < 0) {
            ntab = k + 1;
            PyErr_NoMemory();
            goto fail;
        }
        ntab = k + 1;
    }
    slow_rows = (Py_ssize_t *)malloc(sizeof(Py_ssize_t) * (rows ? rows : 1));
    if (!slow_rows) {
        PyErr_NoMemory();
        goto fail;
    }
    const unsigned char *b = (const unsigned char *)in.buf;
    const int64_t *off = (const int64_t *)ob.buf, *len = (const int64_t *)lb.buf;
    int bounds_bad = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t r = 0; r < rows && !oom && !bounds_bad; r++) {
        for (int k = 0; k < nk; k++)
            ((int32_t *)outs[k].buf)[r] = -1;
        if (len[r] <= 0)
            continue;
        if (off[r] < 0 || off[r] + len[r] > in.len) {
            bounds_bad = 1;
            break;
        }
        const unsigned char *p = b + off[r];
        Py_ssize_t n = (Py_ssize_t)len[r], i = ws(p, 0, n);
        int32_t got[MAX_PICK];
        int64_t ival[MAX_PICK];
        int ok = 0, fl;
        for (int k = 0; k < nk; k++)
            got[k] = -1;
        if (i >= n || p[i] != '{')
            goto row_done;
        i = ws(p, i + 1, n);
        if (i < n && p[i] == '}') {
            ok = ws(p, i + 1, n) == n;
            goto row_done;
        }
        for (;;) {
            if (i >= n || p[i] != '"')
                goto row_done;
            Py_ssize_t ks = i + 1, ke = scan_str(p, ks, n, &fl);
            if (ke < 0 || (fl & F_ESC))
                goto row_done;
            i = ws(p, ke, n);
            if (i >= n || p[i] != ':')
                goto row_done;
            Py_ssize_t vs = ws(p, i + 1, n), ve = skip_value(p, vs, n, 1);
            if (ve < 0)
                goto row_done;
            Py_ssize_t klen = ke - 1 - ks;
            for (int k = 0; k < nk; k++) {
                if (klen == kn[k] && memcmp(p + ks, kp[k], (size_t)klen) == 0) {
                    if (has_int[k] && ((p[vs] != '"' && canonical_i64(p + vs, ve - vs, &ival[k])) ||
                                       (p[vs] == '"' && p[vs + 1] != '-' &&
                                        canonical_i64(p + vs + 1, ve - vs - 2, &ival[k])))) {
                        got[k] = -2;
                        continue;
                    }
                    got[k] = intern(&tab[k], p + vs, (size_t)(ve - vs));
                    if (got[k] < 0)
                        oom = 1;
                }
            }
            i = ws(p, ve, n);
            if (i >= n)
                goto row_done;
            if (p[i] == '}') {
                ok = ws(p, i + 1, n) == n;
                break;
            }
            if (p[i] != ',')
                goto row_done;
            i = ws(p, i + 1, n);
        }
    row_done:
        if (ok) {
            for (int k = 0; k < nk; k++) {
                ((int32_t *)outs[k].buf)[r] = got[k];
                if (got[k] == -2)
                    ((int64_t *)ibuf[k].buf)[r] = ival[k];
            }
        } else {
            slow_rows[n_slow++] = r;
        }
    }
    Py_END_ALLOW_THREADS
    if (oom) {
        PyErr_NoMemory();
        goto fail;
    }
    if (bounds_bad) {
        PyErr_SetString(PyExc_ValueError, "arg_values: an (offset, length) lies outside the buffer");
        goto fail;
    }
    uniques = PyList_New(nk);
    slow = PyList_New(n_slow);
    if (!uniques || !slow)
        goto fail;
    for (Py_ssize_t j = 0; j < n_slow; j++) {
        PyObject *v = PyLong_FromSsize_t(slow_rows[j]);
        if (!v)
            goto fail;
        PyList_SET_ITEM(slow, j, v);
    }
    for (int k = 0; k < nk; k++) {
        Interner *t = &tab[k];
        PyObject *lst = PyList_New((Py_ssize_t)t->n);
        if (!lst)
            goto fail;
        PyList_SET_ITEM(uniques, k, lst);
        for (size_t e = 0; e < t->n; e++) {
            PyObject *v = PyBytes_FromStringAndSize(t->keys + t->ent[e].off, (Py_ssize_t)t->ent[e].len);
            if (!v)
                goto fail;
            PyList_SET_ITEM(lst, (Py_ssize_t)e, v);
        }
    }
    result = Py_BuildValue("(OO)", uniques, slow);
fail:  /* and success: one cleanup */
    Py_XDECREF(uniques);
    Py_XDECREF(slow);
    for (int k = 0; k < ntab; k++)
        interner_free(&tab[k]);
    for (int k = 0; k < nbuf; k++) {
        PyBuffer_Release(&outs[k]);
        if (has_int[k])
            PyBuffer_Release(&ibuf[k]);
    }
    free(slow_rows);
    PyBuffer_Release(&in);
    PyBuffer_Release(&ob);
    PyBuffer_Release(&lb);
    return result;
}

static PyMethodDef module_methods[] = {
    {"first_codes", first_codes, METH_VARARGS,
     "first_codes(items: list[str], index: int64 buffer, out: int32 buffer) -> uniques\n\n"
     "out[k] = code of items[index[k]], codes numbered in order of first occurrence (like\n"
     "dict.setdefault(v, len(d))); returns the distinct values in that order."},
    {"collect", collect, METH_VARARGS,
     "collect(buffer, columns, n_x, n_flow_starts) -> (args_blob, flow_names, n_undecoded_names) of a scan."},
    {"nest", nest, METH_VARARGS,
     "nest(lane, start, dur, depth_out, parent_out) -> (max depth, max doubled end, overflowed)\n"
     "(see _trace_merge._depth_parent)."},
    {"bind", bind, METH_VARARGS,
     "bind(lane, start, end, parent, p_lane, p_ts, enclosing, out) (see _trace_merge.bind_points)."},
    {"arg_values", arg_values, METH_VARARGS,
     "arg_values(buffer, off: int64, len: int64, keys: tuple[bytes], outs: tuple[int32]) -> (uniques, slow_rows)\n"
     "(see the comment above the function)."},
    {"decimal_texts", decimal_texts, METH_O,
     "decimal_texts(values: int64 buffer) -> (bytes, width): the values' decimal texts as the buffer\n"
     "of a numpy 'S<width>' array (width of the longest text, at least 1)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastscan",
                                    "Compiled scanner for Chrome-trace event arrays (see timeline.py).", -1,
                                    module_methods};

PyMODINIT_FUNC PyInit__fastscan(void)
{
    for (int c = 0; c < 256; c++)
        STR_SPECIAL[c] = c < 0x20 || c == '"' || c == '\\';
    IS_WS[' '] = IS_WS['\t'] = IS_WS['\n'] = IS_WS['\r'] = 1;
    if (PyType_Ready(&ScannerType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    Py_INCREF(&ScannerType);
    if (PyModule_AddObject(m, "Scanner", (PyObject *)&ScannerType) < 0) {
        Py_DECREF(&ScannerType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "N_COLUMNS", N_COLS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
