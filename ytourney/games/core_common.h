/* What the games' optional C cores share (tetra, singularity, the slide games, leap over, aliens-amazons, yvy):
 * the playout LCG and the splitmix64 mix, reading Python ints (an action asked of is_legal never raises), the undo
 * stack's growth, the rollout's arguments and its value of a finished game, the kernels' common attributes, the
 * Move-by-identity hash table, and the module's creation.  Each core keeps only its game's rules.
 *
 * Header only (static inline functions and small macros); include it after <Python.h>.
 */

#ifndef YTOURNEY_CORE_COMMON_H
#define YTOURNEY_CORE_COMMON_H

#include <Python.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#define CORE_LCG_MUL 6364136223846793005ULL
#define CORE_LCG_INC 1442695040888963407ULL
#define CORE_NO_LIMIT ((long long)1 << 62)
#define CORE_FNV_OFFSET 1469598103934665603ULL
#define CORE_FNV_PRIME 1099511628211ULL

/* --- random numbers and hashing ------------------------------------------------------------------------------ */

/* One step of the playout LCG the Python knowledge steps the same way; the top 32 bits. */
static inline uint32_t
core_lcg_next(uint64_t *state)
{
    *state = *state * CORE_LCG_MUL + CORE_LCG_INC;
    return (uint32_t)(*state >> 32);
}

/* splitmix64's finishing mix. */
static inline uint64_t
core_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The next splitmix64 number of `state`. */
static inline uint64_t
core_splitmix64(uint64_t *state)
{
    return core_mix64(*state += 0x9E3779B97F4A7C15ULL);
}

/* One FNV-1a step. */
static inline uint64_t
core_fnv(uint64_t h, uint64_t x)
{
    return (h ^ x) * CORE_FNV_PRIME;
}

/* A position's key as a Python int: a 64-bit hash with the top bit dropped (a non-negative small-enough int). */
static inline PyObject *
core_key_object(uint64_t h)
{
    return PyLong_FromUnsignedLongLong(h >> 1);
}

/* --- reading Python ints ------------------------------------------------------------------------------------- */

/* An int in [lo, hi] from a Python object, else -1 with an exception set (lo >= 0 by every caller). */
static inline long
core_bounded_int(PyObject *obj, long lo, long hi, const char *what)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int", what);
        return -1;
    }
    long value = PyLong_AsLong(obj);
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (value < lo || value > hi) {
        PyErr_Format(PyExc_ValueError, "%s %ld is not in %ld..%ld", what, value, lo, hi);
        return -1;
    }
    return value;
}

/* An exact int that fits a long long into *value: 1 when it does (*overflow set as PyLong_AsLongLongAndOverflow
 * sets it, *value -1 on overflow), 0 for any other object; never leaves an exception (is_legal may be asked
 * anything). */
static inline int
core_action_ll(PyObject *obj, long long *value, int *overflow)
{
    if (!PyLong_CheckExact(obj)) {
        return 0;
    }
    *value = PyLong_AsLongLongAndOverflow(obj, overflow);
    if (*value == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    return 1;
}

/* A packed action's node field: 9 bits from `shift`, minus one (-1: no node). */
#define CORE_FIELD(a, shift) ((((a) >> (shift)) & 511) - 1)

/* The move limit from None (CORE_NO_LIMIT) or an int (capped at CORE_NO_LIMIT): 0, or -1 with an exception. */
static inline int
core_max_plies(PyObject *obj, long long *out)
{
    *out = CORE_NO_LIMIT;
    if (obj == Py_None) {
        return 0;
    }
    if (!PyLong_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "max_plies must be an int or None");
        return -1;
    }
    int overflow;
    long long value = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow > 0 || value > CORE_NO_LIMIT) {
        return 0;
    }
    if (overflow < 0 || value < 0) {
        PyErr_SetString(PyExc_ValueError, "max_plies must not be negative");
        return -1;
    }
    *out = value;
    return 0;
}

/* 0 when `to_move` is 1 or 2, else -1 with a ValueError. */
static inline int
core_check_to_move(int to_move)
{
    if (to_move != 1 && to_move != 2) {
        PyErr_Format(PyExc_ValueError, "side to move %d; expected 1 or 2", to_move);
        return -1;
    }
    return 0;
}

/* --- the undo stack ------------------------------------------------------------------------------------------ */

/* Room for one more entry of `size` bytes on a stack of *capacity entries holding `depth` (doubled when full):
 * 0, or -1 with MemoryError. */
static inline int
core_stack_room(void **stack, Py_ssize_t depth, Py_ssize_t *capacity, size_t size)
{
    if (depth >= *capacity) {
        Py_ssize_t grown_capacity = *capacity * 2;
        void *grown = PyMem_Realloc(*stack, (size_t)grown_capacity * size);
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        *stack = grown;
        *capacity = grown_capacity;
    }
    return 0;
}

/* Push an int32 entry on a kernel's undo stack (fields `stack`, `depth`, `capacity`): 0, or -1 with MemoryError. */
#define CORE_PUSH32(k, entry)                                                                                     \
    (core_stack_room((void **)&(k)->stack, (k)->depth, &(k)->capacity, sizeof(int32_t)) < 0                      \
         ? -1                                                                                                      \
         : ((k)->stack[(k)->depth++] = (entry), 0))

/* --- rollouts ------------------------------------------------------------------------------------------------ */

/* 0 when `trace` is NULL or a list, else -1 with a TypeError. */
static inline int
core_check_trace(PyObject *trace)
{
    if (trace != NULL && !PyList_Check(trace)) {
        PyErr_SetString(PyExc_TypeError, "trace must be a list or None");
        return -1;
    }
    return 0;
}

/* rollout(seed, plies, trace=None) as METH_FASTCALL: 0 with the seed, the plies and the trace list (NULL for
 * None), or -1 with an exception. */
static inline int
core_rollout_args(PyObject *const *args, Py_ssize_t nargs, uint64_t *rng, Py_ssize_t *plies, PyObject **trace)
{
    if (nargs < 2 || nargs > 3) {
        PyErr_SetString(PyExc_TypeError, "rollout(seed, plies, trace=None)");
        return -1;
    }
    *rng = PyLong_AsUnsignedLongLongMask(args[0]);
    if (*rng == (uint64_t)-1 && PyErr_Occurred()) {
        return -1;
    }
    *plies = PyNumber_AsSsize_t(args[1], PyExc_OverflowError);
    if (*plies == -1 && PyErr_Occurred()) {
        return -1;
    }
    *trace = nargs == 3 && args[2] != Py_None ? args[2] : NULL;
    return core_check_trace(*trace);
}

/* Black's value of a finished game: 0.5 for a draw (result 0), 1.0 when Black (1) won, else 0.0. */
static inline double
core_result_value(int result)
{
    return result == 0 ? 0.5 : (result == 1 ? 1.0 : 0.0);
}

/* --- building Python values ---------------------------------------------------------------------------------- */

/* A new list of the `n` bytes of `cells` as ints. */
static inline PyObject *
core_cells_list(const uint8_t *cells, int n)
{
    PyObject *list = PyList_New(n);
    if (list == NULL) {
        return NULL;
    }
    for (int v = 0; v < n; v++) {
        PyObject *item = PyLong_FromLong(cells[v]);
        if (item == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, v, item);
    }
    return list;
}

/* The node mask (a Python int) of the nodes of `cells` (n <= 511) holding `c`. */
static inline PyObject *
core_colour_mask(const uint8_t *cells, int n, int c)
{
    uint8_t bytes[64];
    memset(bytes, 0, sizeof(bytes));
    for (int v = 0; v < n; v++) {
        if (cells[v] == c) {
            bytes[v >> 3] |= (uint8_t)(1u << (v & 7));
        }
    }
    return _PyLong_FromByteArray(bytes, sizeof(bytes), 1, 0);
}

/* A new list [0, black, white], taking both references (either may be NULL after a failure: then NULL). */
static inline PyObject *
core_masks_list(PyObject *black, PyObject *white)
{
    PyObject *zero = black == NULL || white == NULL ? NULL : PyLong_FromLong(0);
    PyObject *list = zero == NULL ? NULL : PyList_New(3);
    if (list == NULL) {
        Py_XDECREF(black);
        Py_XDECREF(white);
        Py_XDECREF(zero);
        return NULL;
    }
    PyList_SET_ITEM(list, 0, zero);
    PyList_SET_ITEM(list, 1, black);
    PyList_SET_ITEM(list, 2, white);
    return list;
}

/* A new list of objs[indices[i]] for i < n (new references). */
static inline PyObject *
core_indexed_list(PyObject *const *objs, const int32_t *indices, int n)
{
    PyObject *list = PyList_New(n);
    if (list != NULL) {
        for (int i = 0; i < n; i++) {
            PyList_SET_ITEM(list, i, Py_NewRef(objs[indices[i]]));
        }
    }
    return list;
}

/* --- the Moves' identity table: open addressing on the object's address -------------------------------------- */

static inline size_t
core_pointer_hash(const PyObject *obj, size_t mask)
{
    uint64_t h = (uint64_t)(uintptr_t)obj;
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    return (size_t)h & mask;
}

/* The slots of a table for `n` keys: a power of two, at least 16 and 2n. */
static inline size_t
core_pointer_slots(size_t n)
{
    size_t slots = 16;
    while (slots < 2 * n) {
        slots *= 2;
    }
    return slots;
}

/* The slot of `obj` in keys (mask + 1 slots): where it is, else the empty slot where it would go. */
static inline size_t
core_pointer_slot(PyObject *const *keys, size_t mask, const PyObject *obj)
{
    size_t h = core_pointer_hash(obj, mask);
    while (keys[h] != NULL && keys[h] != obj) {
        h = (h + 1) & mask;
    }
    return h;
}

/* The value kept for `obj`, -1 when it is not a key (or there is no table). */
static inline int
core_pointer_find(PyObject *const *keys, const int32_t *values, size_t mask, const PyObject *obj)
{
    if (keys == NULL) {
        return -1;
    }
    size_t h = core_pointer_slot(keys, mask, obj);
    return keys[h] == obj ? values[h] : -1;
}

/* --- type and module boilerplate ----------------------------------------------------------------------------- */

/* Kernel_traverse and Kernel_clear for a kernel type whose only object reference is its tables `t`. */
#define CORE_KERNEL_GC(Kernel)                                                                                    \
    static int Kernel##_traverse(Kernel##Object *self, visitproc visit, void *arg)                               \
    {                                                                                                              \
        Py_VISIT(self->t);                                                                                         \
        return 0;                                                                                                  \
    }                                                                                                              \
    static int Kernel##_clear(Kernel##Object *self)                                                              \
    {                                                                                                              \
        Py_CLEAR(self->t);                                                                                         \
        return 0;                                                                                                  \
    }

/* Tables_get_size and Tables_get_has_moves for a tables type with `size` and an optional `moves`. */
#define CORE_TABLES_GETTERS(Tables)                                                                               \
    static PyObject *Tables##_get_size(Tables##Object *self, void *Py_UNUSED(closure))                           \
    {                                                                                                              \
        return PyLong_FromLong(self->size);                                                                        \
    }                                                                                                              \
    static PyObject *Tables##_get_has_moves(Tables##Object *self, void *Py_UNUSED(closure))                      \
    {                                                                                                              \
        return PyBool_FromLong(self->moves != NULL);                                                               \
    }

/* Kernel_count_swap for a kernel whose int32 undo stack takes `swap_entry` for the pie answer's ply. */
#define CORE_KERNEL_COUNT_SWAP(Kernel, swap_entry)                                                               \
    static PyObject *Kernel##_count_swap(Kernel##Object *self, PyObject *Py_UNUSED(ignored))                     \
    {                                                                                                              \
        if (CORE_PUSH32(self, (swap_entry)) < 0) {                                                                 \
            return NULL;                                                                                           \
        }                                                                                                          \
        self->plies++;                                                                                             \
        Py_RETURN_NONE;                                                                                            \
    }

/* The Kernel_methods entries every kernel documents alike. */
#define CORE_METHOD_IS_LEGAL(func)                                                                                \
    {"is_legal", (PyCFunction)(func), METH_O,                                                                      \
     PyDoc_STR("is_legal($self, action, /)\n--\n\nTrue when apply(action) is allowed now (any object may be asked).")}
#define CORE_METHOD_COUNT_SWAP(func)                                                                              \
    {"count_swap", (PyCFunction)(func), METH_NOARGS,                                                               \
     PyDoc_STR("count_swap($self, /)\n--\n\nCount the pie answer's ply.")}
#define CORE_METHOD_CLONE(func)                                                                                   \
    {"clone", (PyCFunction)(func), METH_NOARGS,                                                                    \
     PyDoc_STR("clone($self, /)\n--\n\nAn independent copy, its undo stack too.")}

/* The Kernel_members entries to_move, plies (a Py_ssize_t) and result of a kernel struct `Object`. */
#define CORE_KERNEL_MEMBERS(Object)                                                                               \
    {"to_move", T_INT, offsetof(Object, to_move), READONLY, PyDoc_STR("The side to move: 1 or 2.")},              \
    {"plies", T_PYSSIZET, offsetof(Object, plies), READONLY, PyDoc_STR("Actions since the start.")},              \
    {"result", T_INT, offsetof(Object, result), READONLY, PyDoc_STR("-1 ongoing, 0 a draw, else the winner.")}

/* The checks of Tables.set_moves: a tuple of exactly n Moves, set once (`set`: already done); 0, or -1. */
static inline int
core_check_moves(PyObject *moves, Py_ssize_t n, int set)
{
    if (!PyTuple_CheckExact(moves) || PyTuple_GET_SIZE(moves) != n) {
        PyErr_Format(PyExc_ValueError, "expected a tuple of %zd moves", n);
        return -1;
    }
    if (set) {
        PyErr_SetString(PyExc_RuntimeError, "the tables' moves are set once");
        return -1;
    }
    return 0;
}

/* A getter of None (a kernel that keeps no score). */
static inline PyObject *
core_get_none(PyObject *Py_UNUSED(self), void *Py_UNUSED(closure))
{
    Py_RETURN_NONE;
}

/* The module of `def` with the named types readied and added: name, type pairs ending with NULL. */
static inline PyObject *
core_module_create(PyModuleDef *def, ...)
{
    va_list ap;
    va_start(ap, def);
    for (const char *name = va_arg(ap, const char *); name != NULL; name = va_arg(ap, const char *)) {
        if (PyType_Ready(va_arg(ap, PyTypeObject *)) < 0) {
            va_end(ap);
            return NULL;
        }
    }
    va_end(ap);
    PyObject *module = PyModule_Create(def);
    if (module == NULL) {
        return NULL;
    }
    va_start(ap, def);
    for (const char *name = va_arg(ap, const char *); name != NULL; name = va_arg(ap, const char *)) {
        if (PyModule_AddObjectRef(module, name, (PyObject *)va_arg(ap, PyTypeObject *)) < 0) {
            va_end(ap);
            Py_DECREF(module);
            return NULL;
        }
    }
    va_end(ap);
    return module;
}

#endif /* YTOURNEY_CORE_COMMON_H */
