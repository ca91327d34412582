/* The slide games' optional C core (Quinta, Sexta).
 *
 * `tables`/`actions`: a side's legal slides for the pure-Python SlideKernel, listed as it lists them (by source
 * ascending, each source's walks in the tables' order, each target once).
 *
 * `Tables`: one board's read-only tables for one slide game (walks, the line pairs and the nodes between them,
 * neighbours, rays, Quinta's runs of five or Sexta's ring rule, the knowledge's constants, the Termination objects),
 * built once by ytourney.games.slide_core from the Python tables.  `Kernel`: one position on the kernel protocol
 * with the same actions, the same legal-action order and the same endings as the pure-Python kernels, plus the
 * knowledge's hot parts (evaluation, win in one, the one block, one-ply values, the playout).  The playout draws from a
 * 64-bit LCG (top 32 bits, `% n`) that the Python knowledge steps the same way, so for one seed both play the same
 * slides and return the same value.  No module state: everything hangs off a Tables object.
 * Boards up to 128 nodes (kadon has 93): node masks are unsigned __int128. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core_common.h"

#define MAX_NODES 128
#define ONGOING (-1)
#define DRAW 0
#define SWAP_ENTRY (-1)
#define QUINTA 0
#define SEXTA 1
#define CHAIN_STONES 6
#define NPARAMS 8

typedef unsigned __int128 u128;

static inline u128
bit(int n)
{
    return (u128)1 << n;
}

static inline int
pop128(u128 x)
{
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

/* the lowest set node of a non-zero mask */
static inline int
low128(u128 x)
{
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

/* the highest set node of a non-zero mask */
static inline int
high128(u128 x)
{
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)x);
}

/* A node mask (a non-negative int under 2**128) as a u128; -1 with an exception. */
static int
read_mask(PyObject *value, u128 *out)
{
    if (!PyLong_Check(value) || _PyLong_Sign(value) < 0) {
        PyErr_SetString(PyExc_ValueError, "a node mask must be a non-negative int");
        return -1;
    }
    unsigned char bytes[16];
#if PY_VERSION_HEX >= 0x030D0000
    if (_PyLong_AsByteArray((PyLongObject *)value, bytes, 16, 1, 0, 1) < 0) {
#else
    if (_PyLong_AsByteArray((PyLongObject *)value, bytes, 16, 1, 0) < 0) {
#endif
        return -1;
    }
    u128 m = 0;
    for (int i = 15; i >= 0; i--) {
        m = (m << 8) | bytes[i];
    }
    *out = m;
    return 0;
}

static PyObject *
mask_object(u128 m)
{
    unsigned char bytes[16];
    for (int i = 0; i < 16; i++) {
        bytes[i] = (unsigned char)(m >> (8 * i));
    }
    return _PyLong_FromByteArray(bytes, 16, 1, 0);
}

/* --- walks: every source's slides in the Python kernel's order -------------------------------------------- */

typedef struct {
    u128 prefix;  /* a walk is skipped when a stone stands on one of these nodes */
    int start;    /* its nodes: nodes[start .. start + len) */
    int len;
} Walk;

typedef struct {
    int size;
    int *first;          /* walks of source s: walks[first[s] .. first[s + 1]) */
    Walk *walks;
    int *nodes;
    PyObject **actions;  /* actions[s * size + t]: the Python int of the slide s-t (owned references) */
} Walks;

static void
walks_free(Walks *w)
{
    if (w->actions != NULL) {
        for (int i = 0; i < w->size * w->size; i++) {
            Py_XDECREF(w->actions[i]);
        }
    }
    PyMem_Free(w->actions);
    PyMem_Free(w->first);
    PyMem_Free(w->walks);
    PyMem_Free(w->nodes);
    w->actions = NULL;
    w->first = NULL;
    w->walks = NULL;
    w->nodes = NULL;
}

/* Fill `w` from walks[s] = [(prefix mask, tuple of nodes), ...] and actions[s][t] = int; -1 with an exception. */
static int
walks_fill(Walks *w, int size, PyObject *walks_arg, PyObject *actions_arg)
{
    if (size < 1 || size > MAX_NODES || !PyList_Check(walks_arg) || PyList_GET_SIZE(walks_arg) != size ||
        !PyList_Check(actions_arg) || PyList_GET_SIZE(actions_arg) != size) {
        PyErr_SetString(PyExc_ValueError, "walks and actions: size 1..128 and one list entry a node");
        return -1;
    }
    w->size = size;
    Py_ssize_t nwalks = 0, nnodes = 0;
    for (int s = 0; s < size; s++) {
        PyObject *row = PyList_GET_ITEM(walks_arg, s);
        if (!PyList_Check(row)) {
            PyErr_SetString(PyExc_ValueError, "walks[s] must be a list");
            return -1;
        }
        nwalks += PyList_GET_SIZE(row);
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(row); i++) {
            PyObject *walk = PyList_GET_ITEM(row, i);
            if (!PyTuple_Check(walk) || PyTuple_GET_SIZE(walk) != 2 || !PyTuple_Check(PyTuple_GET_ITEM(walk, 1))) {
                PyErr_SetString(PyExc_ValueError, "a walk must be (prefix mask, tuple of nodes)");
                return -1;
            }
            nnodes += PyTuple_GET_SIZE(PyTuple_GET_ITEM(walk, 1));
        }
    }
    if (nwalks > 1000000 || nnodes > 10000000) {
        PyErr_SetString(PyExc_ValueError, "too many walks");
        return -1;
    }
    w->first = PyMem_Calloc((size_t)size + 1, sizeof(int));
    w->walks = PyMem_Calloc((size_t)nwalks + 1, sizeof(Walk));
    w->nodes = PyMem_Calloc((size_t)nnodes + 1, sizeof(int));
    w->actions = PyMem_Calloc((size_t)size * size, sizeof(PyObject *));
    if (!w->first || !w->walks || !w->nodes || !w->actions) {
        PyErr_NoMemory();
        return -1;
    }
    int k = 0, n = 0;
    for (int s = 0; s < size; s++) {
        PyObject *row = PyList_GET_ITEM(walks_arg, s);
        w->first[s] = k;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(row); i++) {
            PyObject *walk = PyList_GET_ITEM(row, i);
            PyObject *nodes = PyTuple_GET_ITEM(walk, 1);
            if (read_mask(PyTuple_GET_ITEM(walk, 0), &w->walks[k].prefix) < 0) {
                return -1;
            }
            w->walks[k].start = n;
            w->walks[k].len = (int)PyTuple_GET_SIZE(nodes);
            for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(nodes); j++) {
                long node = core_bounded_int(PyTuple_GET_ITEM(nodes, j), 0, size - 1, "a walk's node");
                if (node < 0) {
                    return -1;
                }
                w->nodes[n++] = (int)node;
            }
            k++;
        }
        PyObject *acts = PyList_GET_ITEM(actions_arg, s);
        if (!PySequence_Check(acts) || PySequence_Size(acts) != size) {
            PyErr_SetString(PyExc_ValueError, "actions[s] must hold one int a target");
            return -1;
        }
        for (int target = 0; target < size; target++) {
            PyObject *action = PySequence_GetItem(acts, target);
            if (action == NULL) {
                return -1;
            }
            if (!PyLong_CheckExact(action)) {
                Py_DECREF(action);
                PyErr_SetString(PyExc_TypeError, "an action must be an int");
                return -1;
            }
            w->actions[s * size + target] = action;  /* the new reference is the table's */
        }
    }
    w->first[size] = k;
    return 0;
}

/* The targets of `source`'s slides through the empty nodes (not `occupied`), in the tables' order, each once, into
 * `out` (room for MAX_NODES); their count. */
static int
source_slides(const Walks *w, u128 occupied, int source, int16_t *out)
{
    u128 seen = 0;
    int n = 0;
    for (int i = w->first[source]; i < w->first[source + 1]; i++) {
        const Walk *walk = &w->walks[i];
        if (walk->prefix & occupied) {
            continue;
        }
        const int *node = w->nodes + walk->start;
        for (int k = 0; k < walk->len; k++) {
            u128 b = bit(node[k]);
            if (occupied & b) {
                break;
            }
            if (seen & b) {
                continue;
            }
            seen |= b;
            out[n++] = (int16_t)node[k];
        }
    }
    return n;
}

/* --- the capsule tables of the pure-Python kernel's listing ------------------------------------------------ */

static const char *CAPSULE = "ytourney.games._slidecore.Tables";

static void
capsule_free(PyObject *capsule)
{
    Walks *w = (Walks *)PyCapsule_GetPointer(capsule, CAPSULE);
    if (w == NULL) {
        return;
    }
    walks_free(w);
    PyMem_Free(w);
}

static PyObject *
make_tables(PyObject *Py_UNUSED(self), PyObject *args)
{
    /* tables(size, walks, actions): walks[s] is a list of (prefix mask, tuple of nodes); actions[s][t] an int */
    int size;
    PyObject *walks_arg, *actions_arg;
    if (!PyArg_ParseTuple(args, "iOO", &size, &walks_arg, &actions_arg)) {
        return NULL;
    }
    Walks *w = PyMem_Calloc(1, sizeof(Walks));
    if (w == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *capsule = PyCapsule_New(w, CAPSULE, capsule_free);
    if (capsule == NULL) {
        PyMem_Free(w);
        return NULL;
    }
    if (walks_fill(w, size, walks_arg, actions_arg) < 0) {
        Py_DECREF(capsule);
        return NULL;
    }
    return capsule;
}

static PyObject *
actions(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs)
{
    /* actions(tables, mine, occupied): every slide of the stones of `mine` through the empty nodes */
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "actions(tables, mine, occupied)");
        return NULL;
    }
    Walks *w = (Walks *)PyCapsule_GetPointer(args[0], CAPSULE);
    if (w == NULL) {
        return NULL;
    }
    u128 mine, occupied;
    if (read_mask(args[1], &mine) < 0 || read_mask(args[2], &occupied) < 0) {
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL) {
        return NULL;
    }
    int16_t targets[MAX_NODES];
    while (mine) {
        int source = low128(mine);
        mine &= mine - 1;
        if (source >= w->size) {
            break;
        }
        int n = source_slides(w, occupied, source, targets);
        PyObject **row = w->actions + (size_t)source * w->size;
        for (int k = 0; k < n; k++) {
            if (PyList_Append(out, row[targets[k]]) < 0) {
                Py_DECREF(out);
                return NULL;
            }
        }
    }
    return out;
}

/* --- Tables: one board's read-only tables for one slide game ----------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Walks w;
    int size;
    int game;             /* QUINTA or SEXTA */
    int rings;            /* Sexta: a closed ring of six counts */
    u128 full;
    u128 *nb;             /* size: neighbour masks */
    int32_t *pair_start;  /* size * size + 1: the between masks of the line pair s-t */
    u128 *between;
    int32_t *ray_first;   /* size + 1: rays of node v: rays ray_first[v] .. ray_first[v + 1] */
    int32_t *ray_start;   /* nrays + 1: nodes of ray r: ray_nodes[ray_start[r] .. ray_start[r + 1]) */
    int16_t *ray_nodes;
    int nruns;            /* Quinta's runs of five, in `segments` order */
    u128 *runs;
    int16_t *run_nodes;   /* nruns * 5, ascending */
    int32_t *node_run_first;  /* size + 1 */
    int32_t *node_runs;       /* the runs through each node, ascending */
    double params[NPARAMS];   /* Quinta: weights[0..5], to-move bonus, temperature; Sexta: shape scale */
    PyObject *win;            /* the Termination objects the kernel reports */
    PyObject *move_limit;
    PyObject *no_moves;
    PyObject **moves;         /* optional: size * size Moves (None where no line pair), set once */
    PyObject **hash_keys;     /* the Moves by identity -> their slide index */
    int32_t *hash_values;
    size_t hash_mask;
} TablesObject;

static PyTypeObject TablesType;

#define RUN 5

static int
Tables_traverse(TablesObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->win);
    Py_VISIT(self->move_limit);
    Py_VISIT(self->no_moves);
    if (self->moves != NULL) {
        for (int i = 0; i < self->size * self->size; i++) {
            Py_VISIT(self->moves[i]);
        }
    }
    return 0;
}

static int
Tables_clear(TablesObject *self)
{
    Py_CLEAR(self->win);
    Py_CLEAR(self->move_limit);
    Py_CLEAR(self->no_moves);
    if (self->moves != NULL) {
        for (int i = 0; i < self->size * self->size; i++) {
            Py_CLEAR(self->moves[i]);
        }
        PyMem_Free(self->moves);
        self->moves = NULL;
    }
    PyMem_Free(self->hash_keys);
    PyMem_Free(self->hash_values);
    self->hash_keys = NULL;
    self->hash_values = NULL;
    return 0;
}

static void
Tables_dealloc(TablesObject *self)
{
    PyObject_GC_UnTrack(self);
    Tables_clear(self);
    walks_free(&self->w);
    PyMem_Free(self->nb);
    PyMem_Free(self->pair_start);
    PyMem_Free(self->between);
    PyMem_Free(self->ray_first);
    PyMem_Free(self->ray_start);
    PyMem_Free(self->ray_nodes);
    PyMem_Free(self->runs);
    PyMem_Free(self->run_nodes);
    PyMem_Free(self->node_run_first);
    PyMem_Free(self->node_runs);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Read a sequence of node sequences (rays, runs) into offsets and nodes; -1 with an exception. `fixed` > 0 asks
 * every row to hold that many nodes. */
static int
read_rows(PyObject *rows_obj, int size, int fixed, int32_t **start_out, int16_t **nodes_out, Py_ssize_t *count)
{
    PyObject *rows = PySequence_Fast(rows_obj, "expected a sequence of node sequences");
    if (rows == NULL) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(rows);
    int32_t *start = PyMem_Calloc((size_t)n + 1, sizeof(int32_t));
    Py_ssize_t total = 0;
    if (start == NULL) {
        Py_DECREF(rows);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t len = PySequence_Size(PySequence_Fast_GET_ITEM(rows, i));
        if (len < 0 || (fixed > 0 && len != fixed) || len > size || total + len > INT32_MAX) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_ValueError, "a row of nodes has the wrong length");
            }
            PyMem_Free(start);
            Py_DECREF(rows);
            return -1;
        }
        total += len;
        start[i + 1] = (int32_t)total;
    }
    int16_t *nodes = PyMem_Calloc((size_t)total + 1, sizeof(int16_t));
    if (nodes == NULL) {
        PyMem_Free(start);
        Py_DECREF(rows);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(rows, i), "a row of nodes must be a sequence");
        if (row == NULL || PySequence_Fast_GET_SIZE(row) != start[i + 1] - start[i]) {
            if (row != NULL && !PyErr_Occurred()) {
                PyErr_SetString(PyExc_ValueError, "a row of nodes changed its length");
            }
            Py_XDECREF(row);
            PyMem_Free(start);
            PyMem_Free(nodes);
            Py_DECREF(rows);
            return -1;
        }
        for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(row); k++) {
            long node = core_bounded_int(PySequence_Fast_GET_ITEM(row, k), 0, size - 1, "a node");
            if (node < 0) {
                Py_DECREF(row);
                PyMem_Free(start);
                PyMem_Free(nodes);
                Py_DECREF(rows);
                return -1;
            }
            nodes[start[i] + k] = (int16_t)node;
        }
        Py_DECREF(row);
    }
    Py_DECREF(rows);
    *start_out = start;
    *nodes_out = nodes;
    *count = n;
    return 0;
}

static int
read_pairs(TablesObject *self, PyObject *pairs_obj)
{
    /* pairs: (source, target, tuple of the masks between them on each line joining them), grouped by no order */
    int size = self->size;
    PyObject *pairs = PySequence_Fast(pairs_obj, "pairs must be a sequence");
    if (pairs == NULL) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(pairs);
    int32_t *count = PyMem_Calloc((size_t)size * size + 1, sizeof(int32_t));
    self->pair_start = PyMem_Calloc((size_t)size * size + 1, sizeof(int32_t));
    if (count == NULL || self->pair_start == NULL) {
        PyMem_Free(count);
        Py_DECREF(pairs);
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *p = PySequence_Fast_GET_ITEM(pairs, i);
        if (!PyTuple_Check(p) || PyTuple_GET_SIZE(p) != 3 || !PyTuple_Check(PyTuple_GET_ITEM(p, 2))) {
            PyErr_SetString(PyExc_ValueError, "a pair must be (source, target, tuple of masks)");
            goto fail;
        }
        long s = core_bounded_int(PyTuple_GET_ITEM(p, 0), 0, size - 1, "a pair's source");
        long t = s < 0 ? -1 : core_bounded_int(PyTuple_GET_ITEM(p, 1), 0, size - 1, "a pair's target");
        if (t < 0) {
            goto fail;
        }
        if (s == t || count[s * size + t]) {
            PyErr_SetString(PyExc_ValueError, "a pair joins two different nodes, once");
            goto fail;
        }
        Py_ssize_t len = PyTuple_GET_SIZE(PyTuple_GET_ITEM(p, 2));
        if (len < 1 || len > 64) {
            PyErr_SetString(PyExc_ValueError, "a pair has 1..64 lines");
            goto fail;
        }
        count[s * size + t] = (int32_t)len;
        total += len;
    }
    for (int i = 0; i < size * size; i++) {
        self->pair_start[i + 1] = self->pair_start[i] + count[i];
    }
    self->between = PyMem_Calloc((size_t)total + 1, sizeof(u128));
    if (self->between == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *p = PySequence_Fast_GET_ITEM(pairs, i);
        long s = PyLong_AsLong(PyTuple_GET_ITEM(p, 0)), t = PyLong_AsLong(PyTuple_GET_ITEM(p, 1));
        PyObject *masks = PyTuple_GET_ITEM(p, 2);
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(masks); k++) {
            if (read_mask(PyTuple_GET_ITEM(masks, k), &self->between[self->pair_start[s * size + t] + k]) < 0) {
                goto fail;
            }
        }
    }
    PyMem_Free(count);
    Py_DECREF(pairs);
    return 0;
fail:
    PyMem_Free(count);
    Py_DECREF(pairs);
    return -1;
}

static PyObject *
Tables_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"size", "walks", "actions", "pairs", "neighbours", "rays", "game", "runs", "rings",
                             "params", "terminations", NULL};
    int size, game, rings;
    PyObject *walks, *acts, *pairs, *neighbours, *rays, *runs, *params, *terms;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOOOOiOpOO:Tables", kwlist, &size, &walks, &acts, &pairs,
                                     &neighbours, &rays, &game, &runs, &rings, &params, &terms)) {
        return NULL;
    }
    if (size < 1 || size > MAX_NODES) {
        PyErr_Format(PyExc_ValueError, "a board needs 1..%d nodes, got %d", MAX_NODES, size);
        return NULL;
    }
    if (game != QUINTA && game != SEXTA) {
        PyErr_Format(PyExc_ValueError, "game %d: expected 0 (Quinta) or 1 (Sexta)", game);
        return NULL;
    }
    if (!PyTuple_Check(terms) || PyTuple_GET_SIZE(terms) != 3) {
        PyErr_SetString(PyExc_ValueError, "terminations: (win, move limit, no moves)");
        return NULL;
    }
    TablesObject *self = (TablesObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    PyObject *seq = NULL;
    self->size = size;
    self->game = game;
    self->rings = rings;
    self->win = Py_NewRef(PyTuple_GET_ITEM(terms, 0));
    self->move_limit = Py_NewRef(PyTuple_GET_ITEM(terms, 1));
    self->no_moves = Py_NewRef(PyTuple_GET_ITEM(terms, 2));
    self->full = size == MAX_NODES ? ~(u128)0 : bit(size) - 1;
    if (walks_fill(&self->w, size, walks, acts) < 0 || read_pairs(self, pairs) < 0) {
        goto fail;
    }
    /* neighbours */
    seq = PySequence_Fast(neighbours, "neighbours must be a sequence of masks");
    if (seq == NULL) {
        goto fail;
    }
    if (PySequence_Fast_GET_SIZE(seq) != size) {
        PyErr_Format(PyExc_ValueError, "expected %d neighbour masks", size);
        goto fail;
    }
    self->nb = PyMem_Calloc((size_t)size, sizeof(u128));
    if (self->nb == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (int v = 0; v < size; v++) {
        if (read_mask(PySequence_Fast_GET_ITEM(seq, v), &self->nb[v]) < 0) {
            goto fail;
        }
        if (self->nb[v] & ~self->full) {
            PyErr_SetString(PyExc_ValueError, "a neighbour is off the board");
            goto fail;
        }
    }
    Py_CLEAR(seq);
    /* rays: per node a sequence of rays, flattened */
    seq = PySequence_Fast(rays, "rays must be a sequence");
    if (seq == NULL) {
        goto fail;
    }
    if (PySequence_Fast_GET_SIZE(seq) != size) {
        PyErr_Format(PyExc_ValueError, "expected %d rows of rays", size);
        goto fail;
    }
    {
        PyObject *flat = PyList_New(0);
        self->ray_first = PyMem_Calloc((size_t)size + 1, sizeof(int32_t));
        if (flat == NULL || self->ray_first == NULL) {
            Py_XDECREF(flat);
            if (!PyErr_Occurred()) {
                PyErr_NoMemory();
            }
            goto fail;
        }
        for (int v = 0; v < size; v++) {
            PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, v), "a node's rays must be a sequence");
            if (row == NULL) {
                Py_DECREF(flat);
                goto fail;
            }
            for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(row); k++) {
                if (PyList_Append(flat, PySequence_Fast_GET_ITEM(row, k)) < 0) {
                    Py_DECREF(row);
                    Py_DECREF(flat);
                    goto fail;
                }
            }
            self->ray_first[v + 1] = (int32_t)PyList_GET_SIZE(flat);
            Py_DECREF(row);
        }
        Py_ssize_t nrays;
        int rc = read_rows(flat, size, 0, &self->ray_start, &self->ray_nodes, &nrays);
        Py_DECREF(flat);
        if (rc < 0) {
            goto fail;
        }
    }
    Py_CLEAR(seq);
    /* runs (Quinta) and the runs through each node */
    {
        Py_ssize_t nruns;
        int32_t *run_start = NULL;
        if (read_rows(runs, size, RUN, &run_start, &self->run_nodes, &nruns) < 0) {
            goto fail;
        }
        PyMem_Free(run_start);
        if (game == QUINTA && nruns == 0) {
            PyErr_SetString(PyExc_ValueError, "Quinta needs its runs of five");
            goto fail;
        }
        self->nruns = (int)nruns;
        self->runs = PyMem_Calloc((size_t)nruns + 1, sizeof(u128));
        self->node_run_first = PyMem_Calloc((size_t)size + 1, sizeof(int32_t));
        self->node_runs = PyMem_Calloc((size_t)nruns * RUN + 1, sizeof(int32_t));
        int32_t *fill = PyMem_Calloc((size_t)size + 1, sizeof(int32_t));
        if (!self->runs || !self->node_run_first || !self->node_runs || !fill) {
            PyMem_Free(fill);
            PyErr_NoMemory();
            goto fail;
        }
        for (int r = 0; r < self->nruns; r++) {
            for (int k = 0; k < RUN; k++) {
                int v = self->run_nodes[r * RUN + k];
                if (self->runs[r] & bit(v)) {
                    PyMem_Free(fill);
                    PyErr_SetString(PyExc_ValueError, "a run's nodes must differ");
                    goto fail;
                }
                self->runs[r] |= bit(v);
                self->node_run_first[v + 1]++;
            }
        }
        for (int v = 0; v < size; v++) {
            self->node_run_first[v + 1] += self->node_run_first[v];
        }
        for (int r = 0; r < self->nruns; r++) {
            for (int k = 0; k < RUN; k++) {
                int v = self->run_nodes[r * RUN + k];
                self->node_runs[self->node_run_first[v] + fill[v]++] = r;
            }
        }
        PyMem_Free(fill);
    }
    /* the knowledge's constants */
    seq = PySequence_Fast(params, "params must be a sequence of floats");
    if (seq == NULL) {
        goto fail;
    }
    if (PySequence_Fast_GET_SIZE(seq) != (game == QUINTA ? 8 : 1)) {
        PyErr_SetString(PyExc_ValueError, "params: Quinta's six weights, bonus and temperature; Sexta's scale");
        goto fail;
    }
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        self->params[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (self->params[i] == -1.0 && PyErr_Occurred()) {
            goto fail;
        }
    }
    if ((game == QUINTA && self->params[7] == 0.0) || (game == SEXTA && self->params[0] == 0.0)) {
        PyErr_SetString(PyExc_ValueError, "a temperature or scale must not be 0");
        goto fail;
    }
    Py_CLEAR(seq);
    return (PyObject *)self;
fail:
    Py_XDECREF(seq);
    Py_DECREF(self);
    return NULL;
}

/* The slide index (s * size + t) whose Move is `move` itself, -1 when none. */
static int
move_index(const TablesObject *t, PyObject *move)
{
    return core_pointer_find(t->hash_keys, t->hash_values, t->hash_mask, move);
}

static PyObject *
Tables_set_moves(TablesObject *self, PyObject *moves)
{
    int n = self->size * self->size;
    if (!PyTuple_CheckExact(moves) || PyTuple_GET_SIZE(moves) != n) {
        PyErr_Format(PyExc_ValueError, "expected a tuple of %d moves (None where no slide)", n);
        return NULL;
    }
    if (self->moves != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the tables' moves are set once");
        return NULL;
    }
    size_t cap = core_pointer_slots((size_t)n);
    PyObject **table = PyMem_Calloc((size_t)n, sizeof(PyObject *));
    PyObject **keys = PyMem_Calloc(cap, sizeof(PyObject *));
    int32_t *values = PyMem_Calloc(cap, sizeof(int32_t));
    if (table == NULL || keys == NULL || values == NULL) {
        PyMem_Free(table);
        PyMem_Free(keys);
        PyMem_Free(values);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < n; i++) {
        PyObject *move = PyTuple_GET_ITEM(moves, i);
        int is_pair = self->pair_start[i] < self->pair_start[i + 1];
        if ((move == Py_None) == is_pair) {
            PyMem_Free(table);
            PyMem_Free(keys);
            PyMem_Free(values);
            PyErr_SetString(PyExc_ValueError, "a Move for every line pair, None elsewhere");
            return NULL;
        }
        if (!is_pair) {
            continue;
        }
        table[i] = Py_NewRef(move);
        size_t h = core_pointer_slot(keys, cap - 1, move);
        keys[h] = move;
        values[h] = i;
    }
    self->moves = table;
    self->hash_keys = keys;
    self->hash_values = values;
    self->hash_mask = cap - 1;
    Py_RETURN_NONE;
}

static PyObject *
Tables_get_actions(TablesObject *self, void *Py_UNUSED(closure))
{
    /* the action int of every (source, target) index, None where no line joins them */
    int n = self->size * self->size;
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        int is_pair = self->pair_start[i] < self->pair_start[i + 1];
        PyTuple_SET_ITEM(tuple, i, Py_NewRef(is_pair ? self->w.actions[i] : Py_None));
    }
    return tuple;
}

CORE_TABLES_GETTERS(Tables)

static PyMethodDef Tables_methods[] = {
    {"set_moves", (PyCFunction)Tables_set_moves, METH_O,
     PyDoc_STR("set_moves($self, moves, /)\n--\n\nThe Move of every slide index (the `actions` order, None where "
               "no line joins the two nodes), set once.")},
    {NULL},
};

static PyGetSetDef Tables_getset[] = {
    {"size", (getter)Tables_get_size, NULL, PyDoc_STR("Nodes of the board."), NULL},
    {"actions", (getter)Tables_get_actions, NULL,
     PyDoc_STR("The action of every slide index source * size + target (None where no line joins them)."), NULL},
    {"has_moves", (getter)Tables_get_has_moves, NULL, PyDoc_STR("True once set_moves was called."), NULL},
    {NULL},
};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ytourney.games._slidecore.Tables",
    .tp_doc = PyDoc_STR("Tables(size, walks, actions, pairs, neighbours, rays, game, runs, rings, params, "
                        "terminations): one board's read-only tables for one slide game."),
    .tp_basicsize = sizeof(TablesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = Tables_new,
    .tp_dealloc = (destructor)Tables_dealloc,
    .tp_traverse = (traverseproc)Tables_traverse,
    .tp_clear = (inquiry)Tables_clear,
    .tp_methods = Tables_methods,
    .tp_getset = Tables_getset,
};

/* --- the rules on masks ---------------------------------------------------------------------------------- */

/* True when a line joins s and t (s != t) with every node between them empty. */
static inline int
slide_open(const TablesObject *t, int index, u128 occupied)
{
    for (int32_t i = t->pair_start[index]; i < t->pair_start[index + 1]; i++) {
        if (!(t->between[i] & occupied)) {
            return 1;
        }
    }
    return 0;
}

/* Sexta: the six stones of `own` in one chain, none touching more than two of them (a ring only with rings). */
static int
is_chain(const TablesObject *t, u128 own)
{
    if (pop128(own) != CHAIN_STONES) {
        return 0;
    }
    int ends = 0;
    for (u128 rest = own; rest; rest &= rest - 1) {
        int degree = pop128(t->nb[low128(rest)] & own);
        if (degree == 0 || degree > 2) {
            return 0;
        }
        ends += degree == 1;
    }
    if (!ends && !t->rings) {
        return 0;
    }
    u128 seen = own & (~own + 1), frontier = seen;
    while (frontier) {
        int v = low128(frontier);
        frontier &= frontier - 1;
        u128 fresh = t->nb[v] & own & ~seen;
        seen |= fresh;
        frontier |= fresh;
    }
    return seen == own;
}

/* True when the stones `own` of the side that just slid onto `target` win. */
static inline int
won(const TablesObject *t, u128 own, int target)
{
    if (t->game == QUINTA) {
        for (int32_t i = t->node_run_first[target]; i < t->node_run_first[target + 1]; i++) {
            u128 run = t->runs[t->node_runs[i]];
            if ((own & run) == run) {
                return 1;
            }
        }
        return 0;
    }
    int touching = pop128(t->nb[target] & own);
    return touching > 0 && touching <= 2 && is_chain(t, own);
}

/* True when a stone of `theirs` has an empty neighbour (a line runs through every neighbour). */
static inline int
has_slide(const TablesObject *t, u128 theirs, u128 empty)
{
    for (; theirs; theirs &= theirs - 1) {
        if (t->nb[low128(theirs)] & empty) {
            return 1;
        }
    }
    return 0;
}

/* --- Kernel: one position --------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    TablesObject *t;
    u128 masks[3];
    long long limit;
    Py_ssize_t plies;
    int to_move;          /* 1 Black, 2 White */
    int result;           /* ONGOING, DRAW, or the winner */
    int termination;      /* 0 none, 1 the game's win, 2 move limit, 3 no moves */
    uint8_t cells[MAX_NODES];
    int32_t *stack;       /* the undo stack: a slide index, or SWAP_ENTRY */
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
    PyMem_Free(self->stack);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static KernelObject *
kernel_alloc(TablesObject *t, Py_ssize_t capacity)
{
    KernelObject *self = PyObject_GC_New(KernelObject, &KernelType);
    if (self == NULL) {
        return NULL;
    }
    self->t = (TablesObject *)Py_NewRef(t);
    self->masks[0] = self->masks[1] = self->masks[2] = 0;
    self->limit = CORE_NO_LIMIT;
    self->plies = 0;
    self->to_move = 1;
    self->result = ONGOING;
    self->termination = 0;
    memset(self->cells, 0, sizeof(self->cells));
    self->depth = 0;
    self->capacity = capacity < 16 ? 16 : capacity;
    self->stack = PyMem_Malloc((size_t)self->capacity * sizeof(int32_t));
    PyObject_GC_Track(self);
    if (self->stack == NULL) {
        Py_DECREF(self);
        PyErr_NoMemory();
        return NULL;
    }
    return self;
}

static PyObject *
Kernel_new(PyTypeObject *Py_UNUSED(type), PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"tables", "max_plies", "black", "white", "to_move", NULL};
    PyObject *tables, *max_obj, *black_obj, *white_obj;
    int to_move = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!OOO|i:Kernel", kwlist, &TablesType, &tables, &max_obj,
                                     &black_obj, &white_obj, &to_move)) {
        return NULL;
    }
    TablesObject *t = (TablesObject *)tables;
    long long limit;
    if (core_max_plies(max_obj, &limit) < 0 || core_check_to_move(to_move) < 0) {
        return NULL;
    }
    u128 black, white;
    if (read_mask(black_obj, &black) < 0 || read_mask(white_obj, &white) < 0) {
        return NULL;
    }
    if ((black | white) & ~t->full || black & white) {
        PyErr_SetString(PyExc_ValueError, "stones must stand on different nodes of the board");
        return NULL;
    }
    KernelObject *self = kernel_alloc(t, 64);
    if (self == NULL) {
        return NULL;
    }
    self->limit = limit;
    self->to_move = to_move;
    self->masks[1] = black;
    self->masks[2] = white;
    for (int v = 0; v < t->size; v++) {
        self->cells[v] = (black >> v) & 1 ? 1 : ((white >> v) & 1 ? 2 : 0);
    }
    return (PyObject *)self;
}

/* The slide index of `obj` (source * size + target of a line pair), -1 when it names none. */
static int
action_index(const TablesObject *t, PyObject *obj)
{
    int overflow;
    long long a;
    if (!core_action_ll(obj, &a, &overflow) || overflow || a < 0 || !(a & 1) || ((a >> 1) & 511) != 0 ||
        (a >> 28) != 0) {
        return -1;
    }
    long long s = CORE_FIELD(a, 10), g = CORE_FIELD(a, 19);
    if (s < 0 || g < 0 || s >= t->size || g >= t->size || s == g) {
        return -1;
    }
    int index = (int)(s * t->size + g);
    return t->pair_start[index] < t->pair_start[index + 1] ? index : -1;
}

static inline int
index_legal(const KernelObject *self, int index)
{
    const TablesObject *t = self->t;
    if (index < 0 || self->result != ONGOING) {
        return 0;
    }
    int s = index / t->size, g = index % t->size;
    return self->cells[s] == self->to_move && self->cells[g] == 0 &&
           slide_open(t, index, self->masks[1] | self->masks[2]);
}

/* Slide the stone of the legal slide `index` and judge the end; -1 with an exception. */
static int
apply_index(KernelObject *self, int index)
{
    const TablesObject *t = self->t;
    if (CORE_PUSH32(self, index) < 0) {
        return -1;
    }
    int s = index / t->size, g = index % t->size;
    int mover = self->to_move, other = 3 - mover;
    self->cells[s] = 0;
    self->cells[g] = (uint8_t)mover;
    u128 own = self->masks[mover] ^ (bit(s) | bit(g));
    self->masks[mover] = own;
    self->plies++;
    self->to_move = other;
    if (won(t, own, g)) {
        self->result = mover;
        self->termination = 1;
    }
    else if (self->plies >= self->limit) {
        self->result = DRAW;
        self->termination = 2;
    }
    else if (!has_slide(t, self->masks[other], t->full & ~(own | self->masks[other]))) {
        self->result = mover;
        self->termination = 3;
    }
    return 0;
}

/* Take back the last entry of the stack (the caller checked there is one). */
static void
undo_entry(KernelObject *self)
{
    int32_t entry = self->stack[--self->depth];
    self->plies--;
    if (entry == SWAP_ENTRY) {
        return;
    }
    const TablesObject *t = self->t;
    int s = entry / t->size, g = entry % t->size;
    int mover = 3 - self->to_move;
    self->to_move = mover;
    self->cells[g] = 0;
    self->cells[s] = (uint8_t)mover;
    self->masks[mover] ^= bit(s) | bit(g);
    self->result = ONGOING;
    self->termination = 0;
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

static PyObject *
Kernel_undo(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    if (self->depth == 0) {
        PyErr_SetString(PyExc_IndexError, "nothing to undo");
        return NULL;
    }
    undo_entry(self);
    Py_RETURN_NONE;
}

CORE_KERNEL_COUNT_SWAP(Kernel, SWAP_ENTRY)

static PyObject *
Kernel_is_legal(KernelObject *self, PyObject *action)
{
    return PyBool_FromLong(index_legal(self, action_index(self->t, action)));
}

/* The legal slides of the side to move as a list of actions (as_moves 0) or of the tables' Moves (1): their slide
 * indices gathered first (at most size * (size - 1) < 2^14 of them), then one list of the right length. */
/* The slide indices of the side to move's legal slides into `found` (at most size * (size - 1) < 2^14), in the
 * pure-Python kernel's order; their count. */
static Py_ssize_t
legal_indices(const KernelObject *self, int32_t *found)
{
    const TablesObject *t = self->t;
    if (self->result != ONGOING) {
        return 0;
    }
    u128 occupied = self->masks[1] | self->masks[2];
    int16_t targets[MAX_NODES];
    Py_ssize_t n = 0;
    for (u128 mine = self->masks[self->to_move]; mine; mine &= mine - 1) {
        int source = low128(mine);
        int count = source_slides(&t->w, occupied, source, targets);
        for (int k = 0; k < count; k++) {
            found[n++] = source * t->size + targets[k];
        }
    }
    return n;
}

static PyObject *
legal_list(KernelObject *self, int as_moves)
{
    const TablesObject *t = self->t;
    if (as_moves && t->moves == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the tables have no moves set");
        return NULL;
    }
    PyObject **row = as_moves ? t->moves : t->w.actions;
    int32_t found[MAX_NODES * MAX_NODES];
    Py_ssize_t n = legal_indices(self, found);
    PyObject *list = PyList_New(n);
    if (list == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyList_SET_ITEM(list, i, Py_NewRef(row[found[i]]));
    }
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
    /* Apply the slide whose Move (from the tables' moves) is `move` itself; False (nothing done) for any other
     * object or an illegal one, so the caller takes its slow path. */
    int index = move_index(self->t, move);
    if (!index_legal(self, index)) {
        Py_RETURN_FALSE;
    }
    if (apply_index(self, index) < 0) {
        return NULL;
    }
    Py_RETURN_TRUE;
}

static PyObject *
Kernel_source_actions(KernelObject *self, PyObject *source_obj)
{
    long source = core_bounded_int(source_obj, 0, self->t->size - 1, "a source node");
    if (source < 0) {
        return NULL;
    }
    int16_t targets[MAX_NODES];
    int n = source_slides(&self->t->w, self->masks[1] | self->masks[2], (int)source, targets);
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL) {
        return NULL;
    }
    for (int k = 0; k < n; k++) {
        PyTuple_SET_ITEM(tuple, k, Py_NewRef(self->t->w.actions[source * self->t->size + targets[k]]));
    }
    return tuple;
}

static PyObject *
Kernel_key(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    /* the four 64-bit words of the two masks and the side to move, mixed by splitmix64's finaliser */
    uint64_t words[5] = {(uint64_t)self->masks[1], (uint64_t)(self->masks[1] >> 64), (uint64_t)self->masks[2],
                         (uint64_t)(self->masks[2] >> 64), (uint64_t)self->to_move};
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 5; i++) {
        h ^= words[i] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
        h = core_mix64(h);
    }
    return core_key_object(h);
}

static PyObject *
Kernel_clone(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    KernelObject *new = kernel_alloc(self->t, self->depth + 16);
    if (new == NULL) {
        return NULL;
    }
    memcpy(new->masks, self->masks, sizeof(self->masks));
    memcpy(new->cells, self->cells, sizeof(self->cells));
    new->limit = self->limit;
    new->plies = self->plies;
    new->to_move = self->to_move;
    new->result = self->result;
    new->termination = self->termination;
    memcpy(new->stack, self->stack, (size_t)self->depth * sizeof(int32_t));
    new->depth = self->depth;
    return (PyObject *)new;
}

static PyObject *
Kernel_winning_stones(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    /* the stones of the win by the last slide: Quinta's first full run (in run order) through its node, Sexta's
     * six by node; () before any slide or when none */
    const TablesObject *t = self->t;
    Py_ssize_t i = self->depth - 1;
    while (i >= 0 && self->stack[i] == SWAP_ENTRY) {
        i--;
    }
    if (i < 0) {
        return PyTuple_New(0);
    }
    int target = self->stack[i] % t->size;
    int colour = self->cells[target];
    if (!colour) {
        return PyTuple_New(0);
    }
    u128 own = self->masks[colour], found = 0;
    if (t->game == QUINTA) {
        for (int32_t k = t->node_run_first[target]; k < t->node_run_first[target + 1]; k++) {
            u128 run = t->runs[t->node_runs[k]];
            if ((own & run) == run) {
                found = run;
                break;
            }
        }
    }
    else {
        found = own;
    }
    PyObject *tuple = PyTuple_New(pop128(found));
    if (tuple == NULL) {
        return NULL;
    }
    for (int k = 0; found; found &= found - 1, k++) {
        PyObject *node = PyLong_FromLong(low128(found));
        if (node == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, k, node);
    }
    return tuple;
}

/* --- the knowledge: evaluation, win in one, the one block, playouts ----------------------------------------- */

/* Quinta: Black's value from the runs each side holds alone by its stones on them (`black[k]`, `white[k]`: the runs
 * holding k of its stones and none of the other's), the side to move's half again; one expression for every caller,
 * so that the full count and the one-ply deltas give the same float. */
static inline double
quinta_value(const double *w, const long *black, const long *white, int to_move)
{
    double ours = w[2] * (double)black[2] + w[3] * (double)black[3] + w[4] * (double)black[4] +
                  w[5] * (double)black[5];
    double theirs = w[2] * (double)white[2] + w[3] * (double)white[3] + w[4] * (double)white[4] +
                    w[5] * (double)white[5];
    if (to_move == 1) {
        ours *= w[6];
    }
    else {
        theirs *= w[6];
    }
    return 1.0 / (1.0 + exp(-(ours - theirs) / w[7]));
}

static double
evaluate_masks(const TablesObject *t, u128 black, u128 white, int to_move)
{
    if (t->game == QUINTA) {
        /* the runs each side holds alone, weighted by its stones on them (2..5), the side to move's half again */
        long count_b[RUN + 1] = {0}, count_w[RUN + 1] = {0};
        for (int r = 0; r < t->nruns; r++) {
            int b = pop128(t->runs[r] & black), c = pop128(t->runs[r] & white);
            if (!c) {
                count_b[b]++;
            }
            if (!b) {
                count_w[c]++;
            }
        }
        return quinta_value(t->params, count_b, count_w, to_move);
    }
    /* Sexta: the difference of the two sides' shapes (touching pairs, at most two a stone, and the largest group) */
    double shape[3] = {0.0, 0.0, 0.0};
    for (int c = 1; c <= 2; c++) {
        u128 own = c == 1 ? black : white;
        double pairs = 0.0;
        for (u128 rest = own; rest; rest &= rest - 1) {
            int degree = pop128(t->nb[low128(rest)] & own);
            pairs += (double)((degree < 2 ? degree : 2) - (degree > 2 ? degree - 2 : 0));
        }
        int largest = 0;
        for (u128 left = own; left;) {
            u128 seen = left & (~left + 1), frontier = seen;
            while (frontier) {
                int v = low128(frontier);
                frontier &= frontier - 1;
                u128 fresh = t->nb[v] & own & ~seen;
                seen |= fresh;
                frontier |= fresh;
            }
            if (pop128(seen) > largest) {
                largest = pop128(seen);
            }
            left &= ~seen;
        }
        shape[c] = pairs / 2 + (double)largest - 1;
    }
    return 0.5 + (shape[1] - shape[2]) / t->params[0];
}

static PyObject *
Kernel_evaluate(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyFloat_FromDouble(evaluate_masks(self->t, self->masks[1], self->masks[2], self->to_move));
}

/* Sexta: the connected groups of `own` number more than `most`. */
static int
more_groups(const TablesObject *t, u128 own, int most)
{
    int groups = 0;
    for (u128 left = own; left;) {
        u128 seen = left & (~left + 1), frontier = seen;
        while (frontier) {
            int v = low128(frontier);
            frontier &= frontier - 1;
            u128 fresh = t->nb[v] & own & ~seen;
            seen |= fresh;
            frontier |= fresh;
        }
        if (++groups > most) {
            return 1;
        }
        left &= ~seen;
    }
    return 0;
}

/* A slide index of `colour` that wins at once on these masks and cells, -1 when none (the Python knowledge's
 * `win_for`, in its order). */
static int
win_for(const TablesObject *t, const u128 *masks, const uint8_t *cells, int colour)
{
    u128 own = masks[colour], other = masks[3 - colour], occupied = masks[1] | masks[2];
    if (t->game == QUINTA) {
        for (int r = 0; r < t->nruns; r++) {
            u128 run = t->runs[r];
            if (run & other || pop128(run & own) != RUN - 1) {
                continue;
            }
            int target = high128(run & ~own);
            for (int32_t ray = t->ray_first[target]; ray < t->ray_first[target + 1]; ray++) {
                for (int32_t k = t->ray_start[ray]; k < t->ray_start[ray + 1]; k++) {
                    int node = t->ray_nodes[k];
                    if (!cells[node]) {
                        continue;
                    }
                    if (cells[node] == colour && !(run & bit(node))) {
                        int index = node * t->size + target;
                        if (t->pair_start[index] < t->pair_start[index + 1] && slide_open(t, index, occupied)) {
                            return index;
                        }
                    }
                    break;
                }
            }
        }
        return -1;
    }
    if (pop128(own) != CHAIN_STONES || more_groups(t, own, 3)) {
        return -1;
    }
    u128 empty = t->full & ~occupied;
    int16_t targets[MAX_NODES];
    for (u128 sources = own; sources; sources &= sources - 1) {
        int source = low128(sources);
        u128 rest = own & ~bit(source), near = 0;
        int crowded = 0;
        for (u128 r = rest; r; r &= r - 1) {
            int node = low128(r);
            if (pop128(t->nb[node] & rest) > 2) {
                crowded = 1;
                break;
            }
            near |= t->nb[node];
        }
        if (crowded || !(near & empty)) {
            continue;
        }
        int n = source_slides(&t->w, occupied, source, targets);
        for (int k = 0; k < n; k++) {
            if (near & bit(targets[k]) && is_chain(t, rest | bit(targets[k]))) {
                return source * t->size + targets[k];
            }
        }
    }
    return -1;
}

static PyObject *
Kernel_winning_action(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    if (self->result != ONGOING) {
        Py_RETURN_NONE;
    }
    int index = win_for(self->t, self->masks, self->cells, self->to_move);
    if (index < 0) {
        Py_RETURN_NONE;
    }
    return Py_NewRef(self->t->w.actions[index]);
}

static PyObject *
Kernel_win_for(KernelObject *self, PyObject *colour_obj)
{
    long colour = core_bounded_int(colour_obj, 1, 2, "colour");
    if (colour < 0) {
        return NULL;
    }
    int index = win_for(self->t, self->masks, self->cells, (int)colour);
    if (index < 0) {
        Py_RETURN_NONE;
    }
    return Py_NewRef(self->t->w.actions[index]);
}

static PyObject *
Kernel_urgent_actions(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    /* the win in one; else, when the opponent threatens one, the slides after which it has none (empty when none
     * does, or all do) */
    const TablesObject *t = self->t;
    if (self->result != ONGOING) {
        return PyList_New(0);
    }
    int mover = self->to_move, other = 3 - mover;
    int win = win_for(t, self->masks, self->cells, mover);
    if (win >= 0) {
        return Py_BuildValue("[O]", t->w.actions[win]);
    }
    if (win_for(t, self->masks, self->cells, other) < 0) {
        return PyList_New(0);
    }
    PyObject *blocks = PyList_New(0);
    if (blocks == NULL) {
        return NULL;
    }
    u128 occupied = self->masks[1] | self->masks[2];
    int16_t targets[MAX_NODES];
    int total = 0;
    for (u128 mine = self->masks[mover]; mine; mine &= mine - 1) {
        int source = low128(mine);
        int n = source_slides(&t->w, occupied, source, targets);
        for (int k = 0; k < n; k++) {
            int index = source * t->size + targets[k];
            total++;
            if (apply_index(self, index) < 0) {
                Py_DECREF(blocks);
                return NULL;
            }
            int stops = self->result != ONGOING || win_for(t, self->masks, self->cells, other) < 0;
            undo_entry(self);
            if (stops && PyList_Append(blocks, t->w.actions[index]) < 0) {
                Py_DECREF(blocks);
                return NULL;
            }
        }
    }
    if (PyList_GET_SIZE(blocks) >= total) {
        Py_DECREF(blocks);
        return PyList_New(0);
    }
    return blocks;
}

/* Quinta's run counts before a one-ply look: every run's stones of each side (`stones`: Black's runs, then White's),
 * the runs each side holds alone by its stones on them (`alone[colour][k]`), and the runs that the side not to move
 * holds four of alone (`ready`: without one, no win in one is left to it after a slide). */
typedef struct {
    uint8_t *stones;
    long alone[3][RUN + 2];
    long ready;
} RunCounts;

/* Fill `c` (its `stones` allocated by the caller, 2 * nruns bytes) for the kernel's position. */
static void
run_counts(const KernelObject *self, RunCounts *c)
{
    const TablesObject *t = self->t;
    int other = 3 - self->to_move;
    memset(c->alone, 0, sizeof(c->alone));
    c->ready = 0;
    for (int r = 0; r < t->nruns; r++) {
        int b = pop128(t->runs[r] & self->masks[1]), w = pop128(t->runs[r] & self->masks[2]);
        c->stones[r] = (uint8_t)b;
        c->stones[t->nruns + r] = (uint8_t)w;
        if (!w) {
            c->alone[1][b]++;
        }
        if (!b) {
            c->alone[2][w]++;
        }
        c->ready += (other == 1 ? b : w) == RUN - 1 && !(other == 1 ? w : b);
    }
}

/* Quinta: Black's value one ply after the legal slide `index` (the kernel left as found), the run counts changed only
 * on the runs through the slide's two nodes; -1 with an exception. */
static double
quinta_slide_value(KernelObject *self, int index, const RunCounts *c)
{
    const TablesObject *t = self->t;
    int mover = self->to_move, other = 3 - mover;
    int source = index / t->size, target = index % t->size;
    const uint8_t *mine = c->stones + (size_t)(mover - 1) * t->nruns;
    const uint8_t *theirs = c->stones + (size_t)(other - 1) * t->nruns;
    long alone[3][RUN + 2];
    memcpy(alone, c->alone, sizeof(alone));
    long ready = c->ready;
    for (int leaving = 1; leaving >= 0; leaving--) {
        int node = leaving ? source : target, far = leaving ? target : source;
        for (int32_t i = t->node_run_first[node]; i < t->node_run_first[node + 1]; i++) {
            int r = t->node_runs[i];
            if (t->runs[r] & bit(far)) {
                continue;  /* the stone stays on this run */
            }
            int was = mine[r], now = leaving ? was - 1 : was + 1, held = theirs[r];
            if (!held) {
                alone[mover][was]--;
                alone[mover][now]++;
            }
            alone[other][held] += (now == 0) - (was == 0);
            ready += (held == RUN - 1 && now == 0) - (held == RUN - 1 && was == 0);
        }
    }
    if (apply_index(self, index) < 0) {
        return -1.0;
    }
    double black;
    if (self->result != ONGOING) {
        black = self->result == DRAW ? 0.5 : self->result == 1 ? 1.0 : 0.0;
    }
    else if (ready > 0 && win_for(t, self->masks, self->cells, other) >= 0) {
        black = mover == 1 ? 0.0 : 1.0;
    }
    else {
        black = quinta_value(t->params, alone[1], alone[2], other);
    }
    undo_entry(self);
    return black;
}

/* Black's value one ply after the legal slide `index` on the whole position (the kernel left as found); -1 with an
 * exception. */
static double
slide_value(KernelObject *self, int index)
{
    int mover = self->to_move;
    if (apply_index(self, index) < 0) {
        return -1.0;
    }
    double black;
    if (self->result != ONGOING) {
        black = self->result == DRAW ? 0.5 : self->result == 1 ? 1.0 : 0.0;
    }
    else if (win_for(self->t, self->masks, self->cells, self->to_move) >= 0) {
        black = mover == 1 ? 0.0 : 1.0;
    }
    else {
        black = evaluate_masks(self->t, self->masks[1], self->masks[2], self->to_move);
    }
    undo_entry(self);
    return black;
}

/* The mover's value of each of the `n` legal slides `indices` into `values`, as the knowledge's one_ply_values: 1 a
 * win, 0.5 a draw, 0 a slide after which the opponent wins in one, else the evaluation (Black's, flipped for White);
 * the kernel is left as found. -1 with an exception. */
static int
one_ply_fill(KernelObject *self, const int32_t *indices, Py_ssize_t n, double *values)
{
    const TablesObject *t = self->t;
    int quinta = t->game == QUINTA && n > 0;
    RunCounts counts = {.stones = quinta ? PyMem_Malloc((size_t)t->nruns * 2) : NULL};
    if (quinta && counts.stones == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (quinta) {
        run_counts(self, &counts);
    }
    int mover = self->to_move;
    for (Py_ssize_t i = 0; i < n; i++) {
        double black = quinta ? quinta_slide_value(self, indices[i], &counts) : slide_value(self, indices[i]);
        if (black < 0.0) {
            PyMem_Free(counts.stones);
            return -1;
        }
        values[i] = mover == 1 ? black : 1.0 - black;
    }
    PyMem_Free(counts.stones);
    return 0;
}

/* The mover's value of each legal action in the sequence `actions` (`one_ply_fill`); every action is checked before
 * any is played, so the kernel is left as found also on a ValueError. */
static PyObject *
Kernel_one_ply_values(KernelObject *self, PyObject *actions)
{
    PyObject *seq = PySequence_Fast(actions, "one_ply_values expects a sequence of actions");
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = NULL;
    int32_t *indices = PyMem_Malloc((size_t)(n > 0 ? n : 1) * sizeof(int32_t));
    double *values = PyMem_Malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    if (indices == NULL || values == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        indices[i] = action_index(self->t, PySequence_Fast_GET_ITEM(seq, i));
        if (!index_legal(self, indices[i])) {
            PyErr_Format(PyExc_ValueError, "action %R is not legal here", PySequence_Fast_GET_ITEM(seq, i));
            goto done;
        }
    }
    if (one_ply_fill(self, indices, n, values) < 0 || (out = PyList_New(n)) == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *value = PyFloat_FromDouble(values[i]);
        if (value == NULL) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, i, value);
    }
done:
    PyMem_Free(values);
    PyMem_Free(indices);
    Py_DECREF(seq);
    return out;
}

typedef struct {
    double value;
    Py_ssize_t position;
} Ranked;

/* Higher value first, then the earlier listed (the stable descending order of Python's `sorted`). */
static int
ranked_order(const void *a, const void *b)
{
    const Ranked *x = a, *y = b;
    if (x->value != y->value) {
        return x->value > y->value ? -1 : 1;
    }
    return x->position < y->position ? -1 : x->position > y->position;
}

/* The knowledge's search_actions: every legal slide, or with more than `breadth` > 0 of them the `breadth` best by
 * one_ply_values, best first (ties in listing order). */
static PyObject *
Kernel_search_actions(KernelObject *self, PyObject *breadth_obj)
{
    long breadth = PyLong_AsLong(breadth_obj);
    if (breadth == -1 && PyErr_Occurred()) {
        return NULL;
    }
    int32_t found[MAX_NODES * MAX_NODES];
    Py_ssize_t n = legal_indices(self, found);
    PyObject *const *row = self->t->w.actions;
    if (breadth <= 0 || n <= breadth) {
        PyObject *list = PyList_New(n);
        for (Py_ssize_t i = 0; list != NULL && i < n; i++) {
            PyList_SET_ITEM(list, i, Py_NewRef(row[found[i]]));
        }
        return list;
    }
    double *values = PyMem_Malloc((size_t)n * sizeof(double));
    Ranked *ranked = PyMem_Malloc((size_t)n * sizeof(Ranked));
    PyObject *list = NULL;
    if (values == NULL || ranked == NULL) {
        PyErr_NoMemory();
    }
    else if (one_ply_fill(self, found, n, values) == 0) {
        for (Py_ssize_t i = 0; i < n; i++) {
            ranked[i] = (Ranked){values[i], i};
        }
        qsort(ranked, (size_t)n, sizeof(Ranked), ranked_order);
        list = PyList_New(breadth);
        for (Py_ssize_t i = 0; list != NULL && i < breadth; i++) {
            PyList_SET_ITEM(list, i, Py_NewRef(row[found[ranked[i].position]]));
        }
    }
    PyMem_Free(ranked);
    PyMem_Free(values);
    return list;
}

/* The playout's slide of a side with `n` stones `stones` as the Python knowledge picks it: a uniform stone, a
 * stuck one dropped from the draw until one can move, then a uniform slide of it; the slide index, -1 when none. */
static int
playout_pick(const TablesObject *t, u128 occupied, const int16_t *stones, int n, uint64_t *rng)
{
    int16_t candidates[MAX_NODES];
    int16_t targets[MAX_NODES];
    const int16_t *from = stones;
    int left = n;
    while (left > 0) {
        int i = (int)(core_lcg_next(rng) % (uint32_t)left);
        int source = from[i];
        int count = source_slides(&t->w, occupied, source, targets);
        if (count) {
            return source * t->size + targets[core_lcg_next(rng) % (uint32_t)count];
        }
        if (from == stones) {
            memcpy(candidates, stones, (size_t)n * sizeof(int16_t));
            from = candidates;
        }
        left--;
        candidates[i] = candidates[left];
    }
    return -1;
}

/* The stones of `mask` by node, into `out`; their count. */
static int
stone_list(u128 mask, int16_t *out)
{
    int n = 0;
    for (; mask; mask &= mask - 1) {
        out[n++] = (int16_t)low128(mask);
    }
    return n;
}

static PyObject *
Kernel_playout_action(KernelObject *self, PyObject *seed)
{
    uint64_t rng = PyLong_AsUnsignedLongLongMask(seed);
    if (rng == (uint64_t)-1 && PyErr_Occurred()) {
        return NULL;
    }
    if (self->result != ONGOING) {
        Py_RETURN_NONE;
    }
    int16_t stones[MAX_NODES];
    int n = stone_list(self->masks[self->to_move], stones);
    int index = playout_pick(self->t, self->masks[1] | self->masks[2], stones, n, &rng);
    if (index < 0) {
        Py_RETURN_NONE;
    }
    return Py_NewRef(self->t->w.actions[index]);
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
    u128 masks[3] = {0, self->masks[1], self->masks[2]};
    int16_t stones[3][MAX_NODES];
    int nstones[3] = {0, stone_list(masks[1], stones[1]), stone_list(masks[2], stones[2])};
    int mover = self->to_move;
    long long at = (long long)self->plies;
    double value = -1.0;
    for (Py_ssize_t played = 0; played < plies; played++) {
        int index = playout_pick(t, masks[1] | masks[2], stones[mover], nstones[mover], &rng);
        if (index < 0) {  /* only in a set-up position: the game ends this way after a move */
            value = mover == 1 ? 0.0 : 1.0;
            break;
        }
        int s = index / t->size, g = index % t->size;
        for (int k = 0; k < nstones[mover]; k++) {
            if (stones[mover][k] == s) {
                stones[mover][k] = (int16_t)g;
                break;
            }
        }
        masks[mover] ^= bit(s) | bit(g);
        at++;
        if (trace != NULL && PyList_Append(trace, t->w.actions[index]) < 0) {
            return NULL;
        }
        int other = 3 - mover;
        if (won(t, masks[mover], g)) {
            value = mover == 1 ? 1.0 : 0.0;
            break;
        }
        if (at >= self->limit) {
            value = 0.5;
            break;
        }
        if (!has_slide(t, masks[other], t->full & ~(masks[1] | masks[2]))) {
            value = mover == 1 ? 1.0 : 0.0;
            break;
        }
        mover = other;
    }
    if (value < 0.0) {
        value = evaluate_masks(t, masks[1], masks[2], mover);
    }
    return PyFloat_FromDouble(value);
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
    PyObject *black = mask_object(self->masks[1]);
    return core_masks_list(black, black == NULL ? NULL : mask_object(self->masks[2]));
}

static PyObject *
Kernel_get_termination(KernelObject *self, void *Py_UNUSED(closure))
{
    switch (self->termination) {
    case 1:
        return Py_NewRef(self->t->win);
    case 2:
        return Py_NewRef(self->t->move_limit);
    case 3:
        return Py_NewRef(self->t->no_moves);
    default:
        Py_RETURN_NONE;
    }
}

static PyObject *
Kernel_get_win_termination(KernelObject *self, void *Py_UNUSED(closure))
{
    return Py_NewRef(self->t->win);
}

static PyObject *
Kernel_get_limit(KernelObject *self, void *Py_UNUSED(closure))
{
    return self->limit >= CORE_NO_LIMIT ? PyLong_FromSsize_t(PY_SSIZE_T_MAX) : PyLong_FromLongLong(self->limit);
}

static PyObject *
Kernel_get_tables(KernelObject *self, void *Py_UNUSED(closure))
{
    return Py_NewRef(self->t);
}

static PyMethodDef Kernel_methods[] = {
    {"legal_actions", (PyCFunction)Kernel_legal_actions, METH_NOARGS,
     PyDoc_STR("legal_actions($self, /)\n--\n\nEvery legal slide, in the pure-Python kernel's order.")},
    {"legal_moves", (PyCFunction)Kernel_legal_moves, METH_NOARGS,
     PyDoc_STR("legal_moves($self, /)\n--\n\nThe Move of every legal slide (the tables' moves), same order.")},
    {"play_move", (PyCFunction)Kernel_play_move, METH_O,
     PyDoc_STR("play_move($self, move, /)\n--\n\nApply a legal slide given as one of the tables' own Moves: True; "
               "False (nothing done) for anything else.")},
    CORE_METHOD_IS_LEGAL(Kernel_is_legal),
    {"apply", (PyCFunction)Kernel_apply, METH_O,
     PyDoc_STR("apply($self, action, /)\n--\n\nSlide and judge the end (ValueError if not legal).")},
    {"undo", (PyCFunction)Kernel_undo, METH_NOARGS,
     PyDoc_STR("undo($self, /)\n--\n\nTake back the last slide or pie answer's ply.")},
    CORE_METHOD_COUNT_SWAP(Kernel_count_swap),
    {"key", (PyCFunction)Kernel_key, METH_NOARGS,
     PyDoc_STR("key($self, /)\n--\n\nA hash of the stones and the side to move.")},
    CORE_METHOD_CLONE(Kernel_clone),
    {"source_actions", (PyCFunction)Kernel_source_actions, METH_O,
     PyDoc_STR("source_actions($self, source, /)\n--\n\nThe slides of the stone on `source`, whoever's it is.")},
    {"winning_stones", (PyCFunction)Kernel_winning_stones, METH_NOARGS,
     PyDoc_STR("winning_stones($self, /)\n--\n\nThe stones of the win the last slide made, () when none.")},
    {"evaluate", (PyCFunction)Kernel_evaluate, METH_NOARGS,
     PyDoc_STR("evaluate($self, /)\n--\n\nBlack's value of the position (the knowledge's evaluation).")},
    {"winning_action", (PyCFunction)Kernel_winning_action, METH_NOARGS,
     PyDoc_STR("winning_action($self, /)\n--\n\nA slide that wins at once for the side to move, or None.")},
    {"win_for", (PyCFunction)Kernel_win_for, METH_O,
     PyDoc_STR("win_for($self, colour, /)\n--\n\nA slide of `colour` that wins at once, or None.")},
    {"search_actions", (PyCFunction)Kernel_search_actions, METH_O,
     PyDoc_STR("search_actions($self, breadth, /)\n--\n\nEvery legal slide, or with more than `breadth` > 0 the "
               "`breadth` best by one_ply_values, best first (ties in listing order).")},
    {"one_ply_values", (PyCFunction)Kernel_one_ply_values, METH_O,
     PyDoc_STR("one_ply_values($self, actions, /)\n--\n\nThe mover's value of each legal action one ply deep: 1 a "
               "win, 0 a win in one left to the opponent, else the evaluation (the kernel left as found).")},
    {"urgent_actions", (PyCFunction)Kernel_urgent_actions, METH_NOARGS,
     PyDoc_STR("urgent_actions($self, /)\n--\n\nThe win in one, else the slides stopping the opponent's.")},
    {"playout_action", (PyCFunction)Kernel_playout_action, METH_O,
     PyDoc_STR("playout_action($self, seed, /)\n--\n\nThe playout policy's slide from this seed, or None.")},
    {"rollout", (PyCFunction)(void (*)(void))Kernel_rollout, METH_FASTCALL,
     PyDoc_STR("rollout($self, seed, plies, trace=None, /)\n--\n\nBlack's value after up to `plies` playout slides "
               "from this seed (the kernel untouched), each appended to `trace` when given.")},
    {NULL},
};

static PyMemberDef Kernel_members[] = {
    CORE_KERNEL_MEMBERS(KernelObject),
    {NULL},
};

static PyGetSetDef Kernel_getset[] = {
    {"cells", (getter)Kernel_get_cells, NULL, PyDoc_STR("Colour on every node (a new list)."), NULL},
    {"masks", (getter)Kernel_get_masks, NULL, PyDoc_STR("[0, Black's stones, White's] as node masks (new)."), NULL},
    {"termination", (getter)Kernel_get_termination, NULL, PyDoc_STR("How the game ended, None while on."), NULL},
    {"win_termination", (getter)Kernel_get_win_termination, NULL, PyDoc_STR("The game's own win."), NULL},
    {"score", (getter)core_get_none, NULL, PyDoc_STR("None: the slide games keep no score."), NULL},
    {"limit", (getter)Kernel_get_limit, NULL, PyDoc_STR("The move limit (sys.maxsize for none)."), NULL},
    {"tables", (getter)Kernel_get_tables, NULL, PyDoc_STR("The board's tables."), NULL},
    {NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ytourney.games._slidecore.Kernel",
    .tp_doc = PyDoc_STR("Kernel(tables, max_plies, black, white, to_move=1): one slide-game position on the kernel "
                        "protocol, from each side's stone mask (not judged)."),
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

static PyMethodDef methods[] = {
    {"tables", make_tables, METH_VARARGS, "tables(size, walks, actions): a board's walks for `actions`."},
    {"actions", (PyCFunction)(void (*)(void))actions, METH_FASTCALL,
     "actions(tables, mine, occupied): the slides of the stones of `mine`, as the Python kernel lists them."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_slidecore",
    .m_doc = "The slide games' optional C core (see ytourney.games.slide_core).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__slidecore(void)
{
    return core_module_create(&module, "Tables", &TablesType, "Kernel", &KernelType, NULL);
}
