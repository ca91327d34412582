/* Optional C core of Leap Over: the kernel (ytourney.games.leap_over.kernel.LeapOverKernel), the knowledge's search
 * actions, race evaluation and playouts, and a cache of the front's Move objects for the jump chains.
 *
 * `Tables` holds one board's read-only tables (the jumps, the goal triangles, the evaluation's distances and rings,
 * the Termination objects), built once by ytourney.games.leap_over.ckernel from the pure-Python tables.  `Kernel` is
 * one position on the kernel protocol with the same actions, the same legal-action order and the same endings as
 * the pure-Python kernel.  `MoveCache` maps a chain's packed action to its Move (made here on a miss, at most
 * `limit` kept, then it starts afresh): the state's `legal_moves` lists Moves through it and `play_move` applies a
 * Move of the last list by identity.  The playout draws from the 64-bit LCG the Python knowledge steps the same way
 * (top 32 bits, `% n`), so for one seed both play the same chains and return the same value.  No module state.
 *
 * Also kept: the module functions `chains` (the pure-Python kernel's optional chain lister) and `path_of`.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../core_common.h"

typedef unsigned __int128 u128;
#define MAXC 128
#define MAXJ 8
#define NODE_BITS 9
#define FIRST_FIELD 10
#define MAXBYTES ((FIRST_FIELD + NODE_BITS * (MAXC + 1) + 7) / 8 + 3)
#define KEY_NODES 13 /* a chain of at most 13 nodes packs into 127 bits: its key is its action */
#define ONGOING (-1)
#define DRAW 0
#define PASS_ACTION 512
#define ENTRY_PASS (-1)
#define ENTRY_SWAP (-2)
#define BIT(n) ((u128)1 << (n))

#if PY_VERSION_HEX >= 0x030D0000
#define AS_BYTES(v, b, n) _PyLong_AsByteArray((PyLongObject *)(v), (b), (n), 1, 0, 1)
#else
#define AS_BYTES(v, b, n) _PyLong_AsByteArray((PyLongObject *)(v), (b), (n), 1, 0)
#endif

/* --- ints and masks ------------------------------------------------------------------------------------------ */

static PyObject *u128_to_long(u128 value) {
    uint64_t hi = (uint64_t)(value >> 64);
    if (hi == 0) return PyLong_FromUnsignedLongLong((unsigned long long)value);
    unsigned char bytes[16];
    for (int b = 0; b < 16; b++) bytes[b] = (unsigned char)(value >> (8 * b));
    return _PyLong_FromByteArray(bytes, 16, 1, 0);
}

/* A mask of at most 128 bits from a non-negative int: 0, or -1 with an exception. */
static int long_to_u128(PyObject *obj, u128 *out) {
    if (!PyLong_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "a mask must be an int");
        return -1;
    }
    unsigned char bytes[16];
    if (AS_BYTES(obj, bytes, 16) < 0) return -1;
    u128 value = 0;
    for (int b = 15; b >= 0; b--) value = (value << 8) | bytes[b];
    *out = value;
    return 0;
}

/* The action of a path of nodes (at least two), as a Python int. */
static PyObject *path_action(const uint8_t *path, int len) {
    if (len <= KEY_NODES) {
        u128 key = 1;
        for (int i = 0; i < len; i++) key |= (u128)(path[i] + 1) << (FIRST_FIELD + NODE_BITS * i);
        return u128_to_long(key);
    }
    unsigned char buf[MAXBYTES];
    memset(buf, 0, sizeof buf);
    buf[0] = 1;
    for (int i = 0; i < len; i++) {
        int offset = FIRST_FIELD + NODE_BITS * i;
        uint32_t v = (uint32_t)(path[i] + 1) << (offset & 7);
        buf[offset >> 3] |= (unsigned char)(v & 0xff);
        buf[(offset >> 3) + 1] |= (unsigned char)((v >> 8) & 0xff);
        buf[(offset >> 3) + 2] |= (unsigned char)((v >> 16) & 0xff);
    }
    int bits = FIRST_FIELD + NODE_BITS * len;
    return _PyLong_FromByteArray(buf, (size_t)((bits + 7) / 8), 1, 0);
}

/* The nodes of a packed chain on a board of `size` nodes: their count (>= 2), or 0 for any other object or int
 * (negative, a placement, the pass, a capture, an empty field inside, a node off the board, too long).  Never
 * raises. */
static int decode_action(PyObject *obj, int size, uint8_t *path) {
    if (!PyLong_CheckExact(obj) || Py_SIZE(obj) <= 0) return 0;
    size_t bits = _PyLong_NumBits(obj);
    if (bits == (size_t)-1) {
        PyErr_Clear();
        return 0;
    }
    if (bits > (size_t)(FIRST_FIELD + NODE_BITS * (size + 1)) || bits <= FIRST_FIELD + NODE_BITS) return 0;
    unsigned char buf[MAXBYTES];
    memset(buf, 0, sizeof buf);
    if (AS_BYTES(obj, buf, (bits + 7) / 8) < 0) {
        PyErr_Clear();
        return 0;
    }
    uint32_t head = (uint32_t)buf[0] | ((uint32_t)buf[1] << 8);
    if (!(head & 1) || ((head >> 1) & 511) != 0) return 0;
    int count = 0;
    for (size_t offset = FIRST_FIELD; offset < bits; offset += NODE_BITS) {
        size_t byte = offset >> 3;
        uint32_t v = (uint32_t)buf[byte] | ((uint32_t)buf[byte + 1] << 8) | ((uint32_t)buf[byte + 2] << 16);
        int field = (int)((v >> (offset & 7)) & 511);
        if (field == 0 || field > size || count >= MAXC) return 0;
        path[count++] = (uint8_t)(field - 1);
    }
    return count >= 2 ? count : 0;
}

/* --- Tables: one board's read-only tables -------------------------------------------------------------------- */

typedef struct {
    int size;
    int njumps[MAXC];
    uint8_t over[MAXC][MAXJ]; /* a node's jumps in table order: the node jumped over and the landing */
    uint8_t to[MAXC][MAXJ];
} Jumps;

typedef struct {
    PyObject_HEAD
    int size;
    int reversible;
    Jumps j;
    u128 targets[3];        /* the triangle each colour must fill */
    u128 homes[3];          /* each colour's start triangle */
    int16_t cost[3][MAXC];  /* evaluation: what a node still costs a stone of each colour */
    int16_t far[MAXC][MAXC];
    u128 near[MAXC];        /* each node's neighbours */
    int ring_start[MAXC + 1];
    u128 *rings;            /* the nodes at distance 1, 2, ... of each node */
    double home_penalty, stranded_weight, last_weight, temperature, together_weight;
    PyObject *filled, *blocked, *move_limit;
} TablesObject;

static PyTypeObject TablesType;

static int Tables_traverse(TablesObject *self, visitproc visit, void *arg) {
    Py_VISIT(self->filled);
    Py_VISIT(self->blocked);
    Py_VISIT(self->move_limit);
    return 0;
}

static int Tables_clear(TablesObject *self) {
    Py_CLEAR(self->filled);
    Py_CLEAR(self->blocked);
    Py_CLEAR(self->move_limit);
    return 0;
}

static void Tables_dealloc(TablesObject *self) {
    PyObject_GC_UnTrack(self);
    Tables_clear(self);
    PyMem_Free(self->rings);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* An int in [lo, hi] from a Python object: 0, or -1 with an exception. */
static int read_int(PyObject *obj, long lo, long hi, long *out, const char *what) {
    *out = core_bounded_int(obj, lo, hi, what);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* A sequence of exactly n items (new reference), or NULL with an exception. */
static PyObject *sized(PyObject *obj, Py_ssize_t n, const char *what) {
    PyObject *seq = PySequence_Fast(obj, what);
    if (seq != NULL && n >= 0 && PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items, got %zd", what, n, PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return NULL;
    }
    return seq;
}

static int read_jumps(TablesObject *self, PyObject *jumps) {
    Jumps *jt = &self->j;
    jt->size = self->size;
    PyObject *rows = sized(jumps, self->size, "jumps must be a row of (over, landing) pairs per node");
    if (rows == NULL) return -1;
    for (int p = 0; p < self->size; p++) {
        PyObject *row = sized(PySequence_Fast_GET_ITEM(rows, p), -1, "a node's jumps");
        if (row == NULL) goto fail;
        Py_ssize_t count = PySequence_Fast_GET_SIZE(row);
        if (count > MAXJ) {
            PyErr_Format(PyExc_ValueError, "node %d has %zd jumps; the core holds at most %d", p, count, MAXJ);
            Py_DECREF(row);
            goto fail;
        }
        jt->njumps[p] = (int)count;
        for (Py_ssize_t j = 0; j < count; j++) {
            PyObject *pair = sized(PySequence_Fast_GET_ITEM(row, j), 2, "a jump (over, landing)");
            long over, to;
            if (pair == NULL) {
                Py_DECREF(row);
                goto fail;
            }
            int bad = read_int(PySequence_Fast_GET_ITEM(pair, 0), 0, self->size - 1, &over, "a jump's node") < 0 ||
                      read_int(PySequence_Fast_GET_ITEM(pair, 1), 0, self->size - 1, &to, "a jump's landing") < 0;
            Py_DECREF(pair);
            if (!bad && (over == p || to == p || over == to)) {
                PyErr_SetString(PyExc_ValueError, "a jump joins three different nodes");
                bad = 1;
            }
            for (Py_ssize_t k = 0; !bad && k < j; k++) {
                if (jt->to[p][k] == to) {
                    PyErr_SetString(PyExc_ValueError, "two jumps from one node land on the same node");
                    bad = 1;
                }
            }
            if (bad) {
                Py_DECREF(row);
                goto fail;
            }
            jt->over[p][j] = (uint8_t)over;
            jt->to[p][j] = (uint8_t)to;
        }
        Py_DECREF(row);
    }
    Py_DECREF(rows);
    return 0;
fail:
    Py_DECREF(rows);
    return -1;
}

static int read_masks(PyObject *obj, Py_ssize_t n, u128 *out, const char *what) {
    PyObject *seq = sized(obj, n, what);
    if (seq == NULL) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (long_to_u128(PySequence_Fast_GET_ITEM(seq, i), &out[i]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

static int read_row16(PyObject *obj, int n, long lo, long hi, int16_t *out, const char *what) {
    PyObject *seq = sized(obj, n, what);
    if (seq == NULL) return -1;
    for (int i = 0; i < n; i++) {
        long value;
        if (read_int(PySequence_Fast_GET_ITEM(seq, i), lo, hi, &value, what) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (int16_t)value;
    }
    Py_DECREF(seq);
    return 0;
}

static int read_rings(TablesObject *self, PyObject *obj) {
    PyObject *rows = sized(obj, self->size, "rings must be a row of masks per node");
    if (rows == NULL) return -1;
    Py_ssize_t total = 0;
    for (int p = 0; p < self->size; p++) {
        Py_ssize_t count = PySequence_Size(PySequence_Fast_GET_ITEM(rows, p));
        if (count < 0 || count > MAXC) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a node has more rings than nodes");
            Py_DECREF(rows);
            return -1;
        }
        self->ring_start[p] = (int)total;
        total += count;
    }
    self->ring_start[self->size] = (int)total;
    self->rings = PyMem_Calloc((size_t)total + 1, sizeof(u128));
    if (self->rings == NULL) {
        Py_DECREF(rows);
        PyErr_NoMemory();
        return -1;
    }
    for (int p = 0; p < self->size; p++) {
        if (read_masks(PySequence_Fast_GET_ITEM(rows, p), self->ring_start[p + 1] - self->ring_start[p],
                       self->rings + self->ring_start[p], "a node's rings") < 0) {
            Py_DECREF(rows);
            return -1;
        }
    }
    Py_DECREF(rows);
    return 0;
}

static PyObject *Tables_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"size", "jumps", "targets", "reversible", "filled", "blocked", "move_limit", "homes",
                             "cost", "far", "near", "rings", "weights", NULL};
    int size, reversible;
    PyObject *jumps, *targets, *filled, *blocked, *move_limit, *homes, *cost, *far, *near, *rings;
    double weights[5];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOpOOOOOOOO(ddddd):Tables", kwlist, &size, &jumps, &targets,
                                     &reversible, &filled, &blocked, &move_limit, &homes, &cost, &far, &near, &rings,
                                     &weights[0], &weights[1], &weights[2], &weights[3], &weights[4]))
        return NULL;
    if (size < 1 || size > MAXC) {
        PyErr_Format(PyExc_ValueError, "the core holds boards of 1..%d nodes, not %d", MAXC, size);
        return NULL;
    }
    TablesObject *self = (TablesObject *)type->tp_alloc(type, 0);
    if (self == NULL) return NULL;
    self->size = size;
    self->reversible = reversible;
    self->filled = Py_NewRef(filled);
    self->blocked = Py_NewRef(blocked);
    self->move_limit = Py_NewRef(move_limit);
    self->home_penalty = weights[0];
    self->stranded_weight = weights[1];
    self->last_weight = weights[2];
    self->temperature = weights[3];
    self->together_weight = weights[4];
    if (read_jumps(self, jumps) < 0 || read_masks(targets, 3, self->targets, "targets [0, Black's, White's]") < 0 ||
        read_masks(homes, 3, self->homes, "homes [0, Black's, White's]") < 0 ||
        read_masks(near, size, self->near, "near: one neighbour mask per node") < 0 || read_rings(self, rings) < 0)
        goto fail;
    PyObject *costs = sized(cost, 3, "cost [(), Black's, White's]");
    if (costs == NULL) goto fail;
    for (int c = 1; c <= 2; c++) {
        if (read_row16(PySequence_Fast_GET_ITEM(costs, c), size, 0, 30000, self->cost[c], "a node's cost") < 0) {
            Py_DECREF(costs);
            goto fail;
        }
    }
    Py_DECREF(costs);
    PyObject *rows = sized(far, size, "far: one distance row per node");
    if (rows == NULL) goto fail;
    for (int p = 0; p < size; p++) {
        if (read_row16(PySequence_Fast_GET_ITEM(rows, p), size, -1, 30000, self->far[p], "a distance") < 0) {
            Py_DECREF(rows);
            goto fail;
        }
    }
    Py_DECREF(rows);
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

static PyObject *Tables_get_size(TablesObject *self, void *Py_UNUSED(closure)) { return PyLong_FromLong(self->size); }

static PyGetSetDef Tables_getset[] = {
    {"size", (getter)Tables_get_size, NULL, PyDoc_STR("Nodes of the board."), NULL},
    {NULL},
};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ytourney.games.leap_over._leapcore.Tables",
    .tp_doc = PyDoc_STR("One board's read-only jump, goal and evaluation tables for the core's kernels."),
    .tp_basicsize = sizeof(TablesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = Tables_new,
    .tp_dealloc = (destructor)Tables_dealloc,
    .tp_traverse = (traverseproc)Tables_traverse,
    .tp_clear = (inquiry)Tables_clear,
    .tp_getset = Tables_getset,
};

/* --- MoveCache: a trie of the chains met, each trie node holding its chain's Move -------------------------------- */

/* A trie node: a chain, its children the chains one jump longer (indexed by the jump's place in its last node's
 * row, so the DFS walks the trie as it lists), and the chain's Move once made (a strong reference).  Node 0 is
 * "none"; nodes 1..size are the roots, one per starting node. */
typedef struct {
    int32_t child[MAXJ];
    PyObject *move;
} TrieNode;

typedef struct {
    PyObject_HEAD
    TablesObject *t;
    TrieNode *nodes;
    Py_ssize_t n, capacity, limit; /* trie nodes in use (roots included), allocated, at most kept */
    PyObject *move_type, *jump_kind, *pass_move, *kind_descr, *path_descr, *capture_descr;
    Py_ssize_t path_offset;        /* where a Move keeps its path (a slot), -1 when unknown: then none is reused */
    PyObject *ints[MAXC];          /* every node's int */
    PyObject **pool[MAXC + 1];     /* by path length: Moves no one else held when the trie started afresh */
    int pool_n[MAXC + 1], pool_cap[MAXC + 1];
} CacheObject;

static PyTypeObject CacheType;

/* The Moves the trie holds are not visited: each holds only a MoveKind, a tuple of small ints and None, so it can
 * be in no reference cycle, and the cache untracks it from the gc when made (as CPython untracks such tuples). */
static int Cache_traverse(CacheObject *self, visitproc visit, void *arg) {
    Py_VISIT(self->t);
    Py_VISIT(self->move_type);
    Py_VISIT(self->jump_kind);
    Py_VISIT(self->pass_move);
    Py_VISIT(self->kind_descr);
    Py_VISIT(self->path_descr);
    Py_VISIT(self->capture_descr);
    return 0;
}

/* Keep a Move only the cache holds, and its path tuple only it holds, for reuse by a chain of the same length
 * (allocating, filling and freeing a Move cost more than its chain's listing): 1 kept, 0 not. */
static int pool_keep(CacheObject *self, PyObject *move) {
    if (self->path_offset < 0 || Py_REFCNT(move) != 1) return 0;
    PyObject *path = *(PyObject **)((char *)move + self->path_offset);
    if (path == NULL || !PyTuple_CheckExact(path) || Py_REFCNT(path) != 1) return 0;
    Py_ssize_t len = PyTuple_GET_SIZE(path);
    if (len < 2 || len > MAXC) return 0;
    if (self->pool_n[len] >= self->pool_cap[len]) {
        int cap = self->pool_cap[len] ? self->pool_cap[len] * 2 : 256;
        PyObject **grown = PyMem_Realloc(self->pool[len], (size_t)cap * sizeof(PyObject *));
        if (grown == NULL) return 0; /* no room: freed instead, no error */
        self->pool[len] = grown;
        self->pool_cap[len] = cap;
    }
    self->pool[len][self->pool_n[len]++] = move;
    return 1;
}

static void pool_free(CacheObject *self) {
    for (int len = 0; len <= MAXC; len++) {
        int n = self->pool_n[len];
        self->pool_n[len] = 0;
        for (int i = 0; i < n; i++) Py_DECREF(self->pool[len][i]);
        PyMem_Free(self->pool[len]);
        self->pool[len] = NULL;
        self->pool_cap[len] = 0;
    }
}

/* Forget every chain: the roots stay, childless; the Moves no one else holds are kept for reuse. */
static void cache_empty(CacheObject *self) {
    if (self->nodes == NULL) return;
    Py_ssize_t n = self->n;
    int roots = self->t == NULL ? 0 : self->t->size;
    self->n = roots + 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *move = self->nodes[i].move;
        self->nodes[i].move = NULL;
        if (move != NULL && !pool_keep(self, move)) Py_DECREF(move);
    }
    memset(self->nodes, 0, (size_t)(roots + 1) * sizeof(TrieNode));
}

static int Cache_clear(CacheObject *self) {
    cache_empty(self);
    pool_free(self);
    for (int v = 0; v < MAXC; v++) Py_CLEAR(self->ints[v]);
    Py_CLEAR(self->t);
    Py_CLEAR(self->move_type);
    Py_CLEAR(self->jump_kind);
    Py_CLEAR(self->pass_move);
    Py_CLEAR(self->kind_descr);
    Py_CLEAR(self->path_descr);
    Py_CLEAR(self->capture_descr);
    return 0;
}

static void Cache_dealloc(CacheObject *self) {
    PyObject_GC_UnTrack(self);
    Cache_clear(self);
    PyMem_Free(self->nodes);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *slot_descr(PyTypeObject *type, const char *name) {
    PyObject *descr = PyDict_GetItemString(type->tp_dict, name);
    if (descr == NULL || Py_TYPE(descr)->tp_descr_set == NULL) {
        PyErr_Format(PyExc_TypeError, "the Move class has no settable slot %s", name);
        return NULL;
    }
    return Py_NewRef(descr);
}

static PyObject *Cache_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"tables", "move_type", "jump_kind", "pass_move", "limit", NULL};
    PyObject *tables, *move_type, *jump_kind, *pass_move;
    Py_ssize_t limit;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!O!OOn:MoveCache", kwlist, &TablesType, &tables, &PyType_Type,
                                     &move_type, &jump_kind, &pass_move, &limit))
        return NULL;
    if (limit < 1 || limit > ((Py_ssize_t)1 << 26)) {
        PyErr_Format(PyExc_ValueError, "a cache limit of %zd moves is not in 1..2**26", limit);
        return NULL;
    }
    CacheObject *self = (CacheObject *)type->tp_alloc(type, 0);
    if (self == NULL) return NULL;
    TablesObject *t = (TablesObject *)tables;
    self->t = (TablesObject *)Py_NewRef(t);
    self->limit = limit;
    self->move_type = Py_NewRef(move_type);
    self->jump_kind = Py_NewRef(jump_kind);
    self->pass_move = Py_NewRef(pass_move);
    PyTypeObject *mt = (PyTypeObject *)move_type;
    self->kind_descr = slot_descr(mt, "kind");
    self->path_descr = self->kind_descr == NULL ? NULL : slot_descr(mt, "path");
    self->capture_descr = self->path_descr == NULL ? NULL : slot_descr(mt, "capture");
    if (self->capture_descr == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    for (int v = 0; v < MAXC; v++) {
        self->ints[v] = PyLong_FromLong(v);
        if (self->ints[v] == NULL) {
            Py_DECREF(self);
            return NULL;
        }
    }
    self->path_offset = -1;
    if (Py_IS_TYPE(self->path_descr, &PyMemberDescr_Type)) {
        PyMemberDef *member = ((PyMemberDescrObject *)self->path_descr)->d_member;
        if (member->type == T_OBJECT_EX && !(member->flags & READONLY)) self->path_offset = member->offset;
    }
    self->capacity = 4096;
    self->nodes = PyMem_Calloc((size_t)self->capacity, sizeof(TrieNode));
    if (self->nodes == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    self->n = t->size + 1;
    return (PyObject *)self;
}

/* A new jump Move along `path`, made as the frozen dataclass's own __init__ would set its slots, and untracked by
 * the gc (it can be in no cycle). */
static PyObject *make_move(CacheObject *c, const uint8_t *path, int len) {
    if (len <= MAXC && c->pool_n[len] > 0) {
        /* a kept Move no one else holds: its path tuple (held by it alone) refilled in place */
        PyObject *move = c->pool[len][--c->pool_n[len]];
        PyObject *nodes = *(PyObject **)((char *)move + c->path_offset);
        for (int i = 0; i < len; i++) {
            PyObject *old = PyTuple_GET_ITEM(nodes, i), *new = c->ints[path[i]];
            if (old != new) {
                PyTuple_SET_ITEM(nodes, i, Py_NewRef(new));
                Py_DECREF(old);
            }
        }
        return move;
    }
    PyObject *nodes = PyTuple_New(len);
    if (nodes == NULL) return NULL;
    for (int i = 0; i < len; i++) PyTuple_SET_ITEM(nodes, i, Py_NewRef(c->ints[path[i]]));
    PyObject_GC_UnTrack(nodes);
    PyTypeObject *mt = (PyTypeObject *)c->move_type;
    PyObject *move = mt->tp_alloc(mt, 0);
    if (move == NULL || Py_TYPE(c->kind_descr)->tp_descr_set(c->kind_descr, move, c->jump_kind) < 0 ||
        Py_TYPE(c->path_descr)->tp_descr_set(c->path_descr, move, nodes) < 0 ||
        Py_TYPE(c->capture_descr)->tp_descr_set(c->capture_descr, move, Py_None) < 0) {
        Py_XDECREF(move);
        Py_DECREF(nodes);
        return NULL;
    }
    Py_DECREF(nodes);
    if (PyObject_IS_GC(move)) PyObject_GC_UnTrack(move);
    return move;
}

/* The child of trie node `parent` by jump `j`, made when missing and the cache has room: its index, 0 for none
 * (no parent, or the cache full), -1 with an exception. */
static inline int32_t trie_child(CacheObject *c, int32_t parent, int j) {
    if (parent <= 0) return 0;
    int32_t child = c->nodes[parent].child[j];
    if (child || c->n >= c->limit) return child;
    if (c->n >= c->capacity) {
        Py_ssize_t capacity = c->capacity * 2;
        TrieNode *grown = PyMem_Realloc(c->nodes, (size_t)capacity * sizeof(TrieNode));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        memset(grown + c->capacity, 0, (size_t)(capacity - c->capacity) * sizeof(TrieNode));
        c->nodes = grown;
        c->capacity = capacity;
    }
    child = (int32_t)c->n++;
    memset(&c->nodes[child], 0, sizeof(TrieNode)); /* a node used before the cache last started afresh */
    c->nodes[parent].child[j] = child;
    return child;
}

/* The Move of the chain `path` at trie node `node` (0: not kept, made afresh): a new reference, NULL with an
 * exception. */
static inline PyObject *trie_move(CacheObject *c, int32_t node, const uint8_t *path, int len) {
    if (node <= 0) return make_move(c, path, len);
    PyObject *move = c->nodes[node].move;
    if (move == NULL) {
        move = make_move(c, path, len);
        if (move == NULL) return NULL;
        c->nodes[node].move = move;
    }
    return Py_NewRef(move);
}

/* The index of the jump from p landing on q in p's row, or -1. */
static int jump_index(const Jumps *t, int p, int q) {
    for (int j = 0; j < t->njumps[p]; j++) {
        if (t->to[p][j] == q) return j;
    }
    return -1;
}

static PyObject *Cache_move_of(CacheObject *self, PyObject *action) {
    /* The kept Move of a chain's action (made if new), or None for anything that is no chain of jumps here. */
    uint8_t path[MAXC];
    const Jumps *t = &self->t->j;
    int len = decode_action(action, t->size, path);
    if (len < 2) Py_RETURN_NONE;
    if (self->n >= self->limit) cache_empty(self);
    int32_t node = path[0] + 1;
    for (int i = 1; i < len; i++) {
        int j = jump_index(t, path[i - 1], path[i]);
        if (j < 0) Py_RETURN_NONE;
        node = trie_child(self, node, j);
        if (node < 0) return NULL;
    }
    return trie_move(self, node, path, len);
}

static PyObject *Cache_forget(CacheObject *self, PyObject *Py_UNUSED(ignored)) {
    cache_empty(self);
    Py_RETURN_NONE;
}

static Py_ssize_t Cache_len(CacheObject *self) { return self->n - (self->t == NULL ? 0 : self->t->size + 1); }

static PyMethodDef Cache_methods[] = {
    {"move_of", (PyCFunction)Cache_move_of, METH_O,
     PyDoc_STR("move_of($self, action, /)\n--\n\nThe Move of a chain's action (kept, made if new), or None for an "
               "action that is no chain of this board's jumps.")},
    {"clear", (PyCFunction)Cache_forget, METH_NOARGS, PyDoc_STR("clear($self, /)\n--\n\nForget every chain.")},
    {NULL},
};

static PySequenceMethods Cache_as_sequence = {.sq_length = (lenfunc)Cache_len};

static PyTypeObject CacheType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ytourney.games.leap_over._leapcore.MoveCache",
    .tp_doc = PyDoc_STR("MoveCache(tables, move_type, jump_kind, pass_move, limit): the Move of every chain met on "
                        "the tables' board, at most `limit` chains kept (then it starts afresh)."),
    .tp_basicsize = sizeof(CacheObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = Cache_new,
    .tp_dealloc = (destructor)Cache_dealloc,
    .tp_traverse = (traverseproc)Cache_traverse,
    .tp_clear = (inquiry)Cache_clear,
    .tp_methods = Cache_methods,
    .tp_as_sequence = &Cache_as_sequence,
};

/* --- chains: a growable list of paths ------------------------------------------------------------------------ */

typedef struct {
    Py_ssize_t n, cap;
    u128 *key;       /* the action of a chain of at most KEY_NODES nodes, else 0 */
    int32_t *off;    /* where its nodes start in `pool` */
    uint8_t *len;    /* its nodes */
    Py_ssize_t pool_n, pool_cap;
    uint8_t *pool;
} Chains;

static void chains_free(Chains *c) {
    PyMem_Free(c->key);
    PyMem_Free(c->off);
    PyMem_Free(c->len);
    PyMem_Free(c->pool);
    memset(c, 0, sizeof *c);
}

/* Room for one more chain of `len` nodes: 0, or -1 with an exception. */
static int chains_room(Chains *c, int len) {
    if (c->n >= c->cap) {
        Py_ssize_t cap = c->cap ? c->cap * 2 : 256;
        u128 *key = PyMem_Realloc(c->key, (size_t)cap * sizeof(u128));
        if (key == NULL) goto nomem;
        c->key = key;
        int32_t *off = PyMem_Realloc(c->off, (size_t)cap * sizeof(int32_t));
        if (off == NULL) goto nomem;
        c->off = off;
        uint8_t *lens = PyMem_Realloc(c->len, (size_t)cap);
        if (lens == NULL) goto nomem;
        c->len = lens;
        c->cap = cap;
    }
    if (c->pool_n + len > c->pool_cap) {
        Py_ssize_t cap = c->pool_cap ? c->pool_cap * 2 : 2048;
        while (cap < c->pool_n + len) cap *= 2;
        if (cap > INT32_MAX) goto nomem;
        uint8_t *pool = PyMem_Realloc(c->pool, (size_t)cap);
        if (pool == NULL) goto nomem;
        c->pool = pool;
        c->pool_cap = cap;
    }
    return 0;
nomem:
    PyErr_NoMemory();
    return -1;
}

static inline int chains_add(Chains *c, u128 key, const uint8_t *path, int len) {
    if ((c->n >= c->cap || c->pool_n + len > c->pool_cap) && chains_room(c, len) < 0) return -1;
    c->key[c->n] = key;
    c->off[c->n] = (int32_t)c->pool_n;
    c->len[c->n] = (uint8_t)len;
    memcpy(c->pool + c->pool_n, path, (size_t)len);
    c->pool_n += len;
    c->n++;
    return 0;
}

static PyObject *chain_action(const Chains *c, Py_ssize_t i) {
    if (c->key[i]) return u128_to_long(c->key[i]);
    return path_action(c->pool + c->off[i], c->len[i]);
}

/* The jumps open from p on the search's byte board (a stone jumped over, an empty node landed on) as a bit per
 * jump in row order: computed without a branch a jump, and still right when the search comes back to p, since
 * everything it marked below p is unmarked by then. */
static inline unsigned open_jumps(const Jumps *t, const uint8_t *b, int p) {
    unsigned open = 0;
    const uint8_t *overs = t->over[p], *tos = t->to[p];
    for (int j = 0; j < t->njumps[p]; j++) open |= (unsigned)((b[overs[j]] == 1) & (b[tos[j]] == 0)) << j;
    return open;
}

/* Every jump chain of the stones in `mine` on `board` (1 a stone, 0 empty, one byte a node): stones in node order,
 * each stone's chains depth first with its jumps in table order (the pure-Python kernel's order).  0, or -1 with
 * an exception. */
static int list_chains(const Jumps *t, const uint8_t *board, u128 mine, Chains *out) {
    out->n = 0;
    out->pool_n = 0;
    uint8_t b[MAXC]; /* 1 a stone, 0 empty, 2 a landing of the chain so far, 3 the lifted stone */
    memcpy(b, board, (size_t)t->size);
    uint8_t path[MAXC + 1];
    int next[MAXC + 1];
    u128 keys[KEY_NODES];
    for (int s = 0; s < t->size; s++) {
        if (!((mine >> s) & 1)) continue;
        b[s] = 3;
        int depth = 0;
        path[0] = (uint8_t)s;
        next[0] = (int)open_jumps(t, b, s);
        keys[0] = 1 | ((u128)(s + 1) << FIRST_FIELD);
        while (depth >= 0) {
            int p = path[depth];
            unsigned open = (unsigned)next[depth];
            if (!open) {
                if (depth > 0) b[p] = 0;
                depth--;
                continue;
            }
            int j = __builtin_ctz(open);
            next[depth] = (int)(open & (open - 1));
            int found = t->to[p][j];
            depth++;
            path[depth] = (uint8_t)found;
            b[found] = 2;
            next[depth] = (int)open_jumps(t, b, found);
            u128 key = 0;
            if (depth < KEY_NODES)
                key = keys[depth] = keys[depth - 1] | ((u128)(found + 1) << (FIRST_FIELD + NODE_BITS * depth));
            if (chains_add(out, key, path, depth + 1) < 0) return -1;
        }
        b[s] = 1;
    }
    return 0;
}

/* One chain per stone and landing, the shortest, breadth first (the knowledge's search actions).  0 or -1. */
static int list_search_chains(const Jumps *t, const uint8_t *board, u128 mine, Chains *out) {
    out->n = 0;
    out->pool_n = 0;
    uint8_t node[MAXC + 1], parent[MAXC + 1], depth_of[MAXC + 1];
    uint8_t path[MAXC + 1];
    uint8_t b[MAXC]; /* 1 a stone, 0 empty, 2 a landing reached, 3 the lifted stone */
    memcpy(b, board, (size_t)t->size);
    for (int s = 0; s < t->size; s++) {
        if (!((mine >> s) & 1)) continue;
        b[s] = 3;
        int head = 0, tail = 1;
        node[0] = (uint8_t)s;
        parent[0] = 0;
        depth_of[0] = 0;
        while (head < tail) {
            int p = node[head];
            for (int j = 0; j < t->njumps[p]; j++) {
                int over = t->over[p][j], to = t->to[p][j];
                if (b[over] != 1 || b[to] != 0) continue;
                b[to] = 2;
                node[tail] = (uint8_t)to;
                parent[tail] = (uint8_t)head;
                depth_of[tail] = (uint8_t)(depth_of[head] + 1);
                int len = depth_of[tail] + 1;
                for (int i = tail, d = len - 1; d >= 0; d--, i = parent[i]) path[d] = node[i];
                u128 key = 0;
                if (len <= KEY_NODES) {
                    key = 1;
                    for (int d = 0; d < len; d++) key |= (u128)(path[d] + 1) << (FIRST_FIELD + NODE_BITS * d);
                }
                if (chains_add(out, key, path, len) < 0) return -1;
                tail++;
            }
            head++;
        }
        for (int i = 1; i < tail; i++) b[node[i]] = 0;
        b[s] = 1;
    }
    return 0;
}

/* --- Kernel ---------------------------------------------------------------------------------------------------- */

typedef struct {
    int16_t source, target; /* ENTRY_PASS or ENTRY_SWAP as the source for a pass or the pie answer's ply */
} Entry;

typedef struct {
    PyObject_HEAD
    TablesObject *t;
    u128 m[3];
    uint8_t board[MAXC]; /* 1 where a stone stands (either colour), kept with the masks for the listing's search */
    int to_move;
    int result;
    int termination; /* 0 none, 1 filled, 2 blocked, 3 move limit */
    int goal_all;
    Py_ssize_t plies;
    long long max_plies;
    Entry *stack;
    Py_ssize_t depth, capacity;
    uint64_t stamp;         /* changes with every change of position */
    uint64_t listed_stamp;  /* the stamp of the last `legal_moves` */
    PyObject **listed;      /* that list's Moves (strong references) */
    int16_t *listed_source, *listed_target;
    Py_ssize_t nlisted, listed_cap;
    Chains scratch;
} KernelObject;

static PyTypeObject KernelType;

static void release_listing(KernelObject *self) {
    Py_ssize_t n = self->nlisted;
    self->nlisted = 0;
    for (Py_ssize_t i = 0; i < n; i++) Py_DECREF(self->listed[i]);
}

static int Kernel_traverse(KernelObject *self, visitproc visit, void *arg) {
    Py_VISIT(self->t);
    for (Py_ssize_t i = 0; i < self->nlisted; i++) Py_VISIT(self->listed[i]);
    return 0;
}

static int Kernel_clear(KernelObject *self) {
    release_listing(self);
    Py_CLEAR(self->t);
    return 0;
}

static void Kernel_dealloc(KernelObject *self) {
    PyObject_GC_UnTrack(self);
    Kernel_clear(self);
    PyMem_Free(self->stack);
    PyMem_Free(self->listed);
    PyMem_Free(self->listed_source);
    PyMem_Free(self->listed_target);
    chains_free(&self->scratch);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static KernelObject *kernel_alloc(TablesObject *t, Py_ssize_t capacity) {
    KernelObject *self = PyObject_GC_New(KernelObject, &KernelType);
    if (self == NULL) return NULL;
    self->t = (TablesObject *)Py_NewRef(t);
    self->m[0] = self->m[1] = self->m[2] = 0;
    self->to_move = 1;
    self->result = ONGOING;
    self->termination = 0;
    self->goal_all = 1;
    self->plies = 0;
    self->max_plies = 1000;
    self->capacity = capacity < 64 ? 64 : capacity;
    self->stack = PyMem_Malloc((size_t)self->capacity * sizeof(Entry));
    self->depth = 0;
    self->stamp = 1;
    self->listed_stamp = 0;
    self->listed = NULL;
    self->listed_source = self->listed_target = NULL;
    self->nlisted = self->listed_cap = 0;
    memset(&self->scratch, 0, sizeof self->scratch);
    PyObject_GC_Track(self);
    if (self->stack == NULL) {
        Py_DECREF(self);
        PyErr_NoMemory();
        return NULL;
    }
    return self;
}

/* Replace the stones from two node lists: 0, or -1 with an exception (nothing changed). */
static int set_stones(KernelObject *self, PyObject *black, PyObject *white, int to_move) {
    if (core_check_to_move(to_move) < 0) return -1;
    u128 masks[3] = {0, 0, 0};
    PyObject *lists[3] = {NULL, black, white};
    for (int c = 1; c <= 2; c++) {
        PyObject *seq = PySequence_Fast(lists[c], "stones must be a sequence of nodes");
        if (seq == NULL) return -1;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
            long node;
            if (read_int(PySequence_Fast_GET_ITEM(seq, i), 0, self->t->size - 1, &node, "a stone's node") < 0) {
                Py_DECREF(seq);
                return -1;
            }
            masks[c] |= BIT(node);
        }
        Py_DECREF(seq);
    }
    if (masks[1] & masks[2]) {
        PyErr_SetString(PyExc_ValueError, "a node holds stones of both colours");
        return -1;
    }
    for (int v = 0; v < MAXC; v++) self->board[v] = (uint8_t)(((masks[1] | masks[2]) >> v) & 1);
    self->m[1] = masks[1];
    self->m[2] = masks[2];
    self->to_move = to_move;
    self->result = ONGOING;
    self->termination = 0;
    self->depth = 0;
    self->stamp++;
    return 0;
}

static PyObject *Kernel_new(PyTypeObject *Py_UNUSED(type), PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"tables", "goal_all", "max_plies", "black", "white", "to_move", NULL};
    PyObject *tables, *black, *white;
    int goal_all, to_move = 1;
    long long max_plies;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!pLOO|i:Kernel", kwlist, &TablesType, &tables, &goal_all,
                                     &max_plies, &black, &white, &to_move))
        return NULL;
    KernelObject *self = kernel_alloc((TablesObject *)tables, 64);
    if (self == NULL) return NULL;
    self->goal_all = goal_all;
    self->max_plies = max_plies;
    if (set_stones(self, black, white, to_move) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static PyObject *Kernel_setup(KernelObject *self, PyObject *args) {
    PyObject *black, *white;
    int to_move = 1;
    if (!PyArg_ParseTuple(args, "OO|i:setup", &black, &white, &to_move)) return NULL;
    if (set_stones(self, black, white, to_move) < 0) return NULL;
    Py_RETURN_NONE;
}

/* True when `colour` has a first jump. */
static int can_leap(const KernelObject *self, int colour) {
    const Jumps *t = &self->t->j;
    u128 occ = self->m[1] | self->m[2], mine = self->m[colour];
    while (mine) {
        uint64_t lo = (uint64_t)mine;
        int p = lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(mine >> 64));
        mine &= mine - 1;
        for (int j = 0; j < t->njumps[p]; j++) {
            if (((occ >> t->over[p][j]) & 1) && !((occ >> t->to[p][j]) & 1)) return 1;
        }
    }
    return 0;
}

static int filled(const KernelObject *self, int colour) {
    u128 target = self->t->targets[colour];
    if (self->goal_all) return (self->m[colour] & target) == target;
    return ((self->m[1] | self->m[2]) & target) == target && (self->m[colour] & target) != 0;
}

static int push(KernelObject *self, int source, int target) {
    if (core_stack_room((void **)&self->stack, self->depth, &self->capacity, sizeof(Entry)) < 0) return -1;
    self->stack[self->depth].source = (int16_t)source;
    self->stack[self->depth].target = (int16_t)target;
    self->depth++;
    return 0;
}

/* Play a legal chain from `source` to `target` (source ENTRY_PASS: the pass) and decide the end: 0, or -1. */
static int apply_move(KernelObject *self, int source, int target) {
    if (push(self, source, target) < 0) return -1;
    int me = self->to_move, other = 3 - me;
    self->plies++;
    self->to_move = other;
    self->stamp++;
    if (source < 0) {
        if (!can_leap(self, other) && !can_leap(self, me)) {
            self->result = DRAW;
            self->termination = 2;
        }
        else if (self->plies >= self->max_plies) {
            self->result = DRAW;
            self->termination = 3;
        }
        return 0;
    }
    self->m[me] ^= BIT(source) | BIT(target);
    self->board[source] = 0;
    self->board[target] = 1;
    if (filled(self, me)) {
        self->result = me;
        self->termination = 1;
    }
    else if (filled(self, other)) {
        self->result = other;
        self->termination = 1;
    }
    else if (!self->t->reversible && !can_leap(self, other) && !can_leap(self, me)) {
        self->result = DRAW;
        self->termination = 2;
    }
    else if (self->plies >= self->max_plies) {
        self->result = DRAW;
        self->termination = 3;
    }
    return 0;
}

static void undo_move(KernelObject *self) {
    Entry e = self->stack[--self->depth];
    self->plies--;
    self->result = ONGOING;
    self->termination = 0;
    self->stamp++;
    if (e.source == ENTRY_SWAP) return;
    int mover = 3 - self->to_move;
    self->to_move = mover;
    if (e.source >= 0) {
        self->m[mover] ^= BIT(e.source) | BIT(e.target);
        self->board[e.source] = 1;
        self->board[e.target] = 0;
    }
}

/* The jump from p landing on q: its node jumped over, or -1. */
static int over_of(const Jumps *t, int p, int q) {
    for (int j = 0; j < t->njumps[p]; j++) {
        if (t->to[p][j] == q) return t->over[p][j];
    }
    return -1;
}

/* 1 when the chain `path` is legal now (checked jump by jump, as the pure-Python kernel does). */
static int path_legal(const KernelObject *self, const uint8_t *path, int len) {
    u128 occ = self->m[1] | self->m[2], seen = 0;
    int source = path[0];
    if (!((self->m[self->to_move] >> source) & 1)) return 0;
    for (int i = 0; i < len; i++) {
        if ((seen >> path[i]) & 1) return 0;
        seen |= BIT(path[i]);
    }
    for (int i = 0; i + 1 < len; i++) {
        int between = over_of(&self->t->j, path[i], path[i + 1]);
        if (between < 0 || ((occ >> path[i + 1]) & 1) || !((occ >> between) & 1) || between == source) return 0;
    }
    return 1;
}

/* -1: not legal; ENTRY_PASS: the pass; else the chain's length with its nodes in `path`. */
static int legal_path(const KernelObject *self, PyObject *action, uint8_t *path) {
    int overflow;
    long long small;
    if (self->result != ONGOING || !core_action_ll(action, &small, &overflow)) return 0;
    if (!overflow && small == PASS_ACTION) return can_leap(self, self->to_move) ? 0 : ENTRY_PASS;
    int len = decode_action(action, self->t->size, path);
    return len >= 2 && path_legal(self, path, len) ? len : 0;
}

static PyObject *Kernel_is_legal(KernelObject *self, PyObject *action) {
    uint8_t path[MAXC];
    return PyBool_FromLong(legal_path(self, action, path) != 0);
}

static PyObject *Kernel_apply(KernelObject *self, PyObject *action) {
    uint8_t path[MAXC];
    int len = legal_path(self, action, path);
    if (len == 0) {
        PyErr_Format(PyExc_ValueError, "action %R is not legal here", action);
        return NULL;
    }
    if ((len == ENTRY_PASS ? apply_move(self, ENTRY_PASS, 0) : apply_move(self, path[0], path[len - 1])) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *Kernel_undo(KernelObject *self, PyObject *Py_UNUSED(ignored)) {
    if (self->depth == 0) {
        PyErr_SetString(PyExc_IndexError, "nothing to undo");
        return NULL;
    }
    undo_move(self);
    Py_RETURN_NONE;
}

static PyObject *Kernel_count_swap(KernelObject *self, PyObject *Py_UNUSED(ignored)) {
    if (push(self, ENTRY_SWAP, 0) < 0) return NULL;
    self->plies++;
    self->stamp++;
    Py_RETURN_NONE;
}

static PyObject *pass_list(void) {
    PyObject *pass = PyLong_FromLong(PASS_ACTION);
    if (pass == NULL) return NULL;
    PyObject *list = PyList_New(1);
    if (list == NULL) {
        Py_DECREF(pass);
        return NULL;
    }
    PyList_SET_ITEM(list, 0, pass);
    return list;
}

static PyObject *action_list(const Chains *c) {
    if (c->n == 0) return pass_list();
    PyObject *list = PyList_New(c->n);
    if (list == NULL) return NULL;
    for (Py_ssize_t i = 0; i < c->n; i++) {
        PyObject *action = chain_action(c, i);
        if (action == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, action);
    }
    return list;
}

static PyObject *Kernel_legal_actions(KernelObject *self, PyObject *Py_UNUSED(ignored)) {
    if (self->result != ONGOING) return PyList_New(0);
    if (list_chains(&self->t->j, self->board, self->m[self->to_move], &self->scratch) < 0) return NULL;
    return action_list(&self->scratch);
}

static PyObject *Kernel_search_actions(KernelObject *self, PyObject *Py_UNUSED(ignored)) {
    if (list_search_chains(&self->t->j, self->board, self->m[self->to_move], &self->scratch) < 0)
        return NULL;
    return action_list(&self->scratch);
}

static int listing_room(KernelObject *self, Py_ssize_t n) {
    if (n <= self->listed_cap) return 0;
    Py_ssize_t cap = self->listed_cap ? self->listed_cap : 64;
    while (cap < n) cap *= 2;
    PyObject **listed = PyMem_Realloc(self->listed, (size_t)cap * sizeof(PyObject *));
    if (listed == NULL) goto nomem;
    self->listed = listed;
    int16_t *sources = PyMem_Realloc(self->listed_source, (size_t)cap * sizeof(int16_t));
    if (sources == NULL) goto nomem;
    self->listed_source = sources;
    int16_t *targets = PyMem_Realloc(self->listed_target, (size_t)cap * sizeof(int16_t));
    if (targets == NULL) goto nomem;
    self->listed_target = targets;
    self->listed_cap = cap;
    return 0;
nomem:
    PyErr_NoMemory();
    return -1;
}

/* Keep `move` (a new reference, stolen) as the listing's next entry, from `source` to `target`: 0, or -1. */
static inline int listing_add(KernelObject *self, PyObject *move, int source, int target) {
    if (self->nlisted >= self->listed_cap && listing_room(self, self->nlisted + 1) < 0) {
        Py_DECREF(move);
        return -1;
    }
    self->listed[self->nlisted] = move;
    self->listed_source[self->nlisted] = (int16_t)source;
    self->listed_target[self->nlisted] = (int16_t)target;
    self->nlisted++;
    return 0;
}

/* The listing's Moves as a new list. */
static PyObject *listing_list(const KernelObject *self) {
    PyObject *list = PyList_New(self->nlisted);
    if (list == NULL) return NULL;
    for (Py_ssize_t i = 0; i < self->nlisted; i++) PyList_SET_ITEM(list, i, Py_NewRef(self->listed[i]));
    return list;
}

static PyObject *Kernel_legal_moves(KernelObject *self, PyObject *cache_obj) {
    /* list_chains' DFS walking the cache's trie alongside, so each chain's Move is found without a lookup */
    if (!PyObject_TypeCheck(cache_obj, &CacheType) || ((CacheObject *)cache_obj)->t != self->t) {
        PyErr_SetString(PyExc_TypeError, "legal_moves needs the MoveCache of the kernel's tables");
        return NULL;
    }
    CacheObject *cache = (CacheObject *)cache_obj;
    release_listing(self);
    self->listed_stamp = 0;
    if (self->result != ONGOING) return PyList_New(0);
    if (cache->n >= cache->limit) cache_empty(cache);
    const Jumps *t = &self->t->j;
    /* the search reads one byte a node: 1 a stone it may jump, 0 an empty node it may land on, 2 a landing of the
     * chain so far, 3 the lifted stone (neither) */
    uint8_t b[MAXC];
    memcpy(b, self->board, sizeof b);
    u128 mine = self->m[self->to_move];
    uint8_t path[MAXC + 1];
    int next[MAXC + 1];
    int32_t node[MAXC + 1];
    for (int s = 0; s < t->size; s++) {
        if (!((mine >> s) & 1)) continue;
        b[s] = 3;
        int depth = 0;
        path[0] = (uint8_t)s;
        next[0] = (int)open_jumps(t, b, s);
        node[0] = s + 1;
        while (depth >= 0) {
            int p = path[depth];
            unsigned open = (unsigned)next[depth];
            if (!open) {
                if (depth > 0) b[p] = 0;
                depth--;
                continue;
            }
            int j = __builtin_ctz(open);
            next[depth] = (int)(open & (open - 1));
            int found = t->to[p][j];
            int32_t child = trie_child(cache, node[depth], j);
            if (child < 0) return NULL;
            depth++;
            path[depth] = (uint8_t)found;
            node[depth] = child;
            b[found] = 2;
            next[depth] = (int)open_jumps(t, b, found);
            PyObject *move = trie_move(cache, child, path, depth + 1);
            if (move == NULL || listing_add(self, move, s, found) < 0) return NULL;
        }
        b[s] = 1;
    }
    if (self->nlisted == 0 && listing_add(self, Py_NewRef(cache->pass_move), ENTRY_PASS, 0) < 0) return NULL;
    PyObject *list = listing_list(self);
    if (list != NULL) self->listed_stamp = self->stamp;
    return list;
}

static PyObject *Kernel_play_move(KernelObject *self, PyObject *move) {
    /* Apply the move of the last `legal_moves` list (of this very position) that is `move` itself: True; False
     * (nothing done) for anything else, so the caller takes its slow path. */
    if (self->result != ONGOING || self->listed_stamp != self->stamp) Py_RETURN_FALSE;
    for (Py_ssize_t i = 0; i < self->nlisted; i++) {
        if (self->listed[i] == move) {
            if (apply_move(self, self->listed_source[i], self->listed_target[i]) < 0) return NULL;
            Py_RETURN_TRUE;
        }
    }
    Py_RETURN_FALSE;
}

static PyObject *Kernel_key(KernelObject *self, PyObject *Py_UNUSED(ignored)) {
    uint64_t words[4] = {(uint64_t)self->m[1], (uint64_t)(self->m[1] >> 64), (uint64_t)self->m[2],
                         (uint64_t)(self->m[2] >> 64)};
    uint64_t h = 0x243F6A8885A308D3ULL ^ (uint64_t)self->to_move;
    for (int i = 0; i < 4; i++) {
        h = (h ^ words[i]) * 0x9E3779B97F4A7C15ULL;
        h = core_mix64(h);
    }
    return core_key_object(h);
}

static PyObject *Kernel_clone(KernelObject *self, PyObject *Py_UNUSED(ignored)) {
    KernelObject *new = kernel_alloc(self->t, self->depth + 64);
    if (new == NULL) return NULL;
    memcpy(new->m, self->m, sizeof self->m);
    memcpy(new->board, self->board, sizeof self->board);
    new->to_move = self->to_move;
    new->result = self->result;
    new->termination = self->termination;
    new->goal_all = self->goal_all;
    new->plies = self->plies;
    new->max_plies = self->max_plies;
    memcpy(new->stack, self->stack, (size_t)self->depth * sizeof(Entry));
    new->depth = self->depth;
    return (PyObject *)new;
}

/* --- the knowledge: the race evaluation and playouts ----------------------------------------------------------- */

/* Black's chance by the race evaluation (evaluation.black_value): 0, or -1 with an exception. */
static int race_value(const TablesObject *t, const u128 *m, int together, double *out) {
    u128 occ = m[1] | m[2];
    double left[3] = {0.0, 0.0, 0.0};
    int last[3] = {0, 0, 0};
    int last_node[3] = {-1, -1, -1};
    for (int node = 0; node < t->size; node++) {
        int stone = (m[1] >> node) & 1 ? 1 : ((m[2] >> node) & 1 ? 2 : 0);
        if (!stone) continue;
        int d = t->cost[stone][node];
        left[stone] += d + t->home_penalty * (double)((t->homes[stone] >> node) & 1);
        if ((t->homes[3 - stone] >> node) & 1) continue;
        if (d > last[stone]) {
            last[stone] = d;
            last_node[stone] = node;
        }
        if (occ & t->near[node]) continue;
        int apart = -1;
        for (int r = t->ring_start[node]; r < t->ring_start[node + 1]; r++) {
            if (t->rings[r] & occ) {
                apart = r - t->ring_start[node] + 1;
                break;
            }
        }
        if (apart < 0) { /* no ring holds a stone: the nearest by distance, as min() finds it */
            int any = 0;
            for (int other = 0; other < t->size; other++) {
                if (other != node && ((occ >> other) & 1) && (!any || t->far[node][other] < apart)) {
                    apart = t->far[node][other];
                    any = 1;
                }
            }
            if (!any) {
                PyErr_SetString(PyExc_ValueError, "min() arg is an empty sequence");
                return -1;
            }
        }
        left[stone] += t->stranded_weight * (apart - 1);
    }
    for (int side = 1; side <= 2; side++) {
        left[side] += t->last_weight * last[side];
        int node = last_node[side];
        if (!together || node < 0) continue;  /* the search's term: the last stone's own nearest stone */
        u128 others = m[side] & ~((u128)1 << node);
        for (int r = t->ring_start[node]; r < t->ring_start[node + 1]; r++) {
            if (t->rings[r] & others) {
                left[side] += t->together_weight * (r - t->ring_start[node]);
                break;
            }
        }
    }
    double margin = left[2] - left[1];
    *out = 1.0 / (1.0 + exp(-margin / t->temperature));
    return 0;
}

static PyObject *Kernel_evaluate(KernelObject *self, PyObject *Py_UNUSED(ignored)) {
    double value;
    if (race_value(self->t, self->m, 1, &value) < 0) return NULL;
    return PyFloat_FromDouble(value);
}

static PyObject *Kernel_race_value(KernelObject *self, PyObject *Py_UNUSED(ignored)) {
    double value;
    if (race_value(self->t, self->m, 0, &value) < 0) return NULL;
    return PyFloat_FromDouble(value);
}

/* The playout's move from `rng`: the index of a uniform chain of the legal list in `c`, or -1 for the pass. */
static int playout_pick(KernelObject *self, uint64_t *rng, Py_ssize_t *index) {
    Chains *c = &self->scratch;
    if (list_chains(&self->t->j, self->board, self->m[self->to_move], c) < 0) return -1;
    Py_ssize_t n = c->n ? c->n : 1;
    *index = (Py_ssize_t)(core_lcg_next(rng) % (uint64_t)n);
    if (c->n == 0) *index = -1;
    return 0;
}

static PyObject *Kernel_playout_action(KernelObject *self, PyObject *seed) {
    uint64_t rng = PyLong_AsUnsignedLongLongMask(seed);
    if (rng == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    if (self->result != ONGOING) Py_RETURN_NONE;
    Py_ssize_t index;
    if (playout_pick(self, &rng, &index) < 0) return NULL;
    return index < 0 ? PyLong_FromLong(PASS_ACTION) : chain_action(&self->scratch, index);
}

static PyObject *Kernel_rollout(KernelObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint64_t rng;
    Py_ssize_t plies;
    PyObject *trace;
    if (core_rollout_args(args, nargs, &rng, &plies, &trace) < 0) return NULL;
    Py_ssize_t played = 0;
    PyObject *failed = NULL;
    double value = 0.5;
    while (self->result == ONGOING && played < plies) {
        Py_ssize_t index;
        if (playout_pick(self, &rng, &index) < 0) goto fail;
        const Chains *c = &self->scratch;
        if (trace != NULL) {
            PyObject *action = index < 0 ? PyLong_FromLong(PASS_ACTION) : chain_action(c, index);
            if (action == NULL || PyList_Append(trace, action) < 0) {
                Py_XDECREF(action);
                goto fail;
            }
            Py_DECREF(action);
        }
        int ok = index < 0 ? apply_move(self, ENTRY_PASS, 0)
                           : apply_move(self, c->pool[c->off[index]], c->pool[c->off[index] + c->len[index] - 1]);
        if (ok < 0) goto fail;
        played++;
    }
    if (self->result != ONGOING) value = core_result_value(self->result);
    else if (race_value(self->t, self->m, 1, &value) < 0) goto fail;
    while (played-- > 0) undo_move(self);
    return PyFloat_FromDouble(value);
fail:
    while (played-- > 0) undo_move(self);
    return failed;
}

/* --- attributes ------------------------------------------------------------------------------------------------ */

static PyObject *Kernel_get_cells(KernelObject *self, void *Py_UNUSED(closure)) {
    PyObject *list = PyList_New(self->t->size);
    if (list == NULL) return NULL;
    for (int v = 0; v < self->t->size; v++) {
        int c = (self->m[1] >> v) & 1 ? 1 : ((self->m[2] >> v) & 1 ? 2 : 0);
        PyList_SET_ITEM(list, v, PyLong_FromLong(c)); /* small ints: never NULL */
    }
    return list;
}

static PyObject *Kernel_get_masks(KernelObject *self, void *Py_UNUSED(closure)) {
    PyObject *black = u128_to_long(self->m[1]);
    return core_masks_list(black, black == NULL ? NULL : u128_to_long(self->m[2]));
}

static PyObject *Kernel_get_termination(KernelObject *self, void *Py_UNUSED(closure)) {
    switch (self->termination) {
    case 1: return Py_NewRef(self->t->filled);
    case 2: return Py_NewRef(self->t->blocked);
    case 3: return Py_NewRef(self->t->move_limit);
    default: Py_RETURN_NONE;
    }
}

static PyObject *Kernel_get_goal_all(KernelObject *self, void *Py_UNUSED(closure)) {
    return PyBool_FromLong(self->goal_all);
}

static PyObject *Kernel_get_tables(KernelObject *self, void *Py_UNUSED(closure)) { return Py_NewRef(self->t); }

static PyObject *Kernel_path_of(KernelObject *self, PyObject *action) {
    uint8_t path[MAXC];
    int len = decode_action(action, self->t->size, path);
    if (len < 2) Py_RETURN_NONE;
    PyObject *tuple = PyTuple_New(len);
    if (tuple == NULL) return NULL;
    for (int i = 0; i < len; i++) PyTuple_SET_ITEM(tuple, i, PyLong_FromLong(path[i]));
    return tuple;
}

static PyObject *Kernel_can_leap(KernelObject *self, PyObject *colour) {
    long c;
    if (read_int(colour, 1, 2, &c, "colour") < 0) return NULL;
    return PyBool_FromLong(can_leap(self, (int)c));
}

static PyMethodDef Kernel_methods[] = {
    {"legal_actions", (PyCFunction)Kernel_legal_actions, METH_NOARGS,
     PyDoc_STR("legal_actions($self, /)\n--\n\nEvery jump chain (stones in node order, chains depth first), or the "
               "pass alone; empty once over.")},
    {"legal_moves", (PyCFunction)Kernel_legal_moves, METH_O,
     PyDoc_STR("legal_moves($self, cache, /)\n--\n\nThe Move of every legal action from the MoveCache, same order.")},
    {"play_move", (PyCFunction)Kernel_play_move, METH_O,
     PyDoc_STR("play_move($self, move, /)\n--\n\nApply a Move of the last legal_moves list of this position: True; "
               "False (nothing done) for anything else.")},
    CORE_METHOD_IS_LEGAL(Kernel_is_legal),
    {"apply", (PyCFunction)Kernel_apply, METH_O,
     PyDoc_STR("apply($self, action, /)\n--\n\nPlay a legal action and decide the end (ValueError if not legal).")},
    {"undo", (PyCFunction)Kernel_undo, METH_NOARGS,
     PyDoc_STR("undo($self, /)\n--\n\nTake back the last action or pie answer's ply.")},
    CORE_METHOD_COUNT_SWAP(Kernel_count_swap),
    {"key", (PyCFunction)Kernel_key, METH_NOARGS,
     PyDoc_STR("key($self, /)\n--\n\nA hash of the stones and the side to move.")},
    CORE_METHOD_CLONE(Kernel_clone),
    {"setup", (PyCFunction)Kernel_setup, METH_VARARGS,
     PyDoc_STR("setup($self, black, white, to_move=1, /)\n--\n\nReplace the stones and the side to move; the ply "
               "count stays, the undo stack starts afresh and the game is on.")},
    {"search_actions", (PyCFunction)Kernel_search_actions, METH_NOARGS,
     PyDoc_STR("search_actions($self, /)\n--\n\nOne chain per stone and landing, the shortest (breadth first), or "
               "the pass alone.")},
    {"evaluate", (PyCFunction)Kernel_evaluate, METH_NOARGS,
     PyDoc_STR("evaluate($self, /)\n--\n\nBlack's chance by the search's evaluation: the race and the last "
               "stone's distance to its own stones.")},
    {"race_value", (PyCFunction)Kernel_race_value, METH_NOARGS,
     PyDoc_STR("race_value($self, /)\n--\n\nBlack's chance by the race evaluation alone (the heuristic's).")},
    {"playout_action", (PyCFunction)Kernel_playout_action, METH_O,
     PyDoc_STR("playout_action($self, seed, /)\n--\n\nThe playout's move from this seed, or None once over.")},
    {"rollout", (PyCFunction)(void (*)(void))Kernel_rollout, METH_FASTCALL,
     PyDoc_STR("rollout($self, seed, plies, trace=None, /)\n--\n\nBlack's value after up to `plies` uniform playout "
               "moves from this seed, then the evaluation (the kernel left as found); each appended to `trace`.")},
    {"path_of", (PyCFunction)Kernel_path_of, METH_O,
     PyDoc_STR("path_of($self, action, /)\n--\n\nThe nodes of a packed chain on this board, or None.")},
    {"can_leap", (PyCFunction)Kernel_can_leap, METH_O,
     PyDoc_STR("can_leap($self, colour, /)\n--\n\nTrue when `colour` has a first jump.")},
    {NULL},
};

static PyMemberDef Kernel_members[] = {
    CORE_KERNEL_MEMBERS(KernelObject),
    {"max_plies", T_LONGLONG, offsetof(KernelObject, max_plies), READONLY, PyDoc_STR("The move limit.")},
    {NULL},
};

static PyGetSetDef Kernel_getset[] = {
    {"cells", (getter)Kernel_get_cells, NULL, PyDoc_STR("Colour on every node (a new list)."), NULL},
    {"masks", (getter)Kernel_get_masks, NULL, PyDoc_STR("[0, Black's stones, White's] as node masks (new)."), NULL},
    {"termination", (getter)Kernel_get_termination, NULL, PyDoc_STR("How the game ended, None while on."), NULL},
    {"score", (getter)core_get_none, NULL, PyDoc_STR("None: Leap Over keeps no score."), NULL},
    {"goal_all", (getter)Kernel_get_goal_all, NULL, PyDoc_STR("True for the book's goal (every own stone)."), NULL},
    {"tables", (getter)Kernel_get_tables, NULL, PyDoc_STR("The board's core tables."), NULL},
    {NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ytourney.games.leap_over._leapcore.Kernel",
    .tp_doc = PyDoc_STR("Kernel(tables, goal_all, max_plies, black, white, to_move=1): one Leap Over position on the "
                        "kernel protocol (the stones as node lists; the position is not judged)."),
    .tp_basicsize = sizeof(KernelObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = Kernel_new,
    .tp_dealloc = (destructor)Kernel_dealloc,
    .tp_traverse = (traverseproc)Kernel_traverse,
    .tp_clear = (inquiry)Kernel_clear,
    .tp_methods = Kernel_methods,
    .tp_members = Kernel_members,
    .tp_getset = Kernel_getset,
};

/* --- module functions: the pure-Python kernel's optional chain lister, and path decoding ------------------------ */

static PyObject *chains(PyObject *Py_UNUSED(self), PyObject *args) {
    const unsigned char *table;
    Py_ssize_t table_len;
    unsigned long long black_lo, black_hi, white_lo, white_hi;
    int me;
    if (!PyArg_ParseTuple(args, "y#KKKKi", &table, &table_len, &black_lo, &black_hi, &white_lo, &white_hi, &me))
        return NULL;
    int n = (int)(table_len / (2 * MAXJ));
    if (n > MAXC || table_len != (Py_ssize_t)n * 2 * MAXJ) {
        PyErr_SetString(PyExc_ValueError, "leap-over chain table of a wrong size");
        return NULL;
    }
    Jumps t;
    t.size = n;
    for (int p = 0; p < n; p++) {
        const unsigned char *row = table + p * 2 * MAXJ;
        int j = 0;
        for (; j < MAXJ && row[2 * j] != 255; j++) {
            if (row[2 * j] >= n || row[2 * j + 1] >= n) {
                PyErr_SetString(PyExc_ValueError, "leap-over chain table names a node off the board");
                return NULL;
            }
            t.over[p][j] = row[2 * j];
            t.to[p][j] = row[2 * j + 1];
        }
        t.njumps[p] = j;
    }
    u128 black = ((u128)black_hi << 64) | black_lo, white = ((u128)white_hi << 64) | white_lo;
    Chains c;
    memset(&c, 0, sizeof c);
    uint8_t board[MAXC];
    for (int v = 0; v < n; v++) board[v] = (uint8_t)(((black | white) >> v) & 1);
    if (list_chains(&t, board, me == 1 ? black : white, &c) < 0) {
        chains_free(&c);
        return NULL;
    }
    PyObject *out = PyList_New(c.n);
    for (Py_ssize_t i = 0; out != NULL && i < c.n; i++) {
        PyObject *action = chain_action(&c, i);
        if (action == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, action);
    }
    chains_free(&c);
    return out;
}

static PyObject *path_of(PyObject *Py_UNUSED(self), PyObject *args) {
    /* The nodes of a packed chain given as its little-endian bytes: a tuple, or None when a field is no node. */
    const unsigned char *bytes;
    Py_ssize_t len;
    int size;
    if (!PyArg_ParseTuple(args, "y#i", &bytes, &len, &size)) return NULL;
    long long total = (long long)len * 8;
    int nodes[MAXC + 1], count = 0;
    for (long long offset = FIRST_FIELD; offset < total; offset += NODE_BITS) {
        unsigned value = 0;
        for (int b = 0; b < NODE_BITS; b++) {
            long long bit = offset + b;
            if (bit < total && (bytes[bit >> 3] >> (bit & 7)) & 1) value |= 1u << b;
        }
        if (value == 0) {
            for (long long rest = offset; rest < total; rest++)
                if ((bytes[rest >> 3] >> (rest & 7)) & 1) Py_RETURN_NONE;
            break;
        }
        if ((int)value > size || count > MAXC) Py_RETURN_NONE;
        nodes[count++] = (int)value - 1;
    }
    PyObject *path = PyTuple_New(count);
    if (path == NULL) return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *node = PyLong_FromLong(nodes[i]);
        if (node == NULL) {
            Py_DECREF(path);
            return NULL;
        }
        PyTuple_SET_ITEM(path, i, node);
    }
    return path;
}

static PyMethodDef methods[] = {
    {"path_of", path_of, METH_VARARGS,
     "path_of(action_bytes, size) -> the chain's nodes (fields past the capture field), or None if one is no node"},
    {"chains", chains, METH_VARARGS,
     "chains(table, black_lo, black_hi, white_lo, white_hi, me) -> every jump chain of `me` as packed actions"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ytourney.games.leap_over._leapcore",
    .m_doc = PyDoc_STR("Leap Over's optional C kernel, knowledge and chain Moves (see ytourney.games.leap_over.ckernel)."),
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__leapcore(void) {
    return core_module_create(&module, "Tables", &TablesType, "MoveCache", &CacheType, "Kernel", &KernelType, NULL);
}
