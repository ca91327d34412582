/* Optional C search core of the `mcts-pro` bot, its Python side (the search itself is in ysearch_core.c): UCT with
 * RAVE, knowledge priors, bridge-saving playouts that
 * stop at the first Y (optionally with last good replies), one-move wins, forced blocks and virtual connections
 * (bridges and edge templates with disjoint carriers) solved at expansion, proven results backed up, tree reuse by
 * compaction, a node budget, a deadline and an optional early stop once the choice cannot change.
 *
 * ytourney.games.y.ysearch.PySearcher is the same algorithm in pure Python, step for step (same random numbers,
 * same floating-point operations in the same order), so both choose the same move for the same seed and playout
 * budget.  Any change here must be made there too; tests/games/y/test_mcts_pro.py compares them.
 *
 * The tree and the tables are malloc memory and a search runs without the GIL (it takes it back every
 * SIGNAL_EVERY iterations so that Ctrl-C interrupts it); one search at a time per Searcher.
 */

#include "ysearch_core.h"

static double
now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void
Searcher_dealloc(Searcher *s)
{
    void *blocks[] = {s->nbr, s->sides, s->bstart, s->btab, s->dist, s->pool, s->cells, s->mask, s->parent, s->c,
                      s->m, s->lc, s->lm, s->p, s->e, s->pos, s->lp, s->le, s->lpos, s->path, s->pmover,
                      s->vp, s->vm, s->vused, s->sm, s->sp, s->reply, s->seq, s->zig, s->allow};
    for (size_t i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++) {
        free(blocks[i]);
    }
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int
read_ints(PyObject *seq, Py_ssize_t expected, Py_ssize_t most, long low, long high, int16_t *out, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) {
        return -1;
    }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    if ((expected >= 0 && count != expected) || count > most) {
        PyErr_Format(PyExc_ValueError, "%s: wrong number of values (%zd)", what, count);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if ((v == -1 && PyErr_Occurred()) || v < low || v > high) {
            if (!PyErr_Occurred()) {
                PyErr_Format(PyExc_ValueError, "%s: value %ld out of range", what, v);
            }
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int16_t)v;
    }
    Py_DECREF(fast);
    return (int)count;
}
static PyObject *
Searcher_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"neighbors", "sides", "bridges", "distances", "rollouts", "rave", "fpu", "expand_at",
                             "local", "near", "connect", "bridge", "pattern", "max_nodes", "vc", "lgr", "explore", "vc1",
                             "ziggurats", "mustplay", NULL};
    PyObject *neighbors, *sides, *bridges, *distances, *ziggurats = NULL;
    int rollouts, expand_at, k_local, k_near, k_connect, k_bridge, pattern;
    double rave, fpu;
    long long max_nodes;
    int vc = 1, lgr = 0, vc1 = 0, mustplay = 0;
    double explore = 0.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOiddiiiiipL|ppdpOp:Searcher", kwlist, &neighbors, &sides,
                                     &bridges, &distances, &rollouts, &rave, &fpu, &expand_at, &k_local, &k_near,
                                     &k_connect, &k_bridge, &pattern, &max_nodes, &vc, &lgr, &explore, &vc1,
                                     &ziggurats, &mustplay)) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Size(sides);
    if (n < 1 || n > 30000 || PySequence_Size(neighbors) != n || PySequence_Size(bridges) != n) {
        PyErr_SetString(PyExc_ValueError, "neighbors, sides and bridges must have one entry per cell");
        return NULL;
    }
    if (rollouts < 1 || max_nodes < 1 + 2 * n) {
        PyErr_SetString(PyExc_ValueError, "rollouts must be >= 1 and max_nodes >= 1 + 2 * cells");
        return NULL;
    }
    Searcher *s = (Searcher *)type->tp_alloc(type, 0);
    if (s == NULL) {
        return NULL;
    }
    s->n = (int)n;
    s->rollouts = rollouts;
    s->rave = rave;
    s->fpu = fpu;
    s->explore = explore;
    s->expand_at = expand_at;
    s->k_local = k_local;
    s->k_near = k_near;
    s->k_connect = k_connect;
    s->k_bridge = k_bridge;
    s->pattern = pattern;
    s->max_nodes = max_nodes;
    s->vc = vc;
    s->vc1 = vc1;
    s->mustplay = mustplay;
    s->lgr = lgr;
    s->nbr = malloc(sizeof(int16_t) * NB * n);
    s->sides = malloc(n);
    s->bstart = malloc(sizeof(int32_t) * (n + 1));
    s->dist = malloc((size_t)n * n);
    s->cap = 1 + 2 * n > 65536 ? 1 + 2 * n : 65536;
    if (s->cap > max_nodes) {
        s->cap = max_nodes;
    }
    s->pool = malloc(sizeof(Node) * s->cap);
    s->cells = calloc(n, 1);
    s->mask = malloc(n);
    s->parent = malloc(sizeof(int16_t) * n);
    s->c = malloc(n);
    s->m = malloc(n);
    s->lc = malloc(n);
    s->lm = malloc(n);
    s->p = malloc(sizeof(int16_t) * n);
    s->e = malloc(sizeof(int16_t) * n);
    s->pos = malloc(sizeof(int16_t) * n);
    s->lp = malloc(sizeof(int16_t) * n);
    s->le = malloc(sizeof(int16_t) * n);
    s->lpos = malloc(sizeof(int16_t) * n);
    s->path = malloc(sizeof(int32_t) * (n + 2));
    s->pmover = malloc(n + 2);
    s->vp = malloc(sizeof(int16_t) * n);
    s->vm = malloc(n);
    s->vused = malloc(n);
    s->sm = malloc(n);
    s->sp = malloc(sizeof(int16_t) * n);
    s->reply = malloc(sizeof(int16_t) * 2 * n);
    s->seq = malloc(sizeof(int16_t) * n);
    s->allow = malloc(n);
    if (!s->nbr || !s->sides || !s->bstart || !s->dist || !s->pool || !s->cells || !s->mask || !s->parent || !s->c ||
        !s->m || !s->lc || !s->lm || !s->p || !s->e || !s->pos || !s->lp || !s->le || !s->lpos || !s->path ||
        !s->pmover || !s->vp || !s->vm || !s->vused || !s->sm || !s->sp || !s->reply || !s->seq || !s->allow) {
        PyErr_NoMemory();
        goto fail;
    }
    int16_t row[NB];
    for (Py_ssize_t x = 0; x < n; x++) {
        PyObject *item = PySequence_GetItem(neighbors, x);
        for (int k = 0; k < NB; k++) {
            row[k] = -1;
        }
        int count = item ? read_ints(item, -1, NB, 0, n - 1, row, "neighbors") : -1;
        Py_XDECREF(item);
        if (count < 0) {
            goto fail;
        }
        memcpy(s->nbr + NB * x, row, sizeof(row));
    }
    if (read_ints(sides, n, n, 0, 7, s->lp, "sides") < 0) {
        goto fail;
    }
    for (Py_ssize_t x = 0; x < n; x++) {
        s->sides[x] = (uint8_t)s->lp[x];
    }
    /* bridges: per cell a flat sequence a0, b0, y0, a1, b1, y1, ... */
    Py_ssize_t total = 0;
    for (Py_ssize_t x = 0; x < n; x++) {
        PyObject *item = PySequence_GetItem(bridges, x);
        Py_ssize_t len = item ? PySequence_Size(item) : -1;
        Py_XDECREF(item);
        if (len < 0 || len % 3) {
            PyErr_SetString(PyExc_ValueError, "bridges: each cell needs a flat sequence of (a, b, y) triples");
            goto fail;
        }
        s->bstart[x] = (int32_t)(total / 3);
        total += len;
    }
    s->bstart[n] = (int32_t)(total / 3);
    s->btab = malloc(sizeof(int16_t) * (total + 1));
    if (s->btab == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t x = 0; x < n; x++) {
        PyObject *item = PySequence_GetItem(bridges, x);
        int count = item ? read_ints(item, -1, total, -1, n - 1, s->btab + 3 * s->bstart[x], "bridges") : -1;
        Py_XDECREF(item);
        if (count < 0) {
            goto fail;
        }
    }
    /* ziggurats: per template a flat sequence stone, side bit, 8 carrier cells */
    Py_ssize_t nzig = ziggurats == NULL || ziggurats == Py_None ? 0 : PySequence_Size(ziggurats);
    if (nzig < 0 || nzig > 4 * n) {
        PyErr_SetString(PyExc_ValueError, "ziggurats: a sequence of at most 4 templates a cell");
        goto fail;
    }
    s->nzig = (int)nzig;
    s->zig = malloc(sizeof(int16_t) * (10 * nzig + 1));
    if (s->zig == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t k = 0; k < nzig; k++) {
        PyObject *item = PySequence_GetItem(ziggurats, k);
        int count = item ? read_ints(item, 10, 10, 0, n - 1, s->zig + 10 * k, "ziggurats") : -1;
        Py_XDECREF(item);
        int side = count == 10 ? s->zig[10 * k + 1] : 0;
        if (count < 0 || (side != 1 && side != 2 && side != 4)) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_ValueError, "ziggurats: a side bit must be 1, 2 or 4");
            }
            goto fail;
        }
    }
    Py_buffer view;
    if (PyObject_GetBuffer(distances, &view, PyBUF_SIMPLE) < 0) {
        goto fail;
    }
    if (view.len != n * n) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "distances must hold cells * cells bytes");
        goto fail;
    }
    memcpy(s->dist, view.buf, (size_t)(n * n));
    PyBuffer_Release(&view);
    for (int x = 0; x < n; x++) {
        s->parent[x] = (int16_t)x;
        s->mask[x] = s->sides[x];
    }
    s->to_move = 1;
    s->stones_left = 1;
    s->last = -1;
    s->rng = 0;
    ys_reset_root(s);
    return (PyObject *)s;
fail:
    Py_DECREF(s);
    return NULL;
}
static int
busy_error(Searcher *s)
{
    if (s->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the searcher is searching in another thread");
        return 1;
    }
    return 0;
}

static PyObject *
Searcher_search(Searcher *s, PyObject *args)
{
    long long max_sims;
    double seconds;
    int early;
    if (!PyArg_ParseTuple(args, "Ldp:search", &max_sims, &seconds, &early)) {
        return NULL;
    }
    if (busy_error(s)) {
        return NULL;
    }
    double started = now(), deadline = seconds > 0 ? started + seconds : 0.0;
    long long sims = 0, iterations = 0;
    int stop = 0, interrupted = 0;
    if (max_sims <= 0 && deadline <= 0) {
        PyErr_SetString(PyExc_ValueError, "search needs a simulation budget or a time limit");
        return NULL;
    }
    int resist = 0, vc = s->vc;
    s->busy = 1;
    /* The tree lives in malloc'd memory and the loop calls no Python: other threads run meanwhile, and every
     * SIGNAL_EVERY iterations the GIL is taken back for a moment so that Ctrl-C stops the search between two
     * iterations (the tree stays whole) with KeyboardInterrupt, as it does the Python twin. */
    Py_BEGIN_ALLOW_THREADS
    while (!stop) {
        if (s->pool[0].outcome) {
            /* Lost through its children's proofs: search again without virtual connections, which an opponent
             * may not know, for the move that resists best (tactics in one move are still proven). */
            if (resist || s->pool[0].outcome == s->to_move || s->pool[0].first < 0) {
                break;
            }
            resist = 1;
            s->vc = 0;
            ys_reset_root(s);
        }
        sims += ys_iterate(s);
        iterations++;
        if (max_sims > 0 && sims >= max_sims) {
            break;
        }
        if (s->pool[0].first >= 0 && s->pool[0].num <= 1) {
            break;
        }
        double t = 0.0;
        if (deadline > 0 && iterations % TIME_EVERY == 0) {
            t = now();
            if (t >= deadline) {
                break;
            }
        }
        if (early && iterations % STOP_EVERY == 0) {
            double remaining = max_sims > 0 ? (double)(max_sims - sims) : 1e300;
            if (deadline > 0) {
                if (t == 0.0) {
                    t = now();
                }
                double rate = (double)sims / (t - started > 1e-9 ? t - started : 1e-9);
                double more = rate * (deadline - t);
                remaining = more < remaining ? more : remaining;
            }
            stop = ys_decided(s, remaining);
        }
        if (iterations % SIGNAL_EVERY == 0) {
            Py_BLOCK_THREADS
            interrupted = PyErr_CheckSignals() < 0;
            Py_UNBLOCK_THREADS
            if (interrupted) {
                break;
            }
        }
    }
    Py_END_ALLOW_THREADS
    s->busy = 0;
    s->vc = vc;
    if (interrupted) {
        return NULL;
    }
    int index;
    int move = ys_choose(s, &index);
    double val = 0.5;
    if (resist) {
        val = 0.0;
    }
    else if (s->pool[0].outcome) {
        val = s->pool[0].outcome == s->to_move ? 1.0 : 0.0;
    }
    else if (index >= 0 && s->pool[s->pool[0].first + index].n > 0) {
        const Node *c = s->pool + s->pool[0].first + index;
        val = (double)c->w / (double)c->n;
    }
    return Py_BuildValue("idLLL", move, val, sims, iterations, (long long)s->used);
}

static PyObject *
Searcher_set_position(Searcher *s, PyObject *args)
{
    PyObject *cells;
    int to_move, left, misere, last;
    if (!PyArg_ParseTuple(args, "Oiipi:set_position", &cells, &to_move, &left, &misere, &last)) {
        return NULL;
    }
    if (busy_error(s)) {
        return NULL;
    }
    int16_t *tmp = s->lp;
    if (read_ints(cells, s->n, s->n, 0, 2, tmp, "cells") < 0) {
        return NULL;
    }
    for (int x = 0; x < s->n; x++) {
        s->cells[x] = (uint8_t)tmp[x];
        s->parent[x] = (int16_t)x;
        s->mask[x] = s->sides[x];
    }
    /* rebuild the groups: union every stone with its lower-numbered same-coloured neighbours */
    for (int x = 0; x < s->n; x++) {
        if (!s->cells[x]) {
            continue;
        }
        const int16_t *row = s->nbr + NB * x;
        for (int k = 0; k < NB && row[k] >= 0; k++) {
            int y = row[k];
            if (y < x && s->cells[y] == s->cells[x]) {
                int a = find(s->parent, x), b = find(s->parent, y);
                if (a != b) {
                    s->parent[b] = (int16_t)a;
                    s->mask[a] |= s->mask[b];
                }
            }
        }
    }
    s->to_move = to_move;
    s->stones_left = left;
    s->misere = misere;
    s->last = last;
    Py_RETURN_NONE;
}

static PyObject *
Searcher_reroot(Searcher *s, PyObject *moves)
{
    int16_t buf[1024];
    if (busy_error(s)) {
        return NULL;
    }
    Py_ssize_t count = PySequence_Size(moves);
    if (count < 0) {
        return NULL;
    }
    if (read_ints(moves, count, 1024, 0, s->n - 1, buf, "moves") < 0) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "too many moves");
        }
        return NULL;
    }
    int32_t idx = 0;
    for (Py_ssize_t i = 0; i < count && idx >= 0; i++) {
        Node *node = s->pool + idx;
        int32_t found = -1;
        for (int k = 0; node->first >= 0 && k < node->num; k++) {
            if (s->pool[node->first + k].move == buf[i]) {
                found = node->first + k;
                break;
            }
        }
        idx = found;
    }
    if (idx < 0) {
        ys_reset_root(s);
        Py_RETURN_FALSE;
    }
    if (idx == 0) {
        Py_RETURN_TRUE;
    }
    Node *fresh = malloc(sizeof(Node) * s->cap);
    if (fresh == NULL) {
        return PyErr_NoMemory();
    }
    fresh[0] = s->pool[idx];
    int64_t used = 1;
    for (int64_t i = 0; i < used; i++) { /* breadth first: every node's children are copied as one block */
        if (fresh[i].first >= 0) {
            memcpy(fresh + used, s->pool + fresh[i].first, sizeof(Node) * fresh[i].num);
            fresh[i].first = (int32_t)used;
            used += fresh[i].num;
        }
    }
    free(s->pool);
    s->pool = fresh;
    s->used = used;
    Py_RETURN_TRUE;
}

static PyObject *
Searcher_clear(Searcher *s, PyObject *Py_UNUSED(ignored))
{
    if (busy_error(s)) {
        return NULL;
    }
    ys_reset_root(s);
    Py_RETURN_NONE;
}

static PyObject *
Searcher_seed(Searcher *s, PyObject *arg)
{
    if (busy_error(s)) {
        return NULL;
    }
    unsigned long long v = PyLong_AsUnsignedLongLongMask(arg);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        return NULL;
    }
    s->rng = v;
    Py_RETURN_NONE;
}

static PyObject *
Searcher_children(Searcher *s, PyObject *Py_UNUSED(ignored))
{
    if (busy_error(s)) {
        return NULL;
    }
    const Node *root = s->pool;
    PyObject *list = PyList_New(0);
    for (int k = 0; list && root->first >= 0 && k < root->num; k++) {
        const Node *c = s->pool + root->first + k;
        PyObject *row = Py_BuildValue("iiiiiii", c->move, c->n, c->w, c->an, c->aw, c->know, c->outcome);
        if (row == NULL || PyList_Append(list, row) < 0) {
            Py_XDECREF(row);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(row);
    }
    return list;
}

static PyObject *
Searcher_root(Searcher *s, PyObject *Py_UNUSED(ignored))
{
    if (busy_error(s)) {
        return NULL;
    }
    return Py_BuildValue("iiL", s->pool[0].n, s->pool[0].outcome, (long long)s->used);
}

static PyMethodDef Searcher_methods[] = {
    {"search", (PyCFunction)Searcher_search, METH_VARARGS,
     "search(max_sims, seconds, early) -> (move, value, simulations, iterations, nodes)"},
    {"set_position", (PyCFunction)Searcher_set_position, METH_VARARGS,
     "set_position(cells, to_move, stones_left, misere, last_move): the position the tree's root stands for"},
    {"reroot", (PyCFunction)Searcher_reroot, METH_O, "Keep the subtree reached by these moves (True) or clear."},
    {"clear", (PyCFunction)Searcher_clear, METH_NOARGS, "Drop the tree."},
    {"seed", (PyCFunction)Searcher_seed, METH_O, "Seed the random numbers."},
    {"children", (PyCFunction)Searcher_children, METH_NOARGS,
     "Root children as (move, n, w, amaf_n, amaf_w, know, outcome)."},
    {"root_info", (PyCFunction)Searcher_root, METH_NOARGS, "(root visits, root outcome, nodes in use)."},
    {NULL},
};

static PyTypeObject SearcherType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ytourney.games.y._ysearch.Searcher",
    .tp_doc = PyDoc_STR("MCTS with RAVE for Y over one board (see ytourney.games.y.ysearch)."),
    .tp_basicsize = sizeof(Searcher),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Searcher_new,
    .tp_dealloc = (destructor)Searcher_dealloc,
    .tp_methods = Searcher_methods,
};

static struct PyModuleDef ysearch_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ytourney.games.y._ysearch",
    .m_doc = PyDoc_STR("C search core of the mcts-pro bot (optional; ytourney.games.y.ysearch falls back to Python)."),
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__ysearch(void)
{
    if (PyType_Ready(&SearcherType) < 0) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&ysearch_module);
    if (module == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(module, "Searcher", (PyObject *)&SearcherType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
