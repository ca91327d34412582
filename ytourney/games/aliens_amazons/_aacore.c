/* Optional C core of Aliens and Amazons: the kernel (legal actions, apply, undo, the end, the key) and the
 * knowledge's playout policy and evaluation, agreeing move for move with the pure-Python kernel.py and policy.py.
 *
 * ytourney.games.aliens_amazons.core builds one `Tables` per board (the step and jump tables, the terminations to
 * hand back) and wraps `Kernel` in a thin Python subclass.  Actions are the Python kernel's: a placement is its
 * node, a step or a jump chain `encode_path` of its nodes (1 | 9-bit node+1 fields from bit 10), chains of more than
 * six nodes are Python ints above 64 bits.  The playouts draw from splitmix64 as policy.SplitMix64 does, so the C
 * and the Python rollouts of a seed play the same moves and return the same value.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../core_common.h"

/* The evaluation must round as Python does: no fused multiply-adds. */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#define EMPTY 0
#define AMAZON 1
#define ALIEN 2
#define N_ALIENS 3
#define N_AMAZONS 30
#define NODE_BITS 9
#define NODE_LIMIT 512
#define FIRST_SHIFT 10
#define MAX_NODES 128
#define MAX_NEIGHBORS 8
#define MAX_JUMPS 16
#define ONGOING (-1)
#define DRAW 0
#define MAX_CHAIN 1024 /* kernel.MAX_CHAIN: the most nodes a chain's path can have (a capture lets it revisit) */
#define SMALL_PATH 6 /* nodes a packed path may have and still fit 64 bits */
#define POLICY_TRIES 16

enum { END_NONE = 0, END_CAPTURES, END_IMMOBILIZED, END_MOVE_LIMIT, END_NO_MOVES, END_COUNT };

/* policy.py's constants */
#define GREED 0.8
#define CAPTURE_WEIGHT 0.3
#define HOLE_WEIGHT 0.12
#define SPACE_WEIGHT 0.03
#define LOOSE_WEIGHT 0.15
#define TRAP_WEIGHT 0.5
#define FAR_WEIGHT 0.05
#define LOOSE_SLACK 1

/* --- bit masks over at most 128 nodes -------------------------------------------------------------------------- */

typedef struct {
    uint64_t w[2];
} Mask;

static inline int m_has(const Mask *m, int i) { return (int)((m->w[i >> 6] >> (i & 63)) & 1u); }
static inline void m_set(Mask *m, int i) { m->w[i >> 6] |= (uint64_t)1 << (i & 63); }
static inline void m_clear(Mask *m, int i) { m->w[i >> 6] &= ~((uint64_t)1 << (i & 63)); }
static inline Mask m_or(Mask a, Mask b) { Mask r = {{a.w[0] | b.w[0], a.w[1] | b.w[1]}}; return r; }
static inline Mask m_and(Mask a, Mask b) { Mask r = {{a.w[0] & b.w[0], a.w[1] & b.w[1]}}; return r; }
static inline Mask m_andnot(Mask a, Mask b) { Mask r = {{a.w[0] & ~b.w[0], a.w[1] & ~b.w[1]}}; return r; }
static inline int m_any(Mask a) { return (a.w[0] | a.w[1]) != 0; }

static inline int
popcount64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

static inline int m_count(Mask a) { return popcount64(a.w[0]) + popcount64(a.w[1]); }

static inline int
ctz64(uint64_t x) /* x != 0 */
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int i = 0;
    while (!(x & 1u)) {
        x >>= 1;
        i++;
    }
    return i;
#endif
}

/* Pops the lowest node of a mask (-1 when empty). */
static inline int
m_pop(Mask *m)
{
    if (m->w[0]) {
        int i = ctz64(m->w[0]);
        m->w[0] &= m->w[0] - 1;
        return i;
    }
    if (m->w[1]) {
        int i = ctz64(m->w[1]);
        m->w[1] &= m->w[1] - 1;
        return 64 + i;
    }
    return -1;
}

/* --- splitmix64, as policy.SplitMix64 ------------------------------------------------------------------------ */

static inline double
rng_random(uint64_t *state)
{
    return (double)(core_splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
}

static inline Py_ssize_t
rng_below(uint64_t *state, Py_ssize_t n)
{
    return (Py_ssize_t)(core_splitmix64(state) % (uint64_t)n);
}

/* --- Tables: one board's step and jump tables ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    int n;
    uint8_t nneigh[MAX_NODES];
    uint8_t neigh[MAX_NODES][MAX_NEIGHBORS];
    uint8_t njump[MAX_NODES];
    uint8_t jump_over[MAX_NODES][MAX_JUMPS];
    uint8_t jump_land[MAX_NODES][MAX_JUMPS];
    uint16_t nover[MAX_NODES];
    uint16_t over_start[MAX_NODES];
    uint8_t over_from[MAX_NODES * MAX_JUMPS]; /* the jumps over each node: (from, landing) */
    uint8_t over_land[MAX_NODES * MAX_JUMPS];
    int16_t middle[MAX_NODES][MAX_NODES]; /* (from, landing) -> the node jumped over, -1 for none */
    Mask full;
    Mask neighmask[MAX_NODES];
    Mask need[MAX_NODES];
    Mask within3[MAX_NODES];
    Mask touched[MAX_NODES]; /* the nodes whose looseness a node's contents can change (policy.touched) */
    PyObject *places;          /* the action int of every placement (a tuple of n) */
    PyObject *steps;           /* the action int of every step, n rows of MAX_NEIGHBORS (None-padded tuple) */
    PyObject *terms[END_COUNT];  /* the Termination of each code (None for END_NONE) */
    PyObject *info;            /* the Python tables (KernelTables), for the wrapper's views */
    PyObject *table;           /* the board's Move table: action -> Move (a dict making the missing ones) */
    PyObject *place_moves;     /* the table's Move of every placement, as `places` */
    PyObject *step_moves;      /* the table's Move of every step, as `steps` */
} TablesObject;

static PyTypeObject TablesType;

static int
read_node(PyObject *item, int n, int *out)
{
    long value = PyLong_AsLong(item);
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (value < 0 || value >= n) {
        PyErr_Format(PyExc_ValueError, "node %ld is not on a board of %d nodes", value, n);
        return -1;
    }
    *out = (int)value;
    return 0;
}

/* Reads a sequence of n rows of node ints (each row at most `width`) into rows[i][j]; counts into counts[i]. */
static int
read_rows(PyObject *seq, int n, int width, uint8_t *rows, uint8_t *counts, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) {
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: %zd rows for %d nodes", what, PySequence_Fast_GET_SIZE(fast), n);
        Py_DECREF(fast);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, i), what);
        if (row == NULL) {
            Py_DECREF(fast);
            return -1;
        }
        Py_ssize_t len = PySequence_Fast_GET_SIZE(row);
        if (len > width) {
            PyErr_Format(PyExc_ValueError, "%s: node %d has %zd entries (at most %d)", what, i, len, width);
            Py_DECREF(row);
            Py_DECREF(fast);
            return -1;
        }
        for (Py_ssize_t j = 0; j < len; j++) {
            int node;
            if (read_node(PySequence_Fast_GET_ITEM(row, j), n, &node) < 0) {
                Py_DECREF(row);
                Py_DECREF(fast);
                return -1;
            }
            rows[i * width + j] = (uint8_t)node;
        }
        counts[i] = (uint8_t)len;
        Py_DECREF(row);
    }
    Py_DECREF(fast);
    return 0;
}

static int
read_masks(PyObject *seq, int n, Mask *masks, const char *what)
{
    static uint8_t rows[MAX_NODES * MAX_NODES];
    uint8_t counts[MAX_NODES];
    /* a static scratch is safe: the GIL is held and read_rows calls back into no Python code that could re-enter */
    if (read_rows(seq, n, MAX_NODES, rows, counts, what) < 0) {
        return -1;
    }
    for (int i = 0; i < n; i++) {
        memset(&masks[i], 0, sizeof(Mask));
        for (int j = 0; j < counts[i]; j++) {
            m_set(&masks[i], rows[i * MAX_NODES + j]);
        }
    }
    return 0;
}

static PyObject *encode_small(const uint8_t *path, int len);

static PyObject *
Tables_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"neighbors", "jumps", "need", "within", "terminations", "info", "moves", NULL};
    PyObject *neighbors, *jumps, *need, *within, *terms, *info, *moves;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOOO!:Tables", kwlist, &neighbors, &jumps, &need, &within,
                                     &terms, &info, &PyDict_Type, &moves)) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Size(neighbors);
    if (n < 0) {
        return NULL;
    }
    if (n < 1 || n > MAX_NODES) {
        PyErr_Format(PyExc_ValueError, "a board of %zd nodes (this core takes 1 to %d)", n, MAX_NODES);
        return NULL;
    }
    if (!PyTuple_Check(terms) || PyTuple_GET_SIZE(terms) != END_COUNT - 1) {
        PyErr_SetString(PyExc_TypeError, "terminations must be a tuple (captures, immobilized, move limit, no moves)");
        return NULL;
    }
    TablesObject *self = (TablesObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->n = (int)n;
    if (read_rows(neighbors, self->n, MAX_NEIGHBORS, &self->neigh[0][0], self->nneigh, "neighbors") < 0) {
        goto fail;
    }
    {
        PyObject *fast = PySequence_Fast(jumps, "jumps");
        if (fast == NULL) {
            goto fail;
        }
        if (PySequence_Fast_GET_SIZE(fast) != n) {
            PyErr_SetString(PyExc_ValueError, "jumps: one row per node");
            Py_DECREF(fast);
            goto fail;
        }
        for (int a = 0; a < self->n; a++) {
            PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, a), "jumps");
            if (row == NULL) {
                Py_DECREF(fast);
                goto fail;
            }
            Py_ssize_t len = PySequence_Fast_GET_SIZE(row);
            if (len > MAX_JUMPS) {
                PyErr_Format(PyExc_ValueError, "jumps: node %d has %zd (at most %d)", a, len, MAX_JUMPS);
                Py_DECREF(row);
                Py_DECREF(fast);
                goto fail;
            }
            for (Py_ssize_t j = 0; j < len; j++) {
                PyObject *pair = PySequence_Fast_GET_ITEM(row, j);
                int over, land;
                if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
                    PyErr_SetString(PyExc_TypeError, "jumps: each jump is a tuple (over, landing)");
                    Py_DECREF(row);
                    Py_DECREF(fast);
                    goto fail;
                }
                if (read_node(PyTuple_GET_ITEM(pair, 0), self->n, &over) < 0 ||
                    read_node(PyTuple_GET_ITEM(pair, 1), self->n, &land) < 0) {
                    Py_DECREF(row);
                    Py_DECREF(fast);
                    goto fail;
                }
                self->jump_over[a][j] = (uint8_t)over;
                self->jump_land[a][j] = (uint8_t)land;
            }
            self->njump[a] = (uint8_t)len;
            Py_DECREF(row);
        }
        Py_DECREF(fast);
    }
    if (read_masks(need, self->n, self->need, "need") < 0 || read_masks(within, self->n, self->within3, "within") < 0) {
        goto fail;
    }
    for (int a = 0; a < self->n; a++) {
        m_set(&self->full, a);
        for (int j = 0; j < self->nneigh[a]; j++) {
            m_set(&self->neighmask[a], self->neigh[a][j]);
        }
        for (int c = 0; c < MAX_NODES; c++) {
            self->middle[a][c] = -1;
        }
    }
    for (int a = 0; a < self->n; a++) {
        for (int j = 0; j < self->njump[a]; j++) {
            int over = self->jump_over[a][j], land = self->jump_land[a][j];
            if (self->middle[a][land] < 0) { /* the first, as tables.py's setdefault */
                self->middle[a][land] = (int16_t)over;
            }
            self->nover[over]++;
        }
    }
    {
        int start = 0;
        uint16_t filled[MAX_NODES];
        for (int x = 0; x < self->n; x++) {
            self->over_start[x] = (uint16_t)start;
            start += self->nover[x];
            filled[x] = 0;
        }
        for (int a = 0; a < self->n; a++) {
            for (int j = 0; j < self->njump[a]; j++) {
                int x = self->jump_over[a][j];
                int at = self->over_start[x] + filled[x]++;
                self->over_from[at] = (uint8_t)a;
                self->over_land[at] = self->jump_land[a][j];
            }
        }
    }
    for (int x = 0; x < self->n; x++) {
        m_set(&self->touched[x], x);
        for (int i = self->over_start[x]; i < self->over_start[x] + self->nover[x]; i++) {
            m_set(&self->touched[self->over_from[i]], x);
            m_set(&self->touched[self->over_land[i]], x);
        }
    }
    self->table = Py_NewRef(moves);
    self->places = PyTuple_New(n);
    self->steps = PyTuple_New(n * MAX_NEIGHBORS);
    self->place_moves = PyTuple_New(n);
    self->step_moves = PyTuple_New(n * MAX_NEIGHBORS);
    if (self->places == NULL || self->steps == NULL || self->place_moves == NULL || self->step_moves == NULL) {
        goto fail;
    }
    for (int a = 0; a < self->n; a++) {
        PyObject *place = PyLong_FromLong(a);
        if (place == NULL) {
            goto fail;
        }
        PyTuple_SET_ITEM(self->places, a, place);
        PyObject *place_move = PyObject_GetItem(moves, place);
        if (place_move == NULL) {
            goto fail;
        }
        PyTuple_SET_ITEM(self->place_moves, a, place_move);
        for (int j = 0; j < MAX_NEIGHBORS; j++) {
            PyObject *step;
            if (j < self->nneigh[a]) {
                uint8_t path[2] = {(uint8_t)a, self->neigh[a][j]};
                step = encode_small(path, 2);
                if (step == NULL) {
                    goto fail;
                }
            }
            else {
                step = Py_NewRef(Py_None);
            }
            PyTuple_SET_ITEM(self->steps, a * MAX_NEIGHBORS + j, step);
            PyObject *step_move = step == Py_None ? Py_NewRef(Py_None) : PyObject_GetItem(moves, step);
            if (step_move == NULL) {
                goto fail;
            }
            PyTuple_SET_ITEM(self->step_moves, a * MAX_NEIGHBORS + j, step_move);
        }
    }
    self->terms[END_NONE] = Py_NewRef(Py_None);
    for (int i = 1; i < END_COUNT; i++) {
        self->terms[i] = Py_NewRef(PyTuple_GET_ITEM(terms, i - 1));
    }
    self->info = Py_NewRef(info);
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

static int
Tables_traverse(TablesObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->places);
    Py_VISIT(self->steps);
    for (int i = 0; i < END_COUNT; i++) {
        Py_VISIT(self->terms[i]);
    }
    Py_VISIT(self->info);
    Py_VISIT(self->table);
    Py_VISIT(self->place_moves);
    Py_VISIT(self->step_moves);
    return 0;
}

static int
Tables_clear(TablesObject *self)
{
    Py_CLEAR(self->places);
    Py_CLEAR(self->steps);
    for (int i = 0; i < END_COUNT; i++) {
        Py_CLEAR(self->terms[i]);
    }
    Py_CLEAR(self->info);
    Py_CLEAR(self->table);
    Py_CLEAR(self->place_moves);
    Py_CLEAR(self->step_moves);
    return 0;
}

static void
Tables_dealloc(TablesObject *self)
{
    PyObject_GC_UnTrack(self);
    Tables_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef Tables_members[] = {
    {"n", T_INT, offsetof(TablesObject, n), READONLY, PyDoc_STR("Nodes on the board.")},
    {"info", T_OBJECT, offsetof(TablesObject, info), READONLY, PyDoc_STR("The Python tables handed in.")},
    {NULL},
};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ytourney.games.aliens_amazons._aacore.Tables",
    .tp_doc = PyDoc_STR("Tables(neighbors, jumps, need, within, terminations, info, moves)\n--\n\n"
                        "One board's step and jump tables and its Move table, built once per board."),
    .tp_basicsize = sizeof(TablesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = Tables_new,
    .tp_dealloc = (destructor)Tables_dealloc,
    .tp_traverse = (traverseproc)Tables_traverse,
    .tp_clear = (inquiry)Tables_clear,
    .tp_members = Tables_members,
};

/* --- move buffers: paths of nodes -------------------------------------------------------------------------- */

typedef struct {
    uint8_t *nodes;
    int32_t *off;
    uint16_t *len;
    Py_ssize_t count, cap;
    Py_ssize_t used, room;
} MoveBuf;

static void
buf_free(MoveBuf *b)
{
    PyMem_Free(b->nodes);
    PyMem_Free(b->off);
    PyMem_Free(b->len);
    memset(b, 0, sizeof(*b));
}

/* Appends a path; -1 (MemoryError set) when out of memory. */
static int
buf_push(MoveBuf *b, const uint8_t *path, int len)
{
    if (b->count == b->cap) {
        Py_ssize_t cap = b->cap ? b->cap * 2 : 128;
        int32_t *off = PyMem_Realloc(b->off, (size_t)cap * sizeof(int32_t));
        if (off == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        b->off = off;
        uint16_t *lens = PyMem_Realloc(b->len, (size_t)cap * sizeof(uint16_t));
        if (lens == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        b->len = lens;
        b->cap = cap;
    }
    if (b->used + len > b->room) {
        Py_ssize_t room = b->room ? b->room * 2 : 1024;
        while (room < b->used + len) {
            room *= 2;
        }
        if (room > INT32_MAX) {
            PyErr_NoMemory();
            return -1;
        }
        uint8_t *nodes = PyMem_Realloc(b->nodes, (size_t)room);
        if (nodes == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        b->nodes = nodes;
        b->room = room;
    }
    memcpy(b->nodes + b->used, path, (size_t)len);
    b->off[b->count] = (int32_t)b->used;
    b->len[b->count] = (uint16_t)len;
    b->count++;
    b->used += len;
    return 0;
}

static inline void buf_reset(MoveBuf *b) { b->count = 0; b->used = 0; }
static inline const uint8_t *buf_path(const MoveBuf *b, Py_ssize_t i) { return b->nodes + b->off[i]; }

/* --- actions <-> paths ------------------------------------------------------------------------------------ */

/* The action int of a path of at most SMALL_PATH nodes. */
static PyObject *
encode_small(const uint8_t *path, int len)
{
    if (len == 1) {
        return PyLong_FromLong(path[0]);
    }
    uint64_t packed = 0;
    for (int i = len - 1; i >= 0; i--) {
        packed = (packed << NODE_BITS) | (uint64_t)(path[i] + 1);
    }
    return PyLong_FromUnsignedLongLong((packed << FIRST_SHIFT) | 1u);
}

static PyObject *
encode_path(const uint8_t *path, int len)
{
    if (len <= SMALL_PATH) {
        return encode_small(path, len);
    }
    /* rare: a chain past 64 bits, packed from its last node down with Python ints */
    PyObject *bits = PyLong_FromLong(NODE_BITS);
    PyObject *value = PyLong_FromLong(0);
    for (int i = len - 1; i >= -1 && bits != NULL && value != NULL; i--) {
        PyObject *field = PyLong_FromLong(i >= 0 ? path[i] + 1 : 0);
        PyObject *moved = field ? PyNumber_Lshift(value, bits) : NULL;
        PyObject *joined = moved ? PyNumber_Or(moved, field) : NULL;
        Py_XDECREF(field);
        Py_XDECREF(moved);
        Py_SETREF(value, joined);
    }
    Py_XDECREF(bits);
    if (value == NULL) {
        return NULL;
    }
    PyObject *one = PyLong_FromLong(1);
    PyObject *moved = one ? PyNumber_Lshift(value, one) : NULL;
    PyObject *done = moved ? PyNumber_Or(moved, one) : NULL;
    Py_XDECREF(one);
    Py_XDECREF(moved);
    Py_DECREF(value);
    return done;
}

/* Reads a non-negative Python int's packed path into `path` (nodes < n, at least two, capture field empty).
 * Returns its length, 0 when it is no such path, -1 on an error (set). */
static int
decode_big(PyObject *action, int n, uint8_t *path)
{
    int len = 0, result = 0;
    PyObject *low_mask = PyLong_FromLong((1L << FIRST_SHIFT) - 1);
    PyObject *chunk_mask = PyLong_FromUnsignedLongLong(((uint64_t)1 << (NODE_BITS * SMALL_PATH)) - 1);
    PyObject *first = PyLong_FromLong(FIRST_SHIFT);
    PyObject *width = PyLong_FromLong(NODE_BITS * SMALL_PATH);
    PyObject *rest = NULL, *low = NULL;
    if (!low_mask || !chunk_mask || !first || !width) {
        result = -1;
        goto done;
    }
    low = PyNumber_And(action, low_mask);
    if (low == NULL) {
        result = -1;
        goto done;
    }
    long bits = PyLong_AsLong(low);
    if (bits == -1 && PyErr_Occurred()) {
        result = -1;
        goto done;
    }
    if (bits != 1) { /* the packed flag alone: no capture field */
        goto done;
    }
    rest = PyNumber_Rshift(action, first);
    while (rest != NULL) {
        int nonzero = PyObject_IsTrue(rest);
        if (nonzero < 0) {
            result = -1;
            goto done;
        }
        if (!nonzero) {
            result = len >= 2 ? len : 0;
            goto done;
        }
        PyObject *part = PyNumber_And(rest, chunk_mask);
        if (part == NULL) {
            result = -1;
            goto done;
        }
        unsigned long long chunk = PyLong_AsUnsignedLongLong(part);
        Py_DECREF(part);
        if (chunk == (unsigned long long)-1 && PyErr_Occurred()) {
            result = -1;
            goto done;
        }
        Py_SETREF(rest, PyNumber_Rshift(rest, width));
        if (rest == NULL) {
            result = -1;
            goto done;
        }
        int more = PyObject_IsTrue(rest);
        if (more < 0) {
            result = -1;
            goto done;
        }
        for (int i = 0; i < SMALL_PATH; i++) {
            if (chunk == 0 && !more) {
                break;
            }
            unsigned field = (unsigned)(chunk & (NODE_LIMIT - 1));
            chunk >>= NODE_BITS;
            if (field == 0 || (int)field > n || len >= MAX_CHAIN) { /* a hole, a node off the board, or too long */
                goto done;
            }
            path[len++] = (uint8_t)(field - 1);
        }
    }
    result = -1;
done:
    Py_XDECREF(low_mask);
    Py_XDECREF(chunk_mask);
    Py_XDECREF(first);
    Py_XDECREF(width);
    Py_XDECREF(low);
    Py_XDECREF(rest);
    return result;
}

/* The path of an action int: its length (1 for a placement), 0 when no well-formed action, -1 on an error.
 * `path` has room for MAX_CHAIN + 1 nodes. */
static int
decode_action(PyObject *action, int n, uint8_t *path)
{
    if (!PyLong_CheckExact(action)) {
        return 0;
    }
    int overflow = 0;
    long long value = PyLong_AsLongLongAndOverflow(action, &overflow);
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow < 0 || (!overflow && value < 0)) {
        return 0;
    }
    if (overflow > 0) {
        return decode_big(action, n, path);
    }
    if (value < NODE_LIMIT) {
        if (value >= n) {
            return 0;
        }
        path[0] = (uint8_t)value;
        return 1;
    }
    uint64_t packed = (uint64_t)value;
    if ((packed & ((1u << FIRST_SHIFT) - 1)) != 1u) {
        return 0;
    }
    packed >>= FIRST_SHIFT;
    int len = 0;
    while (packed) {
        unsigned field = (unsigned)(packed & (NODE_LIMIT - 1));
        if (field == 0 || (int)field > n) {
            return 0;
        }
        path[len++] = (uint8_t)(field - 1);
        packed >>= NODE_BITS;
    }
    return len >= 2 ? len : 0;
}

/* --- the kernel ------------------------------------------------------------------------------------------- */

typedef struct {
    int16_t source; /* -1 a placement, -2 a counted swap */
    int16_t target;
    int16_t ntaken;
    int32_t taken_at;
} Undo;

typedef struct {
    PyObject_HEAD
    TablesObject *tab;
    int n;
    int to_move, result, term, threshold, amazons_total;
    int amazons_placed, aliens_placed, captured;
    long long plies, max_plies;
    uint8_t cells[MAX_NODES];
    Mask amazons, aliens;
    Undo *undo;
    Py_ssize_t nundo, capundo;
    uint8_t *taken;
    Py_ssize_t ntaken, captaken;
    MoveBuf moves, chosen; /* scratch for generation, this kernel's own */
} KernelObject;

static PyTypeObject KernelType;

static inline Mask stones_of(const KernelObject *k) { return m_or(k->amazons, k->aliens); }
static inline Mask empty_of(const KernelObject *k) { return m_andnot(k->tab->full, stones_of(k)); }

static inline int
placing(const KernelObject *k, int mover)
{
    return mover == AMAZON ? k->amazons_placed < k->amazons_total : k->aliens_placed < N_ALIENS;
}

static inline int
is_neighbor(const TablesObject *t, int a, int b)
{
    return m_has(&t->neighmask[a], b);
}

/* Chains from `at` (kernel._chains): over any stone to an empty landing not in `visited`, the nodes landed on since
 * the chain's last capture (its start included before the first); a jumped Amazon leaves the board at once and the
 * chain may then land again where it has been (DESIGN 1b). `stones` holds every stone but the moving Alien. */
static int
gen_chains(const TablesObject *t, MoveBuf *out, Mask stones, Mask amazons, int at, Mask visited, uint8_t *path,
           int depth)
{
    Mask blocked = m_or(stones, visited);
    for (int j = 0; j < t->njump[at]; j++) {
        int over = t->jump_over[at][j], land = t->jump_land[at][j];
        if (!m_has(&stones, over) || m_has(&blocked, land)) {
            continue;
        }
        if (depth >= MAX_CHAIN) { /* never: kernel.MAX_CHAIN bounds every chain; kept for memory safety */
            continue;
        }
        path[depth] = (uint8_t)land;
        if (buf_push(out, path, depth + 1) < 0) {
            return -1;
        }
        Mask seen = visited;
        m_set(&seen, land);
        if (m_has(&amazons, over)) {
            Mask s = stones, a = amazons, fresh = {{0, 0}};
            m_clear(&s, over);
            m_clear(&a, over);
            m_set(&fresh, land);
            if (gen_chains(t, out, s, a, land, fresh, path, depth + 1) < 0) {
                return -1;
            }
        }
        else if (gen_chains(t, out, stones, amazons, land, seen, path, depth + 1) < 0) {
            return -1;
        }
    }
    return 0;
}

/* The Aliens' steps and chains, Aliens in node order (kernel.alien_actions). */
static int
gen_alien(KernelObject *k, MoveBuf *out)
{
    const TablesObject *t = k->tab;
    Mask stones = stones_of(k);
    Mask aliens = k->aliens;
    uint8_t path[MAX_CHAIN + 1];
    int a;
    while ((a = m_pop(&aliens)) >= 0) {
        path[0] = (uint8_t)a;
        for (int j = 0; j < t->nneigh[a]; j++) {
            int b = t->neigh[a][j];
            if (k->cells[b] == EMPTY) {
                path[1] = (uint8_t)b;
                if (buf_push(out, path, 2) < 0) {
                    return -1;
                }
            }
        }
        if (m_any(m_and(t->neighmask[a], stones))) {
            Mask others = stones, visited = {{0, 0}};
            m_clear(&others, a);
            m_set(&visited, a);
            if (gen_chains(t, out, others, k->amazons, a, visited, path, 1) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* Every legal action of the side to move, as paths, in the Python kernel's order. */
static int
gen_legal(KernelObject *k, MoveBuf *out)
{
    buf_reset(out);
    if (k->result != ONGOING) {
        return 0;
    }
    const TablesObject *t = k->tab;
    uint8_t path[2];
    if (placing(k, k->to_move)) {
        for (int c = 0; c < k->n; c++) {
            if (k->cells[c] == EMPTY) {
                path[0] = (uint8_t)c;
                if (buf_push(out, path, 1) < 0) {
                    return -1;
                }
            }
        }
        return 0;
    }
    if (k->to_move == ALIEN) {
        return gen_alien(k, out);
    }
    Mask amazons = k->amazons;
    int a;
    while ((a = m_pop(&amazons)) >= 0) {
        path[0] = (uint8_t)a;
        for (int j = 0; j < t->nneigh[a]; j++) {
            int b = t->neigh[a][j];
            if (k->cells[b] == EMPTY) {
                path[1] = (uint8_t)b;
                if (buf_push(out, path, 2) < 0) {
                    return -1;
                }
            }
        }
    }
    return 0;
}

/* The chains that capture the most (kernel._captures): `best` the most so far, `out` those chains (when given). */
static int
gen_captures(const TablesObject *t, MoveBuf *out, Mask stones, Mask amazons, int at, Mask visited, uint8_t *path,
             int depth, int taken, int *best)
{
    Mask blocked = m_or(stones, visited);
    for (int j = 0; j < t->njump[at]; j++) {
        int over = t->jump_over[at][j], land = t->jump_land[at][j];
        if (!m_has(&stones, over) || m_has(&blocked, land)) {
            continue;
        }
        if (depth >= MAX_CHAIN) { /* never, as in gen_chains */
            continue;
        }
        path[depth] = (uint8_t)land;
        Mask seen = visited;
        m_set(&seen, land);
        if (m_has(&amazons, over)) {
            Mask fresh = {{0, 0}};
            m_set(&fresh, land);
            if (taken + 1 > *best) {
                *best = taken + 1;
                if (out) {
                    buf_reset(out);
                }
            }
            if (out && taken + 1 == *best && buf_push(out, path, depth + 1) < 0) {
                return -1;
            }
            Mask s = stones, a = amazons;
            m_clear(&s, over);
            m_clear(&a, over);
            if (gen_captures(t, out, s, a, land, fresh, path, depth + 1, taken + 1, best) < 0) {
                return -1;
            }
        }
        else {
            if (out && taken && taken == *best && buf_push(out, path, depth + 1) < 0) {
                return -1;
            }
            if (gen_captures(t, out, stones, amazons, land, seen, path, depth + 1, taken, best) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* The most Amazons one Alien move captures now (-1 on an error); the chains that do into `out` when given. */
static int
capture_moves(KernelObject *k, MoveBuf *out)
{
    const TablesObject *t = k->tab;
    Mask stones = stones_of(k);
    Mask aliens = k->aliens;
    uint8_t path[MAX_CHAIN + 1];
    int best = 0, a;
    if (out) {
        buf_reset(out);
    }
    while ((a = m_pop(&aliens)) >= 0) {
        if (m_any(m_and(t->neighmask[a], stones))) {
            Mask others = stones, visited = {{0, 0}};
            m_clear(&others, a);
            m_set(&visited, a);
            path[0] = (uint8_t)a;
            if (gen_captures(t, out, others, k->amazons, a, visited, path, 1, 0, &best) < 0) {
                return -1;
            }
        }
    }
    return best;
}

/* The nodes a path jumps over, into `overs` (len - 1 of them); 0 for a step, -1 when it is neither. */
static int
hops(const TablesObject *t, const uint8_t *path, int len, int *overs)
{
    if (len == 2 && is_neighbor(t, path[0], path[1])) {
        return 0;
    }
    for (int i = 0; i + 1 < len; i++) {
        int over = t->middle[path[i]][path[i + 1]];
        if (over < 0) {
            return -1;
        }
        overs[i] = over;
    }
    return 1;
}

/* kernel.is_legal on a decoded path (the result of the game not asked). */
static int
path_legal(const KernelObject *k, const uint8_t *path, int len)
{
    int mover = k->to_move;
    if (len == 1) {
        return placing(k, mover) && k->cells[path[0]] == EMPTY;
    }
    if (placing(k, mover)) {
        return 0;
    }
    int overs[MAX_CHAIN + 1];
    int kind = hops(k->tab, path, len, overs);
    if (kind < 0 || k->cells[path[0]] != mover) {
        return 0;
    }
    if (kind == 0) {
        return k->cells[path[1]] == EMPTY;
    }
    if (mover != ALIEN) {
        return 0;
    }
    Mask occupied = stones_of(k), visited = {{0, 0}};
    m_clear(&occupied, path[0]);
    m_set(&visited, path[0]);
    for (int i = 0; i + 1 < len; i++) {
        int over = overs[i], land = path[i + 1];
        if (!m_has(&occupied, over) || m_has(&occupied, land) || m_has(&visited, land)) {
            return 0;
        }
        if (m_has(&k->amazons, over)) { /* a capture: the nodes left before may be landed on again */
            m_clear(&occupied, over);
            visited.w[0] = visited.w[1] = 0;
        }
        m_set(&visited, land);
    }
    return 1;
}

/* --- apply, undo, the end ----------------------------------------------------------------------------------- */

static int
push_undo(KernelObject *k, int source, int target, const uint8_t *taken, int ntaken)
{
    if (k->nundo == k->capundo) {
        Py_ssize_t cap = k->capundo ? k->capundo * 2 : 256;
        Undo *undo = PyMem_Realloc(k->undo, (size_t)cap * sizeof(Undo));
        if (undo == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        k->undo = undo;
        k->capundo = cap;
    }
    if (k->ntaken + ntaken > k->captaken) {
        Py_ssize_t cap = k->captaken ? k->captaken * 2 : 64;
        while (cap < k->ntaken + ntaken) {
            cap *= 2;
        }
        if (cap > INT32_MAX) {
            PyErr_NoMemory();
            return -1;
        }
        uint8_t *room = PyMem_Realloc(k->taken, (size_t)cap);
        if (room == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        k->taken = room;
        k->captaken = cap;
    }
    Undo *u = &k->undo[k->nundo++];
    u->source = (int16_t)source;
    u->target = (int16_t)target;
    u->ntaken = (int16_t)ntaken;
    u->taken_at = (int32_t)k->ntaken;
    if (ntaken) {
        memcpy(k->taken + k->ntaken, taken, (size_t)ntaken);
        k->ntaken += ntaken;
    }
    return 0;
}

static int
aliens_can_move(const KernelObject *k)
{
    Mask empty = empty_of(k);
    if (k->aliens_placed < N_ALIENS) {
        return m_any(empty);
    }
    Mask aliens = k->aliens;
    int a;
    while ((a = m_pop(&aliens)) >= 0) {
        if (m_any(m_and(k->tab->need[a], empty))) {
            return 1;
        }
    }
    return 0;
}

static int
amazons_can_move(const KernelObject *k)
{
    Mask empty = empty_of(k);
    if (k->amazons_placed < k->amazons_total) {
        return m_any(empty);
    }
    Mask amazons = k->amazons;
    int a;
    while ((a = m_pop(&amazons)) >= 0) {
        if (m_any(m_and(k->tab->neighmask[a], empty))) {
            return 1;
        }
    }
    return 0;
}

/* Plays a legal path (checked by the caller) and decides the end as kernel.apply does. -1 on an error. */
static int
apply_path(KernelObject *k, const uint8_t *path, int len)
{
    int mover = k->to_move;
    if (len == 1) {
        int c = path[0];
        if (push_undo(k, -1, c, NULL, 0) < 0) {
            return -1;
        }
        k->cells[c] = (uint8_t)mover;
        if (mover == AMAZON) {
            m_set(&k->amazons, c);
            k->amazons_placed++;
        }
        else {
            m_set(&k->aliens, c);
            k->aliens_placed++;
        }
    }
    else {
        int source = path[0], target = path[len - 1];
        int overs[MAX_CHAIN + 1];
        uint8_t taken[MAX_CHAIN + 1];
        taken[0] = 0;
        int ntaken = 0;
        int kind = hops(k->tab, path, len, overs);
        k->cells[source] = EMPTY;
        if (kind > 0) {
            for (int i = 0; i + 1 < len; i++) {
                if (k->cells[overs[i]] == AMAZON) {
                    taken[ntaken++] = (uint8_t)overs[i];
                }
            }
        }
        if (push_undo(k, source, target, taken, ntaken) < 0) {
            k->cells[source] = (uint8_t)mover;
            return -1;
        }
        for (int i = 0; i < ntaken; i++) {
            k->cells[taken[i]] = EMPTY;
            m_clear(&k->amazons, taken[i]);
        }
        k->captured += ntaken;
        k->cells[target] = (uint8_t)mover;
        Mask *own = mover == AMAZON ? &k->amazons : &k->aliens;
        m_clear(own, source);
        m_set(own, target);
    }
    k->to_move = 3 - mover;
    k->plies++;
    if (mover == ALIEN) {
        if (k->amazons_total - k->captured < k->threshold) {
            k->result = ALIEN;
            k->term = END_CAPTURES;
            return 0;
        }
    }
    else if (!aliens_can_move(k)) {
        k->result = AMAZON;
        k->term = END_IMMOBILIZED;
        return 0;
    }
    if (k->plies >= k->max_plies) {
        k->result = DRAW;
        k->term = END_MOVE_LIMIT;
    }
    else if (mover == ALIEN && !amazons_can_move(k)) {
        k->result = ALIEN;
        k->term = END_NO_MOVES;
    }
    return 0;
}

static void
undo_one(KernelObject *k)
{
    Undo *u = &k->undo[--k->nundo];
    k->plies--;
    if (u->source == -2) {
        return;
    }
    k->result = ONGOING;
    k->term = END_NONE;
    int mover = k->to_move = 3 - k->to_move;
    if (u->source == -1) {
        k->cells[u->target] = EMPTY;
        if (mover == AMAZON) {
            m_clear(&k->amazons, u->target);
            k->amazons_placed--;
        }
        else {
            m_clear(&k->aliens, u->target);
            k->aliens_placed--;
        }
        return;
    }
    k->cells[u->target] = EMPTY;
    k->ntaken -= u->ntaken;
    for (int i = 0; i < u->ntaken; i++) {
        int over = k->taken[u->taken_at + i];
        k->cells[over] = AMAZON;
        m_set(&k->amazons, over);
    }
    k->captured -= u->ntaken;
    k->cells[u->source] = (uint8_t)mover;
    Mask *own = mover == AMAZON ? &k->amazons : &k->aliens;
    m_clear(own, u->target);
    m_set(own, u->source);
}

/* --- the evaluation (policy.evaluate: the Aliens' value) -------------------------------------------------------- */

static Mask
need_union(const KernelObject *k)
{
    Mask union_ = {{0, 0}}, aliens = k->aliens;
    int a;
    while ((a = m_pop(&aliens)) >= 0) {
        union_ = m_or(union_, k->tab->need[a]);
    }
    return union_;
}

static int
alien_space(const KernelObject *k)
{
    Mask empty = empty_of(k);
    Mask seen = k->aliens, frontier = k->aliens;
    while (m_any(frontier)) {
        Mask grown = {{0, 0}};
        int a;
        while ((a = m_pop(&frontier)) >= 0) {
            grown = m_or(grown, k->tab->neighmask[a]);
        }
        frontier = m_andnot(m_and(grown, empty), seen);
        seen = m_or(seen, frontier);
    }
    return m_count(m_and(seen, empty));
}

static int
loose(const KernelObject *k)
{
    const TablesObject *t = k->tab;
    int count = 0;
    Mask amazons = k->amazons;
    int x;
    while ((x = m_pop(&amazons)) >= 0) {
        for (int i = t->over_start[x]; i < t->over_start[x] + t->nover[x]; i++) {
            if (k->cells[t->over_from[i]] != AMAZON && k->cells[t->over_land[i]] == EMPTY) {
                count++;
                break;
            }
        }
    }
    return count;
}

/* True when the Amazon on x could be jumped after an Alien's step next to it (policy._is_loose). */
static int
is_loose(const KernelObject *k, int x)
{
    const TablesObject *t = k->tab;
    if (k->cells[x] != AMAZON) {
        return 0;
    }
    for (int i = t->over_start[x]; i < t->over_start[x] + t->nover[x]; i++) {
        if (k->cells[t->over_from[i]] != AMAZON && k->cells[t->over_land[i]] == EMPTY) {
            return 1;
        }
    }
    return 0;
}

static int
loose_among(const KernelObject *k, Mask nodes)
{
    int count = 0, x;
    while ((x = m_pop(&nodes)) >= 0) {
        count += is_loose(k, x);
    }
    return count;
}

/* True when an Alien to move could capture at once, read from the cells alone (policy.capture_open). */
static int
capture_open(const KernelObject *k)
{
    const TablesObject *t = k->tab;
    int todo[MAX_NODES];
    for (int a = 0; a < k->n; a++) {
        if (k->cells[a] != ALIEN) {
            continue;
        }
        Mask seen = {{0, 0}};
        m_set(&seen, a);
        int head = 0, tail = 0;
        todo[tail++] = a;
        while (head < tail) {
            int p = todo[head++];
            for (int j = 0; j < t->njump[p]; j++) {
                int over = t->jump_over[p][j], land = t->jump_land[p][j];
                int held = k->cells[over];
                if (held == EMPTY || over == a || m_has(&seen, land) || (k->cells[land] != EMPTY && land != a)) {
                    continue;
                }
                if (held == AMAZON) {
                    return 1;
                }
                m_set(&seen, land);
                todo[tail++] = land;
            }
        }
    }
    return 0;
}

/* The Aliens' value of the position; -1.0 on an error (set). */
static double
aliens_value(KernelObject *k)
{
    if (k->result != ONGOING) {
        return k->result == DRAW ? 0.5 : (k->result == ALIEN ? 1.0 : 0.0);
    }
    const TablesObject *t = k->tab;
    int threat = 0;
    if (k->to_move == ALIEN) {
        threat = capture_moves(k, NULL);
        if (threat < 0) {
            return -1.0;
        }
    }
    Mask empty = empty_of(k);
    int aliens[MAX_NODES], naliens = 0;
    for (int c = 0; c < k->n; c++) {
        if (k->cells[c] == ALIEN) {
            aliens[naliens++] = c;
        }
    }
    int hole_count = m_count(m_and(need_union(k), empty)) + 8 * (N_ALIENS - naliens);
    double hole = hole_count < 24 ? hole_count : 24;
    int far = 0;
    if (naliens) {
        int gaps[MAX_NODES];
        for (int i = 0; i < naliens; i++) {
            int g = m_count(m_and(t->need[aliens[i]], empty));
            int j = i;
            while (j > 0 && gaps[j - 1] > g) {
                gaps[j] = gaps[j - 1];
                j--;
            }
            gaps[j] = g;
        }
        static const double weights[3] = {1.0, 0.5, 0.25};
        double sum = 0.0;
        for (int i = 0; i < naliens && i < 3; i++) {
            double term = weights[i] * gaps[i];
            sum = sum + term;
        }
        double trap = TRAP_WEIGHT * sum;
        hole = hole + trap;
        Mask close = {{0, 0}};
        for (int i = 0; i < naliens; i++) {
            close = m_or(close, t->within3[aliens[i]]);
        }
        far = m_count(m_andnot(k->amazons, close));
    }
    int space = alien_space(k);
    double a = CAPTURE_WEIGHT * (double)(k->captured + threat - 6);
    double b = HOLE_WEIGHT * (hole - 16);
    double c = FAR_WEIGHT * (double)far;
    double d = SPACE_WEIGHT * (double)(space - 40);
    double e = LOOSE_WEIGHT * (double)loose(k);
    double x = a + b;
    x = x + c;
    x = x + d;
    x = x + e;
    return 1.0 / (1.0 + exp(-x));
}

/* --- the playout policy (policy.policy) --------------------------------------------------------------------- */

/* True when an Alien next to `node` could jump a stone there at once (policy.exposed). */
static int
exposed(const KernelObject *k, int node)
{
    const TablesObject *t = k->tab;
    for (int i = 0; i < t->nneigh[node]; i++) {
        int a = t->neigh[node][i];
        if (k->cells[a] != ALIEN) {
            continue;
        }
        for (int j = 0; j < t->njump[a]; j++) {
            if (t->jump_over[a][j] == node && k->cells[t->jump_land[a][j]] == EMPTY) {
                return 1;
            }
        }
    }
    return 0;
}

/* The policy's move among k->moves (count > 0): its path in *path and length in *len; -1 on an error. */
static int
policy_move(KernelObject *k, uint64_t *rng, const uint8_t **path, int *len)
{
    MoveBuf *moves = &k->moves;
    Py_ssize_t count = moves->count, pick;
    if (rng_random(rng) >= GREED) {
        pick = rng_below(rng, count);
    }
    else if (k->to_move == ALIEN) {
        if (moves->len[0] == 1) {
            pick = rng_below(rng, count);
        }
        else {
            int best = capture_moves(k, &k->chosen);
            if (best < 0) {
                return -1;
            }
            if (k->chosen.count) {
                Py_ssize_t i = rng_below(rng, k->chosen.count);
                *path = buf_path(&k->chosen, i);
                *len = k->chosen.len[i];
                return 0;
            }
            pick = rng_below(rng, count);
        }
    }
    else {
        Mask union_ = need_union(k);
        Py_ssize_t near[POLICY_TRIES], safe[POLICY_TRIES];
        int nnear = 0, nsafe = 0;
        for (int try = 0; try < POLICY_TRIES; try++) {
            Py_ssize_t i = rng_below(rng, count);
            const uint8_t *p = buf_path(moves, i);
            int source = moves->len[i] == 1 ? -1 : p[0];
            int target = p[moves->len[i] - 1];
            if (source >= 0) {
                k->cells[source] = EMPTY;
            }
            int bad = exposed(k, target);
            if (source >= 0) {
                k->cells[source] = AMAZON;
            }
            if (bad) {
                continue;
            }
            if (m_has(&union_, target) && (source < 0 || !m_has(&union_, source))) {
                near[nnear++] = i;
                if (nnear >= 2) {
                    break;
                }
            }
            else {
                safe[nsafe++] = i;
            }
        }
        if (nnear) {
            pick = near[rng_below(rng, nnear)];
        }
        else if (nsafe) {
            pick = safe[rng_below(rng, nsafe)];
        }
        else {
            pick = rng_below(rng, count);
        }
    }
    *path = buf_path(moves, pick);
    *len = moves->len[pick];
    return 0;
}

/* --- the Kernel type ----------------------------------------------------------------------------------------- */

static PyObject *
action_of(const KernelObject *k, const uint8_t *path, int len)
{
    const TablesObject *t = k->tab;
    if (len == 1) {
        return Py_NewRef(PyTuple_GET_ITEM(t->places, path[0]));
    }
    if (len == 2) {
        for (int j = 0; j < t->nneigh[path[0]]; j++) {
            if (t->neigh[path[0]][j] == path[1]) {
                return Py_NewRef(PyTuple_GET_ITEM(t->steps, path[0] * MAX_NEIGHBORS + j));
            }
        }
    }
    return encode_path(path, len);
}

static PyObject *
buf_list(const KernelObject *k, const MoveBuf *b)
{
    PyObject *list = PyList_New(b->count);
    if (list == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < b->count; i++) {
        PyObject *action = action_of(k, buf_path(b, i), b->len[i]);
        if (action == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, action);
    }
    return list;
}

/* The Move of a path from the board's Move table (its cached placements and steps, else a lookup). */
static PyObject *
move_of(const KernelObject *k, const uint8_t *path, int len)
{
    const TablesObject *t = k->tab;
    if (len == 1) {
        return Py_NewRef(PyTuple_GET_ITEM(t->place_moves, path[0]));
    }
    if (len == 2) {
        for (int j = 0; j < t->nneigh[path[0]]; j++) {
            if (t->neigh[path[0]][j] == path[1]) {
                return Py_NewRef(PyTuple_GET_ITEM(t->step_moves, path[0] * MAX_NEIGHBORS + j));
            }
        }
    }
    PyObject *action = encode_path(path, len);
    if (action == NULL) {
        return NULL;
    }
    PyObject *move = PyObject_GetItem(t->table, action);
    Py_DECREF(action);
    return move;
}

static PyObject *
Kernel_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"tables", "threshold", "max_plies", "amazons", NULL};
    PyObject *tables;
    int threshold, amazons = N_AMAZONS;
    long long max_plies;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!iL|i:Kernel", kwlist, &TablesType, &tables, &threshold,
                                     &max_plies, &amazons)) {
        return NULL;
    }
    if (amazons < 1 || amazons > MAX_NODES) {
        PyErr_Format(PyExc_ValueError, "amazons %d is out of range", amazons);
        return NULL;
    }
    KernelObject *self = (KernelObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->tab = (TablesObject *)Py_NewRef(tables);
    self->n = self->tab->n;
    self->threshold = threshold;
    self->amazons_total = amazons;
    self->max_plies = max_plies;
    self->to_move = ALIEN;
    self->result = ONGOING;
    return (PyObject *)self;
}

static int
Kernel_traverse(KernelObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->tab);
    return 0;
}

static int
Kernel_clear(KernelObject *self)
{
    Py_CLEAR(self->tab);
    return 0;
}

static void
Kernel_dealloc(KernelObject *self)
{
    PyObject_GC_UnTrack(self);
    Kernel_clear(self);
    PyMem_Free(self->undo);
    PyMem_Free(self->taken);
    buf_free(&self->moves);
    buf_free(&self->chosen);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Every method but the constructor's runs on a kernel whose tables a tp_clear may have dropped in a cycle. */
#define NEED_TABLES(k, fail)                                                       \
    if ((k)->tab == NULL) {                                                        \
        PyErr_SetString(PyExc_RuntimeError, "this kernel has lost its tables");    \
        return fail;                                                               \
    }

static PyObject *
Kernel_legal_actions(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    NEED_TABLES(self, NULL);
    if (gen_legal(self, &self->moves) < 0) {
        return NULL;
    }
    return buf_list(self, &self->moves);
}

static PyObject *
Kernel_legal_moves(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    NEED_TABLES(self, NULL);
    if (gen_legal(self, &self->moves) < 0) {
        return NULL;
    }
    MoveBuf *b = &self->moves;
    PyObject *list = PyList_New(b->count);
    if (list == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < b->count; i++) {
        PyObject *move = move_of(self, buf_path(b, i), b->len[i]);
        if (move == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, move);
    }
    return list;
}

static PyObject *
Kernel_safe_amazon_actions(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    NEED_TABLES(self, NULL);
    if (gen_legal(self, &self->moves) < 0) {
        return NULL;
    }
    MoveBuf *b = &self->moves;
    if (b->count == 0) {
        return PyList_New(0);
    }
    int *scores = PyMem_Malloc((size_t)b->count * sizeof(int));
    if (scores == NULL) {
        return PyErr_NoMemory();
    }
    const TablesObject *t = self->tab;
    int least = 0, any = 0;
    for (Py_ssize_t i = 0; i < b->count; i++) {
        const uint8_t *p = buf_path(b, i);
        int source = b->len[i] == 1 ? -1 : p[0], target = p[b->len[i] - 1];
        Mask nodes = t->touched[target];
        if (source >= 0) {
            nodes = m_or(nodes, t->touched[source]);
        }
        int before = loose_among(self, nodes);
        uint8_t held_source = source >= 0 ? self->cells[source] : EMPTY, held_target = self->cells[target];
        if (source >= 0) {
            self->cells[source] = EMPTY;
        }
        self->cells[target] = AMAZON;
        scores[i] = INT_MAX;
        if (!capture_open(self)) {
            scores[i] = loose_among(self, nodes) - before;
            if (!any || scores[i] < least) {
                least = scores[i];
            }
            any = 1;
        }
        self->cells[target] = held_target;
        if (source >= 0) {
            self->cells[source] = held_source;
        }
    }
    PyObject *list = PyList_New(0);
    for (Py_ssize_t i = 0; list != NULL && i < b->count; i++) {
        if (any && (scores[i] == INT_MAX || scores[i] > least + LOOSE_SLACK)) {
            continue;
        }
        PyObject *action = action_of(self, buf_path(b, i), b->len[i]);
        if (action == NULL || PyList_Append(list, action) < 0) {
            Py_XDECREF(action);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(action);
    }
    PyMem_Free(scores);
    return list;
}

static PyObject *
Kernel_alien_actions(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    NEED_TABLES(self, NULL);
    buf_reset(&self->moves);
    if (gen_alien(self, &self->moves) < 0) {
        return NULL;
    }
    return buf_list(self, &self->moves);
}

static PyObject *
Kernel_capture_moves(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    NEED_TABLES(self, NULL);
    int best = capture_moves(self, &self->chosen);
    if (best < 0) {
        return NULL;
    }
    PyObject *list = buf_list(self, &self->chosen);
    if (list == NULL) {
        return NULL;
    }
    return Py_BuildValue("(iN)", best, list);
}

static PyObject *
Kernel_is_legal(KernelObject *self, PyObject *action)
{
    NEED_TABLES(self, NULL);
    uint8_t path[MAX_CHAIN + 1];
    if (self->result != ONGOING) {
        Py_RETURN_FALSE;
    }
    int len = decode_action(action, self->n, path);
    if (len < 0) {
        return NULL;
    }
    return PyBool_FromLong(len > 0 && path_legal(self, path, len));
}

static PyObject *
Kernel_apply(KernelObject *self, PyObject *action)
{
    NEED_TABLES(self, NULL);
    uint8_t path[MAX_CHAIN + 1];
    int len = decode_action(action, self->n, path);
    if (len < 0) {
        return NULL;
    }
    if (len == 0 || !path_legal(self, path, len)) {
        PyObject *text = PyObject_Repr(action);
        if (text != NULL) {
            PyErr_Format(PyExc_ValueError, "action %U is not legal here", text);
            Py_DECREF(text);
        }
        return NULL;
    }
    if (apply_path(self, path, len) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
Kernel_undo(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    NEED_TABLES(self, NULL);
    if (self->nundo == 0) {
        PyErr_SetString(PyExc_IndexError, "undo with nothing to take back");
        return NULL;
    }
    undo_one(self);
    Py_RETURN_NONE;
}

static PyObject *
Kernel_count_swap(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    NEED_TABLES(self, NULL);
    if (push_undo(self, -2, -1, NULL, 0) < 0) {
        return NULL;
    }
    self->plies++;
    Py_RETURN_NONE;
}

static PyObject *
Kernel_key(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    uint64_t h = 0x243F6A8885A308D3ULL;
    uint64_t parts[7] = {self->amazons.w[0], self->amazons.w[1], self->aliens.w[0], self->aliens.w[1],
                         (uint64_t)self->to_move, (uint64_t)self->amazons_placed, (uint64_t)self->captured};
    for (int i = 0; i < 7; i++) {
        uint64_t z = h ^ parts[i];
        h = core_splitmix64(&z) ^ (h << 1);
    }
    return PyLong_FromLongLong((long long)(h >> 1));
}

static PyObject *
Kernel_clone(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    NEED_TABLES(self, NULL);
    PyTypeObject *type = Py_TYPE(self);
    KernelObject *new = (KernelObject *)type->tp_alloc(type, 0);
    if (new == NULL) {
        return NULL;
    }
    new->tab = (TablesObject *)Py_NewRef(self->tab);
    new->n = self->n;
    new->to_move = self->to_move;
    new->result = self->result;
    new->term = self->term;
    new->threshold = self->threshold;
    new->amazons_total = self->amazons_total;
    new->amazons_placed = self->amazons_placed;
    new->aliens_placed = self->aliens_placed;
    new->captured = self->captured;
    new->plies = self->plies;
    new->max_plies = self->max_plies;
    memcpy(new->cells, self->cells, sizeof(self->cells));
    new->amazons = self->amazons;
    new->aliens = self->aliens;
    if (self->nundo) {
        new->undo = PyMem_Malloc((size_t)self->nundo * sizeof(Undo));
        if (new->undo == NULL) {
            Py_DECREF(new);
            return PyErr_NoMemory();
        }
        memcpy(new->undo, self->undo, (size_t)self->nundo * sizeof(Undo));
        new->nundo = new->capundo = self->nundo;
    }
    if (self->ntaken) {
        new->taken = PyMem_Malloc((size_t)self->ntaken);
        if (new->taken == NULL) {
            Py_DECREF(new);
            return PyErr_NoMemory();
        }
        memcpy(new->taken, self->taken, (size_t)self->ntaken);
        new->ntaken = new->captaken = self->ntaken;
    }
    return (PyObject *)new;
}

static int
read_node_list(PyObject *seq, int n, Mask *mask, uint8_t *cells, int stone)
{
    PyObject *fast = PySequence_Fast(seq, "setup takes lists of nodes");
    if (fast == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
        int node;
        if (read_node(PySequence_Fast_GET_ITEM(fast, i), n, &node) < 0) {
            Py_DECREF(fast);
            return -1;
        }
        m_set(mask, node);
        cells[node] = (uint8_t)stone;
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *
Kernel_setup(KernelObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"aliens", "amazons", "to_move", "amazons_placed", "captured", NULL};
    PyObject *aliens, *amazons;
    int to_move = ALIEN, placed = -1, captured = 0;
    NEED_TABLES(self, NULL);
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|iii:setup", kwlist, &aliens, &amazons, &to_move, &placed,
                                     &captured)) {
        return NULL;
    }
    if (to_move != AMAZON && to_move != ALIEN) {
        PyErr_Format(PyExc_ValueError, "to_move %d is neither the Amazons (1) nor the Aliens (2)", to_move);
        return NULL;
    }
    uint8_t cells[MAX_NODES];
    Mask alien_mask = {{0, 0}}, amazon_mask = {{0, 0}};
    memset(cells, EMPTY, sizeof(cells));
    if (read_node_list(aliens, self->n, &alien_mask, cells, ALIEN) < 0 ||
        read_node_list(amazons, self->n, &amazon_mask, cells, AMAZON) < 0) {
        return NULL;
    }
    memcpy(self->cells, cells, sizeof(cells));
    self->aliens = alien_mask;
    self->amazons = amazon_mask;
    self->aliens_placed = m_count(alien_mask);
    self->amazons_placed = placed < 0 ? self->amazons_total : placed;
    self->captured = captured;
    self->to_move = to_move;
    self->plies = 0;
    self->result = ONGOING;
    self->term = END_NONE;
    self->nundo = 0;
    self->ntaken = 0;
    Py_RETURN_NONE;
}

static PyObject *
Kernel_aliens_value(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    NEED_TABLES(self, NULL);
    double value = aliens_value(self);
    if (value < 0.0) {
        return NULL;
    }
    return PyFloat_FromDouble(value);
}

static PyObject *
Kernel_evaluate(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    NEED_TABLES(self, NULL);
    double value = aliens_value(self);
    if (value < 0.0) {
        return NULL;
    }
    return PyFloat_FromDouble(1.0 - value);
}

static PyObject *
Kernel_rollout(KernelObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"seed", "plies", "trace", NULL};
    PyObject *seed_obj, *trace = Py_None;
    Py_ssize_t plies;
    NEED_TABLES(self, NULL);
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "On|O:rollout", kwlist, &seed_obj, &plies, &trace)) {
        return NULL;
    }
    if (core_check_trace(trace == Py_None ? NULL : trace) < 0) {
        return NULL;
    }
    uint64_t rng = PyLong_AsUnsignedLongLongMask(seed_obj);
    if (rng == (uint64_t)-1 && PyErr_Occurred()) {
        return NULL;
    }
    Py_ssize_t played = 0;
    double value = -1.0;
    while (played < plies && self->result == ONGOING) {
        if (gen_legal(self, &self->moves) < 0) {
            goto done;
        }
        if (self->moves.count == 0) {
            break;
        }
        const uint8_t *path;
        int len;
        if (policy_move(self, &rng, &path, &len) < 0) {
            goto done;
        }
        uint8_t chosen[MAX_CHAIN + 1];
        memcpy(chosen, path, (size_t)len);
        if (apply_path(self, chosen, len) < 0) {
            goto done;
        }
        played++;
        if (trace != Py_None) {
            PyObject *action = action_of(self, chosen, len);
            if (action == NULL || PyList_Append(trace, action) < 0) {
                Py_XDECREF(action);
                goto done;
            }
            Py_DECREF(action);
        }
    }
    value = aliens_value(self);
done:
    for (Py_ssize_t i = 0; i < played; i++) {
        undo_one(self);
    }
    if (value < 0.0) {
        return NULL;
    }
    return PyFloat_FromDouble(1.0 - value);
}

static PyObject *
Kernel_get_cells(KernelObject *self, void *Py_UNUSED(closure))
{
    return core_cells_list(self->cells, self->n);
}

static PyObject *
Kernel_get_termination(KernelObject *self, void *Py_UNUSED(closure))
{
    NEED_TABLES(self, NULL);
    return Py_NewRef(self->tab->terms[self->term]);
}

static PyObject *
mask_long(Mask m)
{
    PyObject *high = PyLong_FromUnsignedLongLong(m.w[1]);
    PyObject *low = PyLong_FromUnsignedLongLong(m.w[0]);
    PyObject *width = PyLong_FromLong(64);
    PyObject *moved = (high && low && width) ? PyNumber_Lshift(high, width) : NULL;
    PyObject *joined = moved ? PyNumber_Or(moved, low) : NULL;
    Py_XDECREF(high);
    Py_XDECREF(low);
    Py_XDECREF(width);
    Py_XDECREF(moved);
    return joined;
}

static PyObject *
Kernel_get_amazons(KernelObject *self, void *Py_UNUSED(closure))
{
    return mask_long(self->amazons);
}

static PyObject *
Kernel_get_aliens(KernelObject *self, void *Py_UNUSED(closure))
{
    return mask_long(self->aliens);
}

static PyObject *
Kernel_get_core_tables(KernelObject *self, void *Py_UNUSED(closure))
{
    NEED_TABLES(self, NULL);
    return Py_NewRef((PyObject *)self->tab);
}

static PyMethodDef Kernel_methods[] = {
    {"legal_actions", (PyCFunction)Kernel_legal_actions, METH_NOARGS,
     PyDoc_STR("legal_actions($self, /)\n--\n\nEvery legal action of the side to move, a fresh list.")},
    {"legal_moves", (PyCFunction)Kernel_legal_moves, METH_NOARGS,
     PyDoc_STR("legal_moves($self, /)\n--\n\nThe Moves of `legal_actions`, the board's Move table's own objects.")},
    {"safe_amazon_actions", (PyCFunction)Kernel_safe_amazon_actions, METH_NOARGS,
     PyDoc_STR("safe_amazon_actions($self, /)\n--\n\nThe legal actions policy.safe_amazon_actions keeps, in order.")},
    {"alien_actions", (PyCFunction)Kernel_alien_actions, METH_NOARGS,
     PyDoc_STR("alien_actions($self, /)\n--\n\nEvery step and jump chain of the Aliens on the board.")},
    {"capture_moves", (PyCFunction)Kernel_capture_moves, METH_NOARGS,
     PyDoc_STR("capture_moves($self, /)\n--\n\n(the most Amazons one Alien move captures, the moves that do).")},
    {"is_legal", (PyCFunction)Kernel_is_legal, METH_O,
     PyDoc_STR("is_legal($self, action, /)\n--\n\nTrue when `action` is legal now (any object may be asked).")},
    {"apply", (PyCFunction)Kernel_apply, METH_O,
     PyDoc_STR("apply($self, action, /)\n--\n\nPlay a legal action and decide the end (ValueError if not legal).")},
    {"undo", (PyCFunction)Kernel_undo, METH_NOARGS,
     PyDoc_STR("undo($self, /)\n--\n\nTake back the last action or counted swap.")},
    {"count_swap", (PyCFunction)Kernel_count_swap, METH_NOARGS,
     PyDoc_STR("count_swap($self, /)\n--\n\nCount the pie answer's ply.")},
    {"key", (PyCFunction)Kernel_key, METH_NOARGS,
     PyDoc_STR("key($self, /)\n--\n\nA hash of the stones, the counters and the side to move.")},
    {"clone", (PyCFunction)Kernel_clone, METH_NOARGS,
     PyDoc_STR("clone($self, /)\n--\n\nAn independent copy (the undo stack copied too).")},
    {"setup", (PyCFunction)(void (*)(void))Kernel_setup, METH_VARARGS | METH_KEYWORDS,
     PyDoc_STR("setup($self, /, aliens, amazons, to_move=2, amazons_placed=30, captured=0)\n--\n\n"
               "Set up a hand-made position; the end is not judged and the ply count and undo stack start over.")},
    {"aliens_value", (PyCFunction)Kernel_aliens_value, METH_NOARGS,
     PyDoc_STR("aliens_value($self, /)\n--\n\nThe Aliens' value of the position, as policy.evaluate.")},
    {"evaluate", (PyCFunction)Kernel_evaluate, METH_NOARGS,
     PyDoc_STR("evaluate($self, /)\n--\n\nThe Amazons' (Black's) value: one minus the Aliens'.")},
    {"rollout", (PyCFunction)(void (*)(void))Kernel_rollout, METH_VARARGS | METH_KEYWORDS,
     PyDoc_STR("rollout($self, /, seed, plies, trace=None)\n--\n\nBlack's value after up to `plies` plies of the "
               "policy drawing from splitmix64(seed), as the knowledge's rollout; the kernel is left as found.")},
    {NULL},
};

static PyGetSetDef Kernel_getset[] = {
    {"cells", (getter)Kernel_get_cells, NULL, PyDoc_STR("Contents of every node: a new list."), NULL},
    {"termination", (getter)Kernel_get_termination, NULL, PyDoc_STR("How the game ended, or None."), NULL},
    {"score", (getter)core_get_none, NULL, PyDoc_STR("None: the game keeps no score."), NULL},
    {"amazons", (getter)Kernel_get_amazons, NULL, PyDoc_STR("The mask of the Amazons on the board."), NULL},
    {"aliens", (getter)Kernel_get_aliens, NULL, PyDoc_STR("The mask of the Aliens on the board."), NULL},
    {"core_tables", (getter)Kernel_get_core_tables, NULL, PyDoc_STR("The board's Tables."), NULL},
    {NULL},
};

static PyMemberDef Kernel_members[] = {
    {"to_move", T_INT, offsetof(KernelObject, to_move), READONLY, PyDoc_STR("The side to move (1 or 2).")},
    {"result", T_INT, offsetof(KernelObject, result), READONLY, PyDoc_STR("ONGOING, DRAW or the winner.")},
    {"plies", T_LONGLONG, offsetof(KernelObject, plies), READONLY, PyDoc_STR("Actions so far.")},
    {"max_plies", T_LONGLONG, offsetof(KernelObject, max_plies), 0, PyDoc_STR("The move limit.")},
    {"amazons_total", T_INT, offsetof(KernelObject, amazons_total), READONLY,
     PyDoc_STR("The Amazons of the game (30 by the book).")},
    {"threshold", T_INT, offsetof(KernelObject, threshold), READONLY,
     PyDoc_STR("The Aliens win once fewer Amazons than this are left.")},
    {"amazons_placed", T_INT, offsetof(KernelObject, amazons_placed), READONLY,
     PyDoc_STR("Amazons placed so far, the captured ones included.")},
    {"aliens_placed", T_INT, offsetof(KernelObject, aliens_placed), READONLY, PyDoc_STR("Aliens placed so far.")},
    {"captured", T_INT, offsetof(KernelObject, captured), READONLY, PyDoc_STR("Amazons captured.")},
    {NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ytourney.games.aliens_amazons._aacore.Kernel",
    .tp_doc = PyDoc_STR("Kernel(tables, threshold, max_plies, amazons=30)\n--\n\n"
                        "One Aliens and Amazons position: the kernel protocol, the playout policy and the evaluation."),
    .tp_basicsize = sizeof(KernelObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = Kernel_new,
    .tp_dealloc = (destructor)Kernel_dealloc,
    .tp_traverse = (traverseproc)Kernel_traverse,
    .tp_clear = (inquiry)Kernel_clear,
    .tp_methods = Kernel_methods,
    .tp_getset = Kernel_getset,
    .tp_members = Kernel_members,
};

/* --- module -------------------------------------------------------------------------------------------------- */

static struct PyModuleDef aacore_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ytourney.games.aliens_amazons._aacore",
    .m_doc = PyDoc_STR("C core of Aliens and Amazons (optional; the pure-Python kernel agrees move for move)."),
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__aacore(void)
{
    PyObject *module = core_module_create(&aacore_module, "Tables", &TablesType, "Kernel", &KernelType, NULL);
    if (module != NULL && PyModule_AddIntConstant(module, "MAX_NODES", MAX_NODES) < 0) {
        Py_CLEAR(module);
    }
    return module;
}
