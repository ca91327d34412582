/* The solitaire search kernel in C: the same algorithm as kernel.PyKernel, step for step.
 * Positions are 128-bit masks (boards up to 128 cells). One search context per process. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;
#define MAXC 128
#define MAXJ 12
#define MAXP 16
#define MAXT 8
#define MAXS 12
#define MAXPATH 48
#define MAXMOVES 8192
#define MAXDEPTH 64
#define PROGRESS_EVERY (1 << 14)
#define INFINITE (1 << 30)

typedef struct { u128 pos; int16_t last; int16_t budget; int32_t used; } Entry;
typedef struct { u128 pos; int to; int len; int order; unsigned char path[MAXPATH]; } MoveRec;

static int ncells, njumps[MAXC], jover[MAXC][MAXJ], jto[MAXC][MAXJ];
static u128 unjumpable, targets[MAXT], near[MAXC], classmask[MAXC];
static int nclasses, jumpers[MAXC];
static int ntargets, npag, nsym;
static long long pag[MAXP][MAXC], needs[MAXT][MAXP];
static int sym[MAXS][MAXC];
static u128 symbytes[MAXS][16][256];
static Entry *table; static uint64_t table_mask, table_used;
static long long nodes;
static PyObject *progress;
static MoveRec *movebuf[MAXDEPTH];


static inline int popcount128(u128 x) { return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64)); }
static inline u128 bit(int c) { return ((u128)1) << c; }
static inline int lowbit(u128 x) { uint64_t lo = (uint64_t)x; return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64)); }

static u128 from_py(PyObject *o, int *err) {
    PyObject *mask64 = PyLong_FromUnsignedLongLong(~0ULL), *sixty4 = PyLong_FromLong(64);
    PyObject *lo = PyNumber_And(o, mask64), *shifted = PyNumber_Rshift(o, sixty4);
    u128 r = 0;
    if (lo && shifted) r = ((u128)PyLong_AsUnsignedLongLong(shifted) << 64) | PyLong_AsUnsignedLongLong(lo);
    if (PyErr_Occurred()) *err = 1;
    Py_XDECREF(mask64); Py_XDECREF(sixty4); Py_XDECREF(lo); Py_XDECREF(shifted);
    return r;
}

static PyObject *to_py(u128 x) {
    PyObject *hi = PyLong_FromUnsignedLongLong((uint64_t)(x >> 64)), *lo = PyLong_FromUnsignedLongLong((uint64_t)x);
    PyObject *sixty4 = PyLong_FromLong(64), *shifted = PyNumber_Lshift(hi, sixty4), *r = PyNumber_Or(shifted, lo);
    Py_DECREF(hi); Py_DECREF(lo); Py_DECREF(sixty4); Py_DECREF(shifted);
    return r;
}

static inline uint64_t hash_key(u128 pos, int last) {
    uint64_t h = (uint64_t)pos * 0x9E3779B97F4A7C15ULL ^ (uint64_t)(pos >> 64) * 0xC2B2AE3D27D4EB4FULL ^ (uint64_t)(last + 1) * 0x165667B19E3779F9ULL;
    return h ^ (h >> 29);
}

/* The moves found so far in gen_moves, by (position, end): a hash set cleared by bumping its generation. */
#define SEEN_SLOTS (1 << 15)
static uint32_t seen_gen[SEEN_SLOTS], generation;
static int seen_idx[SEEN_SLOTS];

static int gen_moves(u128 pos, int last, MoveRec *out) {
    int n = 0;
    if (++generation == 0) { memset(seen_gen, 0, sizeof seen_gen); generation = 1; }
    struct { int at; u128 rest; int len; unsigned char path[MAXPATH]; } stack[512];
    for (u128 bits = pos; bits; bits &= bits - 1) {
        int start = lowbit(bits);
        if (start == last) continue;
        int sp = 0;
        stack[0].at = start; stack[0].rest = pos ^ bit(start); stack[0].len = 1; stack[0].path[0] = (unsigned char)start;
        sp = 1;
        while (sp) {
            sp--;
            int at = stack[sp].at, len = stack[sp].len; u128 rest = stack[sp].rest;
            unsigned char path[MAXPATH]; memcpy(path, stack[sp].path, len);
            for (int j = njumps[at] - 1; j >= 0; j--) {
                int over = jover[at][j], to = jto[at][j];
                if (!((rest >> over) & 1) || ((rest >> to) & 1) || len >= MAXPATH) continue;
                u128 after = rest ^ bit(over), result = after | bit(to);
                int dup = 0;
                uint64_t slot = hash_key(result, to) & (SEEN_SLOTS - 1);
                for (; seen_gen[slot] == generation; slot = (slot + 1) & (SEEN_SLOTS - 1)) {
                    MoveRec *m = &out[seen_idx[slot]];
                    if (m->pos == result && m->to == to) { dup = 1; break; }
                }
                if (!dup && n < MAXMOVES) {
                    seen_gen[slot] = generation; seen_idx[slot] = n;
                    out[n].pos = result; out[n].to = to; out[n].len = len + 1; out[n].order = n;
                    memcpy(out[n].path, path, len); out[n].path[len] = (unsigned char)to; n++;
                }
                if (sp < 512) {
                    stack[sp].at = to; stack[sp].rest = after; stack[sp].len = len + 1;
                    memcpy(stack[sp].path, path, len); stack[sp].path[len] = (unsigned char)to; sp++;
                }
            }
        }
    }
    /* stable insertion sort: longest chains first */
    for (int i = 1; i < n; i++) {
        MoveRec m = out[i]; int k = i - 1;
        while (k >= 0 && out[k].len < m.len) { out[k + 1] = out[k]; k--; }
        out[k + 1] = m;
    }
    return n;
}

/* Is every stone of `outside` in the cluster of `pos` (stones two steps apart) holding its first stone? */
static int one_cluster(u128 pos, u128 outside) {
    if (!outside) return 1;
    u128 low = outside & (~outside + 1), cluster = low, frontier = low;
    while (frontier) {
        u128 reach = 0;
        for (; frontier; frontier &= frontier - 1) reach |= near[lowbit(frontier)];
        frontier = reach & pos & ~cluster;
        cluster |= frontier;
    }
    return (outside & ~cluster) == 0;
}

/* At least one move, and the moves each jump class must make, summed over the classes (PyKernel.moves_needed). */
static int moves_needed(u128 pos, u128 target) {
    int per_class[MAXC], wanted[MAXC], nwanted = 0, sum = 0, loose = 0;
    for (int k = 0; k < nclasses; k++) {
        int empty = popcount128(target & classmask[k] & ~pos), stuck = popcount128(pos & unjumpable & classmask[k] & ~target);
        per_class[k] = empty > stuck ? empty : stuck;
    }
    for (int k = 0; k < nclasses; k++) {
        if (popcount128(pos & classmask[k]) <= popcount128(target & classmask[k])) continue;
        int movers = (target & classmask[k]) ? jumpers[k] : jumpers[k] & ~(1 << k);
        if (!movers) return INFINITE;
        wanted[nwanted++] = movers;
    }
    for (int w = 0; w < nwanted; w++)
        if (__builtin_popcount(wanted[w]) == 1) { int j = __builtin_ctz(wanted[w]); if (per_class[j] < 1) per_class[j] = 1; }
    for (int w = 0; w < nwanted; w++) {
        int hit = 0;
        for (int j = 0; j < nclasses; j++) if (((wanted[w] >> j) & 1) && per_class[j]) hit = 1;
        if (!hit) loose = 1;
    }
    for (int k = 0; k < nclasses; k++) sum += per_class[k];
    sum += loose;
    return sum < 1 ? 1 : sum;
}

static int bound(u128 pos) {
    long long values[MAXP];
    for (int t = 0; t < ntargets; t++) if (pos == targets[t]) return 0;
    for (int p = 0; p < npag; p++) {
        long long s = 0;
        for (u128 bits = pos; bits; bits &= bits - 1) s += pag[p][lowbit(bits)];
        values[p] = s;
    }
    int best = INFINITE, count = popcount128(pos);
    for (int t = 0; t < ntargets; t++) {
        if (count <= popcount128(targets[t])) continue;
        int ok = 1;
        for (int p = 0; p < npag; p++) if (values[p] < needs[t][p]) { ok = 0; break; }
        if (!ok) continue;
        int h = moves_needed(pos, targets[t]);
        if (h == 1 && !one_cluster(pos, pos & ~targets[t])) h = 2;
        if (h < best) best = h;
    }
    return best;
}

static void canon(u128 pos, int last, u128 *kpos, int *klast) {
    int first = 1;
    for (int s = 0; s < nsym; s++) {
        u128 image = 0, bits = pos;
        for (int k = 0; bits; k++, bits >>= 8) image |= symbytes[s][k][(int)(bits & 255)];
        int l = last >= 0 ? sym[s][last] : -1;
        if (first || image < *kpos || (image == *kpos && l < *klast)) { *kpos = image; *klast = l; first = 0; }
    }
}

static Entry *lookup(u128 pos, int last, int create) {
    uint64_t h = hash_key(pos, last);
    Entry *weakest = NULL;
    for (int probe = 0; probe < 16; probe++) {
        Entry *e = &table[(h + probe) & table_mask];
        if (!e->used) {
            if (!create) return NULL;
            e->used = 1; e->pos = pos; e->last = (int16_t)last; e->budget = -1; table_used++;
            return e;
        }
        if (e->pos == pos && e->last == last) return e;
        if (!weakest || e->budget < weakest->budget) weakest = e;
    }
    if (!create) return NULL;
    weakest->pos = pos; weakest->last = (int16_t)last; weakest->budget = -1;
    return weakest;
}


static int solution_len;
static unsigned char solution[MAXDEPTH][MAXPATH];
static int solution_lens[MAXDEPTH];

/* Is there one move from pos (not by the stone on `last`) that ends on a target? Fills solution[ply] if so.
 * A depth-first walk over every chain, in gen_moves' order, with no list of moves kept. */
static int one_move(u128 pos, int last, int ply) {
    int need = 0;
    u128 movers = 0;  /* a last move ends on the target's one empty node, so its mover is of that node's class */
    for (int t = 0; t < ntargets; t++) {
        int k = popcount128(pos) - popcount128(targets[t]);
        if (k > need) need = k;
        u128 empty = targets[t] & ~pos;
        if (!empty) movers = pos;
        else if (!(empty & (empty - 1))) for (int c = 0; c < nclasses; c++) if (classmask[c] & empty) movers |= classmask[c];
    }
    struct { int at; u128 rest; int len; unsigned char path[MAXPATH]; } stack[512];
    for (u128 bits = pos & movers; bits; bits &= bits - 1) {
        int start = lowbit(bits);
        if (start == last) continue;
        stack[0].at = start; stack[0].rest = pos ^ bit(start); stack[0].len = 1; stack[0].path[0] = (unsigned char)start;
        int sp = 1;
        while (sp) {
            sp--;
            int at = stack[sp].at, len = stack[sp].len; u128 rest = stack[sp].rest;
            unsigned char path[MAXPATH]; memcpy(path, stack[sp].path, len);
            for (int j = njumps[at] - 1; j >= 0; j--) {
                int over = jover[at][j], to = jto[at][j];
                if (!((rest >> over) & 1) || ((rest >> to) & 1) || len >= MAXPATH) continue;
                u128 after = rest ^ bit(over), result = after | bit(to);
                for (int t = 0; t < ntargets; t++) if (result == targets[t]) {
                    memcpy(solution[ply], path, len); solution[ply][len] = (unsigned char)to;
                    solution_lens[ply] = len + 1; solution_len = ply + 1;
                    return 1;
                }
                if (len < need && sp < 512) {
                    stack[sp].at = to; stack[sp].rest = after; stack[sp].len = len + 1;
                    memcpy(stack[sp].path, path, len); stack[sp].path[len] = (unsigned char)to; sp++;
                }
            }
        }
    }
    return 0;
}

/* 1: solved (solution filled from `ply`), 0: none, -1: error (Python exception set) */
static int search(u128 pos, int last, int budget, int ply) {
    nodes++;
    if (progress && nodes % PROGRESS_EVERY == 0) {
        PyObject *r = PyObject_CallFunction(progress, "LK", nodes, (unsigned long long)table_used);
        if (!r) return -1;
        Py_DECREF(r);
    }
    for (int t = 0; t < ntargets; t++) if (pos == targets[t]) { solution_len = ply; return 1; }
    if (budget == 0 || bound(pos) > budget) return 0;
    if (budget == 1) return one_move(pos, last, ply);
    u128 kpos = 0; int klast = -1;
    canon(pos, last, &kpos, &klast);
    Entry *e = lookup(kpos, klast, 0);
    if (e && e->budget >= budget) return 0;
    if (ply >= MAXDEPTH) return 0;
    MoveRec *moves = movebuf[ply];
    int n = gen_moves(pos, last, moves);
    for (int i = 0; i < n; i++) {
        int r = search(moves[i].pos, moves[i].to, budget - 1, ply + 1);
        if (r < 0) return -1;
        if (r == 1) {
            memcpy(solution[ply], moves[i].path, moves[i].len); solution_lens[ply] = moves[i].len;
            return 1;
        }
    }
    e = lookup(kpos, klast, 1);
    if (e->budget < budget) e->budget = (int16_t)budget;
    return 0;
}

static int read_int_rows(PyObject *rows, int maxrows, int maxcols, long long *dst, int stride, int *count) {
    PyObject *seq = PySequence_Fast(rows, "expected a sequence");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > maxrows) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "too many rows"); return -1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, i), "expected a row");
        if (!row) { Py_DECREF(seq); return -1; }
        Py_ssize_t m = PySequence_Fast_GET_SIZE(row);
        if (m > maxcols) { Py_DECREF(row); Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "row too long"); return -1; }
        for (Py_ssize_t j = 0; j < m; j++) dst[i * stride + j] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(row, j));
        Py_DECREF(row);
    }
    Py_DECREF(seq);
    *count = (int)n;
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *py_setup(PyObject *self, PyObject *args) {
    PyObject *jumps, *pyunj, *pags, *pytargets, *pyneeds, *syms, *pyclasses, *pyjumpers, *pynear, *prog; int table_bits;
    if (!PyArg_ParseTuple(args, "iOOOOOOOOOOi", &ncells, &jumps, &pyunj, &pags, &pytargets, &pyneeds, &syms, &pyclasses,
                          &pyjumpers, &pynear, &prog, &table_bits)) return NULL;
    if (ncells > MAXC || table_bits < 10 || table_bits > 30) { PyErr_SetString(PyExc_ValueError, "board or table size out of range"); return NULL; }
    int err = 0, count = 0;
    static long long jrows[MAXC][2 * MAXJ];
    for (int c = 0; c < ncells; c++) {
        PyObject *row = PySequence_GetItem(jumps, c);
        if (!row) return NULL;
        Py_ssize_t m = PySequence_Size(row);
        if (m > MAXJ) { Py_DECREF(row); PyErr_SetString(PyExc_ValueError, "too many jumps"); return NULL; }
        njumps[c] = (int)m;
        for (Py_ssize_t j = 0; j < m; j++) {
            PyObject *pair = PySequence_GetItem(row, j);
            PyObject *a = PySequence_GetItem(pair, 0), *b = PySequence_GetItem(pair, 1);
            jover[c][j] = (int)PyLong_AsLong(a); jto[c][j] = (int)PyLong_AsLong(b);
            Py_XDECREF(a); Py_XDECREF(b); Py_XDECREF(pair);
        }
        Py_DECREF(row);
    }
    (void)jrows;
    unjumpable = from_py(pyunj, &err);
    nclasses = (int)PySequence_Size(pyclasses);
    if (nclasses < 1 || nclasses > 30 || PySequence_Size(pyjumpers) != nclasses) { PyErr_SetString(PyExc_ValueError, "classes out of range"); return NULL; }
    for (int k = 0; k < nclasses; k++) {
        PyObject *o = PySequence_GetItem(pyclasses, k), *j = PySequence_GetItem(pyjumpers, k);
        classmask[k] = o ? from_py(o, &err) : 0; jumpers[k] = j ? (int)PyLong_AsLong(j) : 0;
        Py_XDECREF(o); Py_XDECREF(j);
    }
    if (PySequence_Size(pynear) != ncells) { PyErr_SetString(PyExc_ValueError, "near masks out of range"); return NULL; }
    for (int c = 0; c < ncells; c++) { PyObject *o = PySequence_GetItem(pynear, c); near[c] = o ? from_py(o, &err) : 0; Py_XDECREF(o); }
    if (read_int_rows(pags, MAXP, MAXC, &pag[0][0], MAXC, &npag) < 0) return NULL;
    if (read_int_rows(pyneeds, MAXT, MAXP, &needs[0][0], MAXP, &count) < 0) return NULL;
    Py_ssize_t nt = PySequence_Size(pytargets);
    if (nt > MAXT || nt != count) { PyErr_SetString(PyExc_ValueError, "targets out of range"); return NULL; }
    ntargets = (int)nt;
    for (int t = 0; t < ntargets; t++) { PyObject *o = PySequence_GetItem(pytargets, t); targets[t] = from_py(o, &err); Py_XDECREF(o); }
    static long long srows[MAXS][MAXC];
    if (read_int_rows(syms, MAXS, MAXC, &srows[0][0], MAXC, &nsym) < 0) return NULL;
    for (int s = 0; s < nsym; s++) {
        for (int c = 0; c < ncells; c++) sym[s][c] = (int)srows[s][c];
        for (int k = 0; k < 16; k++) for (int v = 0; v < 256; v++) {
            u128 img = 0;
            for (int b = 0; b < 8; b++) { int c = 8 * k + b; if (((v >> b) & 1) && c < ncells) img |= bit(sym[s][c]); }
            symbytes[s][k][v] = img;
        }
    }
    if (err || PyErr_Occurred()) return NULL;
    free(table);
    table = calloc((size_t)1 << table_bits, sizeof(Entry));
    if (!table) return PyErr_NoMemory();
    table_mask = ((uint64_t)1 << table_bits) - 1; table_used = 0; nodes = 0;
    for (int d = 0; d < MAXDEPTH; d++) if (!movebuf[d]) {
        movebuf[d] = malloc(sizeof(MoveRec) * MAXMOVES);
        if (!movebuf[d]) {  /* give every byte back, so a fall back to the pure-Python kernel has the memory */
            free(table); table = NULL;
            for (int e = 0; e < d; e++) { free(movebuf[e]); movebuf[e] = NULL; }
            return PyErr_NoMemory();
        }
    }
    Py_XDECREF(progress);
    progress = prog == Py_None ? NULL : prog; Py_XINCREF(progress);
    Py_RETURN_NONE;
}

static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *pypos; int last, budget, err = 0;
    if (!PyArg_ParseTuple(args, "Oii", &pypos, &last, &budget)) return NULL;
    if (!table) { PyErr_SetString(PyExc_RuntimeError, "setup first"); return NULL; }
    u128 pos = from_py(pypos, &err);
    if (err) return NULL;
    int r = search(pos, last, budget, 0);
    if (r < 0) return NULL;
    if (r == 0) Py_RETURN_NONE;
    PyObject *out = PyList_New(solution_len);
    for (int i = 0; i < solution_len; i++) {
        PyObject *path = PyTuple_New(solution_lens[i]);
        for (int j = 0; j < solution_lens[i]; j++) PyTuple_SET_ITEM(path, j, PyLong_FromLong(solution[i][j]));
        PyList_SET_ITEM(out, i, path);
    }
    return out;
}

static PyObject *py_moves(PyObject *self, PyObject *args) {
    PyObject *pypos; int last, err = 0;
    if (!PyArg_ParseTuple(args, "Oi", &pypos, &last)) return NULL;
    if (!movebuf[MAXDEPTH - 1]) { PyErr_SetString(PyExc_RuntimeError, "setup first"); return NULL; }
    u128 pos = from_py(pypos, &err);
    if (err) return NULL;
    MoveRec *moves = movebuf[MAXDEPTH - 1];
    int n = gen_moves(pos, last, moves);
    PyObject *out = PyList_New(n);
    for (int i = 0; i < n; i++) {
        PyObject *path = PyTuple_New(moves[i].len);
        for (int j = 0; j < moves[i].len; j++) PyTuple_SET_ITEM(path, j, PyLong_FromLong(moves[i].path[j]));
        PyList_SET_ITEM(out, i, Py_BuildValue("NiN", to_py(moves[i].pos), moves[i].to, path));
    }
    return out;
}

static PyObject *py_bound(PyObject *self, PyObject *args) {
    PyObject *pypos; int err = 0;
    if (!PyArg_ParseTuple(args, "O", &pypos)) return NULL;
    u128 pos = from_py(pypos, &err);
    if (err) return NULL;
    return PyLong_FromLong(bound(pos));
}

static PyObject *py_stats(PyObject *self, PyObject *noargs) { return Py_BuildValue("LK", nodes, (unsigned long long)table_used); }

static PyMethodDef methods[] = {
    {"setup", py_setup, METH_VARARGS, "Load the tables of one goal and clear the transposition table."},
    {"search", py_search, METH_VARARGS, "Search from (position, last, budget): the solution's paths or None."},
    {"moves", py_moves, METH_VARARGS, "Every move from (position, last) as (after, end, path)."},
    {"bound", py_bound, METH_VARARGS, "The admissible lower bound of a position."},
    {"stats", py_stats, METH_NOARGS, "(nodes searched, table entries)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_solvecore", "The solitaire search kernel.", -1, methods};

PyMODINIT_FUNC PyInit__solvecore(void) { return PyModule_Create(&module); }
