/* Optional C core of Tetra's kernel (ytourney.games.tetra.kernel.TetraKernel) and of its search knowledge's hot
 * parts: the 16-ply playout with the figure evaluation, and the win in one.
 *
 * `Tables` holds one board's read-only tables (figures, moves, neighbours, the Termination objects), built once by
 * ytourney.games.tetra.ckernel from the pure-Python tables.  `Kernel` is one position on the kernel protocol with
 * the same actions, the same legal-action order and the same endings as the pure-Python kernel.  Each colour's
 * stones in every figure are counted mod 4 in plain byte arrays (the Python kernel bit-slices the same counts), so
 * a count of 3 turning to 0 is a completed figure and every evaluation agrees with the Python one.  The playout
 * draws from a 64-bit LCG (top 32 bits, `% n`) that the Python knowledge steps the same way, so for one seed both
 * play the same moves and return the same value.  No module state: everything hangs off a Tables object.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../core_common.h"

#define MAX_NODES 511       /* a node takes 9 bits in an action */
#define STONES 10
#define ONGOING (-1)
#define DRAW 0
#define SWAP_ENTRY (-1)
#define MOVER_BONUS 1.5
#define TEMPERATURE 24.0

/* --- Tables: one board's read-only tables ---------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    int size;          /* nodes */
    int nfig;          /* figures */
    int nmoves;        /* 1- and 2-node moves */
    int16_t *fig_nodes;      /* nfig rows of 4 nodes, ascending */
    int32_t *node_fig_start; /* size + 1 offsets into node_figs */
    int32_t *node_figs;      /* the figures through each node, ascending index */
    int32_t *move_start;     /* size + 1 offsets: the moves of each source, in the Python table's order */
    int16_t *move_source;
    int16_t *move_target;
    int16_t *move_via;       /* the node passed over, -1 for a step to a neighbour */
    int32_t *pair;           /* size * size: the move from source to target, -1 for none */
    int32_t *reach_start;    /* size + 1 offsets: the moves ending on each target, by source then table order */
    int32_t *reach_moves;
    int32_t *nb_start;       /* size + 1 offsets into nbs */
    int16_t *nbs;
    PyObject **action_objs;  /* the action int of every move */
    PyObject *figure;        /* the Termination objects the kernel reports */
    PyObject *move_limit;
    PyObject *no_moves;
    PyObject *moves;         /* optional: a tuple of size + nmoves objects, the Move of every action index */
} TablesObject;

static PyTypeObject TablesType;

static long long
move_action_value(int source, int target)
{
    /* encode_path((source, target)): 9 bits a node, no capture, the low bit set */
    return ((long long)(target + 1) << 19) | ((long long)(source + 1) << 10) | 1;
}

static int
Tables_traverse(TablesObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->figure);
    Py_VISIT(self->move_limit);
    Py_VISIT(self->no_moves);
    Py_VISIT(self->moves);
    return 0;
}

static int
Tables_clear(TablesObject *self)
{
    Py_CLEAR(self->figure);
    Py_CLEAR(self->move_limit);
    Py_CLEAR(self->no_moves);
    Py_CLEAR(self->moves);
    return 0;
}

static void
Tables_dealloc(TablesObject *self)
{
    PyObject_GC_UnTrack(self);
    Tables_clear(self);
    if (self->action_objs != NULL) {
        for (int m = 0; m < self->nmoves; m++) {
            Py_XDECREF(self->action_objs[m]);
        }
        PyMem_Free(self->action_objs);
    }
    PyMem_Free(self->fig_nodes);
    PyMem_Free(self->node_fig_start);
    PyMem_Free(self->node_figs);
    PyMem_Free(self->move_start);
    PyMem_Free(self->move_source);
    PyMem_Free(self->move_target);
    PyMem_Free(self->move_via);
    PyMem_Free(self->pair);
    PyMem_Free(self->reach_start);
    PyMem_Free(self->reach_moves);
    PyMem_Free(self->nb_start);
    PyMem_Free(self->nbs);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Fill `out` (n ints) from a sequence of ints in [lo, hi]; 0, or -1 with an exception. */
static int
read_ints(PyObject *seq_obj, Py_ssize_t n, long lo, long hi, long *out, const char *what)
{
    PyObject *seq = PySequence_Fast(seq_obj, what);
    if (seq == NULL) {
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items, got %zd", what, n, PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = core_bounded_int(PySequence_Fast_GET_ITEM(seq, i), lo, hi, what);
        if (out[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *
Tables_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"size", "figures", "moves", "neighbours", "figure", "move_limit", "no_moves", NULL};
    int size;
    PyObject *figures, *moves, *neighbours, *figure, *move_limit, *no_moves;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOOOOO:Tables", kwlist, &size, &figures, &moves, &neighbours,
                                     &figure, &move_limit, &no_moves)) {
        return NULL;
    }
    if (size < 1 || size > MAX_NODES) {
        PyErr_Format(PyExc_ValueError, "a board needs 1..%d nodes, got %d", MAX_NODES, size);
        return NULL;
    }
    PyObject *fig_seq = NULL, *move_seq = NULL, *nb_seq = NULL;
    TablesObject *self = (TablesObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->size = size;
    self->figure = Py_NewRef(figure);
    self->move_limit = Py_NewRef(move_limit);
    self->no_moves = Py_NewRef(no_moves);
    fig_seq = PySequence_Fast(figures, "figures must be a sequence of 4-node sequences");
    move_seq = PySequence_Fast(moves, "moves must be a sequence of (source, target, via) triples");
    nb_seq = PySequence_Fast(neighbours, "neighbours must be a sequence of node sequences");
    if (fig_seq == NULL || move_seq == NULL || nb_seq == NULL) {
        goto fail;
    }
    Py_ssize_t nfig = PySequence_Fast_GET_SIZE(fig_seq);
    Py_ssize_t nmoves = PySequence_Fast_GET_SIZE(move_seq);
    if (nfig > 1000000 || nmoves > (Py_ssize_t)size * size) {
        PyErr_SetString(PyExc_ValueError, "too many figures or moves for the board");
        goto fail;
    }
    if (PySequence_Fast_GET_SIZE(nb_seq) != size) {
        PyErr_Format(PyExc_ValueError, "expected %d neighbour rows", size);
        goto fail;
    }
    self->nfig = (int)nfig;
    self->nmoves = (int)nmoves;
    self->fig_nodes = PyMem_Calloc((size_t)nfig * 4 + 1, sizeof(int16_t));
    self->node_fig_start = PyMem_Calloc((size_t)size + 1, sizeof(int32_t));
    self->node_figs = PyMem_Calloc((size_t)nfig * 4 + 1, sizeof(int32_t));
    self->move_start = PyMem_Calloc((size_t)size + 1, sizeof(int32_t));
    self->move_source = PyMem_Calloc((size_t)nmoves + 1, sizeof(int16_t));
    self->move_target = PyMem_Calloc((size_t)nmoves + 1, sizeof(int16_t));
    self->move_via = PyMem_Calloc((size_t)nmoves + 1, sizeof(int16_t));
    self->pair = PyMem_Malloc((size_t)size * size * sizeof(int32_t));
    self->reach_start = PyMem_Calloc((size_t)size + 1, sizeof(int32_t));
    self->reach_moves = PyMem_Calloc((size_t)nmoves + 1, sizeof(int32_t));
    self->nb_start = PyMem_Calloc((size_t)size + 1, sizeof(int32_t));
    self->action_objs = PyMem_Calloc((size_t)nmoves + 1, sizeof(PyObject *));
    if (!self->fig_nodes || !self->node_fig_start || !self->node_figs || !self->move_start || !self->move_source ||
        !self->move_target || !self->move_via || !self->pair || !self->reach_start || !self->reach_moves ||
        !self->nb_start || !self->action_objs) {
        PyErr_NoMemory();
        goto fail;
    }
    /* figures, and the figures through each node in ascending figure order */
    for (Py_ssize_t f = 0; f < nfig; f++) {
        long nodes[4];
        if (read_ints(PySequence_Fast_GET_ITEM(fig_seq, f), 4, 0, size - 1, nodes, "a figure's nodes") < 0) {
            goto fail;
        }
        for (int k = 0; k < 4; k++) {
            for (int j = 0; j < k; j++) {
                if (nodes[j] == nodes[k]) {
                    PyErr_SetString(PyExc_ValueError, "a figure's four nodes must differ");
                    goto fail;
                }
            }
            self->fig_nodes[f * 4 + k] = (int16_t)nodes[k];
            self->node_fig_start[nodes[k] + 1]++;
        }
    }
    for (int v = 0; v < size; v++) {
        self->node_fig_start[v + 1] += self->node_fig_start[v];
    }
    {
        int32_t *fill = PyMem_Calloc((size_t)size + 1, sizeof(int32_t));
        if (fill == NULL) {
            PyErr_NoMemory();
            goto fail;
        }
        for (int f = 0; f < (int)nfig; f++) {
            for (int k = 0; k < 4; k++) {
                int v = self->fig_nodes[f * 4 + k];
                self->node_figs[self->node_fig_start[v] + fill[v]++] = f;
            }
        }
        PyMem_Free(fill);
    }
    /* moves: sources ascending, each source's in the given order */
    for (int i = 0; i < size * size; i++) {
        self->pair[i] = -1;
    }
    int last_source = 0;
    for (Py_ssize_t m = 0; m < nmoves; m++) {
        long triple[3];
        if (read_ints(PySequence_Fast_GET_ITEM(move_seq, m), 3, 0, size, triple, "a move's (source, target, via + 1)")
            < 0) {
            goto fail;
        }
        long source = triple[0], target = triple[1], via = triple[2] - 1;
        if (source >= size || target >= size || source == target || source < last_source || via == source ||
            via == target) {
            PyErr_SetString(PyExc_ValueError, "moves must be listed by source, between two different nodes");
            goto fail;
        }
        if (self->pair[source * size + target] >= 0) {
            PyErr_SetString(PyExc_ValueError, "two moves join the same two nodes");
            goto fail;
        }
        last_source = (int)source;
        self->pair[source * size + target] = (int32_t)m;
        self->move_source[m] = (int16_t)source;
        self->move_target[m] = (int16_t)target;
        self->move_via[m] = (int16_t)via;
        self->move_start[source + 1]++;
        self->reach_start[target + 1]++;
        self->action_objs[m] = PyLong_FromLongLong(move_action_value((int)source, (int)target));
        if (self->action_objs[m] == NULL) {
            goto fail;
        }
    }
    for (int v = 0; v < size; v++) {
        self->move_start[v + 1] += self->move_start[v];
        self->reach_start[v + 1] += self->reach_start[v];
    }
    {
        int32_t *fill = PyMem_Calloc((size_t)size + 1, sizeof(int32_t));
        if (fill == NULL) {
            PyErr_NoMemory();
            goto fail;
        }
        for (int m = 0; m < (int)nmoves; m++) {
            int target = self->move_target[m];
            self->reach_moves[self->reach_start[target] + fill[target]++] = m;
        }
        PyMem_Free(fill);
    }
    /* neighbours */
    Py_ssize_t total = 0;
    for (int v = 0; v < size; v++) {
        Py_ssize_t count = PySequence_Size(PySequence_Fast_GET_ITEM(nb_seq, v));
        if (count < 0) {
            goto fail;
        }
        if (count > size) {
            PyErr_SetString(PyExc_ValueError, "a node has more neighbours than the board has nodes");
            goto fail;
        }
        total += count;
        self->nb_start[v + 1] = (int32_t)total;
    }
    self->nbs = PyMem_Calloc((size_t)total + 1, sizeof(int16_t));
    if (self->nbs == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (int v = 0; v < size; v++) {
        Py_ssize_t count = self->nb_start[v + 1] - self->nb_start[v];
        long *row = PyMem_Calloc((size_t)count + 1, sizeof(long));
        if (row == NULL) {
            PyErr_NoMemory();
            goto fail;
        }
        if (read_ints(PySequence_Fast_GET_ITEM(nb_seq, v), count, 0, size - 1, row, "a neighbour") < 0) {
            PyMem_Free(row);
            goto fail;
        }
        for (Py_ssize_t k = 0; k < count; k++) {
            self->nbs[self->nb_start[v] + k] = (int16_t)row[k];
        }
        PyMem_Free(row);
    }
    Py_DECREF(fig_seq);
    Py_DECREF(move_seq);
    Py_DECREF(nb_seq);
    return (PyObject *)self;
fail:
    Py_XDECREF(fig_seq);
    Py_XDECREF(move_seq);
    Py_XDECREF(nb_seq);
    Py_DECREF(self);
    return NULL;
}

static PyObject *
Tables_set_moves(TablesObject *self, PyObject *moves)
{
    if (core_check_moves(moves, (Py_ssize_t)self->size + self->nmoves, self->moves != NULL) < 0) {
        return NULL;
    }
    self->moves = Py_NewRef(moves);
    Py_RETURN_NONE;
}

static PyObject *
Tables_get_actions(TablesObject *self, void *Py_UNUSED(closure))
{
    PyObject *tuple = PyTuple_New(self->size + self->nmoves);
    if (tuple == NULL) {
        return NULL;
    }
    for (int v = 0; v < self->size; v++) {
        PyObject *node = PyLong_FromLong(v);
        if (node == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, v, node);
    }
    for (int m = 0; m < self->nmoves; m++) {
        PyTuple_SET_ITEM(tuple, self->size + m, Py_NewRef(self->action_objs[m]));
    }
    return tuple;
}

CORE_TABLES_GETTERS(Tables)

static PyMethodDef Tables_methods[] = {
    {"set_moves", (PyCFunction)Tables_set_moves, METH_O,
     PyDoc_STR("set_moves($self, moves, /)\n--\n\nThe Move of every action index (the `actions` order), set once.")},
    {NULL},
};

static PyGetSetDef Tables_getset[] = {
    {"size", (getter)Tables_get_size, NULL, PyDoc_STR("Nodes of the board."), NULL},
    {"actions", (getter)Tables_get_actions, NULL,
     PyDoc_STR("Every action: the placements (node order), then the moves (by source, table order)."), NULL},
    {"has_moves", (getter)Tables_get_has_moves, NULL, PyDoc_STR("True once set_moves was called."), NULL},
    {NULL},
};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ytourney.games.tetra._tetracore.Tables",
    .tp_doc = PyDoc_STR("Tables(size, figures, moves, neighbours, figure, move_limit, no_moves): one board's "
                        "read-only tables (moves as (source, target, via + 1), via + 1 = 0 for a step)."),
    .tp_basicsize = sizeof(TablesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = Tables_new,
    .tp_dealloc = (destructor)Tables_dealloc,
    .tp_traverse = (traverseproc)Tables_traverse,
    .tp_clear = (inquiry)Tables_clear,
    .tp_methods = Tables_methods,
    .tp_getset = Tables_getset,
};

/* --- Kernel: one position ------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    TablesObject *t;
    long long max_plies;
    Py_ssize_t plies;
    int to_move;          /* 1 Black, 2 White */
    int result;           /* ONGOING, DRAW, or the winner */
    int termination;      /* 0 none, 1 figure, 2 move limit, 3 no moves */
    int win;              /* the winning figure's index, -1 when none */
    int hand[3];          /* stones in hand, index 1 Black's, 2 White's */
    uint8_t *cells;       /* size: 0 empty, 1 Black, 2 White */
    uint8_t *counts;      /* 2 * nfig: each colour's stones in every figure, mod 4 (row c - 1: colour c) */
    int32_t *stack;       /* the undo stack: a node, size + a move, or SWAP_ENTRY */
    Py_ssize_t depth;
    Py_ssize_t capacity;
} KernelObject;

static PyTypeObject KernelType;

CORE_KERNEL_GC(Kernel)

static void
Kernel_dealloc(KernelObject *self)
{
    PyObject_GC_UnTrack(self);
    Kernel_clear(self);
    PyMem_Free(self->cells);
    PyMem_Free(self->counts);
    PyMem_Free(self->stack);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A kernel of these tables with its buffers allocated (cells and counts zeroed, an empty stack). */
static KernelObject *
kernel_alloc(TablesObject *t, Py_ssize_t capacity)
{
    KernelObject *self = PyObject_GC_New(KernelObject, &KernelType);
    if (self == NULL) {
        return NULL;
    }
    self->t = (TablesObject *)Py_NewRef(t);
    self->cells = PyMem_Calloc((size_t)t->size, 1);
    self->counts = PyMem_Calloc((size_t)t->nfig * 2 + 1, 1);
    self->capacity = capacity < 16 ? 16 : capacity;
    self->stack = PyMem_Malloc((size_t)self->capacity * sizeof(int32_t));
    self->depth = 0;
    self->max_plies = CORE_NO_LIMIT;
    self->plies = 0;
    self->to_move = 1;
    self->result = ONGOING;
    self->termination = 0;
    self->win = -1;
    self->hand[0] = 0;
    self->hand[1] = self->hand[2] = STONES;
    PyObject_GC_Track(self);
    if (self->cells == NULL || self->counts == NULL || self->stack == NULL) {
        Py_DECREF(self);
        PyErr_NoMemory();
        return NULL;
    }
    return self;
}

static PyObject *
Kernel_new(PyTypeObject *Py_UNUSED(type), PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"tables", "max_plies", "cells", "in_hand", "to_move", NULL};
    PyObject *tables, *max_obj = Py_None, *cells_obj = Py_None, *hand_obj = Py_None;
    int to_move = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!|OOOi:Kernel", kwlist, &TablesType, &tables, &max_obj, &cells_obj,
                                     &hand_obj, &to_move)) {
        return NULL;
    }
    TablesObject *t = (TablesObject *)tables;
    long long max_plies;
    if (core_max_plies(max_obj, &max_plies) < 0 || core_check_to_move(to_move) < 0) {
        return NULL;
    }
    KernelObject *self = kernel_alloc(t, 64);
    if (self == NULL) {
        return NULL;
    }
    self->max_plies = max_plies;
    self->to_move = to_move;
    if (hand_obj != Py_None) {
        long hand[2];
        if (read_ints(hand_obj, 2, 0, STONES, hand, "stones in hand") < 0) {
            Py_DECREF(self);
            return NULL;
        }
        self->hand[1] = (int)hand[0];
        self->hand[2] = (int)hand[1];
    }
    if (cells_obj != Py_None) {
        long *cells = PyMem_Calloc((size_t)t->size, sizeof(long));
        if (cells == NULL) {
            Py_DECREF(self);
            return PyErr_NoMemory();
        }
        if (read_ints(cells_obj, t->size, 0, 2, cells, "a node's colour") < 0) {
            PyMem_Free(cells);
            Py_DECREF(self);
            return NULL;
        }
        for (int v = 0; v < t->size; v++) {
            int c = (int)cells[v];
            self->cells[v] = (uint8_t)c;
            if (c) {
                uint8_t *row = self->counts + (size_t)(c - 1) * t->nfig;
                for (int32_t i = t->node_fig_start[v]; i < t->node_fig_start[v + 1]; i++) {
                    row[t->node_figs[i]] = (uint8_t)((row[t->node_figs[i]] + 1) & 3);
                }
            }
        }
        PyMem_Free(cells);
    }
    return (PyObject *)self;
}

/* Count one more (+1) or one fewer (-1, 3 mod 4) stone of a row in every figure through `node`. */
static inline void
count_node(const TablesObject *t, uint8_t *row, int node, int delta)
{
    const int32_t *figs = t->node_figs;
    for (int32_t i = t->node_fig_start[node], end = t->node_fig_start[node + 1]; i < end; i++) {
        row[figs[i]] = (uint8_t)((row[figs[i]] + delta) & 3);
    }
}

/* Count one more stone on `node`; the lowest figure it completes (a count of 3 turning to 0), else -1. */
static inline int
add_node(const TablesObject *t, uint8_t *row, int node)
{
    const int32_t *figs = t->node_figs;
    int won = -1;
    for (int32_t i = t->node_fig_start[node], end = t->node_fig_start[node + 1]; i < end; i++) {
        uint8_t old = row[figs[i]];
        if (old == 3 && won < 0) {
            won = figs[i];
        }
        row[figs[i]] = (uint8_t)((old + 1) & 3);
    }
    return won;
}

/* True when a move `m` is open on `cells` (its target and the node it passes over empty). */
static inline int
move_open(const TablesObject *t, const uint8_t *cells, int m)
{
    int via = t->move_via[m];
    return cells[t->move_target[m]] == 0 && (via < 0 || cells[via] == 0);
}

/* The action index of `obj` (a node, or size + a move), -1 when it names no action of this board. */
static int
action_index(const TablesObject *t, PyObject *obj)
{
    int overflow;
    long long a;
    if (!core_action_ll(obj, &a, &overflow) || overflow || a < 0) {
        return -1;
    }
    if (a < t->size) {
        return (int)a;
    }
    if (!(a & 1) || ((a >> 1) & 511) != 0 || (a >> 28) != 0) {
        return -1;
    }
    long long s = CORE_FIELD(a, 10), g = CORE_FIELD(a, 19);
    if (s < 0 || g < 0 || s >= t->size || g >= t->size) {
        return -1;
    }
    int m = t->pair[s * t->size + g];
    return m < 0 ? -1 : t->size + m;
}

static int
index_legal(const KernelObject *self, int index)
{
    const TablesObject *t = self->t;
    if (index < 0 || self->result != ONGOING) {
        return 0;
    }
    int c = self->to_move;
    if (index < t->size) {
        return self->hand[c] > 0 && self->cells[index] == 0;
    }
    int m = index - t->size;
    return self->hand[c] == 0 && self->cells[t->move_source[m]] == c && move_open(t, self->cells, m);
}

/* True when a stone of colour `c` has an empty neighbour. */
static int
can_move(const KernelObject *self, int c)
{
    const TablesObject *t = self->t;
    const uint8_t *cells = self->cells;
    for (int v = 0; v < t->size; v++) {
        if (cells[v] == c) {
            for (int32_t i = t->nb_start[v]; i < t->nb_start[v + 1]; i++) {
                if (cells[t->nbs[i]] == 0) {
                    return 1;
                }
            }
        }
    }
    return 0;
}

/* Play the legal action `index` (a node, or size + a move) and judge the end; -1 with an exception. */
static int
apply_index(KernelObject *self, int index)
{
    TablesObject *t = self->t;
    if (CORE_PUSH32(self, index) < 0) {
        return -1;
    }
    int c = self->to_move;
    uint8_t *row = self->counts + (size_t)(c - 1) * t->nfig;
    int target;
    if (index < t->size) {
        target = index;
        self->hand[c]--;
    }
    else {
        int m = index - t->size;
        int source = t->move_source[m];
        target = t->move_target[m];
        self->cells[source] = 0;
        count_node(t, row, source, -1);
    }
    self->cells[target] = (uint8_t)c;
    int won = add_node(t, row, target);
    self->plies++;
    int other = 3 - c;
    self->to_move = other;
    if (won >= 0) {
        self->win = won;
        self->result = c;
        self->termination = 1;
    }
    else if (self->plies >= self->max_plies) {
        self->result = DRAW;
        self->termination = 2;
    }
    else if (!self->hand[other] && !can_move(self, other)) {
        self->result = c;
        self->termination = 3;
    }
    return 0;
}

static PyObject *
Kernel_apply(KernelObject *self, PyObject *action)
{
    int index = action_index(self->t, action);
    if (!index_legal(self, index)) {
        PyErr_Format(PyExc_ValueError, "action %R is not legal here", action);
        return NULL;
    }
    if (apply_index(self, index) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* Take back the last ply (the caller checked there is one). */
static void
undo_last(KernelObject *self)
{
    int32_t entry = self->stack[--self->depth];
    self->plies--;
    if (entry == SWAP_ENTRY) {
        return;
    }
    TablesObject *t = self->t;
    int c = 3 - self->to_move;
    self->to_move = c;
    self->result = ONGOING;
    self->termination = 0;
    self->win = -1;
    uint8_t *row = self->counts + (size_t)(c - 1) * t->nfig;
    int target;
    if (entry < t->size) {
        target = entry;
        self->hand[c]++;
    }
    else {
        int m = entry - t->size;
        int source = t->move_source[m];
        target = t->move_target[m];
        self->cells[source] = (uint8_t)c;
        count_node(t, row, source, 1);
    }
    self->cells[target] = 0;
    count_node(t, row, target, -1);
}

static PyObject *
Kernel_undo(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    if (self->depth == 0) {
        PyErr_SetString(PyExc_IndexError, "nothing to undo");
        return NULL;
    }
    undo_last(self);
    Py_RETURN_NONE;
}

CORE_KERNEL_COUNT_SWAP(Kernel, SWAP_ENTRY)

static PyObject *
Kernel_is_legal(KernelObject *self, PyObject *action)
{
    return PyBool_FromLong(index_legal(self, action_index(self->t, action)));
}

/* The legal action indices into `out` (room for size + nmoves), in the Python kernel's order; their count. */
static int
legal_indices(const KernelObject *self, int32_t *out)
{
    const TablesObject *t = self->t;
    const uint8_t *cells = self->cells;
    int n = 0;
    if (self->result != ONGOING) {
        return 0;
    }
    int c = self->to_move;
    if (self->hand[c]) {
        for (int v = 0; v < t->size; v++) {
            if (!cells[v]) {
                out[n++] = v;
            }
        }
        return n;
    }
    for (int v = 0; v < t->size; v++) {
        if (cells[v] == c) {
            for (int32_t m = t->move_start[v]; m < t->move_start[v + 1]; m++) {
                if (move_open(t, cells, m)) {
                    out[n++] = t->size + m;
                }
            }
        }
    }
    return n;
}

static PyObject *
index_object(const TablesObject *t, int index)
{
    if (index < t->size) {
        return PyLong_FromLong(index);
    }
    return Py_NewRef(t->action_objs[index - t->size]);
}

static PyObject *
legal_list(KernelObject *self, int as_moves)
{
    const TablesObject *t = self->t;
    if (as_moves && t->moves == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the tables have no moves set");
        return NULL;
    }
    int32_t *found = PyMem_Malloc(((size_t)t->size + t->nmoves + 1) * sizeof(int32_t));
    if (found == NULL) {
        return PyErr_NoMemory();
    }
    int n = legal_indices(self, found);
    PyObject *list = PyList_New(n);
    if (list == NULL) {
        PyMem_Free(found);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        PyObject *item = as_moves ? Py_NewRef(PyTuple_GET_ITEM(t->moves, found[i])) : index_object(t, found[i]);
        if (item == NULL) {
            PyMem_Free(found);
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    PyMem_Free(found);
    return list;
}

static PyObject *
Kernel_legal_actions(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    return legal_list(self, 0);
}

static PyObject *
Kernel_legal_moves(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    return legal_list(self, 1);
}

static PyObject *
Kernel_play_move(KernelObject *self, PyObject *move)
{
    /* Apply the action whose Move (from the tables' moves) is `move` itself; False (nothing done) for any other
     * object or an illegal one, so the caller takes its slow path. */
    const TablesObject *t = self->t;
    if (t->moves == NULL || self->result != ONGOING) {
        Py_RETURN_FALSE;
    }
    int c = self->to_move;
    PyObject **items = &PyTuple_GET_ITEM(t->moves, 0);
    int index = -1;
    if (self->hand[c]) {
        for (int v = 0; v < t->size; v++) {
            if (items[v] == move) {
                index = v;
                break;
            }
        }
    }
    else {
        for (int m = 0; m < t->nmoves; m++) {
            if (items[t->size + m] == move) {
                index = t->size + m;
                break;
            }
        }
    }
    if (!index_legal(self, index)) {
        Py_RETURN_FALSE;
    }
    if (apply_index(self, index) < 0) {
        return NULL;
    }
    Py_RETURN_TRUE;
}

static PyObject *
Kernel_key(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    /* FNV-1a over the cells, then the stones in hand and the side to move, finished by a splitmix64 mix */
    uint64_t h = CORE_FNV_OFFSET;
    for (int v = 0; v < self->t->size; v++) {
        h = core_fnv(h, self->cells[v]);
    }
    h = core_fnv(h, (uint64_t)self->hand[1]);
    h = core_fnv(h, (uint64_t)self->hand[2]);
    h = core_fnv(h, (uint64_t)self->to_move);
    return core_key_object(core_mix64(h));
}

static PyObject *
Kernel_clone(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    TablesObject *t = self->t;
    KernelObject *new = kernel_alloc(t, self->depth + 16);
    if (new == NULL) {
        return NULL;
    }
    new->max_plies = self->max_plies;
    new->plies = self->plies;
    new->to_move = self->to_move;
    new->result = self->result;
    new->termination = self->termination;
    new->win = self->win;
    memcpy(new->hand, self->hand, sizeof(self->hand));
    memcpy(new->cells, self->cells, (size_t)t->size);
    memcpy(new->counts, self->counts, (size_t)t->nfig * 2);
    memcpy(new->stack, self->stack, (size_t)self->depth * sizeof(int32_t));
    new->depth = self->depth;
    return (PyObject *)new;
}

/* --- the knowledge: evaluation, win in one, playouts ------------------------------------------------------ */

static const int FIGURE_WEIGHT[4] = {0, 1, 4, 16};

/* The weighted figures Black (`*ours`) and White (`*theirs`) hold alone, added over the figures through `node` (all
 * figures when node < 0), skipping those through `skip` (>= 0) so that two nodes' figures are counted once. */
static void
figure_sums(const TablesObject *t, const uint8_t *counts, int node, int skip, long *ours, long *theirs)
{
    const uint8_t *black = counts, *white = counts + t->nfig;
    int32_t start = 0, end = t->nfig;
    if (node >= 0) {
        start = t->node_fig_start[node];
        end = t->node_fig_start[node + 1];
    }
    for (int32_t i = start; i < end; i++) {
        int f = node >= 0 ? t->node_figs[i] : (int)i;
        if (skip >= 0) {
            const int16_t *nodes = t->fig_nodes + f * 4;
            if (nodes[0] == skip || nodes[1] == skip || nodes[2] == skip || nodes[3] == skip) {
                continue;
            }
        }
        if (!white[f]) {
            *ours += FIGURE_WEIGHT[black[f]];
        }
        if (!black[f]) {
            *theirs += FIGURE_WEIGHT[white[f]];
        }
    }
}

/* Black's value from the weighted figures each side holds alone, the side to move's half again, squashed. */
static double
squash(long ours, long theirs, int to_move)
{
    double b = (double)ours, w = (double)theirs;
    if (to_move == 1) {
        b *= MOVER_BONUS;
    }
    else {
        w *= MOVER_BONUS;
    }
    return 1.0 / (1.0 + exp(-(b - w) / TEMPERATURE));
}

static double
evaluate_counts(const TablesObject *t, const uint8_t *counts, int to_move)
{
    long ours = 0, theirs = 0;
    figure_sums(t, counts, -1, -1, &ours, &theirs);
    return squash(ours, theirs, to_move);
}

static PyObject *
Kernel_evaluate(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyFloat_FromDouble(evaluate_counts(self->t, self->counts, self->to_move));
}

/* The action index that wins at once for the side to move, -1 when none (the Python knowledge's order). */
static int
winning_index(const KernelObject *self)
{
    const TablesObject *t = self->t;
    if (self->result != ONGOING) {
        return -1;
    }
    int c = self->to_move;
    const uint8_t *own = self->counts + (size_t)(c - 1) * t->nfig;
    const uint8_t *other = self->counts + (size_t)(2 - c) * t->nfig;
    const uint8_t *cells = self->cells;
    int placing = self->hand[c] > 0;
    for (int f = 0; f < t->nfig; f++) {
        if (own[f] != 3 || other[f]) {
            continue;
        }
        const int16_t *nodes = t->fig_nodes + f * 4;
        int target = -1;
        for (int k = 0; k < 4; k++) {
            if (cells[nodes[k]] != c && nodes[k] > target) {
                target = nodes[k];
            }
        }
        if (target < 0) {
            continue;
        }
        if (placing) {
            return target;
        }
        for (int32_t i = t->reach_start[target]; i < t->reach_start[target + 1]; i++) {
            int m = t->reach_moves[i];
            int source = t->move_source[m], via = t->move_via[m];
            if (cells[source] == c && source != nodes[0] && source != nodes[1] && source != nodes[2] &&
                source != nodes[3] && (via < 0 || cells[via] == 0)) {
                return t->size + m;
            }
        }
    }
    return -1;
}

static PyObject *
Kernel_winning_action(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    int index = winning_index(self);
    if (index < 0) {
        Py_RETURN_NONE;
    }
    return index_object(self->t, index);
}

/* True when colour `c` holds alone (three stones, none of the other's) figures whose empty nodes are at least two. */
static int
two_ready(const KernelObject *self, int c)
{
    const TablesObject *t = self->t;
    const uint8_t *own = self->counts + (size_t)(c - 1) * t->nfig;
    const uint8_t *other = self->counts + (size_t)(2 - c) * t->nfig;
    int first = -1;
    for (int f = 0; f < t->nfig; f++) {
        if (own[f] != 3 || other[f]) {
            continue;
        }
        const int16_t *nodes = t->fig_nodes + f * 4;
        for (int k = 0; k < 4; k++) {
            if (self->cells[nodes[k]] != c) {
                if (first < 0) {
                    first = nodes[k];
                }
                else if (nodes[k] != first) {
                    return 1;
                }
            }
        }
    }
    return 0;
}

/* True when colour `c` holds alone any figure of three. */
static int
any_ready(const KernelObject *self, int c)
{
    const TablesObject *t = self->t;
    const uint8_t *own = self->counts + (size_t)(c - 1) * t->nfig;
    const uint8_t *other = self->counts + (size_t)(2 - c) * t->nfig;
    for (int f = 0; f < t->nfig; f++) {
        if (own[f] == 3 && !other[f]) {
            return 1;
        }
    }
    return 0;
}

/* True when colour `c` has a placement after which it holds alone figures of three with two different empty nodes:
 * two figures of two it holds alone sharing one empty node whose other empty nodes differ. */
static int
double_threat_placement(const KernelObject *self, int c)
{
    const TablesObject *t = self->t;
    const uint8_t *own = self->counts + (size_t)(c - 1) * t->nfig;
    const uint8_t *other = self->counts + (size_t)(2 - c) * t->nfig;
    int16_t threat[512];
    int16_t *paired = t->size <= 512 ? threat : NULL;
    if (paired == NULL) {
        return 0;
    }
    for (int v = 0; v < t->size; v++) {
        paired[v] = -1;
    }
    for (int f = 0; f < t->nfig; f++) {
        if (own[f] != 2 || other[f]) {
            continue;
        }
        const int16_t *nodes = t->fig_nodes + f * 4;
        int empty[2], n = 0;
        for (int k = 0; k < 4 && n < 2; k++) {
            if (self->cells[nodes[k]] == 0) {
                empty[n++] = nodes[k];
            }
        }
        if (n < 2) {
            continue;
        }
        for (int k = 0; k < 2; k++) {
            int placed = empty[k], left = empty[1 - k];
            if (paired[placed] < 0) {
                paired[placed] = (int16_t)left;
            }
            else if (paired[placed] != left) {
                return 1;
            }
        }
    }
    return 0;
}

/* The colour that wins by force as a few cheap facts show (0 when they show nothing): the side to move with a win
 * in one; the side that has just moved, still placing, holds two wins in one (one reply stops only one); or the
 * side to move, two stones still in hand and the other side holding no figure of three, places a stone making two. */
static int
forced_index(const KernelObject *self)
{
    if (self->result != ONGOING || self->plies + 3 > self->max_plies) {
        return 0;
    }
    int c = self->to_move, o = 3 - c;
    if (winning_index(self) >= 0) {
        return c;
    }
    if (self->hand[o] && two_ready(self, o)) {
        return o;
    }
    if (self->hand[c] >= 2 && !any_ready(self, o) && double_threat_placement(self, c)) {
        return c;
    }
    return 0;
}

static PyObject *
Kernel_block(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    const TablesObject *t = self->t;
    int o = 3 - self->to_move;
    const uint8_t *own = self->counts + (size_t)(o - 1) * t->nfig;
    const uint8_t *other = self->counts + (size_t)(self->to_move - 1) * t->nfig;
    int lowest = -1;
    for (int f = 0; f < t->nfig; f++) {
        if (own[f] != 3 || other[f]) {
            continue;
        }
        const int16_t *nodes = t->fig_nodes + f * 4;
        for (int k = 0; k < 4; k++) {
            if (self->cells[nodes[k]] != o && (lowest < 0 || nodes[k] < lowest)) {
                lowest = nodes[k];
            }
        }
    }
    if (lowest < 0) {
        Py_RETURN_NONE;
    }
    return PyLong_FromLong(lowest);
}

static PyObject *
Kernel_forced_winner(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong(forced_index(self));
}

/* The mover's value of each legal action in the list `actions`, as the knowledge's one_ply_values: 1 a win, 0 an
 * action after which the opponent wins in one, else the evaluation; the kernel is left as found. */
static PyObject *
Kernel_one_ply_values(KernelObject *self, PyObject *actions)
{
    PyObject *seq = PySequence_Fast(actions, "one_ply_values expects a sequence of actions");
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(n);
    if (out == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    const TablesObject *t = self->t;
    int mover = self->to_move;
    long ours = 0, theirs = 0;  /* the whole board's sums, changed by each action only in its nodes' figures */
    figure_sums(t, self->counts, -1, -1, &ours, &theirs);
    /* a placement adds none of the opponent's stones and takes none of ours away: without a figure of three it
     * holds alone now, the opponent has no win in one after any placement */
    const uint8_t *mine = self->counts + (size_t)(mover - 1) * t->nfig;
    const uint8_t *theirs_row = self->counts + (size_t)(2 - mover) * t->nfig;
    int opponent_ready = 0;
    for (int f = 0; f < t->nfig && !opponent_ready; f++) {
        opponent_ready = theirs_row[f] == 3 && !mine[f];
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int index = action_index(t, PySequence_Fast_GET_ITEM(seq, i));
        if (!index_legal(self, index)) {
            PyErr_Format(PyExc_ValueError, "action %R is not legal here", PySequence_Fast_GET_ITEM(seq, i));
            goto fail;
        }
        int target = index < t->size ? index : t->move_target[index - t->size];
        int source = index < t->size ? -1 : t->move_source[index - t->size];
        long before_ours = 0, before_theirs = 0, after_ours = 0, after_theirs = 0;
        figure_sums(t, self->counts, target, -1, &before_ours, &before_theirs);
        if (source >= 0) {
            figure_sums(t, self->counts, source, target, &before_ours, &before_theirs);
        }
        if (apply_index(self, index) < 0) {
            goto fail;
        }
        double black;
        if (self->result != ONGOING) {
            black = self->result == DRAW ? 0.5 : self->result == 1 ? 1.0 : 0.0;
        }
        else if ((source >= 0 || opponent_ready) && winning_index(self) >= 0) {
            black = mover == 1 ? 0.0 : 1.0;
        }
        else {
            figure_sums(t, self->counts, target, -1, &after_ours, &after_theirs);
            if (source >= 0) {
                figure_sums(t, self->counts, source, target, &after_ours, &after_theirs);
            }
            black = squash(ours - before_ours + after_ours, theirs - before_theirs + after_theirs, self->to_move);
        }
        undo_last(self);
        PyObject *value = PyFloat_FromDouble(mover == 1 ? black : 1.0 - black);
        if (value == NULL) {
            goto fail;
        }
        PyList_SET_ITEM(out, i, value);
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_DECREF(seq);
    Py_DECREF(out);
    return NULL;
}

/* The open moves of `source` on `cells` into `out`; their count. */
static inline int
open_moves(const TablesObject *t, const uint8_t *cells, int source, int32_t *out)
{
    int n = 0;
    for (int32_t m = t->move_start[source]; m < t->move_start[source + 1]; m++) {
        if (move_open(t, cells, m)) {
            out[n++] = m;
        }
    }
    return n;
}

/* One playout move for colour `c` on scratch data, as the Python knowledge picks it: a uniform empty node while
 * placing, else a uniform stone and a uniform move of it, a stuck stone falling back to a uniform pick among those
 * that can move.  The move's index into *move (-1 for a placement), the target node returned; -1 when `c` has no
 * move.  `scratch` has room for the board's moves and nodes. */
static int
playout_pick(const TablesObject *t, const uint8_t *cells, const int hand_c, const int16_t *stones, int nstones,
             uint64_t *rng, int *move, int *slot, int32_t *moves, int16_t *sources)
{
    *move = -1;
    *slot = -1;
    if (hand_c) {
        int empty = 0;
        for (int v = 0; v < t->size; v++) {
            empty += cells[v] == 0;
        }
        if (!empty) {
            return -1;
        }
        int target = (int)(core_lcg_next(rng) % (uint32_t)t->size);
        while (cells[target]) {
            target = (int)(core_lcg_next(rng) % (uint32_t)t->size);
        }
        return target;
    }
    if (nstones == 0) {
        return -1;
    }
    int i = (int)(core_lcg_next(rng) % (uint32_t)nstones);
    int n = open_moves(t, cells, stones[i], moves);
    if (!n) {
        int left = nstones;
        memcpy(sources, stones, (size_t)nstones * sizeof(int16_t));
        for (;;) {
            int j = (int)(core_lcg_next(rng) % (uint32_t)left);
            n = open_moves(t, cells, sources[j], moves);
            if (n) {
                for (i = 0; sources[j] != stones[i]; i++) {
                }
                break;
            }
            sources[j] = sources[--left];
            if (!left) {
                return -1;
            }
        }
    }
    *move = moves[core_lcg_next(rng) % (uint32_t)n];
    *slot = i;
    return t->move_target[*move];
}

static PyObject *
Kernel_playout_action(KernelObject *self, PyObject *seed)
{
    const TablesObject *t = self->t;
    uint64_t rng = PyLong_AsUnsignedLongLongMask(seed);
    if (rng == (uint64_t)-1 && PyErr_Occurred()) {
        return NULL;
    }
    if (self->result != ONGOING) {
        Py_RETURN_NONE;
    }
    int c = self->to_move;
    int32_t *moves = PyMem_Malloc(((size_t)t->nmoves + 1) * sizeof(int32_t));
    int16_t *stones = PyMem_Malloc(((size_t)t->size + 1) * 2 * sizeof(int16_t));
    if (moves == NULL || stones == NULL) {
        PyMem_Free(moves);
        PyMem_Free(stones);
        return PyErr_NoMemory();
    }
    int nstones = 0;
    for (int v = 0; v < t->size; v++) {
        if (self->cells[v] == c) {
            stones[nstones++] = (int16_t)v;
        }
    }
    int move, slot;
    int target = playout_pick(t, self->cells, self->hand[c], stones, nstones, &rng, &move, &slot, moves,
                              stones + t->size);
    PyMem_Free(moves);
    PyMem_Free(stones);
    if (target < 0) {
        Py_RETURN_NONE;
    }
    return index_object(t, move < 0 ? target : t->size + move);
}

static PyObject *
Kernel_rollout(KernelObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    uint64_t rng;
    Py_ssize_t plies;
    PyObject *trace;
    if (core_rollout_args(args, nargs, &rng, &plies, &trace) < 0) {
        return NULL;
    }
    if (self->result != ONGOING) {
        return PyFloat_FromDouble(core_result_value(self->result));
    }
    const TablesObject *t = self->t;
    const int size = t->size;
    /* scratch: cells, counts, each colour's stones, the open moves and the fallback's sources */
    size_t bytes = (size_t)size + (size_t)t->nfig * 2 + ((size_t)size * 3 + 3) * sizeof(int16_t) +
                   ((size_t)t->nmoves + 1) * sizeof(int32_t);
    uint8_t *buffer = PyMem_Malloc(bytes);
    if (buffer == NULL) {
        return PyErr_NoMemory();
    }
    int32_t *moves = (int32_t *)buffer;
    int16_t *stones[3];
    stones[1] = (int16_t *)(moves + t->nmoves + 1);
    stones[2] = stones[1] + size + 1;
    int16_t *sources = stones[2] + size + 1;
    uint8_t *cells = (uint8_t *)(sources + size + 1);
    uint8_t *counts = cells + size;
    memcpy(cells, self->cells, (size_t)size);
    memcpy(counts, self->counts, (size_t)t->nfig * 2);
    int hand[3] = {0, self->hand[1], self->hand[2]};
    int nstones[3] = {0, 0, 0};
    for (int v = 0; v < size; v++) {
        if (cells[v]) {
            stones[cells[v]][nstones[cells[v]]++] = (int16_t)v;
        }
    }
    int mover = self->to_move;
    long long room = self->max_plies - (long long)self->plies;
    long long played = (long long)plies < room ? (long long)plies : room;
    double value = -1.0;
    for (long long ply = 0; ply < played; ply++) {
        int move, slot;
        int target = playout_pick(t, cells, hand[mover], stones[mover], nstones[mover], &rng, &move, &slot, moves,
                                  sources);
        if (target < 0) {
            value = mover == 1 ? 0.0 : 1.0;
            break;
        }
        uint8_t *row = counts + (size_t)(mover - 1) * t->nfig;
        if (move < 0) {
            hand[mover]--;
            stones[mover][nstones[mover]++] = (int16_t)target;
        }
        else {
            int source = t->move_source[move];
            cells[source] = 0;
            stones[mover][slot] = (int16_t)target;
            count_node(t, row, source, -1);
        }
        cells[target] = (uint8_t)mover;
        if (trace != NULL) {
            PyObject *item = move < 0 ? PyLong_FromLong(target) : Py_NewRef(t->action_objs[move]);
            if (item == NULL || PyList_Append(trace, item) < 0) {
                Py_XDECREF(item);
                PyMem_Free(buffer);
                return NULL;
            }
            Py_DECREF(item);
        }
        if (add_node(t, row, target) >= 0) {
            value = mover == 1 ? 1.0 : 0.0;
            break;
        }
        mover = 3 - mover;
    }
    if (value < 0.0) {
        if ((long long)self->plies + played >= self->max_plies) {
            value = 0.5;
        }
        else {
            value = evaluate_counts(t, counts, mover);
        }
    }
    PyMem_Free(buffer);
    return PyFloat_FromDouble(value);
}

static PyObject *
Kernel_figure_counts(KernelObject *self, PyObject *colour)
{
    long c = core_bounded_int(colour, 1, 2, "colour");
    if (c < 0) {
        return NULL;
    }
    return PyBytes_FromStringAndSize((const char *)self->counts + (size_t)(c - 1) * self->t->nfig, self->t->nfig);
}

/* --- attributes ---------------------------------------------------------------------------------------- */

static PyObject *
Kernel_get_cells(KernelObject *self, void *Py_UNUSED(closure))
{
    return core_cells_list(self->cells, self->t->size);
}

static PyObject *
Kernel_get_masks(KernelObject *self, void *Py_UNUSED(closure))
{
    int size = self->t->size;
    PyObject *black = core_colour_mask(self->cells, size, 1);
    return core_masks_list(black, black == NULL ? NULL : core_colour_mask(self->cells, size, 2));
}

static PyObject *
Kernel_get_hand(KernelObject *self, void *Py_UNUSED(closure))
{
    return Py_BuildValue("[iii]", 0, self->hand[1], self->hand[2]);
}

static PyObject *
Kernel_get_win(KernelObject *self, void *Py_UNUSED(closure))
{
    if (self->win < 0) {
        return PyLong_FromLong(0);
    }
    uint8_t bytes[(MAX_NODES + 8) / 8];
    memset(bytes, 0, sizeof(bytes));
    for (int k = 0; k < 4; k++) {
        int v = self->t->fig_nodes[self->win * 4 + k];
        bytes[v >> 3] |= (uint8_t)(1u << (v & 7));
    }
    return _PyLong_FromByteArray(bytes, sizeof(bytes), 1, 0);
}

static PyObject *
Kernel_get_termination(KernelObject *self, void *Py_UNUSED(closure))
{
    switch (self->termination) {
    case 1:
        return Py_NewRef(self->t->figure);
    case 2:
        return Py_NewRef(self->t->move_limit);
    case 3:
        return Py_NewRef(self->t->no_moves);
    default:
        Py_RETURN_NONE;
    }
}

static PyObject *
Kernel_get_max_plies(KernelObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromLongLong(self->max_plies);
}

static PyObject *
Kernel_get_tables(KernelObject *self, void *Py_UNUSED(closure))
{
    return Py_NewRef(self->t);
}

static PyMethodDef Kernel_methods[] = {
    {"legal_actions", (PyCFunction)Kernel_legal_actions, METH_NOARGS,
     PyDoc_STR("legal_actions($self, /)\n--\n\nEvery legal action, in the pure-Python kernel's order.")},
    {"legal_moves", (PyCFunction)Kernel_legal_moves, METH_NOARGS,
     PyDoc_STR("legal_moves($self, /)\n--\n\nThe Move of every legal action (the tables' moves), same order.")},
    {"play_move", (PyCFunction)Kernel_play_move, METH_O,
     PyDoc_STR("play_move($self, move, /)\n--\n\nApply a legal action given as one of the tables' own Moves: True; "
               "False (nothing done) for anything else.")},
    CORE_METHOD_IS_LEGAL(Kernel_is_legal),
    {"apply", (PyCFunction)Kernel_apply, METH_O,
     PyDoc_STR("apply($self, action, /)\n--\n\nPlay a legal action and judge the end (ValueError if not legal).")},
    {"undo", (PyCFunction)Kernel_undo, METH_NOARGS,
     PyDoc_STR("undo($self, /)\n--\n\nTake back the last action or pie answer's ply.")},
    CORE_METHOD_COUNT_SWAP(Kernel_count_swap),
    {"key", (PyCFunction)Kernel_key, METH_NOARGS,
     PyDoc_STR("key($self, /)\n--\n\nA hash of the stones, the stones in hand and the side to move.")},
    CORE_METHOD_CLONE(Kernel_clone),
    {"evaluate", (PyCFunction)Kernel_evaluate, METH_NOARGS,
     PyDoc_STR("evaluate($self, /)\n--\n\nBlack's value by the figures each side holds alone (the knowledge's).")},
    {"block", (PyCFunction)Kernel_block, METH_NOARGS,
     PyDoc_STR("block($self, /)\n--\n\nThe lowest empty node of a figure the side not to move holds three of "
               "alone, or None.")},
    {"forced_winner", (PyCFunction)Kernel_forced_winner, METH_NOARGS,
     PyDoc_STR("forced_winner($self, /)\n--\n\nThe colour a win in one, or two wins in one made or to be made, "
               "give the game; 0 when none.")},
    {"one_ply_values", (PyCFunction)Kernel_one_ply_values, METH_O,
     PyDoc_STR("one_ply_values($self, actions, /)\n--\n\nThe mover's value of each legal action one ply deep: 1 a "
               "win, 0 a win in one left to the opponent, else the evaluation (the kernel left as found).")},
    {"winning_action", (PyCFunction)Kernel_winning_action, METH_NOARGS,
     PyDoc_STR("winning_action($self, /)\n--\n\nAn action completing a figure now, or None.")},
    {"playout_action", (PyCFunction)Kernel_playout_action, METH_O,
     PyDoc_STR("playout_action($self, seed, /)\n--\n\nThe playout policy's move from this seed, or None.")},
    {"rollout", (PyCFunction)(void (*)(void))Kernel_rollout, METH_FASTCALL,
     PyDoc_STR("rollout($self, seed, plies, trace=None, /)\n--\n\nBlack's value after up to `plies` playout moves "
               "from this seed (the kernel untouched), each appended to `trace` when given.")},
    {"figure_counts", (PyCFunction)Kernel_figure_counts, METH_O,
     PyDoc_STR("figure_counts($self, colour, /)\n--\n\nThat colour's stones in every figure, mod 4, as bytes.")},
    {NULL},
};

static PyMemberDef Kernel_members[] = {
    CORE_KERNEL_MEMBERS(KernelObject),
    {NULL},
};

static PyGetSetDef Kernel_getset[] = {
    {"cells", (getter)Kernel_get_cells, NULL, PyDoc_STR("Colour on every node (a new list)."), NULL},
    {"masks", (getter)Kernel_get_masks, NULL, PyDoc_STR("[0, Black's stones, White's] as node masks (new)."), NULL},
    {"hand", (getter)Kernel_get_hand, NULL, PyDoc_STR("[0, Black's, White's] stones in hand (a new list)."), NULL},
    {"win", (getter)Kernel_get_win, NULL, PyDoc_STR("The winning figure's node mask, 0 when none."), NULL},
    {"termination", (getter)Kernel_get_termination, NULL, PyDoc_STR("How the game ended, None while on."), NULL},
    {"score", (getter)core_get_none, NULL, PyDoc_STR("None: Tetra keeps no score."), NULL},
    {"max_plies", (getter)Kernel_get_max_plies, NULL, PyDoc_STR("The move limit (2**62 for none)."), NULL},
    {"tables", (getter)Kernel_get_tables, NULL, PyDoc_STR("The board's tables."), NULL},
    {NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ytourney.games.tetra._tetracore.Kernel",
    .tp_doc = PyDoc_STR("Kernel(tables, max_plies=None, cells=None, in_hand=None, to_move=1): one Tetra position "
                        "on the kernel protocol (cells and in_hand for a set-up position, not judged)."),
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

static struct PyModuleDef tetracore_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ytourney.games.tetra._tetracore",
    .m_doc = PyDoc_STR("Tetra's optional C kernel and playouts (see ytourney.games.tetra.ckernel)."),
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__tetracore(void)
{
    return core_module_create(&tetracore_module, "Tables", &TablesType, "Kernel", &KernelType, NULL);
}
