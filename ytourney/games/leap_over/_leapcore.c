/* Leap Over's jump chains in C: the same DFS as kernel.LeapOverKernel.legal_actions, chain for chain and in the
 * same order. The board comes as a bytes table (per node MAXJ (over, landing) pairs, 255 where a row ends), the
 * stones as two 128-bit masks split in 64-bit halves. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;
#define MAXC 128
#define MAXJ 8
#define NODE_BITS 9
#define FIRST_FIELD 10
#define MAXBYTES ((FIRST_FIELD + NODE_BITS * MAXC + 7) / 8 + 2)

static void set_field(unsigned char *buf, int offset, unsigned value) {
    /* OR a 9-bit field in at a bit offset (little-endian bit order). */
    int byte = offset >> 3, shift = offset & 7;
    uint32_t v = (uint32_t)value << shift;
    buf[byte] |= (unsigned char)(v & 0xff);
    buf[byte + 1] |= (unsigned char)((v >> 8) & 0xff);
    buf[byte + 2] |= (unsigned char)((v >> 16) & 0xff);
}

static void clear_field(unsigned char *buf, int offset) {
    int byte = offset >> 3, shift = offset & 7;
    uint32_t v = (uint32_t)0x1ff << shift;
    buf[byte] &= (unsigned char)~(v & 0xff);
    buf[byte + 1] &= (unsigned char)~((v >> 8) & 0xff);
    buf[byte + 2] &= (unsigned char)~((v >> 16) & 0xff);
}

static PyObject *action_of(const unsigned char *buf, int top_bits, uint64_t small) {
    if (top_bits <= 64) return PyLong_FromUnsignedLongLong(small);
    return _PyLong_FromByteArray(buf, (size_t)((top_bits + 7) / 8), 1, 0);
}

static PyObject *chains(PyObject *self, PyObject *args) {
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
    u128 black = ((u128)black_hi << 64) | black_lo, white = ((u128)white_hi << 64) | white_lo;
    u128 occ = black | white, mine = me == 1 ? black : white;
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    unsigned char buf[MAXBYTES];
    int path[MAXC + 1], next[MAXC + 1];
    for (int s = 0; s < n; s++) {
        if (!((mine >> s) & 1)) continue;
        memset(buf, 0, sizeof buf);
        buf[0] = 1;
        set_field(buf, FIRST_FIELD, (unsigned)(s + 1));
        u128 visited = (u128)1 << s;
        int depth = 0;
        path[0] = s;
        next[0] = 0;
        while (depth >= 0) {
            int p = path[depth];
            const unsigned char *row = table + p * 2 * MAXJ;
            int j = next[depth], found = -1;
            for (; j < MAXJ && row[2 * j] != 255; j++) {
                int over = row[2 * j], to = row[2 * j + 1];
                if (over != s && ((occ >> over) & 1) && !(((occ | visited) >> to) & 1)) { found = to; j++; break; }
            }
            next[depth] = j;
            if (found < 0) {
                if (depth > 0) {
                    clear_field(buf, FIRST_FIELD + NODE_BITS * depth);
                    visited &= ~((u128)1 << p);
                }
                depth--;
                continue;
            }
            depth++;
            int offset = FIRST_FIELD + NODE_BITS * depth;
            set_field(buf, offset, (unsigned)(found + 1));
            visited |= (u128)1 << found;
            path[depth] = found;
            next[depth] = 0;
            int top_bits = offset + NODE_BITS;
            uint64_t small = 0;
            if (top_bits <= 64) {
                for (int b = 7; b >= 0; b--) small = (small << 8) | buf[b];
            }
            PyObject *action = action_of(buf, top_bits, small);
            if (action == NULL || PyList_Append(out, action) < 0) {
                Py_XDECREF(action);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(action);
        }
    }
    return out;
}

static PyObject *path_of(PyObject *self, PyObject *args) {
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
        if (node == NULL) { Py_DECREF(path); return NULL; }
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

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_leapcore", "Leap Over's jump chains in C.", -1, methods};

PyMODINIT_FUNC PyInit__leapcore(void) { return PyModule_Create(&module); }
