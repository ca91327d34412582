/* Optional C core of YvY's kernel (ytourney.games.yvy.kernel.YvyKernel) and of its playouts.
 *
 * `Tables` holds one board's read-only tables (the six neighbours of each cell in order round it, the sprouts, the
 * Zobrist keys, the Termination objects and the ints of the actions); `Kernel` is one position on the kernel
 * protocol with the same actions, legal-action order, endings and score as the pure-Python kernel: an undoable
 * union-find loop tracker (union by size, no path compression, each union undone from the undo stack), the
 * 6-bit pattern of each colour's stones round every cell, and the count after two passes (dead groups off,
 * fenced-in groups joined to their fence, sprouts). `rollout(seed, plies, trace)` fills the board at random from a
 * splitmix64 stream exactly as `YvyKernel.rollout` does, stopping at the first loop, and returns Black's value.
 * ytourney.games.yvy.ckernel wraps `Kernel` in a thin Python subclass; without this module the game runs the
 * pure-Python kernel, which this one agrees with move for move.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

#include "../core_common.h"

#define MAX_CELLS 511     /* every cell below PASS_ACTION */
#define PASS_ACTION 512   /* games.kernel.PASS_ACTION */
#define SWAP_MARK (-1)    /* the undo stack's entry of the pie answer's ply */
#define FULL 63
#define ONGOING (-1)
#define DRAW 0
#define BLACK 1
#define WHITE 2
#define MAX_PAIRS (6 * MAX_CELLS)

/* --- read-only tables of the 64 neighbour patterns, built once at import ------------------------------------- */

static uint8_t arc_starts[64][6]; /* the directions where an arc of own stones starts (after a non-own position) */
static uint8_t arc_count[64];
static uint8_t may_close[64];     /* geometry.MAY_CLOSE */

static void
build_pattern_tables(void)
{
    for (int p = 0; p < 64; p++) {
        int count = 0, bits = 0;
        for (int d = 0; d < 6; d++) {
            bits += (p >> d) & 1;
            if (((p >> d) & 1) && !((p >> ((d + 5) % 6)) & 1)) {
                arc_starts[p][count++] = (uint8_t)d;
            }
        }
        arc_count[p] = (uint8_t)count;
        may_close[p] = (uint8_t)(count >= 2 || bits >= 3);
    }
}

/* --- Tables: one board ------------------------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    int n;
    int nsprouts;
    int16_t around[MAX_CELLS][6]; /* -1 off the board */
    uint8_t sprout[MAX_CELLS];
    int16_t sprouts[MAX_CELLS];
    uint64_t zobrist[2][MAX_CELLS];
    uint64_t z_white;
    uint64_t z_passes[3];
    PyObject *geo;
    PyObject *loop;        /* the Termination of a loop */
    PyObject *score;       /* ... of the count */
    PyObject *move_limit;  /* ... of the move limit */
    PyObject *ints;        /* a tuple: the int of every cell, then PASS_ACTION */
} TablesObject;

static PyTypeObject TablesType;

static int
Tables_traverse(TablesObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->geo);
    Py_VISIT(self->loop);
    Py_VISIT(self->score);
    Py_VISIT(self->move_limit);
    Py_VISIT(self->ints);
    return 0;
}

static int
Tables_clear(TablesObject *self)
{
    Py_CLEAR(self->geo);
    Py_CLEAR(self->loop);
    Py_CLEAR(self->score);
    Py_CLEAR(self->move_limit);
    Py_CLEAR(self->ints);
    return 0;
}

static void
Tables_dealloc(TablesObject *self)
{
    PyObject_GC_UnTrack(self);
    Tables_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
Tables_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"around", "sprout", "geo", "terminations", NULL};
    PyObject *around, *sprout, *geo, *terminations;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOO:Tables", kwlist, &around, &sprout, &geo, &terminations)) {
        return NULL;
    }
    if (!PyTuple_Check(terminations) || PyTuple_GET_SIZE(terminations) != 3) {
        PyErr_SetString(PyExc_TypeError, "terminations must be a tuple (loop, score, move limit)");
        return NULL;
    }
    PyObject *rows = PySequence_Fast(around, "around must be a sequence of neighbour rows");
    if (rows == NULL) {
        return NULL;
    }
    PyObject *flags = PySequence_Fast(sprout, "sprout must be a sequence of flags");
    if (flags == NULL) {
        Py_DECREF(rows);
        return NULL;
    }
    TablesObject *self = NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(rows);
    if (n < 1 || n > MAX_CELLS) {
        PyErr_Format(PyExc_ValueError, "a board needs 1..%d cells, got %zd", MAX_CELLS, n);
        goto fail;
    }
    if (PySequence_Fast_GET_SIZE(flags) != n) {
        PyErr_Format(PyExc_ValueError, "expected %zd sprout flags, got %zd", n, PySequence_Fast_GET_SIZE(flags));
        goto fail;
    }
    self = (TablesObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        goto fail;
    }
    self->n = (int)n;
    for (Py_ssize_t cell = 0; cell < n; cell++) {
        int truth = PyObject_IsTrue(PySequence_Fast_GET_ITEM(flags, cell));
        if (truth < 0) {
            goto fail;
        }
        self->sprout[cell] = (uint8_t)truth;
        if (truth) {
            self->sprouts[self->nsprouts++] = (int16_t)cell;
        }
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(rows, cell), "neighbour rows must be sequences");
        if (row == NULL) {
            goto fail;
        }
        if (PySequence_Fast_GET_SIZE(row) != 6) {
            Py_DECREF(row);
            PyErr_Format(PyExc_ValueError, "cell %zd needs 6 neighbour positions (-1 off the board)", cell);
            goto fail;
        }
        for (int d = 0; d < 6; d++) {
            long nb = PyLong_AsLong(PySequence_Fast_GET_ITEM(row, d));
            if (nb == -1 && PyErr_Occurred()) {
                Py_DECREF(row);
                goto fail;
            }
            if (nb < -1 || nb >= n || nb == cell) {
                Py_DECREF(row);
                PyErr_Format(PyExc_ValueError, "neighbour %ld of cell %zd is neither -1 nor another cell", nb, cell);
                goto fail;
            }
            self->around[cell][d] = (int16_t)nb;
        }
        Py_DECREF(row);
    }
    /* each neighbour relation must be mutual, direction d against d + 3 (the patterns rely on it) */
    for (int cell = 0; cell < n; cell++) {
        for (int d = 0; d < 6; d++) {
            int nb = self->around[cell][d];
            if (nb >= 0 && self->around[nb][(d + 3) % 6] != cell) {
                PyErr_Format(PyExc_ValueError, "cell %d's neighbour %d in direction %d is not mutual", cell, nb, d);
                goto fail;
            }
        }
    }
    uint64_t seed = 0x59765963u; /* fixed: equal positions give equal keys in every process */
    for (int colour = 0; colour < 2; colour++) {
        for (int cell = 0; cell < n; cell++) {
            self->zobrist[colour][cell] = core_splitmix64(&seed);
        }
    }
    self->z_white = core_splitmix64(&seed);
    for (int i = 0; i < 3; i++) {
        self->z_passes[i] = i ? core_splitmix64(&seed) : 0;
    }
    self->ints = PyTuple_New(n + 1);
    if (self->ints == NULL) {
        goto fail;
    }
    for (Py_ssize_t i = 0; i <= n; i++) {
        PyObject *value = PyLong_FromSsize_t(i < n ? i : PASS_ACTION);
        if (value == NULL) {
            goto fail;
        }
        PyTuple_SET_ITEM(self->ints, i, value);
    }
    self->geo = Py_NewRef(geo);
    self->loop = Py_NewRef(PyTuple_GET_ITEM(terminations, 0));
    self->score = Py_NewRef(PyTuple_GET_ITEM(terminations, 1));
    self->move_limit = Py_NewRef(PyTuple_GET_ITEM(terminations, 2));
    Py_DECREF(rows);
    Py_DECREF(flags);
    return (PyObject *)self;
fail:
    Py_DECREF(rows);
    Py_DECREF(flags);
    Py_XDECREF(self);
    return NULL;
}

static PyMemberDef Tables_members[] = {
    {"n", T_INT, offsetof(TablesObject, n), READONLY, PyDoc_STR("Cells on the board.")},
    {"geo", T_OBJECT, offsetof(TablesObject, geo), READONLY, PyDoc_STR("The board's Geometry.")},
    {NULL},
};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ytourney.games.yvy._yvycore.Tables",
    .tp_doc = PyDoc_STR("Tables(around, sprout, geo, terminations): one board's read-only tables."),
    .tp_basicsize = sizeof(TablesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = Tables_new,
    .tp_dealloc = (destructor)Tables_dealloc,
    .tp_traverse = (traverseproc)Tables_traverse,
    .tp_clear = (inquiry)Tables_clear,
    .tp_members = Tables_members,
};

/* --- the count (scoring.count): Black's and White's scores of a position --------------------------------------- */

/* One colour's live groups after the dead ones left, joined where one fences another in (scoring._side). */
static int
counted_groups(const TablesObject *t, const uint8_t *cells, int colour)
{
    int n = t->n, other = 3 - colour, k = 0, regions = 0, pairs = 0;
    int16_t label[MAX_CELLS], stack[MAX_CELLS];
    int16_t stamp[MAX_CELLS];                 /* per group: the last region that listed it */
    uint8_t opposed[MAX_CELLS];
    int16_t pair_group[MAX_PAIRS], pair_region[MAX_PAIRS];
    for (int c = 0; c < n; c++) {
        label[c] = -1;
    }
    for (int start = 0; start < n; start++) {
        if (cells[start] != colour || label[start] != -1) {
            continue;
        }
        int top = 0;
        label[start] = (int16_t)k;
        stack[top++] = (int16_t)start;
        while (top) {
            const int16_t *ring = t->around[stack[--top]];
            for (int d = 0; d < 6; d++) {
                int nb = ring[d];
                if (nb >= 0 && label[nb] == -1 && cells[nb] == colour) {
                    label[nb] = (int16_t)k;
                    stack[top++] = (int16_t)nb;
                }
            }
        }
        k++;
    }
    if (k <= 1) {
        return k;
    }
    for (int g = 0; g < k; g++) {
        stamp[g] = -1;
    }
    for (int start = 0; start < n; start++) {
        if (label[start] != -1) {
            continue;
        }
        int region = regions++, top = 0, against = cells[start] == other;
        label[start] = (int16_t)(k + region);
        stack[top++] = (int16_t)start;
        while (top) {
            const int16_t *ring = t->around[stack[--top]];
            for (int d = 0; d < 6; d++) {
                int nb = ring[d];
                if (nb < 0) {
                    continue;
                }
                int mark = label[nb];
                if (mark == -1) {
                    label[nb] = (int16_t)(k + region);
                    stack[top++] = (int16_t)nb;
                    against |= cells[nb] == other;
                }
                else if (mark < k && stamp[mark] != region && pairs < MAX_PAIRS) {
                    stamp[mark] = (int16_t)region;
                    pair_group[pairs] = (int16_t)mark;
                    pair_region[pairs] = (int16_t)region;
                    pairs++;
                }
            }
        }
        opposed[region] = (uint8_t)against;
    }
    /* both sides of the bipartite graph of groups and regions, as offset tables over the pairs */
    int16_t group_start[MAX_CELLS + 1], region_start[MAX_CELLS + 1];
    int16_t group_regions[MAX_PAIRS], region_groups[MAX_PAIRS], fill[MAX_CELLS];
    memset(group_start, 0, sizeof(int16_t) * (size_t)(k + 1));
    memset(region_start, 0, sizeof(int16_t) * (size_t)(regions + 1));
    for (int i = 0; i < pairs; i++) {
        group_start[pair_group[i] + 1]++;
        region_start[pair_region[i] + 1]++;
    }
    for (int g = 0; g < k; g++) {
        group_start[g + 1] += group_start[g];
    }
    for (int r = 0; r < regions; r++) {
        region_start[r + 1] += region_start[r];
    }
    memcpy(fill, group_start, sizeof(int16_t) * (size_t)k);
    for (int i = 0; i < pairs; i++) {
        group_regions[fill[pair_group[i]]++] = pair_region[i];
    }
    memcpy(fill, region_start, sizeof(int16_t) * (size_t)regions);
    for (int i = 0; i < pairs; i++) {
        region_groups[fill[pair_region[i]]++] = pair_group[i];
    }
    int16_t parent[MAX_CELLS], part[MAX_CELLS], todo[MAX_CELLS];
    uint8_t seen[MAX_CELLS], visited[MAX_CELLS];
    for (int g = 0; g < k; g++) {
        parent[g] = (int16_t)g;
    }
    for (int fence = 0; fence < k; fence++) {
        memset(seen, 0, (size_t)k);
        memset(visited, 0, (size_t)regions);
        seen[fence] = 1;
        for (int first = 0; first < k; first++) {
            if (seen[first]) {
                continue;
            }
            seen[first] = 1;
            int size = 0, top = 0, against = 0;
            part[size++] = (int16_t)first;
            todo[top++] = (int16_t)first;
            while (top) {
                int g = todo[--top];
                for (int i = group_start[g]; i < group_start[g + 1]; i++) {
                    int region = group_regions[i];
                    if (visited[region]) {
                        continue;
                    }
                    visited[region] = 1;
                    against |= opposed[region];
                    for (int j = region_start[region]; j < region_start[region + 1]; j++) {
                        int h = region_groups[j];
                        if (!seen[h]) {
                            seen[h] = 1;
                            part[size++] = (int16_t)h;
                            todo[top++] = (int16_t)h;
                        }
                    }
                }
            }
            if (!against) {
                int root = fence;
                while (parent[root] != root) {
                    root = parent[root];
                }
                for (int i = 0; i < size; i++) {
                    int g = part[i];
                    while (parent[g] != g) {
                        g = parent[g];
                    }
                    parent[g] = (int16_t)root;
                }
            }
        }
    }
    int counted = 0;
    for (int g = 0; g < k; g++) {
        counted += parent[g] == g;
    }
    return counted;
}

/* scoring.count(...).score of `stones`: (Black's, White's) sprouts controlled - 2 x counted groups. */
static void
count_scores(const TablesObject *t, const uint8_t *stones, int *black, int *white)
{
    int n = t->n;
    uint8_t cells[MAX_CELLS], seen[MAX_CELLS];
    int16_t stack[MAX_CELLS], group[MAX_CELLS];
    memcpy(cells, stones, (size_t)n);
    memset(seen, 0, (size_t)n);
    /* a group with no stone on a sprout is dead and leaves the board */
    for (int start = 0; start < n; start++) {
        int colour = stones[start];
        if (colour == 0 || seen[start]) {
            continue;
        }
        int top = 0, size = 0, alive = 0;
        seen[start] = 1;
        stack[top++] = (int16_t)start;
        while (top) {
            int c = stack[--top];
            group[size++] = (int16_t)c;
            alive |= t->sprout[c];
            for (int d = 0; d < 6; d++) {
                int nb = t->around[c][d];
                if (nb >= 0 && !seen[nb] && stones[nb] == colour) {
                    seen[nb] = 1;
                    stack[top++] = (int16_t)nb;
                }
            }
        }
        if (!alive) {
            for (int i = 0; i < size; i++) {
                cells[group[i]] = 0;
            }
        }
    }
    int sprouts[3] = {0, 0, 0};
    for (int i = 0; i < t->nsprouts; i++) {
        sprouts[cells[t->sprouts[i]]]++;
    }
    /* an empty sprout counts for the only colour its empty region borders */
    uint8_t owner[MAX_CELLS];
    memset(seen, 0, (size_t)n);
    memset(owner, 0, (size_t)n);
    for (int start = 0; start < n; start++) {
        if (cells[start] != 0 || seen[start]) {
            continue;
        }
        int top = 0, size = 0, borders = 0;
        seen[start] = 1;
        stack[top++] = (int16_t)start;
        while (top) {
            int c = stack[--top];
            group[size++] = (int16_t)c;
            for (int d = 0; d < 6; d++) {
                int nb = t->around[c][d];
                if (nb < 0) {
                    continue;
                }
                if (cells[nb] != 0) {
                    borders |= cells[nb];
                }
                else if (!seen[nb]) {
                    seen[nb] = 1;
                    stack[top++] = (int16_t)nb;
                }
            }
        }
        if (borders == BLACK || borders == WHITE) {
            for (int i = 0; i < size; i++) {
                owner[group[i]] = (uint8_t)borders;
            }
        }
    }
    for (int i = 0; i < t->nsprouts; i++) {
        int s = t->sprouts[i];
        if (cells[s] == 0 && owner[s]) {
            sprouts[owner[s]]++;
        }
    }
    *black = sprouts[BLACK] - 2 * counted_groups(t, cells, BLACK);
    *white = sprouts[WHITE] - 2 * counted_groups(t, cells, WHITE);
}

/* --- Kernel: one position ---------------------------------------------------------------------------------------- */

typedef struct {
    int16_t action;  /* a cell, PASS_ACTION or SWAP_MARK */
    int16_t big;     /* the root the stone's groups were joined under */
    uint8_t passes;  /* passes in a row before the action */
    uint8_t nroots;  /* the distinct roots joined (at most 3 arcs, or one ring) */
    int16_t roots[3];
} Entry;

typedef struct {
    PyObject_HEAD
    TablesObject *tables;
    PyObject *termination; /* NULL while the game goes on */
    PyObject *score;       /* (Black's, White's) after the count, else NULL */
    Py_ssize_t plies;
    Py_ssize_t max_plies;
    int n;
    int to_move;
    int passes;
    int result;
    int loop_at;           /* -1 unless a loop ended the game */
    int empty_count;
    uint64_t stones_key;
    Entry *stack;
    Py_ssize_t depth, capacity;
    uint8_t cells[MAX_CELLS];
    uint8_t pattern[2][MAX_CELLS]; /* per colour, the 6-bit pattern of its stones round each cell */
    int16_t parent[MAX_CELLS];
    int16_t size[MAX_CELLS];
} KernelObject;

static PyTypeObject KernelType;

static int
Kernel_traverse(KernelObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->tables);
    Py_VISIT(self->termination);
    Py_VISIT(self->score);
    return 0;
}

static int
Kernel_clear(KernelObject *self)
{
    Py_CLEAR(self->tables);
    Py_CLEAR(self->termination);
    Py_CLEAR(self->score);
    return 0;
}

static void
Kernel_dealloc(KernelObject *self)
{
    PyObject_GC_UnTrack(self);
    Kernel_clear(self);
    PyMem_Free(self->stack);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
Kernel_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"tables", "max_plies", NULL};
    PyObject *tables, *limit;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!O:Kernel", kwlist, &TablesType, &tables, &limit)) {
        return NULL;
    }
    if (!PyLong_Check(limit)) {
        PyErr_Format(PyExc_TypeError, "max_plies must be an int, got %R", limit);
        return NULL;
    }
    int overflow;
    long long max_plies = PyLong_AsLongLongAndOverflow(limit, &overflow);
    if (max_plies == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (overflow > 0 || max_plies > PY_SSIZE_T_MAX) {
        max_plies = PY_SSIZE_T_MAX;
    }
    else if (overflow < 0 || max_plies < -PY_SSIZE_T_MAX) {
        max_plies = -PY_SSIZE_T_MAX;
    }
    KernelObject *self = (KernelObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    TablesObject *t = (TablesObject *)tables;
    self->tables = (TablesObject *)Py_NewRef(tables);
    self->n = t->n;
    self->max_plies = (Py_ssize_t)max_plies;
    self->to_move = WHITE;
    self->result = ONGOING;
    self->loop_at = -1;
    self->empty_count = t->n;
    for (int c = 0; c < t->n; c++) {
        self->parent[c] = (int16_t)c;
        self->size[c] = 1;
    }
    return (PyObject *)self;
}

static int
Kernel_init(PyObject *Py_UNUSED(self), PyObject *Py_UNUSED(args), PyObject *Py_UNUSED(kwds))
{
    return 0; /* everything happens in __new__ */
}

static int
reserve(KernelObject *self)
{
    if (self->depth < self->capacity) {
        return 0;
    }
    Py_ssize_t capacity = self->capacity ? 2 * self->capacity : 64;
    Entry *stack = PyMem_Realloc(self->stack, sizeof(Entry) * (size_t)capacity);
    if (stack == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->stack = stack;
    self->capacity = capacity;
    return 0;
}

static inline int
root_of(const int16_t *parent, int cell)
{
    while (parent[cell] != cell) {
        cell = parent[cell];
    }
    return cell;
}

/* LoopTracker.place: record a stone of `colour` just put on `cell`; 1 when it closed a loop. */
static int
place(KernelObject *self, int cell, int colour, Entry *entry)
{
    const TablesObject *t = self->tables;
    uint8_t *pattern = self->pattern[colour - 1];
    int16_t *parent = self->parent, *size = self->size;
    const int16_t *ring = t->around[cell];
    int own = pattern[cell];
    int loop = own == FULL, nroots = 0;
    int16_t roots[3];
    for (int i = 0; i < arc_count[own]; i++) {
        int root = root_of(parent, ring[arc_starts[own][i]]), known = 0;
        for (int j = 0; j < nroots; j++) {
            known |= roots[j] == root;
        }
        if (known) {
            loop = 1;
        }
        else {
            roots[nroots++] = (int16_t)root;
        }
    }
    for (int d = 0; d < 6; d++) {
        int nb = ring[d];
        if (nb >= 0) {
            int around = pattern[nb] | (1 << ((d + 3) % 6));
            pattern[nb] = (uint8_t)around;
            if (around == FULL && self->cells[nb] == colour) { /* the stone completed a ring round its neighbour */
                loop = 1;
            }
        }
    }
    if (own == FULL) { /* one arc all round has no start */
        roots[nroots++] = (int16_t)root_of(parent, ring[0]);
    }
    entry->nroots = (uint8_t)nroots;
    entry->big = (int16_t)cell;
    if (!nroots) {
        return loop;
    }
    int big = roots[0];
    for (int i = 1; i < nroots; i++) {
        if (size[roots[i]] > size[big]) {
            big = roots[i];
        }
    }
    int total = size[big] + 1;
    for (int i = 0; i < nroots; i++) {
        entry->roots[i] = roots[i];
        if (roots[i] != big) {
            parent[roots[i]] = (int16_t)big;
            total += size[roots[i]];
        }
    }
    size[big] = (int16_t)total;
    parent[cell] = (int16_t)big;
    entry->big = (int16_t)big;
    return loop;
}

/* LoopTracker.undo of the stone of `entry`. */
static void
unplace(KernelObject *self, int colour, const Entry *entry)
{
    int cell = entry->action;
    uint8_t *pattern = self->pattern[colour - 1];
    const int16_t *ring = self->tables->around[cell];
    for (int d = 0; d < 6; d++) {
        if (ring[d] >= 0) {
            pattern[ring[d]] ^= (uint8_t)(1 << ((d + 3) % 6));
        }
    }
    if (!entry->nroots) {
        return;
    }
    int big = entry->big, total = self->size[big] - 1;
    for (int i = 0; i < entry->nroots; i++) {
        int root = entry->roots[i];
        if (root != big) {
            self->parent[root] = (int16_t)root;
            total -= self->size[root];
        }
    }
    self->size[big] = (int16_t)total;
    self->parent[cell] = (int16_t)cell;
}

/* LoopTracker.closes: 1 when a stone of `colour` on the empty `cell` would close a loop. */
static int
closes(const KernelObject *self, int cell, int colour)
{
    const uint8_t *pattern = self->pattern[colour - 1];
    int own = pattern[cell];
    if (!may_close[own]) {
        return 0;
    }
    if (own == FULL) {
        return 1;
    }
    const int16_t *ring = self->tables->around[cell];
    if (arc_count[own] > 1) {
        int16_t roots[3];
        for (int i = 0; i < arc_count[own]; i++) {
            int root = root_of(self->parent, ring[arc_starts[own][i]]);
            for (int j = 0; j < i; j++) {
                if (roots[j] == root) {
                    return 1;
                }
            }
            roots[i] = (int16_t)root;
        }
    }
    for (int d = 0; d < 6; d++) {
        int nb = ring[d];
        if (nb >= 0 && (pattern[nb] | (1 << ((d + 3) % 6))) == FULL && self->cells[nb] == colour) {
            return 1;
        }
    }
    return 0;
}

/* The int action of `arg` in 0..PASS_ACTION, or -1 for any other object or value (no error set). */
static long
action_of(PyObject *arg)
{
    int overflow;
    long long value;
    if (!core_action_ll(arg, &value, &overflow)) {
        return -1;
    }
    return overflow || value < 0 || value > PASS_ACTION ? -1 : (long)value;
}

static PyObject *
score_tuple(int black, int white)
{
    return Py_BuildValue("(dd)", (double)black, (double)white);
}

static PyObject *
Kernel_apply(KernelObject *self, PyObject *arg)
{
    long action = action_of(arg);
    if (action < 0 || (action != PASS_ACTION && (action >= self->n || self->cells[action] != 0))) {
        PyErr_Format(PyExc_ValueError, "action %R is not legal here", arg);
        return NULL;
    }
    if (self->result != ONGOING) {
        PyErr_Format(PyExc_ValueError, "action %R after the end of the game", arg);
        return NULL;
    }
    if (reserve(self) < 0) {
        return NULL;
    }
    PyObject *score = NULL;
    if (action == PASS_ACTION && self->passes >= 1) { /* the second pass: count before anything changes */
        int black, white;
        count_scores(self->tables, self->cells, &black, &white);
        score = score_tuple(black, white);
        if (score == NULL) {
            return NULL;
        }
    }
    int colour = self->to_move;
    self->to_move = 3 - colour;
    self->plies++;
    Entry *entry = &self->stack[self->depth++];
    entry->action = (int16_t)action;
    entry->passes = (uint8_t)(self->passes > 255 ? 255 : self->passes);
    entry->nroots = 0;
    if (action == PASS_ACTION) {
        self->passes++;
        if (score != NULL) {
            double black = PyFloat_AS_DOUBLE(PyTuple_GET_ITEM(score, 0));
            double white = PyFloat_AS_DOUBLE(PyTuple_GET_ITEM(score, 1));
            self->result = black == white ? DRAW : black > white ? BLACK : WHITE;
            self->termination = Py_NewRef(self->tables->score);
            self->score = score;
        }
        else if (self->plies >= self->max_plies) {
            self->result = DRAW;
            self->termination = Py_NewRef(self->tables->move_limit);
        }
        Py_RETURN_NONE;
    }
    self->cells[action] = (uint8_t)colour;
    self->empty_count--;
    self->stones_key ^= self->tables->zobrist[colour - 1][action];
    self->passes = 0;
    if (place(self, (int)action, colour, entry)) {
        self->result = colour;
        self->termination = Py_NewRef(self->tables->loop);
        self->loop_at = (int)action;
    }
    else if (self->plies >= self->max_plies) {
        self->result = DRAW;
        self->termination = Py_NewRef(self->tables->move_limit);
    }
    Py_RETURN_NONE;
}

static PyObject *
Kernel_undo(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    if (self->depth == 0) {
        PyErr_SetString(PyExc_IndexError, "undo with nothing to take back");
        return NULL;
    }
    const Entry *entry = &self->stack[--self->depth];
    self->plies--;
    if (entry->action == SWAP_MARK) {
        Py_RETURN_NONE;
    }
    int colour = self->to_move = 3 - self->to_move;
    self->passes = entry->passes;
    if (self->result != ONGOING) {
        self->result = ONGOING;
        self->loop_at = -1;
        Py_CLEAR(self->termination);
        Py_CLEAR(self->score);
    }
    if (entry->action == PASS_ACTION) {
        Py_RETURN_NONE;
    }
    int cell = entry->action;
    self->cells[cell] = 0;
    self->empty_count++;
    self->stones_key ^= self->tables->zobrist[colour - 1][cell];
    unplace(self, colour, entry);
    Py_RETURN_NONE;
}

static PyObject *
Kernel_count_swap(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    if (reserve(self) < 0) {
        return NULL;
    }
    Entry *entry = &self->stack[self->depth++];
    entry->action = SWAP_MARK;
    entry->passes = 0;
    entry->nroots = 0;
    self->plies++;
    Py_RETURN_NONE;
}

static PyObject *
Kernel_is_legal(KernelObject *self, PyObject *arg)
{
    if (self->result != ONGOING) {
        Py_RETURN_FALSE;
    }
    long action = action_of(arg);
    return PyBool_FromLong(action == PASS_ACTION || (action >= 0 && action < self->n && self->cells[action] == 0));
}

/* The empty cells in ascending order (`objects[cell]` for each), then `objects[n]` when `with_last`. */
static PyObject *
empty_list(KernelObject *self, PyObject *objects, int with_last)
{
    PyObject *list = PyList_New(self->empty_count + with_last);
    if (list == NULL) {
        return NULL;
    }
    Py_ssize_t i = 0;
    for (int c = 0; c < self->n && i < self->empty_count; c++) {
        if (self->cells[c] == 0) {
            PyList_SET_ITEM(list, i++, Py_NewRef(PyTuple_GET_ITEM(objects, c)));
        }
    }
    if (with_last) {
        PyList_SET_ITEM(list, i, Py_NewRef(PyTuple_GET_ITEM(objects, self->n)));
    }
    return list;
}

static PyObject *
Kernel_legal_actions(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    if (self->result != ONGOING) {
        return PyList_New(0);
    }
    return empty_list(self, self->tables->ints, 1);
}

static PyObject *
Kernel_legal_objects(KernelObject *self, PyObject *objects)
{
    if (!PyTuple_Check(objects) || PyTuple_GET_SIZE(objects) < self->n + 1) {
        PyErr_Format(PyExc_TypeError, "legal_objects needs a tuple of at least %d objects", self->n + 1);
        return NULL;
    }
    if (self->result != ONGOING) {
        return PyList_New(0);
    }
    return empty_list(self, objects, 1);
}

static PyObject *
Kernel_placements(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    return empty_list(self, self->tables->ints, 0);
}

static PyObject *
Kernel_key(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    const TablesObject *t = self->tables;
    uint64_t key = self->stones_key ^ (self->to_move == WHITE ? t->z_white : 0)
                   ^ t->z_passes[self->passes > 2 ? 2 : self->passes];
    return PyLong_FromUnsignedLongLong(key);
}

static PyObject *
Kernel_clone(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    PyTypeObject *type = Py_TYPE(self);
    KernelObject *new = (KernelObject *)type->tp_alloc(type, 0);
    if (new == NULL) {
        return NULL;
    }
    if (self->depth) {
        new->stack = PyMem_Malloc(sizeof(Entry) * (size_t)self->depth);
        if (new->stack == NULL) {
            Py_DECREF(new);
            return PyErr_NoMemory();
        }
        memcpy(new->stack, self->stack, sizeof(Entry) * (size_t)self->depth);
        new->capacity = new->depth = self->depth;
    }
    new->tables = (TablesObject *)Py_NewRef(self->tables);
    new->termination = Py_XNewRef(self->termination);
    new->score = Py_XNewRef(self->score);
    new->plies = self->plies;
    new->max_plies = self->max_plies;
    new->n = self->n;
    new->to_move = self->to_move;
    new->passes = self->passes;
    new->result = self->result;
    new->loop_at = self->loop_at;
    new->empty_count = self->empty_count;
    new->stones_key = self->stones_key;
    size_t n = (size_t)self->n;
    memcpy(new->cells, self->cells, n);
    memcpy(new->pattern[0], self->pattern[0], n);
    memcpy(new->pattern[1], self->pattern[1], n);
    memcpy(new->parent, self->parent, sizeof(int16_t) * n);
    memcpy(new->size, self->size, sizeof(int16_t) * n);
    return (PyObject *)new;
}

static int
colour_arg(PyObject *arg)
{
    long colour = PyLong_Check(arg) ? PyLong_AsLong(arg) : 0;
    if (colour == -1 && PyErr_Occurred()) {
        PyErr_Clear();
    }
    if (colour != BLACK && colour != WHITE) {
        PyErr_Format(PyExc_ValueError, "colour %R is neither 1 (black) nor 2 (white)", arg);
        return -1;
    }
    return (int)colour;
}

static PyObject *
Kernel_first_closing(KernelObject *self, PyObject *arg)
{
    int colour = colour_arg(arg);
    if (colour < 0) {
        return NULL;
    }
    for (int c = 0; c < self->n; c++) {
        if (self->cells[c] == 0 && closes(self, c, colour)) {
            return Py_NewRef(PyTuple_GET_ITEM(self->tables->ints, c));
        }
    }
    Py_RETURN_NONE;
}

static PyObject *
Kernel_closing_cells(KernelObject *self, PyObject *arg)
{
    int colour = colour_arg(arg);
    if (colour < 0) {
        return NULL;
    }
    PyObject *list = PyList_New(0);
    for (int c = 0; list != NULL && c < self->n; c++) {
        if (self->cells[c] == 0 && closes(self, c, colour)
            && PyList_Append(list, PyTuple_GET_ITEM(self->tables->ints, c)) < 0) {
            Py_CLEAR(list);
        }
    }
    return list;
}

static PyObject *
Kernel_count_score(KernelObject *self, PyObject *Py_UNUSED(ignored))
{
    int black, white;
    count_scores(self->tables, self->cells, &black, &white);
    return Py_BuildValue("(ii)", black, white);
}

/* YvyKernel.rollout: the empty cells filled in random order from the side to move until the first loop. */
static PyObject *
Kernel_rollout(KernelObject *self, PyObject *args)
{
    PyObject *seed_obj, *plies_obj, *trace = Py_None;
    if (!PyArg_ParseTuple(args, "O!O!|O:rollout", &PyLong_Type, &seed_obj, &PyLong_Type, &plies_obj, &trace)) {
        return NULL;
    }
    if (core_check_trace(trace == Py_None ? NULL : trace) < 0) {
        return NULL;
    }
    if (self->result != ONGOING) {
        return PyFloat_FromDouble(core_result_value(self->result));
    }
    uint64_t state = PyLong_AsUnsignedLongLongMask(seed_obj);
    if (state == (uint64_t)-1 && PyErr_Occurred()) {
        return NULL;
    }
    int overflow;
    long long stones = PyLong_AsLongLongAndOverflow(plies_obj, &overflow);
    if (stones == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (overflow) {
        stones = overflow > 0 ? MAX_CELLS : -1;
    }
    const TablesObject *t = self->tables;
    int n = self->n, num = self->empty_count;
    uint8_t cells[MAX_CELLS], pattern[2][MAX_CELLS];
    int16_t parent[MAX_CELLS], pool[MAX_CELLS];
    memcpy(cells, self->cells, (size_t)n);
    memcpy(pattern[0], self->pattern[0], (size_t)n);
    memcpy(pattern[1], self->pattern[1], (size_t)n);
    memcpy(parent, self->parent, sizeof(int16_t) * (size_t)n);
    int left = 0;
    for (int c = 0; c < n; c++) {
        if (cells[c] == 0) {
            pool[left++] = (int16_t)c;
        }
    }
    int end = stones < 0 ? left : stones >= left ? 0 : left - (int)stones;
    int colour = self->to_move, winner = 0;
    while (left > end) {
        int pick = (int)(core_splitmix64(&state) % (uint64_t)left);
        left--;
        int cell = pool[pick];
        pool[pick] = pool[left];
        pool[left] = (int16_t)cell; /* the cells played gather at the end of the pool, last first */
        cells[cell] = (uint8_t)colour;
        uint8_t *pat = pattern[colour - 1];
        int own = pat[cell];
        if (own == FULL) {
            winner = colour;
            break;
        }
        const int16_t *ring = t->around[cell];
        int16_t roots[3];
        int nroots = 0;
        for (int i = 0; i < arc_count[own] && !winner; i++) {
            int root = ring[arc_starts[own][i]];
            while (parent[root] != root) {
                parent[root] = parent[parent[root]]; /* path halving: these tables are thrown away */
                root = parent[root];
            }
            for (int j = 0; j < nroots; j++) {
                if (roots[j] == root) {
                    winner = colour;
                }
            }
            roots[nroots++] = (int16_t)root;
        }
        if (winner) {
            break;
        }
        for (int d = 0; d < 6; d++) {
            int nb = ring[d];
            if (nb >= 0) {
                int around = pat[nb] | (1 << ((d + 3) % 6));
                pat[nb] = (uint8_t)around;
                if (around == FULL && cells[nb] == colour) {
                    winner = colour;
                }
            }
        }
        if (winner) {
            break;
        }
        for (int i = 0; i < nroots; i++) {
            parent[roots[i]] = (int16_t)cell;
        }
        colour = 3 - colour;
    }
    long long played = num - left;
    long long room = (long long)self->max_plies - (long long)self->plies;
    if (trace != Py_None) {
        long long keep = room >= 0 ? (room < played ? room : played) : (played + room > 0 ? played + room : 0);
        for (long long i = 0; i < keep; i++) {
            if (PyList_Append(trace, PyTuple_GET_ITEM(t->ints, pool[num - 1 - i])) < 0) {
                return NULL;
            }
        }
    }
    if (winner && played <= room) {
        return PyFloat_FromDouble(winner == BLACK ? 1.0 : 0.0);
    }
    if (played >= room || played < num) {
        return PyFloat_FromDouble(0.5);
    }
    int black, white;
    count_scores(t, cells, &black, &white);
    return PyFloat_FromDouble(black == white ? 0.5 : black > white ? 1.0 : 0.0);
}

static PyObject *
Kernel_setup_stones(KernelObject *self, PyObject *args)
{
    PyObject *black, *white, *to_move;
    if (!PyArg_ParseTuple(args, "OOO:_setup", &black, &white, &to_move)) {
        return NULL;
    }
    if (self->depth || self->plies || self->result != ONGOING) {
        PyErr_SetString(PyExc_ValueError, "stones are set up on a new kernel only");
        return NULL;
    }
    int mover = colour_arg(to_move);
    if (mover < 0) {
        return NULL;
    }
    PyObject *lists[2] = {black, white};
    for (int colour = BLACK; colour <= WHITE; colour++) {
        PyObject *seq = PySequence_Fast(lists[colour - 1], "stones must be a sequence of cells");
        if (seq == NULL) {
            return NULL;
        }
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
            PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
            long cell = action_of(item);
            if (cell < 0 || cell >= self->n || self->cells[cell] != 0) {
                PyErr_Format(PyExc_ValueError, "cell %R is not an empty cell of the board", item);
                Py_DECREF(seq);
                return NULL;
            }
            Entry entry; /* the log is dropped, as LoopTracker's after a set-up: set-up stones stay */
            self->cells[cell] = (uint8_t)colour;
            self->empty_count--;
            self->stones_key ^= self->tables->zobrist[colour - 1][cell];
            place(self, (int)cell, colour, &entry);
        }
        Py_DECREF(seq);
    }
    self->to_move = mover;
    Py_RETURN_NONE;
}

static PyObject *
Kernel_get_cells(KernelObject *self, void *Py_UNUSED(closure))
{
    return core_cells_list(self->cells, self->n);
}

static PyObject *
Kernel_get_empties(KernelObject *self, void *Py_UNUSED(closure))
{
    return empty_list(self, self->tables->ints, 0);
}

static PyObject *
Kernel_get_loop_at(KernelObject *self, void *Py_UNUSED(closure))
{
    if (self->loop_at < 0) {
        Py_RETURN_NONE;
    }
    return Py_NewRef(PyTuple_GET_ITEM(self->tables->ints, self->loop_at));
}

static PyObject *
Kernel_get_geo(KernelObject *self, void *Py_UNUSED(closure))
{
    return Py_NewRef(self->tables->geo);
}

static PyObject *
Kernel_get_tables(KernelObject *self, void *Py_UNUSED(closure))
{
    return Py_NewRef((PyObject *)self->tables);
}

static PyMethodDef Kernel_methods[] = {
    {"legal_actions", (PyCFunction)Kernel_legal_actions, METH_NOARGS,
     PyDoc_STR("The empty cells in ascending order, then the pass; empty once over.")},
    {"legal_objects", (PyCFunction)Kernel_legal_objects, METH_O,
     PyDoc_STR("legal_objects(objects, /)\n--\n\n`objects[a]` for each legal action a (objects[n] for the pass).")},
    {"is_legal", (PyCFunction)Kernel_is_legal, METH_O, PyDoc_STR("An empty cell or the pass, while the game goes on.")},
    {"apply", (PyCFunction)Kernel_apply, METH_O,
     PyDoc_STR("Place or pass, then judge: a loop, two passes (the count), the move limit.")},
    {"undo", (PyCFunction)Kernel_undo, METH_NOARGS, PyDoc_STR("Take back the last action or the pie answer's ply.")},
    {"count_swap", (PyCFunction)Kernel_count_swap, METH_NOARGS,
     PyDoc_STR("The pie answer's ply: counted, nothing else changes.")},
    {"key", (PyCFunction)Kernel_key, METH_NOARGS,
     PyDoc_STR("A Zobrist key of the stones, the side to move and the passes in a row.")},
    {"clone", (PyCFunction)Kernel_clone, METH_NOARGS, PyDoc_STR("An independent copy, undo history included.")},
    {"placements", (PyCFunction)Kernel_placements, METH_NOARGS, PyDoc_STR("The empty cells, a fresh list.")},
    {"first_closing", (PyCFunction)Kernel_first_closing, METH_O,
     PyDoc_STR("The first empty cell (ascending) where a stone of `colour` closes a loop, or None.")},
    {"closing_cells", (PyCFunction)Kernel_closing_cells, METH_O,
     PyDoc_STR("The empty cells where a stone of `colour` would close a loop now.")},
    {"count_score", (PyCFunction)Kernel_count_score, METH_NOARGS,
     PyDoc_STR("(Black's, White's) score of the count of the position as it stands.")},
    {"rollout", (PyCFunction)Kernel_rollout, METH_VARARGS,
     PyDoc_STR("rollout(seed, plies, trace=None, /)\n--\n\nBlack's value of a random fill from the splitmix64 "
               "stream of `seed` until the first loop (YvyKernel.rollout); the kernel is untouched.")},
    {"_setup", (PyCFunction)Kernel_setup_stones, METH_VARARGS,
     PyDoc_STR("_setup(black, white, to_move, /)\n--\n\nPut these stones on a new kernel (no ply, no loop judged).")},
    {NULL},
};

static PyGetSetDef Kernel_getset[] = {
    {"cells", (getter)Kernel_get_cells, NULL, PyDoc_STR("EMPTY or a Color value per cell: a new list."), NULL},
    {"empties", (getter)Kernel_get_empties, NULL, PyDoc_STR("The empty cells in ascending order: a new list."), NULL},
    {"loop_at", (getter)Kernel_get_loop_at, NULL, PyDoc_STR("The cell whose stone closed the winning loop."), NULL},
    {"geo", (getter)Kernel_get_geo, NULL, PyDoc_STR("The board's Geometry."), NULL},
    {"tables", (getter)Kernel_get_tables, NULL, PyDoc_STR("The board's Tables."), NULL},
    {NULL},
};

static PyMemberDef Kernel_members[] = {
    {"n", T_INT, offsetof(KernelObject, n), READONLY, PyDoc_STR("Cells on the board.")},
    {"to_move", T_INT, offsetof(KernelObject, to_move), READONLY, PyDoc_STR("The Color value of the side to move.")},
    {"plies", T_PYSSIZET, offsetof(KernelObject, plies), READONLY, PyDoc_STR("Actions since the start.")},
    {"max_plies", T_PYSSIZET, offsetof(KernelObject, max_plies), READONLY, PyDoc_STR("The move limit.")},
    {"passes", T_INT, offsetof(KernelObject, passes), READONLY, PyDoc_STR("Passes in a row just played.")},
    {"result", T_INT, offsetof(KernelObject, result), READONLY, PyDoc_STR("ONGOING, DRAW or the winner.")},
    {"empty_count", T_INT, offsetof(KernelObject, empty_count), READONLY, PyDoc_STR("Empty cells.")},
    {"termination", T_OBJECT, offsetof(KernelObject, termination), READONLY,
     PyDoc_STR("The Termination, None while the game goes on.")},
    {"score", T_OBJECT, offsetof(KernelObject, score), READONLY,
     PyDoc_STR("(Black's, White's) score after the count, else None.")},
    {NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ytourney.games.yvy._yvycore.Kernel",
    .tp_doc = PyDoc_STR("Kernel(tables, max_plies): one YvY position on the kernel protocol (see CYvyKernel)."),
    .tp_basicsize = sizeof(KernelObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = Kernel_new,
    .tp_init = Kernel_init,
    .tp_dealloc = (destructor)Kernel_dealloc,
    .tp_traverse = (traverseproc)Kernel_traverse,
    .tp_clear = (inquiry)Kernel_clear,
    .tp_methods = Kernel_methods,
    .tp_getset = Kernel_getset,
    .tp_members = Kernel_members,
};

/* --- module -------------------------------------------------------------------------------------------------- */

static struct PyModuleDef yvycore_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ytourney.games.yvy._yvycore",
    .m_doc = PyDoc_STR("C core of YvY's kernel and playouts (optional; the pure-Python kernel agrees move for move)."),
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__yvycore(void)
{
    build_pattern_tables();
    PyObject *module = core_module_create(&yvycore_module, "Tables", &TablesType, "Kernel", &KernelType, NULL);
    if (module != NULL && PyModule_AddIntConstant(module, "MAX_CELLS", MAX_CELLS) < 0) {
        Py_CLEAR(module);
    }
    return module;
}
