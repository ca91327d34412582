/* Optional C core of Singularity's kernel (ytourney.games.singularity.kernel.SingularityKernel) and of its search
 * knowledge's hot parts: the leaf evaluation, the win in one and the playout.
 *
 * `Tables` holds one board's read-only tables for one fusion zone (slides, named captures, the lines of every
 * source in the Python kernel's groups, fusion partners, the central nodes, the evaluation's node costs, the
 * Termination objects), built once by ytourney.games.singularity.core from the pure-Python tables.  `Kernel` is one
 * position on the kernel protocol with the same actions, the same legal-action order and the same endings as the
 * pure-Python kernel.  The evaluation sums the node costs chunk by chunk in ascending node order, as the Python
 * tables do, so both return the same float.  The playout draws from a 64-bit LCG (top 32 bits, `% n`) that the
 * Python knowledge steps the same way.  No module state: everything hangs off a Tables object.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../core_common.h"

#define MAX_NODES 511       /* a node takes 9 bits in an action */
#define MAX_PATH 8          /* nodes a slide passes, its target included */
#define MAX_GUARD 8         /* nodes a line shares with an earlier fork */
#define ONGOING (-1)
#define DRAW 0
#define SWAP_ENTRY (-1)
#define STACK_INDICES 4096  /* legal-action buffers up to this size live on the C stack */

/* --- Tables: one board's read-only tables ---------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    int size;                /* nodes */
    int nslides;             /* plain slides s-t: action indices 0..nslides-1 */
    int nnamed;              /* slides naming a capture: indices nslides.. */
    int nlines;
    int ngroups;
    int16_t *slide_source;
    int16_t *slide_target;
    uint8_t *slide_len;      /* nodes of its path */
    int16_t *slide_path;     /* nslides rows of MAX_PATH nodes */
    uint8_t *slide_check;    /* its target has fusion partners or is central */
    int32_t *named_start;    /* nslides + 1 offsets into named_capture */
    int16_t *named_capture;  /* the named stone, ascending within a slide */
    int32_t *named_slide;    /* the slide of each named capture */
    int32_t *pair;           /* size * size: the slide from source to target, -1 for none */
    int32_t *group_start;    /* size + 1 offsets: each source's groups */
    int32_t *line_start;     /* ngroups + 1 offsets: each group's lines */
    uint8_t *line_nguard;
    int16_t *line_guard;     /* nlines rows of MAX_GUARD nodes that must be empty */
    int32_t *target_start;   /* nlines + 1 offsets into line_targets */
    int32_t *line_targets;   /* slide indices in line order */
    int32_t *easy_start;     /* size + 1 offsets: each source's one-node slides onto plain nodes */
    int16_t *easy_targets;
    int32_t *partner_start;  /* size + 1 offsets into partners */
    int16_t *partners;       /* the nodes a stone landing on each node fuses with, ascending */
    uint8_t *central;        /* 1 on the central nodes */
    int ncentral;
    int16_t central_nodes[8];
    double *costs;           /* the evaluation's cost of a stone on each node */
    int chunk;               /* nodes one partial sum covers */
    double temperature;
    PyObject **action_objs;  /* the action int of every index */
    PyObject *terminations;  /* (singularity, move limit, no moves) */
    PyObject *moves;         /* optional: a tuple, the Move of every action index */
    PyObject **move_keys;    /* open addressing: each Move's identity ... */
    int32_t *move_slots;     /* ... and its index */
    Py_ssize_t move_mask;
} TablesObject;

static PyTypeObject TablesType;

static long long
action_value(int source, int target, int capture)
{
    /* encode_path((source, target), capture): 9 bits a node, the capture + 1 (0: none), the low bit set */
    return ((long long)(target + 1) << 19) | ((long long)(source + 1) << 10) | ((long long)(capture + 1) << 1) | 1;
}

static int
Tables_traverse(TablesObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->terminations);
    Py_VISIT(self->moves);
    return 0;
}

static int
Tables_clear(TablesObject *self)
{
    Py_CLEAR(self->terminations);
    Py_CLEAR(self->moves);
    return 0;
}

static void
Tables_dealloc(TablesObject *self)
{
    PyObject_GC_UnTrack(self);
    Tables_clear(self);
    if (self->action_objs != NULL) {
        for (int i = 0; i < self->nslides + self->nnamed; i++) {
            Py_XDECREF(self->action_objs[i]);
        }
        PyMem_Free(self->action_objs);
    }
    PyMem_Free(self->slide_source);
    PyMem_Free(self->slide_target);
    PyMem_Free(self->slide_len);
    PyMem_Free(self->slide_path);
    PyMem_Free(self->slide_check);
    PyMem_Free(self->named_start);
    PyMem_Free(self->named_capture);
    PyMem_Free(self->named_slide);
    PyMem_Free(self->pair);
    PyMem_Free(self->group_start);
    PyMem_Free(self->line_start);
    PyMem_Free(self->line_nguard);
    PyMem_Free(self->line_guard);
    PyMem_Free(self->target_start);
    PyMem_Free(self->line_targets);
    PyMem_Free(self->easy_start);
    PyMem_Free(self->easy_targets);
    PyMem_Free(self->partner_start);
    PyMem_Free(self->partners);
    PyMem_Free(self->central);
    PyMem_Free(self->costs);
    PyMem_Free(self->move_keys);
    PyMem_Free(self->move_slots);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A new reference to a fast sequence of `obj` with its length in *n (at most `most`), else NULL. */
static PyObject *
fast_seq(PyObject *obj, Py_ssize_t most, Py_ssize_t *n, const char *what)
{
    PyObject *seq = PySequence_Fast(obj, what);
    if (seq == NULL) {
        return NULL;
    }
    *n = PySequence_Fast_GET_SIZE(seq);
    if (*n > most) {
        PyErr_Format(PyExc_ValueError, "%s: at most %zd items, got %zd", what, most, *n);
        Py_DECREF(seq);
        return NULL;
    }
    return seq;
}

/* Read up to `most` node numbers of a sequence into out; their count, or -1 with an exception. */
static Py_ssize_t
read_nodes(PyObject *obj, int size, Py_ssize_t most, int16_t *out, const char *what)
{
    Py_ssize_t n;
    PyObject *seq = fast_seq(obj, most, &n, what);
    if (seq == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = core_bounded_int(PySequence_Fast_GET_ITEM(seq, i), 0, size - 1, what);
        if (v < 0) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (int16_t)v;
    }
    Py_DECREF(seq);
    return n;
}

/* Count the items of every item of a sequence of sequences (each at most `most`); the sum, or -1. */
static Py_ssize_t
count_nested(PyObject *seq, Py_ssize_t most, const char *what)
{
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        Py_ssize_t n;
        PyObject *inner = fast_seq(PySequence_Fast_GET_ITEM(seq, i), most, &n, what);
        if (inner == NULL) {
            return -1;
        }
        Py_DECREF(inner);
        total += n;
    }
    return total;
}

static int
read_slides(TablesObject *self, PyObject *slide_seq)
{
    int size = self->size;
    for (int i = 0; i < self->nslides; i++) {
        Py_ssize_t n;
        PyObject *row = fast_seq(PySequence_Fast_GET_ITEM(slide_seq, i), 3, &n, "a slide (source, target, path)");
        if (row == NULL) {
            return -1;
        }
        if (n != 3) {
            Py_DECREF(row);
            PyErr_SetString(PyExc_ValueError, "a slide is (source, target, path)");
            return -1;
        }
        long s = core_bounded_int(PySequence_Fast_GET_ITEM(row, 0), 0, size - 1, "a slide's source");
        long t = s < 0 ? -1 : core_bounded_int(PySequence_Fast_GET_ITEM(row, 1), 0, size - 1, "a slide's target");
        Py_ssize_t len = t < 0 ? -1 : read_nodes(PySequence_Fast_GET_ITEM(row, 2), size, MAX_PATH,
                                                  self->slide_path + (size_t)i * MAX_PATH, "a slide's path");
        Py_DECREF(row);
        if (len < 0) {
            return -1;
        }
        if (s == t || len < 1 || self->slide_path[(size_t)i * MAX_PATH + len - 1] != t) {
            PyErr_SetString(PyExc_ValueError, "a slide's path must end on its target, away from its source");
            return -1;
        }
        if (self->pair[s * size + t] >= 0) {
            PyErr_SetString(PyExc_ValueError, "two slides share a source and a target");
            return -1;
        }
        self->pair[s * size + t] = i;
        self->slide_source[i] = (int16_t)s;
        self->slide_target[i] = (int16_t)t;
        self->slide_len[i] = (uint8_t)len;
    }
    return 0;
}

static int
read_named(TablesObject *self, PyObject *named_seq)
{
    int previous = -1, last_capture = -1;
    for (int j = 0; j < self->nnamed; j++) {
        Py_ssize_t n;
        PyObject *row = fast_seq(PySequence_Fast_GET_ITEM(named_seq, j), 2, &n, "a named capture (slide, node)");
        if (row == NULL) {
            return -1;
        }
        if (n != 2) {
            Py_DECREF(row);
            PyErr_SetString(PyExc_ValueError, "a named capture is (slide, node)");
            return -1;
        }
        long i = core_bounded_int(PySequence_Fast_GET_ITEM(row, 0), 0, self->nslides - 1, "a named capture's slide");
        long c = i < 0 ? -1 : core_bounded_int(PySequence_Fast_GET_ITEM(row, 1), 0, self->size - 1, "a captured node");
        Py_DECREF(row);
        if (c < 0) {
            return -1;
        }
        if (i < previous || (i == previous && c <= last_capture)) {
            PyErr_SetString(PyExc_ValueError, "named captures must come by slide, then capture, ascending");
            return -1;
        }
        for (long k = previous + 1; k <= i; k++) {
            self->named_start[k] = j;
        }
        previous = (int)i;
        last_capture = (int)c;
        self->named_capture[j] = (int16_t)c;
        self->named_slide[j] = (int32_t)i;
    }
    for (int k = previous + 1; k <= self->nslides; k++) {
        self->named_start[k] = self->nnamed;
    }
    return 0;
}

/* The groups of lines of every source: groups[s] = ((guard nodes, target slides), ...) per group. */
static int
read_groups(TablesObject *self, PyObject *group_seq)
{
    int g = 0, l = 0, k = 0;
    for (int s = 0; s < self->size; s++) {
        self->group_start[s] = g;
        Py_ssize_t ng;
        PyObject *groups = fast_seq(PySequence_Fast_GET_ITEM(group_seq, s), self->ngroups - g, &ng, "a source's groups");
        if (groups == NULL) {
            return -1;
        }
        for (Py_ssize_t gi = 0; gi < ng; gi++, g++) {
            self->line_start[g] = l;
            Py_ssize_t nl;
            PyObject *lines = fast_seq(PySequence_Fast_GET_ITEM(groups, gi), self->nlines - l, &nl, "a group's lines");
            if (lines == NULL) {
                Py_DECREF(groups);
                return -1;
            }
            for (Py_ssize_t li = 0; li < nl; li++, l++) {
                Py_ssize_t two;
                PyObject *line = fast_seq(PySequence_Fast_GET_ITEM(lines, li), 2, &two, "a line (guard, targets)");
                Py_ssize_t nguard = -1, nt = -1;
                PyObject *targets = NULL;
                if (line != NULL && two == 2) {
                    nguard = read_nodes(PySequence_Fast_GET_ITEM(line, 0), self->size, MAX_GUARD,
                                        self->line_guard + (size_t)l * MAX_GUARD, "a line's guard");
                    if (nguard >= 0) {
                        targets = fast_seq(PySequence_Fast_GET_ITEM(line, 1), MAX_PATH, &nt, "a line's slides");
                    }
                }
                else if (line != NULL) {
                    PyErr_SetString(PyExc_ValueError, "a line is (guard, targets)");
                }
                Py_XDECREF(line);
                if (targets == NULL) {
                    Py_DECREF(lines);
                    Py_DECREF(groups);
                    return -1;
                }
                self->line_nguard[l] = (uint8_t)nguard;
                self->target_start[l] = k;
                for (Py_ssize_t ti = 0; ti < nt; ti++, k++) {
                    long i = k >= self->nslides ? -1 : core_bounded_int(PySequence_Fast_GET_ITEM(targets, ti), 0,
                                                                   self->nslides - 1, "a line's slide");
                    if (i >= 0 && self->slide_source[i] != s) {
                        PyErr_SetString(PyExc_ValueError, "a line lists a slide of another source");
                        i = -1;
                    }
                    if (i < 0) {
                        if (!PyErr_Occurred()) {
                            PyErr_SetString(PyExc_ValueError, "the lines list more slides than there are");
                        }
                        Py_DECREF(targets);
                        Py_DECREF(lines);
                        Py_DECREF(groups);
                        return -1;
                    }
                    self->line_targets[k] = (int32_t)i;
                }
                Py_DECREF(targets);
            }
            Py_DECREF(lines);
        }
        Py_DECREF(groups);
    }
    self->group_start[self->size] = g;
    self->line_start[g] = l;
    self->target_start[l] = k;
    return 0;
}

static PyObject *
Tables_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"size", "slides", "named", "groups", "partners", "central", "costs", "chunk",
                             "temperature", "terminations", NULL};
    int size, chunk;
    double temperature;
    PyObject *slides, *named, *groups, *partners, *central, *costs, *terminations;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOOOOOidO!:Tables", kwlist, &size, &slides, &named, &groups,
                                     &partners, &central, &costs, &chunk, &temperature, &PyTuple_Type,
                                     &terminations)) {
        return NULL;
    }
    if (size < 1 || size > MAX_NODES) {
        PyErr_Format(PyExc_ValueError, "a board needs 1..%d nodes, got %d", MAX_NODES, size);
        return NULL;
    }
    if (chunk < 1 || chunk > MAX_NODES || !(temperature > 0.0) || PyTuple_GET_SIZE(terminations) != 3) {
        PyErr_SetString(PyExc_ValueError, "chunk >= 1, temperature > 0 and three terminations expected");
        return NULL;
    }
    PyObject *slide_seq = NULL, *named_seq = NULL, *group_seq = NULL, *partner_seq = NULL, *cost_seq = NULL;
    TablesObject *self = (TablesObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->size = size;
    self->chunk = chunk;
    self->temperature = temperature;
    self->terminations = Py_NewRef(terminations);
    Py_ssize_t nslides, nnamed, nsources, npartner_rows, ncosts;
    slide_seq = fast_seq(slides, (Py_ssize_t)size * size, &nslides, "slides");
    named_seq = slide_seq == NULL ? NULL : fast_seq(named, (Py_ssize_t)size * size * 8, &nnamed, "named captures");
    group_seq = named_seq == NULL ? NULL : fast_seq(groups, size, &nsources, "groups");
    partner_seq = group_seq == NULL ? NULL : fast_seq(partners, size, &npartner_rows, "partners");
    cost_seq = partner_seq == NULL ? NULL : fast_seq(costs, size, &ncosts, "costs");
    if (cost_seq == NULL) {
        goto fail;
    }
    if (nsources != size || npartner_rows != size || ncosts != size) {
        PyErr_Format(PyExc_ValueError, "groups, partners and costs need %d rows each", size);
        goto fail;
    }
    self->nslides = (int)nslides;
    self->nnamed = (int)nnamed;
    /* count the groups, lines and listed slides */
    Py_ssize_t ngroups = 0, nlines = 0, ntargets = 0;
    for (int s = 0; s < size; s++) {
        Py_ssize_t n;
        PyObject *row = fast_seq(PySequence_Fast_GET_ITEM(group_seq, s), (Py_ssize_t)size * 64, &n, "groups");
        if (row == NULL) {
            goto fail;
        }
        ngroups += n;
        Py_ssize_t lines = count_nested(row, (Py_ssize_t)size * 64, "a group's lines");
        Py_DECREF(row);
        if (lines < 0) {
            goto fail;
        }
        nlines += lines;
    }
    ntargets = nslides;  /* every slide is listed by one line only: checked while reading */
    Py_ssize_t npartners = count_nested(partner_seq, size, "a node's partners");
    if (npartners < 0) {
        goto fail;
    }
    if (ngroups > (Py_ssize_t)size * size || nlines > (Py_ssize_t)size * size * 4) {
        PyErr_SetString(PyExc_ValueError, "too many groups or lines for the board");
        goto fail;
    }
    self->ngroups = (int)ngroups;
    self->nlines = (int)nlines;
    size_t ns = (size_t)nslides + 1, nn = (size_t)nnamed + 1, nl = (size_t)nlines + 1;
    self->slide_source = PyMem_Calloc(ns, sizeof(int16_t));
    self->slide_target = PyMem_Calloc(ns, sizeof(int16_t));
    self->slide_len = PyMem_Calloc(ns, 1);
    self->slide_path = PyMem_Calloc(ns * MAX_PATH, sizeof(int16_t));
    self->slide_check = PyMem_Calloc(ns, 1);
    self->named_start = PyMem_Calloc(ns, sizeof(int32_t));
    self->named_capture = PyMem_Calloc(nn, sizeof(int16_t));
    self->named_slide = PyMem_Calloc(nn, sizeof(int32_t));
    self->pair = PyMem_Malloc((size_t)size * size * sizeof(int32_t));
    self->group_start = PyMem_Calloc((size_t)size + 1, sizeof(int32_t));
    self->line_start = PyMem_Calloc((size_t)ngroups + 1, sizeof(int32_t));
    self->line_nguard = PyMem_Calloc(nl, 1);
    self->line_guard = PyMem_Calloc(nl * MAX_GUARD, sizeof(int16_t));
    self->target_start = PyMem_Calloc(nl, sizeof(int32_t));
    self->line_targets = PyMem_Calloc((size_t)ntargets + 1, sizeof(int32_t));
    self->easy_start = PyMem_Calloc((size_t)size + 1, sizeof(int32_t));
    self->easy_targets = PyMem_Calloc(ns, sizeof(int16_t));
    self->partner_start = PyMem_Calloc((size_t)size + 1, sizeof(int32_t));
    self->partners = PyMem_Calloc((size_t)npartners + 1, sizeof(int16_t));
    self->central = PyMem_Calloc((size_t)size, 1);
    self->costs = PyMem_Calloc((size_t)size, sizeof(double));
    self->action_objs = PyMem_Calloc(ns + nn, sizeof(PyObject *));
    if (!self->slide_source || !self->slide_target || !self->slide_len || !self->slide_path || !self->slide_check ||
        !self->named_start || !self->named_capture || !self->named_slide || !self->pair || !self->group_start || !self->line_start ||
        !self->line_nguard || !self->line_guard || !self->target_start || !self->line_targets || !self->easy_start ||
        !self->easy_targets || !self->partner_start || !self->partners || !self->central || !self->costs ||
        !self->action_objs) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t i = 0; i < (Py_ssize_t)size * size; i++) {
        self->pair[i] = -1;
    }
    if (read_slides(self, slide_seq) < 0 || read_named(self, named_seq) < 0) {
        goto fail;
    }
    /* the lines of every source; then every slide must have been listed exactly once */
    if (read_groups(self, group_seq) < 0) {
        goto fail;
    }
    if (self->target_start[self->nlines] != self->nslides) {
        PyErr_SetString(PyExc_ValueError, "the lines must list every slide once");
        goto fail;
    }
    {
        uint8_t *seen = PyMem_Calloc(ns, 1);
        if (seen == NULL) {
            PyErr_NoMemory();
            goto fail;
        }
        int twice = 0;
        for (int k = 0; k < self->nslides; k++) {
            twice |= seen[self->line_targets[k]]++;
        }
        PyMem_Free(seen);
        if (twice) {
            PyErr_SetString(PyExc_ValueError, "the lines must list every slide once");
            goto fail;
        }
    }
    /* partners, central nodes, costs */
    for (int v = 0, k = 0; v < size; v++) {
        self->partner_start[v] = k;
        Py_ssize_t n = read_nodes(PySequence_Fast_GET_ITEM(partner_seq, v), size, size, self->partners + k,
                                  "a fusion partner");
        if (n < 0) {
            goto fail;
        }
        for (Py_ssize_t i = 1; i < n; i++) {
            if (self->partners[k + i] <= self->partners[k + i - 1]) {
                PyErr_SetString(PyExc_ValueError, "a node's partners must ascend");
                goto fail;
            }
        }
        k += (int)n;
        self->partner_start[v + 1] = k;
    }
    {
        int16_t nodes[8];
        Py_ssize_t n = read_nodes(central, size, 8, nodes, "a central node");
        if (n < 0) {
            goto fail;
        }
        self->ncentral = (int)n;
        for (Py_ssize_t i = 0; i < n; i++) {
            if (self->central[nodes[i]]) {
                PyErr_SetString(PyExc_ValueError, "a central node is listed twice");
                goto fail;
            }
            self->central[nodes[i]] = 1;
            self->central_nodes[i] = nodes[i];
        }
    }
    for (int v = 0; v < size; v++) {
        double cost = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(cost_seq, v));
        if (cost == -1.0 && PyErr_Occurred()) {
            goto fail;
        }
        self->costs[v] = cost;
    }
    /* each slide's check flag and action int; the one-node slides onto plain nodes (a quick has-a-move) */
    for (int i = 0; i < self->nslides; i++) {
        int t = self->slide_target[i];
        self->slide_check[i] = (uint8_t)(self->partner_start[t + 1] > self->partner_start[t] || self->central[t]);
        self->action_objs[i] = PyLong_FromLongLong(action_value(self->slide_source[i], t, -1));
        if (self->action_objs[i] == NULL) {
            goto fail;
        }
        for (int j = self->named_start[i]; j < self->named_start[i + 1]; j++) {
            PyObject *obj = PyLong_FromLongLong(action_value(self->slide_source[i], t, self->named_capture[j]));
            if (obj == NULL) {
                goto fail;
            }
            self->action_objs[self->nslides + j] = obj;
        }
    }
    for (int s = 0, k = 0; s < size; s++) {
        self->easy_start[s] = k;
        for (int t = 0; t < size; t++) {
            int i = self->pair[s * size + t];
            if (i >= 0 && self->slide_len[i] == 1 && !self->slide_check[i]) {
                self->easy_targets[k++] = (int16_t)t;
            }
        }
        self->easy_start[s + 1] = k;
    }
    Py_DECREF(slide_seq);
    Py_DECREF(named_seq);
    Py_DECREF(group_seq);
    Py_DECREF(partner_seq);
    Py_DECREF(cost_seq);
    return (PyObject *)self;
fail:
    Py_XDECREF(slide_seq);
    Py_XDECREF(named_seq);
    Py_XDECREF(group_seq);
    Py_XDECREF(partner_seq);
    Py_XDECREF(cost_seq);
    Py_DECREF(self);
    return NULL;
}

/* The action index of a Move of the tables' own tuple (by identity), -1 for any other object. */
static int
move_index(const TablesObject *t, PyObject *move)
{
    return core_pointer_find(t->move_keys, t->move_slots, (size_t)t->move_mask, move);
}

static PyObject *
Tables_set_moves(TablesObject *self, PyObject *moves)
{
    Py_ssize_t n = (Py_ssize_t)self->nslides + self->nnamed;
    if (core_check_moves(moves, n, self->moves != NULL) < 0) {
        return NULL;
    }
    Py_ssize_t slots = (Py_ssize_t)core_pointer_slots((size_t)n);
    PyObject **keys = PyMem_Calloc((size_t)slots, sizeof(PyObject *));
    int32_t *values = PyMem_Calloc((size_t)slots, sizeof(int32_t));
    if (keys == NULL || values == NULL) {
        PyMem_Free(keys);
        PyMem_Free(values);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *move = PyTuple_GET_ITEM(moves, i);
        size_t h = core_pointer_slot(keys, (size_t)(slots - 1), move);
        if (keys[h] == NULL) {  /* the same object twice keeps its first index */
            keys[h] = move;
            values[h] = (int32_t)i;
        }
    }
    self->moves = Py_NewRef(moves);
    self->move_keys = keys;
    self->move_slots = values;
    self->move_mask = slots - 1;
    Py_RETURN_NONE;
}

static PyObject *
Tables_get_actions(TablesObject *self, void *Py_UNUSED(closure))
{
    Py_ssize_t n = (Py_ssize_t)self->nslides + self->nnamed;
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyTuple_SET_ITEM(tuple, i, Py_NewRef(self->action_objs[i]));
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
     PyDoc_STR("Every action: the plain slides (the order given), then the named captures."), NULL},
    {"has_moves", (getter)Tables_get_has_moves, NULL, PyDoc_STR("True once set_moves was called."), NULL},
    {NULL},
};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ytourney.games.singularity._singcore.Tables",
    .tp_doc = PyDoc_STR("Tables(size, slides, named, groups, partners, central, costs, chunk, temperature, "
                        "terminations): one board's read-only tables for one fusion zone."),
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
    int termination;      /* 0 none, 1 singularity, 2 move limit, 3 no moves */
    int stones[3];        /* stones on the board, index 1 Black's, 2 White's */
    uint8_t *cells;       /* size: 0 empty, 1 Black, 2 White */
    int32_t *stack;       /* the undo stack: slide * 1024 + fused + 1, or SWAP_ENTRY */
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
    PyMem_Free(self->stack);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A kernel of these tables with its buffers allocated (cells empty, an empty stack). */
static KernelObject *
kernel_alloc(TablesObject *t, Py_ssize_t capacity)
{
    KernelObject *self = PyObject_GC_New(KernelObject, &KernelType);
    if (self == NULL) {
        return NULL;
    }
    self->t = (TablesObject *)Py_NewRef(t);
    self->cells = PyMem_Calloc((size_t)t->size, 1);
    self->capacity = capacity < 16 ? 16 : capacity;
    self->stack = PyMem_Malloc((size_t)self->capacity * sizeof(int32_t));
    self->depth = 0;
    self->max_plies = CORE_NO_LIMIT;
    self->plies = 0;
    self->to_move = 1;
    self->result = ONGOING;
    self->termination = 0;
    self->stones[0] = self->stones[1] = self->stones[2] = 0;
    PyObject_GC_Track(self);
    if (self->cells == NULL || self->stack == NULL) {
        Py_DECREF(self);
        PyErr_NoMemory();
        return NULL;
    }
    return self;
}

/* Put exactly these stones on the board, `to_move` to move, the game going on, the ply count kept. */
static int
setup_stones(KernelObject *self, PyObject *black, PyObject *white, int to_move)
{
    const TablesObject *t = self->t;
    if (core_check_to_move(to_move) < 0) {
        return -1;
    }
    uint8_t *cells = PyMem_Calloc((size_t)t->size, 1);
    int16_t *nodes = PyMem_Calloc((size_t)t->size + 1, sizeof(int16_t));
    if (cells == NULL || nodes == NULL) {
        PyMem_Free(cells);
        PyMem_Free(nodes);
        PyErr_NoMemory();
        return -1;
    }
    int stones[3] = {0, 0, 0};
    PyObject *sides[3] = {NULL, black, white};
    for (int c = 1; c <= 2; c++) {
        Py_ssize_t n = read_nodes(sides[c], t->size, t->size, nodes, "a stone's node");
        if (n < 0) {
            PyMem_Free(cells);
            PyMem_Free(nodes);
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            if (cells[nodes[i]]) {
                PyErr_Format(PyExc_ValueError, "node %d holds two stones", (int)nodes[i]);
                PyMem_Free(cells);
                PyMem_Free(nodes);
                return -1;
            }
            cells[nodes[i]] = (uint8_t)c;
        }
        stones[c] = (int)n;
    }
    memcpy(self->cells, cells, (size_t)t->size);
    PyMem_Free(cells);
    PyMem_Free(nodes);
    self->stones[1] = stones[1];
    self->stones[2] = stones[2];
    self->to_move = to_move;
    self->result = ONGOING;
    self->termination = 0;
    self->depth = 0;
    return 0;
}

static PyObject *
Kernel_new(PyTypeObject *Py_UNUSED(type), PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"tables", "max_plies", "black", "white", "to_move", NULL};
    PyObject *tables, *black, *white;
    long long max_plies;
    int to_move = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!LOO|i:Kernel", kwlist, &TablesType, &tables, &max_plies, &black,
                                     &white, &to_move)) {
        return NULL;
    }
    KernelObject *self = kernel_alloc((TablesObject *)tables, 64);
    if (self == NULL) {
        return NULL;
    }
    self->max_plies = max_plies;
    if (setup_stones(self, black, white, to_move) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

/* Own stones of `c` on the central nodes. */
static inline int
central_held(const TablesObject *t, const uint8_t *cells, int c)
{
    int held = 0;
    for (int k = 0; k < t->ncentral; k++) {
        held += cells[t->central_nodes[k]] == c;
    }
    return held;
}

/* The stones of `c` a stone landing on `target` (leaving `source`) fuses with: their count, the first in *low and
 * the last in *high. */
static inline int
fusing_of(const TablesObject *t, const uint8_t *cells, int c, int source, int target, int *low, int *high)
{
    int n = 0;
    for (int32_t k = t->partner_start[target], end = t->partner_start[target + 1]; k < end; k++) {
        int v = t->partners[k];
        if (v != source && cells[v] == c) {
            if (n == 0) {
                *low = v;
            }
            *high = v;
            n++;
        }
    }
    return n;
}

/* The named capture's index of slide i capturing `capture`, -1 when the tables have none. */
static inline int
named_index(const TablesObject *t, int i, int capture)
{
    for (int32_t j = t->named_start[i]; j < t->named_start[i + 1]; j++) {
        if (t->named_capture[j] == capture) {
            return t->nslides + j;
        }
    }
    return -1;
}

/* The legal action indices of `c` into out, in the Python kernel's order (the first stone's only when `first`);
 * their count. */
static int
slides_of(const TablesObject *t, const uint8_t *cells, int c, int first, int32_t *out)
{
    const int size = t->size;
    const int held = central_held(t, cells, c);
    int n = 0;
    for (int s = 0; s < size; s++) {
        if (cells[s] != c) {
            continue;
        }
        const int base = held - t->central[s];
        for (int32_t g = t->group_start[s]; g < t->group_start[s + 1]; g++) {
            for (int pass = 0; pass < 2; pass++) {
                if (pass == 0 && base > 1) {
                    continue;
                }
                for (int32_t l = t->line_start[g]; l < t->line_start[g + 1]; l++) {
                    const int16_t *guard = t->line_guard + (size_t)l * MAX_GUARD;
                    int blocked = 0;
                    for (int k = 0; k < t->line_nguard[l]; k++) {
                        blocked |= cells[guard[k]];
                    }
                    if (blocked) {
                        continue;
                    }
                    for (int32_t k = t->target_start[l]; k < t->target_start[l + 1]; k++) {
                        const int i = t->line_targets[k];
                        const int target = t->slide_target[i];
                        if (cells[target]) {
                            break;
                        }
                        if (t->slide_check[i] != pass) {
                            continue;
                        }
                        if (pass == 0) {
                            out[n++] = i;
                            continue;
                        }
                        int low = -1, high = -1;
                        const int fusing = fusing_of(t, cells, c, s, target, &low, &high);
                        const int after = base + t->central[target];
                        if (fusing == 0) {
                            if (after <= 1) {
                                out[n++] = i;
                            }
                        }
                        else if (fusing == 1) {
                            if (after - t->central[low] <= 1) {
                                out[n++] = i;
                            }
                        }
                        else {
                            for (int32_t j = t->partner_start[target]; j < t->partner_start[target + 1]; j++) {
                                const int v = t->partners[j];
                                if (v != s && cells[v] == c && after - t->central[v] <= 1) {
                                    const int index = named_index(t, i, v);
                                    if (index >= 0) {
                                        out[n++] = index;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        if (first && n) {
            return n;
        }
    }
    return n;
}

/* True when `c` has a legal slide: a one-node step onto a plain empty node answers at once. */
static int
has_move(const TablesObject *t, const uint8_t *cells, int c, int32_t *scratch)
{
    if (central_held(t, cells, c) <= 1) {
        for (int s = 0; s < t->size; s++) {
            if (cells[s] == c) {
                for (int32_t k = t->easy_start[s]; k < t->easy_start[s + 1]; k++) {
                    if (!cells[t->easy_targets[k]]) {
                        return 1;
                    }
                }
            }
        }
    }
    return slides_of(t, cells, c, 1, scratch) > 0;
}

/* The action index of `obj` (a slide, or nslides + a named capture), -1 when it names none of this board. */
static int
action_index(const TablesObject *t, PyObject *obj)
{
    int overflow;
    long long a;
    if (!core_action_ll(obj, &a, &overflow) || overflow || a < 0 || !(a & 1) || (a >> 28) != 0) {
        return -1;
    }
    long long capture = CORE_FIELD(a, 1), s = CORE_FIELD(a, 10), g = CORE_FIELD(a, 19);
    if (s < 0 || g < 0 || s >= t->size || g >= t->size) {
        return -1;
    }
    int i = t->pair[s * t->size + g];
    if (i < 0 || capture < 0) {
        return i;
    }
    return named_index(t, i, (int)capture);
}

static inline int
slide_of_index(const TablesObject *t, int index, int *named)
{
    if (index < t->nslides) {
        *named = -1;
        return index;
    }
    *named = t->named_capture[index - t->nslides];
    return t->named_slide[index - t->nslides];
}

/* True when the action `index` is legal now; the stone it fuses into *fused (-1 for none). */
static int
index_legal(const KernelObject *self, int index, int *fused)
{
    const TablesObject *t = self->t;
    if (index < 0 || self->result != ONGOING) {
        return 0;
    }
    int named;
    int i = slide_of_index(t, index, &named);
    int c = self->to_move, s = t->slide_source[i], target = t->slide_target[i];
    const uint8_t *cells = self->cells;
    if (cells[s] != c) {
        return 0;
    }
    const int16_t *path = t->slide_path + (size_t)i * MAX_PATH;
    for (int k = 0; k < t->slide_len[i]; k++) {
        if (cells[path[k]]) {
            return 0;
        }
    }
    int low = -1, high = -1;
    int fusing = fusing_of(t, cells, c, s, target, &low, &high);
    int after = central_held(t, cells, c) - t->central[s] + t->central[target];
    if (named >= 0) {
        *fused = named;
        return fusing >= 2 && named != s && cells[named] == c && after - t->central[named] <= 1;
    }
    if (fusing == 0) {
        *fused = -1;
        return after <= 1;
    }
    *fused = low;
    return fusing == 1 && after - t->central[low] <= 1;
}

/* Play the legal action `index` fusing `fused` (-1: none) and judge the end; -1 with an exception. */
static int
apply_index(KernelObject *self, int index, int fused, int32_t *scratch)
{
    TablesObject *t = self->t;
    int named;
    int i = slide_of_index(t, index, &named);
    if (CORE_PUSH32(self, i * 1024 + fused + 1) < 0) {
        return -1;
    }
    int c = self->to_move, s = t->slide_source[i], target = t->slide_target[i];
    uint8_t *cells = self->cells;
    cells[s] = 0;
    cells[target] = (uint8_t)c;
    if (fused >= 0) {
        cells[fused] = 0;
        self->stones[c]--;
    }
    self->plies++;
    int other = 3 - c;
    self->to_move = other;
    if (self->stones[c] == 1 && t->central[target]) {
        self->result = c;
        self->termination = 1;
    }
    else if (self->plies >= self->max_plies) {
        self->result = DRAW;
        self->termination = 2;
    }
    else if (!has_move(t, cells, other, scratch)) {
        self->result = c;
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
    self->result = ONGOING;
    self->termination = 0;
    if (entry == SWAP_ENTRY) {
        return;
    }
    const TablesObject *t = self->t;
    int i = entry / 1024, fused = entry % 1024 - 1;
    int c = 3 - self->to_move;
    self->to_move = c;
    self->cells[t->slide_target[i]] = 0;
    self->cells[t->slide_source[i]] = (uint8_t)c;
    if (fused >= 0) {
        self->cells[fused] = (uint8_t)c;
        self->stones[c]++;
    }
}

/* A scratch buffer for the legal indices: `local` when it is big enough, else the heap (NULL: out of memory). */
static int32_t *
indices_buffer(const TablesObject *t, int32_t *local)
{
    size_t need = (size_t)t->nslides + t->nnamed + 1;
    if (need <= STACK_INDICES) {
        return local;
    }
    int32_t *heap = PyMem_Malloc(need * sizeof(int32_t));
    if (heap == NULL) {
        PyErr_NoMemory();
    }
    return heap;
}

static inline void
free_buffer(int32_t *buffer, int32_t *local)
{
    if (buffer != local) {
        PyMem_Free(buffer);
    }
}

static PyObject *
Kernel_apply(KernelObject *self, PyObject *action)
{
    int fused = -1;
    int index = action_index(self->t, action);
    if (!index_legal(self, index, &fused)) {
        PyErr_Format(PyExc_ValueError, "action %R is not legal here", action);
        return NULL;
    }
    int32_t local[STACK_INDICES];
    int32_t *scratch = indices_buffer(self->t, local);
    if (scratch == NULL) {
        return NULL;
    }
    int failed = apply_index(self, index, fused, scratch) < 0;
    free_buffer(scratch, local);
    if (failed) {
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
    int fused;
    return PyBool_FromLong(index_legal(self, action_index(self->t, action), &fused));
}

static PyObject *
Kernel_has_move(KernelObject *self, PyObject *colour)
{
    long c = core_bounded_int(colour, 1, 2, "colour");
    if (c < 0) {
        return NULL;
    }
    int32_t local[STACK_INDICES];
    int32_t *scratch = indices_buffer(self->t, local);
    if (scratch == NULL) {
        return NULL;
    }
    int found = has_move(self->t, self->cells, (int)c, scratch);
    free_buffer(scratch, local);
    return PyBool_FromLong(found);
}

static PyObject *
legal_list(KernelObject *self, int as_moves)
{
    const TablesObject *t = self->t;
    if (as_moves && t->moves == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the tables have no moves set");
        return NULL;
    }
    if (self->result != ONGOING) {
        return PyList_New(0);
    }
    int32_t local[STACK_INDICES];
    int32_t *found = indices_buffer(t, local);
    if (found == NULL) {
        return NULL;
    }
    int n = slides_of(t, self->cells, self->to_move, 0, found);
    PyObject *list = core_indexed_list(as_moves ? &PyTuple_GET_ITEM(t->moves, 0) : t->action_objs, found, n);
    free_buffer(found, local);
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
    int fused = -1;
    int index = move_index(self->t, move);
    if (!index_legal(self, index, &fused)) {
        Py_RETURN_FALSE;
    }
    int32_t local[STACK_INDICES];
    int32_t *scratch = indices_buffer(self->t, local);
    if (scratch == NULL) {
        return NULL;
    }
    int failed = apply_index(self, index, fused, scratch) < 0;
    free_buffer(scratch, local);
    if (failed) {
        return NULL;
    }
    Py_RETURN_TRUE;
}

static PyObject *
Kernel_capture_of(KernelObject *self, PyObject *action)
{
    int fused = -1;
    int index = action_index(self->t, action);
    if (!index_legal(self, index, &fused)) {
        PyErr_Format(PyExc_ValueError, "action %R is not legal here", action);
        return NULL;
    }
    if (fused < 0) {
        Py_RETURN_NONE;
    }
    return PyLong_FromLong(fused);
}

static PyObject *
Kernel_setup(KernelObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"black", "white", "to_move", NULL};
    PyObject *black, *white;
    int to_move = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|i:setup", kwlist, &black, &white, &to_move)) {
        return NULL;
    }
    if (setup_stones(self, black, white, to_move) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
Kernel_key(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    /* FNV-1a over the cells, then the side to move, finished by a splitmix64 mix */
    uint64_t h = CORE_FNV_OFFSET;
    for (int v = 0; v < self->t->size; v++) {
        h = core_fnv(h, self->cells[v]);
    }
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
    memcpy(new->stones, self->stones, sizeof(self->stones));
    memcpy(new->cells, self->cells, (size_t)t->size);
    memcpy(new->stack, self->stack, (size_t)self->depth * sizeof(int32_t));
    new->depth = self->depth;
    return (PyObject *)new;
}

/* --- the knowledge: evaluation, win in one, playouts ------------------------------------------------------ */

static double
evaluate_cells(const TablesObject *t, const uint8_t *cells)
{
    /* chunk by chunk, each side's costs summed in ascending node order: the Python cost tables' sums exactly */
    double margin = 0.0;
    for (int low = 0; low < t->size; low += t->chunk) {
        int high = low + t->chunk < t->size ? low + t->chunk : t->size;
        double black = 0.0, white = 0.0;
        for (int v = low; v < high; v++) {
            if (cells[v] == 1) {
                black += t->costs[v];
            }
            else if (cells[v] == 2) {
                white += t->costs[v];
            }
        }
        margin += white - black;
    }
    return 1.0 / (1.0 + exp(-margin / t->temperature));
}

static PyObject *
Kernel_evaluate(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyFloat_FromDouble(evaluate_cells(self->t, self->cells));
}

static PyObject *
Kernel_winning_action(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    const TablesObject *t = self->t;
    int c = self->to_move, stones = self->stones[c];
    if (stones > 2 || self->result != ONGOING) {
        Py_RETURN_NONE;
    }
    int32_t local[STACK_INDICES];
    int32_t *found = indices_buffer(t, local);
    if (found == NULL) {
        return NULL;
    }
    int n = slides_of(t, self->cells, c, 0, found);
    PyObject *win = NULL;
    for (int k = 0; k < n && win == NULL; k++) {
        int named;
        int i = slide_of_index(t, found[k], &named);
        int s = t->slide_source[i], target = t->slide_target[i];
        if (!t->central[target]) {
            continue;
        }
        int low, high;
        if (stones == 1 || named >= 0 || fusing_of(t, self->cells, c, s, target, &low, &high) > 0) {
            win = t->action_objs[found[k]];
        }
    }
    free_buffer(found, local);
    if (win == NULL) {
        Py_RETURN_NONE;
    }
    return Py_NewRef(win);
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
    const TablesObject *t = self->t;
    int32_t local[STACK_INDICES];
    int32_t *found = indices_buffer(t, local);
    if (found == NULL) {
        return NULL;
    }
    Py_ssize_t played = 0;
    int failed = 0;
    while (self->result == ONGOING && played < plies) {
        int n = slides_of(t, self->cells, self->to_move, 0, found);
        if (n == 0) {
            break;
        }
        int index = found[core_lcg_next(&rng) % (uint32_t)n];
        int fused = -1;
        index_legal(self, index, &fused);
        if (apply_index(self, index, fused, found) < 0) {
            failed = 1;
            break;
        }
        played++;
        if (trace != NULL && PyList_Append(trace, t->action_objs[index]) < 0) {
            failed = 1;
            break;
        }
    }
    double value;
    if (self->result == ONGOING) {
        value = evaluate_cells(t, self->cells);
    }
    else {
        value = core_result_value(self->result);
    }
    for (Py_ssize_t k = 0; k < played; k++) {
        undo_entry(self);
    }
    free_buffer(found, local);
    if (failed) {
        return NULL;
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
    int size = self->t->size;
    PyObject *black = core_colour_mask(self->cells, size, 1);
    return core_masks_list(black, black == NULL ? NULL : core_colour_mask(self->cells, size, 2));
}

static PyObject *
Kernel_get_stones(KernelObject *self, void *Py_UNUSED(closure))
{
    return Py_BuildValue("[iii]", 0, self->stones[1], self->stones[2]);
}

static PyObject *
Kernel_get_termination(KernelObject *self, void *Py_UNUSED(closure))
{
    if (self->termination < 1 || self->termination > 3 || self->t->terminations == NULL) {
        Py_RETURN_NONE;
    }
    return Py_NewRef(PyTuple_GET_ITEM(self->t->terminations, self->termination - 1));
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
    {"has_move", (PyCFunction)Kernel_has_move, METH_O,
     PyDoc_STR("has_move($self, colour, /)\n--\n\nTrue when that colour has a legal slide.")},
    {"capture_of", (PyCFunction)Kernel_capture_of, METH_O,
     PyDoc_STR("capture_of($self, action, /)\n--\n\nThe stone a legal action fuses, or None.")},
    {"setup", (PyCFunction)(void (*)(void))Kernel_setup, METH_VARARGS | METH_KEYWORDS,
     PyDoc_STR("setup($self, black, white, to_move=1, /)\n--\n\nPut exactly these stones on the board; the game "
               "goes on, the ply count stays, the undo stack empties.")},
    {"key", (PyCFunction)Kernel_key, METH_NOARGS,
     PyDoc_STR("key($self, /)\n--\n\nA hash of the stones and the side to move.")},
    CORE_METHOD_CLONE(Kernel_clone),
    {"evaluate", (PyCFunction)Kernel_evaluate, METH_NOARGS,
     PyDoc_STR("evaluate($self, /)\n--\n\nBlack's win chance by the stone costs (the knowledge's evaluation).")},
    {"winning_action", (PyCFunction)Kernel_winning_action, METH_NOARGS,
     PyDoc_STR("winning_action($self, /)\n--\n\nA slide leaving the mover one stone on a central node, or None.")},
    {"rollout", (PyCFunction)(void (*)(void))Kernel_rollout, METH_FASTCALL,
     PyDoc_STR("rollout($self, seed, plies, trace=None, /)\n--\n\nBlack's value after up to `plies` random moves "
               "from this seed, then the evaluation (the kernel left as found), each appended to `trace`.")},
    {NULL},
};

static PyMemberDef Kernel_members[] = {
    CORE_KERNEL_MEMBERS(KernelObject),
    {"max_plies", T_LONGLONG, offsetof(KernelObject, max_plies), 0,
     PyDoc_STR("The move limit (a game reaching it is a draw).")},
    {NULL},
};

static PyGetSetDef Kernel_getset[] = {
    {"cells", (getter)Kernel_get_cells, NULL, PyDoc_STR("Colour on every node (a new list)."), NULL},
    {"masks", (getter)Kernel_get_masks, NULL, PyDoc_STR("[0, Black's stones, White's] as node masks (new)."), NULL},
    {"stones", (getter)Kernel_get_stones, NULL, PyDoc_STR("[0, Black's, White's] stones on the board (new)."), NULL},
    {"termination", (getter)Kernel_get_termination, NULL, PyDoc_STR("How the game ended, None while on."), NULL},
    {"score", (getter)core_get_none, NULL, PyDoc_STR("None: Singularity keeps no score."), NULL},
    {"tables", (getter)Kernel_get_tables, NULL, PyDoc_STR("The board's tables."), NULL},
    {NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ytourney.games.singularity._singcore.Kernel",
    .tp_doc = PyDoc_STR("Kernel(tables, max_plies, black, white, to_move=1): one Singularity position on the "
                        "kernel protocol."),
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

static struct PyModuleDef singcore_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ytourney.games.singularity._singcore",
    .m_doc = PyDoc_STR("Singularity's optional C kernel and knowledge (see ytourney.games.singularity.core)."),
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__singcore(void)
{
    return core_module_create(&singcore_module, "Tables", &TablesType, "Kernel", &KernelType, NULL);
}
