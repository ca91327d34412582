/* The slide games' optional C core: the legal slides of one side, listed exactly as the pure-Python
 * SlideKernel.legal_actions lists them (by source ascending, each source's walks in the tables' order, each target
 * once), from the walks that ytourney.games.slide_tables exports. Boards up to 128 nodes (kadon has 93). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_NODES 128

typedef struct {
    uint64_t prefix[2];  /* a walk is skipped when a stone stands on one of these nodes */
    int start;           /* its nodes: nodes[start .. start + len) */
    int len;
} Walk;

typedef struct {
    int size;
    int *first;          /* walks of source s: walks[first[s] .. first[s + 1]) */
    Walk *walks;
    int *nodes;
    PyObject **actions;  /* actions[s * size + t]: the Python int of the slide s-t (owned references) */
} Tables;

static const char *CAPSULE = "ytourney.games._slidecore.Tables";

static void
tables_free(PyObject *capsule)
{
    Tables *t = (Tables *)PyCapsule_GetPointer(capsule, CAPSULE);
    if (t == NULL) {
        return;
    }
    if (t->actions != NULL) {
        for (int i = 0; i < t->size * t->size; i++) {
            Py_XDECREF(t->actions[i]);
        }
    }
    PyMem_Free(t->actions);
    PyMem_Free(t->first);
    PyMem_Free(t->walks);
    PyMem_Free(t->nodes);
    PyMem_Free(t);
}

static int
split_mask(PyObject *value, uint64_t out[2])
{
    /* a node mask (a non-negative int under 2**128) as two 64-bit words */
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
    memcpy(&out[0], bytes, 8);
    memcpy(&out[1], bytes + 8, 8);
    return 0;
}

static PyObject *
make_tables(PyObject *self, PyObject *args)
{
    /* tables(size, walks, actions): walks[s] is a list of (prefix mask, tuple of nodes); actions[s][t] an int */
    int size;
    PyObject *walks_arg, *actions_arg;
    if (!PyArg_ParseTuple(args, "iOO", &size, &walks_arg, &actions_arg)) {
        return NULL;
    }
    if (size < 1 || size > MAX_NODES || !PyList_Check(walks_arg) || PyList_GET_SIZE(walks_arg) != size ||
        !PyList_Check(actions_arg) || PyList_GET_SIZE(actions_arg) != size) {
        PyErr_SetString(PyExc_ValueError, "tables(size, walks, actions): size 1..128 and one entry a node");
        return NULL;
    }
    Tables *t = PyMem_Calloc(1, sizeof(Tables));
    if (t == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *capsule = PyCapsule_New(t, CAPSULE, tables_free);
    if (capsule == NULL) {
        PyMem_Free(t);
        return NULL;
    }
    t->size = size;
    Py_ssize_t nwalks = 0, nnodes = 0;
    for (int s = 0; s < size; s++) {
        PyObject *row = PyList_GET_ITEM(walks_arg, s);
        if (!PyList_Check(row)) {
            PyErr_SetString(PyExc_ValueError, "walks[s] must be a list");
            goto fail;
        }
        nwalks += PyList_GET_SIZE(row);
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(row); i++) {
            PyObject *walk = PyList_GET_ITEM(row, i);
            if (!PyTuple_Check(walk) || PyTuple_GET_SIZE(walk) != 2 || !PyTuple_Check(PyTuple_GET_ITEM(walk, 1))) {
                PyErr_SetString(PyExc_ValueError, "a walk must be (prefix mask, tuple of nodes)");
                goto fail;
            }
            nnodes += PyTuple_GET_SIZE(PyTuple_GET_ITEM(walk, 1));
        }
    }
    t->first = PyMem_Calloc(size + 1, sizeof(int));
    t->walks = PyMem_Calloc(nwalks + 1, sizeof(Walk));
    t->nodes = PyMem_Calloc(nnodes + 1, sizeof(int));
    t->actions = PyMem_Calloc((size_t)size * size, sizeof(PyObject *));
    if (!t->first || !t->walks || !t->nodes || !t->actions) {
        PyErr_NoMemory();
        goto fail;
    }
    int w = 0, n = 0;
    for (int s = 0; s < size; s++) {
        PyObject *row = PyList_GET_ITEM(walks_arg, s);
        t->first[s] = w;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(row); i++) {
            PyObject *walk = PyList_GET_ITEM(row, i);
            PyObject *nodes = PyTuple_GET_ITEM(walk, 1);
            if (split_mask(PyTuple_GET_ITEM(walk, 0), t->walks[w].prefix) < 0) {
                goto fail;
            }
            t->walks[w].start = n;
            t->walks[w].len = (int)PyTuple_GET_SIZE(nodes);
            for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(nodes); k++) {
                long node = PyLong_AsLong(PyTuple_GET_ITEM(nodes, k));
                if (node < 0 || node >= size) {
                    if (!PyErr_Occurred()) {
                        PyErr_SetString(PyExc_ValueError, "a walk's node is off the board");
                    }
                    goto fail;
                }
                t->nodes[n++] = (int)node;
            }
            w++;
        }
        PyObject *acts = PyList_GET_ITEM(actions_arg, s);
        if (!PySequence_Check(acts) || PySequence_Size(acts) != size) {
            PyErr_SetString(PyExc_ValueError, "actions[s] must hold one int a target");
            goto fail;
        }
        for (int target = 0; target < size; target++) {
            PyObject *action = PySequence_GetItem(acts, target);
            if (action == NULL) {
                goto fail;
            }
            t->actions[s * size + target] = action;  /* the new reference is the table's */
        }
    }
    t->first[size] = w;
    return capsule;
fail:
    Py_DECREF(capsule);
    return NULL;
}

static PyObject *
actions(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    /* actions(tables, mine, occupied): every slide of the stones of `mine` through the empty nodes */
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "actions(tables, mine, occupied)");
        return NULL;
    }
    Tables *t = (Tables *)PyCapsule_GetPointer(args[0], CAPSULE);
    if (t == NULL) {
        return NULL;
    }
    uint64_t mine[2], occ[2];
    if (split_mask(args[1], mine) < 0 || split_mask(args[2], occ) < 0) {
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL) {
        return NULL;
    }
    for (int word = 0; word < 2; word++) {
        uint64_t rest = mine[word];
        while (rest) {
            int source = word * 64 + __builtin_ctzll(rest);
            rest &= rest - 1;
            if (source >= t->size) {
                break;
            }
            uint64_t seen[2] = {0, 0};
            PyObject **row = t->actions + (size_t)source * t->size;
            for (int i = t->first[source]; i < t->first[source + 1]; i++) {
                const Walk *walk = &t->walks[i];
                if ((walk->prefix[0] & occ[0]) | (walk->prefix[1] & occ[1])) {
                    continue;
                }
                const int *node = t->nodes + walk->start;
                for (int k = 0; k < walk->len; k++) {
                    int at = node[k];
                    uint64_t bit = (uint64_t)1 << (at & 63);
                    if (occ[at >> 6] & bit) {
                        break;
                    }
                    if (seen[at >> 6] & bit) {
                        continue;
                    }
                    seen[at >> 6] |= bit;
                    if (PyList_Append(out, row[at]) < 0) {
                        Py_DECREF(out);
                        return NULL;
                    }
                }
            }
        }
    }
    return out;
}

static PyMethodDef methods[] = {
    {"tables", make_tables, METH_VARARGS, "tables(size, walks, actions): a board's walks for `actions`."},
    {"actions", (PyCFunction)(void (*)(void))actions, METH_FASTCALL,
     "actions(tables, mine, occupied): the slides of the stones of `mine`, as the Python kernel lists them."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_slidecore", "The slide games' optional C core (legal slides).", -1, methods,
};

PyMODINIT_FUNC
PyInit__slidecore(void)
{
    return PyModule_Create(&module);
}
