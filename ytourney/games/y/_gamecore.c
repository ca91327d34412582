/* Optional C core of ytourney.games.y.GameState: stones, turn, union-find with side masks on the roots, and the
 * move-by-move hot path (play, copy, empty/legal cells).
 *
 * ytourney.games.y.state builds `CGameState` as a Python subclass of `Core`; the rare paths (swap validation, every
 * error message, pickling) stay in Python.  `Core.play` handles a legal cell index entirely in C and hands
 * anything else (SWAP, a bad or occupied cell, a move after the end) to the subclass's `_play_slow`, so the
 * exceptions and their messages are the pure-Python ones.  Without a compiler this module is simply not built
 * and ytourney.games.y.state uses its pure-Python GameState.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

#define MAX_NEIGHBORS 6
#define MAX_CELLS 32000 /* cell indices and parents are int16 */

/* --- configuration set once by ytourney.games.y.state ----------------------------------------------------------- */

static PyObject *g_black;          /* Color.BLACK */
static PyObject *g_white;          /* Color.WHITE */
static PyObject *g_default_rules;  /* Rules() */
static PyObject *g_parse_board;    /* parse_board(spec) -> Board */
static PyObject *g_topology_for;   /* topology_for(board) -> Topology */
static PyObject *g_error;          /* YTourneyError */
static int g_all_sides = 7;
static PyObject *g_move_type;      /* ytourney.games.api.Move */
static PyObject *g_place_kind;     /* MoveKind.PLACE */
static PyObject *g_swap_move;      /* the api's SWAP Move */
static PyObject *g_outcomes;  /* (Black wins, White wins): what play returns when a move decides the game */
static PyObject *g_str_kind;
static PyObject *g_str_path;
static PyObject *g_small[3];       /* the ints 0, 1, 2 */

static PyObject *g_str_play_slow;  /* "_play_slow" */
static PyObject *g_str_misere;
static PyObject *g_str_pie;
static PyObject *g_str_spec;

/* One-entry caches: consecutive games nearly always share the board and the rules object. */
static PyObject *g_last_board;
static PyObject *g_last_topology;
static PyObject *g_last_rules;
static int g_last_misere;
static int g_last_pie;

/* --- Topology: the per-board tables ---------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;
    int16_t *neighbors; /* n rows of MAX_NEIGHBORS, padded with -1 */
    uint8_t *sides;     /* side mask of each cell */
    PyObject *moves;    /* the placement Move of every cell (a tuple), or NULL */
} TopologyObject;

static PyTypeObject TopologyType;

static void
Topology_dealloc(TopologyObject *self)
{
    PyMem_Free(self->neighbors);
    PyMem_Free(self->sides);
    Py_XDECREF(self->moves);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
Topology_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"neighbors", "sides", "moves", NULL};
    PyObject *neighbors, *sides, *moves = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|O:Topology", kwlist, &neighbors, &sides, &moves)) {
        return NULL;
    }
    PyObject *nb_seq = PySequence_Fast(neighbors, "neighbors must be a sequence of cell sequences");
    if (nb_seq == NULL) {
        return NULL;
    }
    PyObject *side_seq = PySequence_Fast(sides, "sides must be a sequence of side masks");
    if (side_seq == NULL) {
        Py_DECREF(nb_seq);
        return NULL;
    }
    TopologyObject *self = NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(nb_seq);
    if (n < 1 || n > MAX_CELLS) {
        PyErr_Format(PyExc_ValueError, "a board needs 1..%d cells, got %zd", MAX_CELLS, n);
        goto fail;
    }
    if (PySequence_Fast_GET_SIZE(side_seq) != n) {
        PyErr_Format(PyExc_ValueError, "expected %zd side masks, got %zd", n, PySequence_Fast_GET_SIZE(side_seq));
        goto fail;
    }
    self = (TopologyObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        goto fail;
    }
    self->n = n;
    if (moves != NULL && moves != Py_None) {
        if (!PyTuple_Check(moves) || PyTuple_GET_SIZE(moves) != n) {
            PyErr_Format(PyExc_ValueError, "moves must be a tuple of %zd placement moves", n);
            goto fail;
        }
        self->moves = Py_NewRef(moves);
    }
    self->neighbors = PyMem_Malloc(sizeof(int16_t) * MAX_NEIGHBORS * (size_t)n);
    self->sides = PyMem_Malloc((size_t)n);
    if (self->neighbors == NULL || self->sides == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t cell = 0; cell < n; cell++) {
        long side = PyLong_AsLong(PySequence_Fast_GET_ITEM(side_seq, cell));
        if (side == -1 && PyErr_Occurred()) {
            goto fail;
        }
        if (side < 0 || side > 7) {
            PyErr_Format(PyExc_ValueError, "side mask %ld of cell %zd is not in 0..7", side, cell);
            goto fail;
        }
        self->sides[cell] = (uint8_t)side;
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(nb_seq, cell), "neighbour rows must be sequences");
        if (row == NULL) {
            goto fail;
        }
        Py_ssize_t count = PySequence_Fast_GET_SIZE(row);
        if (count > MAX_NEIGHBORS) {
            Py_DECREF(row);
            PyErr_Format(PyExc_ValueError, "cell %zd has %zd neighbours; at most %d are supported", cell, count,
                         MAX_NEIGHBORS);
            goto fail;
        }
        int16_t *out = self->neighbors + cell * MAX_NEIGHBORS;
        for (Py_ssize_t k = 0; k < MAX_NEIGHBORS; k++) {
            out[k] = -1;
        }
        for (Py_ssize_t k = 0; k < count; k++) {
            long nb = PyLong_AsLong(PySequence_Fast_GET_ITEM(row, k));
            if (nb == -1 && PyErr_Occurred()) {
                Py_DECREF(row);
                goto fail;
            }
            if (nb < 0 || nb >= n || nb == cell) {
                Py_DECREF(row);
                PyErr_Format(PyExc_ValueError, "neighbour %ld of cell %zd is not another cell of the board", nb,
                             cell);
                goto fail;
            }
            out[k] = (int16_t)nb;
        }
        Py_DECREF(row);
    }
    Py_DECREF(nb_seq);
    Py_DECREF(side_seq);
    return (PyObject *)self;
fail:
    Py_DECREF(nb_seq);
    Py_DECREF(side_seq);
    Py_XDECREF(self);
    return NULL;
}

static PyObject *
Topology_get_num_cells(TopologyObject *self, void *closure)
{
    return PyLong_FromSsize_t(self->n);
}

static PyGetSetDef Topology_getset[] = {
    {"num_cells", (getter)Topology_get_num_cells, NULL, "Number of cells.", NULL},
    {NULL},
};

static PyTypeObject TopologyType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ytourney.games.y._gamecore.Topology",
    .tp_doc = PyDoc_STR("Neighbour rows and side masks of one board, shared by all its game states."),
    .tp_basicsize = sizeof(TopologyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Topology_new,
    .tp_dealloc = (destructor)Topology_dealloc,
    .tp_getset = Topology_getset,
};

/* --- Core: one game state ---------------------------------------------------------------------------------- */

typedef struct {
    PyObject_VAR_HEAD
    TopologyObject *topology;
    PyObject *board;
    PyObject *rules;
    Py_ssize_t n;
    Py_ssize_t num_moves;
    long handicap;
    long stones_left;
    uint8_t to_move; /* 1 Black, 2 White */
    uint8_t winner;  /* 0 while undecided */
    uint8_t swapped;
    uint8_t misere;
    uint8_t pie;
    /* Variable part, ob_size bytes: parent[n], moves[n + 2] (int16), then cells[n] and mask[n] (uint8). */
    int16_t data[1];
} CoreObject;

#define PARENT(s) ((s)->data)
#define MOVES(s) ((s)->data + (s)->n)
#define CELLS(s) ((uint8_t *)((s)->data + 2 * (s)->n + 2))
#define MASK(s) (CELLS(s) + (s)->n)
#define MOVE_CAPACITY(s) ((s)->n + 2)
#define DATA_BYTES(n) ((Py_ssize_t)(sizeof(int16_t) * (size_t)(2 * (n) + 2) + 2 * (size_t)(n)))

static PyTypeObject CoreType;

static inline PyObject *
color_object(int color)
{
    return color == 1 ? g_black : g_white;
}

static inline int
find_root(int16_t *parent, int cell)
{
    while (parent[cell] != cell) {
        parent[cell] = parent[parent[cell]];
        cell = parent[cell];
    }
    return cell;
}

static int
Core_traverse(CoreObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->topology);
    Py_VISIT(self->board);
    Py_VISIT(self->rules);
    return 0;
}

static int
Core_clear(CoreObject *self)
{
    Py_CLEAR(self->topology);
    Py_CLEAR(self->board);
    Py_CLEAR(self->rules);
    return 0;
}

static void
Core_dealloc(CoreObject *self)
{
    PyObject_GC_UnTrack(self);
    Core_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int
check_configured(void)
{
    if (g_black == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "ytourney.games.y._gamecore is not configured; use ytourney.games.y.state.GameState");
        return -1;
    }
    return 0;
}

/* The misère and pie flags of a rules object (cached for the last rules object seen). */
static int
rules_flags(PyObject *rules, int *misere, int *pie)
{
    if (rules != g_last_rules) {
        PyObject *value = PyObject_GetAttr(rules, g_str_misere);
        if (value == NULL) {
            return -1;
        }
        int new_misere = PyObject_IsTrue(value);
        Py_DECREF(value);
        if (new_misere < 0) {
            return -1;
        }
        value = PyObject_GetAttr(rules, g_str_pie);
        if (value == NULL) {
            return -1;
        }
        int new_pie = PyObject_IsTrue(value);
        Py_DECREF(value);
        if (new_pie < 0) {
            return -1;
        }
        Py_INCREF(rules);
        Py_XSETREF(g_last_rules, rules);
        g_last_misere = new_misere;
        g_last_pie = new_pie;
    }
    *misere = g_last_misere;
    *pie = g_last_pie;
    return 0;
}

static PyObject *
Core_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"board", "rules", "handicap", NULL};
    PyObject *board = NULL, *rules = Py_None, *handicap_obj = NULL;
    if (kwds == NULL && PyTuple_GET_SIZE(args) >= 1 && PyTuple_GET_SIZE(args) <= 3) {
        board = PyTuple_GET_ITEM(args, 0);
        if (PyTuple_GET_SIZE(args) >= 2) {
            rules = PyTuple_GET_ITEM(args, 1);
        }
        if (PyTuple_GET_SIZE(args) == 3) {
            handicap_obj = PyTuple_GET_ITEM(args, 2);
        }
    }
    else if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OO:GameState", kwlist, &board, &rules, &handicap_obj)) {
        return NULL;
    }
    if (check_configured() < 0) {
        return NULL;
    }
    CoreObject *self = NULL;
    TopologyObject *topology = NULL;
    Py_INCREF(board);
    if (PyUnicode_Check(board)) {
        Py_SETREF(board, PyObject_CallOneArg(g_parse_board, board));
        if (board == NULL) {
            return NULL;
        }
    }
    long handicap = 0;
    if (handicap_obj != NULL) {
        int overflow = 0;
        if (PyLong_Check(handicap_obj)) {
            handicap = PyLong_AsLongAndOverflow(handicap_obj, &overflow);
            if (handicap == -1 && PyErr_Occurred()) {
                goto fail;
            }
        }
        if (overflow > 0) {
            handicap = LONG_MAX; /* too large for any board: reported below */
        }
        else if (!PyLong_Check(handicap_obj) || handicap < 0 || overflow < 0) {
            PyErr_Format(g_error, "handicap level must be a whole number >= 0, got %R", handicap_obj);
            goto fail;
        }
    }
    if (board == g_last_board) {
        topology = (TopologyObject *)Py_NewRef(g_last_topology);
    }
    else {
        topology = (TopologyObject *)PyObject_CallOneArg(g_topology_for, board);
        if (topology == NULL) {
            goto fail;
        }
        if (!PyObject_TypeCheck(topology, &TopologyType)) {
            PyErr_SetString(PyExc_TypeError, "topology_for() must return a ytourney.games.y._gamecore.Topology");
            goto fail;
        }
        Py_INCREF(board);
        Py_XSETREF(g_last_board, board);
        Py_INCREF(topology);
        Py_XSETREF(g_last_topology, (PyObject *)topology);
    }
    Py_ssize_t n = topology->n;
    if (handicap >= n) {
        PyObject *spec = PyObject_GetAttr(board, g_str_spec);
        if (spec != NULL) {
            PyErr_Format(g_error, "handicap %S is too large for board %R of %zd cells", handicap_obj, spec, n);
            Py_DECREF(spec);
        }
        goto fail;
    }
    if (rules == Py_None) {
        rules = g_default_rules;
    }
    else {
        int truth = PyObject_IsTrue(rules); /* `rules or Rules()`, as the pure-Python state */
        if (truth < 0) {
            goto fail;
        }
        if (!truth) {
            rules = g_default_rules;
        }
    }
    int misere, pie;
    if (rules_flags(rules, &misere, &pie) < 0) {
        goto fail;
    }
    self = (CoreObject *)type->tp_alloc(type, DATA_BYTES(n));
    if (self == NULL) {
        goto fail;
    }
    self->topology = topology; /* steals the reference */
    self->board = board;       /* steals the reference */
    self->rules = Py_NewRef(rules);
    self->n = n;
    self->num_moves = 0;
    self->handicap = handicap;
    self->stones_left = handicap ? handicap : 1;
    self->to_move = 1;
    self->winner = 0;
    self->swapped = 0;
    self->misere = (uint8_t)misere;
    self->pie = (uint8_t)pie;
    int16_t *parent = PARENT(self);
    for (Py_ssize_t cell = 0; cell < n; cell++) {
        parent[cell] = (int16_t)cell;
    }
    memcpy(MASK(self), topology->sides, (size_t)n); /* cells are zeroed by tp_alloc */
    return (PyObject *)self;
fail:
    Py_XDECREF(topology);
    Py_DECREF(board);
    return NULL;
}

static int
Core_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    return 0; /* everything happens in __new__, which must know the board's size to allocate */
}

/* --- moves ------------------------------------------------------------------------------------------------- */

/* The cell a placement Move of the game API names, or -1 (any other object, or a Move of another kind). */
static Py_ssize_t
placement_cell(PyObject *arg)
{
    if (g_move_type == NULL || (PyObject *)Py_TYPE(arg) != g_move_type) {
        return -1;
    }
    PyObject *kind = PyObject_GetAttr(arg, g_str_kind);
    if (kind == NULL) {
        PyErr_Clear();
        return -1;
    }
    Py_DECREF(kind); /* still held by the Move: only its identity is compared */
    if (kind != g_place_kind) {
        return -1;
    }
    PyObject *path = PyObject_GetAttr(arg, g_str_path);
    if (path == NULL) {
        PyErr_Clear();
        return -1;
    }
    Py_ssize_t cell = -1;
    if (PyTuple_CheckExact(path) && PyTuple_GET_SIZE(path) == 1 && PyLong_CheckExact(PyTuple_GET_ITEM(path, 0))) {
        cell = PyLong_AsSsize_t(PyTuple_GET_ITEM(path, 0));
        if (cell == -1 && PyErr_Occurred()) {
            PyErr_Clear();
        }
    }
    Py_DECREF(path);
    return cell;
}

static PyObject *
Core_play(CoreObject *self, PyObject *arg)
{
    if (self->winner) {
        goto slow;
    }
    Py_ssize_t move;
    if (PyLong_CheckExact(arg)) {
        move = PyLong_AsSsize_t(arg);
    }
    else {
        move = placement_cell(arg); /* a placement Move plays like its cell index; anything else goes slow */
        if (move < 0) {
            goto slow;
        }
    }
    if (move < 0 || move >= self->n) {
        if (move == -1 && PyErr_Occurred()) {
            PyErr_Clear();
        }
        goto slow;
    }
    uint8_t *cells = CELLS(self);
    if (cells[move]) {
        goto slow;
    }
    int color = self->to_move;
    cells[move] = (uint8_t)color;
    MOVES(self)[self->num_moves++] = (int16_t)move;
    /* Union the new stone with every neighbouring group of its colour; the new stone becomes their root and
     * holds the merged side mask. */
    int16_t *parent = PARENT(self);
    uint8_t *mask = MASK(self);
    const int16_t *row = self->topology->neighbors + move * MAX_NEIGHBORS;
    int sides = mask[move];
    for (int k = 0; k < MAX_NEIGHBORS; k++) {
        int nb = row[k];
        if (nb < 0) {
            break;
        }
        if (cells[nb] == color) {
            int root = find_root(parent, nb);
            if (root != move) {
                parent[root] = (int16_t)move;
                sides |= mask[root];
            }
        }
    }
    mask[move] = (uint8_t)sides;
    if (sides == g_all_sides) {
        self->winner = (uint8_t)(self->misere ? 3 - color : color);
        if (g_outcomes != NULL) {
            return Py_NewRef(PyTuple_GET_ITEM(g_outcomes, self->winner - 1));
        }
        return Py_NewRef(color_object(self->winner));
    }
    if (self->stones_left == 1) {
        self->to_move = (uint8_t)(3 - color);
    }
    else {
        self->stones_left--;
    }
    Py_RETURN_NONE;
slow:
    /* SWAP, a bad or occupied cell, or a move after the end: validated (and raised) in Python. */
    return PyObject_CallMethodOneArg((PyObject *)self, g_str_play_slow, arg);
}

static PyObject *
Core_record_swap(CoreObject *self, PyObject *Py_UNUSED(ignored))
{
    if (self->winner || self->swapped || self->num_moves != 1 || self->num_moves >= MOVE_CAPACITY(self)) {
        PyErr_SetString(PyExc_RuntimeError, "_record_swap called where no swap is allowed");
        return NULL;
    }
    MOVES(self)[self->num_moves++] = -1;
    self->swapped = 1;
    Py_RETURN_NONE;
}

static PyObject *
Core_copy(CoreObject *self, PyObject *Py_UNUSED(ignored))
{
    PyTypeObject *type = Py_TYPE(self);
    CoreObject *new = (CoreObject *)type->tp_alloc(type, Py_SIZE(self));
    if (new == NULL) {
        return NULL;
    }
    new->topology = (TopologyObject *)Py_NewRef(self->topology);
    new->board = Py_NewRef(self->board);
    new->rules = Py_NewRef(self->rules);
    new->n = self->n;
    new->num_moves = self->num_moves;
    new->handicap = self->handicap;
    new->stones_left = self->stones_left;
    new->to_move = self->to_move;
    new->winner = self->winner;
    new->swapped = self->swapped;
    new->misere = self->misere;
    new->pie = self->pie;
    memcpy(new->data, self->data, (size_t)DATA_BYTES(self->n));
    return (PyObject *)new;
}

/* --- queries ----------------------------------------------------------------------------------------------- */

static PyObject *
empty_list(CoreObject *self, int with_swap)
{
    const uint8_t *cells = CELLS(self);
    Py_ssize_t n = self->n, count = 0;
    for (Py_ssize_t cell = 0; cell < n; cell++) {
        count += cells[cell] == 0;
    }
    PyObject *list = PyList_New(count + (with_swap ? 1 : 0));
    if (list == NULL) {
        return NULL;
    }
    Py_ssize_t i = 0;
    for (Py_ssize_t cell = 0; cell < n; cell++) {
        if (cells[cell] == 0) {
            PyObject *item = PyLong_FromSsize_t(cell);
            if (item == NULL) {
                Py_DECREF(list);
                return NULL;
            }
            PyList_SET_ITEM(list, i++, item);
        }
    }
    if (with_swap) {
        PyList_SET_ITEM(list, i, PyLong_FromLong(-1)); /* a small int: cannot fail */
    }
    return list;
}

static inline int
swap_allowed(CoreObject *self)
{
    return self->pie && self->handicap == 0 && self->num_moves == 1 && !self->winner;
}

static PyObject *
Core_empty_cells(CoreObject *self, PyObject *Py_UNUSED(ignored))
{
    return empty_list(self, 0);
}

static PyObject *
Core_legal_moves(CoreObject *self, PyObject *Py_UNUSED(ignored))
{
    if (self->winner) {
        return PyList_New(0);
    }
    return empty_list(self, swap_allowed(self));
}

static PyObject *
Core_move_list(CoreObject *self, PyObject *Py_UNUSED(ignored))
{
    if (self->winner) {
        return PyList_New(0);
    }
    PyObject *table = self->topology->moves;
    if (table == NULL || g_swap_move == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "this board's topology holds no placement moves");
        return NULL;
    }
    const uint8_t *cells = CELLS(self);
    Py_ssize_t n = self->n, count = 0;
    for (Py_ssize_t cell = 0; cell < n; cell++) {
        count += cells[cell] == 0;
    }
    int with_swap = swap_allowed(self);
    PyObject *list = PyList_New(count + with_swap);
    if (list == NULL) {
        return NULL;
    }
    Py_ssize_t i = 0;
    for (Py_ssize_t cell = 0; cell < n; cell++) {
        if (cells[cell] == 0) {
            PyList_SET_ITEM(list, i++, Py_NewRef(PyTuple_GET_ITEM(table, cell)));
        }
    }
    if (with_swap) {
        PyList_SET_ITEM(list, i, Py_NewRef(g_swap_move));
    }
    return list;
}

static PyObject *
Core_can_swap(CoreObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(swap_allowed(self));
}

static PyObject *
Core_is_legal(CoreObject *self, PyObject *move)
{
    if (self->winner) {
        Py_RETURN_FALSE;
    }
    if (PyLong_Check(move)) { /* isinstance(move, int), bool included, as the pure-Python state */
        int overflow;
        long value = PyLong_AsLongAndOverflow(move, &overflow);
        if (value == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (overflow) {
            Py_RETURN_FALSE;
        }
        if (value == -1) {
            return PyBool_FromLong(swap_allowed(self));
        }
        return PyBool_FromLong(value >= 0 && value < self->n && CELLS(self)[value] == 0);
    }
    PyObject *swap = PyLong_FromLong(-1);
    int is_swap = PyObject_RichCompareBool(move, swap, Py_EQ);
    Py_DECREF(swap);
    if (is_swap < 0) {
        return NULL;
    }
    return PyBool_FromLong(is_swap && swap_allowed(self));
}

static PyObject *
Core_group_sides(CoreObject *self, PyObject *arg)
{
    Py_ssize_t cell = PyNumber_AsSsize_t(arg, PyExc_IndexError);
    if (cell == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (cell < 0) {
        cell += self->n; /* list-style indexing, as the pure-Python state */
    }
    if (cell < 0 || cell >= self->n) {
        PyErr_SetString(PyExc_IndexError, "list index out of range");
        return NULL;
    }
    if (CELLS(self)[cell] == 0) {
        return PyLong_FromLong(0);
    }
    return PyLong_FromLong(MASK(self)[find_root(PARENT(self), (int)cell)]);
}

static PyObject *
Core_get_cells(CoreObject *self, void *closure)
{
    const uint8_t *cells = CELLS(self);
    PyObject *list = PyList_New(self->n);
    if (list == NULL) {
        return NULL;
    }
    for (Py_ssize_t cell = 0; cell < self->n; cell++) {
        PyList_SET_ITEM(list, cell, Py_NewRef(g_small[cells[cell]]));
    }
    return list;
}

static PyObject *
Core_get_moves(CoreObject *self, void *closure)
{
    const int16_t *moves = MOVES(self);
    PyObject *tuple = PyTuple_New(self->num_moves);
    if (tuple == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < self->num_moves; i++) {
        PyObject *item = PyLong_FromLong(moves[i]);
        if (item == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, item);
    }
    return tuple;
}

static PyObject *
Core_get_to_move(CoreObject *self, void *closure)
{
    return Py_NewRef(color_object(self->to_move));
}

static PyObject *
Core_get_winner(CoreObject *self, void *closure)
{
    if (!self->winner) {
        Py_RETURN_NONE;
    }
    return Py_NewRef(color_object(self->winner));
}

static PyObject *
Core_get_is_over(CoreObject *self, void *closure)
{
    return PyBool_FromLong(self->winner != 0);
}

static PyObject *
Core_get_swapped(CoreObject *self, void *closure)
{
    return PyBool_FromLong(self->swapped);
}

static PyObject *
Core_get_stones_left(CoreObject *self, void *closure)
{
    return PyLong_FromLong(self->stones_left);
}

static PyObject *
Core_get_num_stones(CoreObject *self, void *closure)
{
    return PyLong_FromSsize_t(self->num_moves - self->swapped);
}

static PyObject *
Core_get_handicap(CoreObject *self, void *closure)
{
    return PyLong_FromLong(self->handicap);
}

static PyMethodDef Core_methods[] = {
    {"play", (PyCFunction)Core_play, METH_O,
     PyDoc_STR("play($self, move, /)\n--\n\nApply one action (a cell index or SWAP), raising a specific "
               "IllegalMoveError if it is not legal; returns the outcome when this move decides the game, else None.")},
    {"copy", (PyCFunction)Core_copy, METH_NOARGS, PyDoc_STR("copy($self, /)\n--\n\nAn independent copy of this state.")},
    {"empty_cells", (PyCFunction)Core_empty_cells, METH_NOARGS,
     PyDoc_STR("empty_cells($self, /)\n--\n\nEmpty cells in index order.")},
    {"legal_moves", (PyCFunction)Core_legal_moves, METH_NOARGS,
     PyDoc_STR("legal_moves($self, /)\n--\n\nEvery legal action: the empty cells, plus SWAP when the pie rule offers "
               "it; empty once over.")},
    {"move_list", (PyCFunction)Core_move_list, METH_NOARGS,
     PyDoc_STR("move_list($self, /)\n--\n\nEvery legal action as a Move of the game API (swap last); empty once over.")},
    {"can_swap", (PyCFunction)Core_can_swap, METH_NOARGS,
     PyDoc_STR("can_swap($self, /)\n--\n\nTrue when the next action may be the pie answer 'swap'.")},
    {"is_legal", (PyCFunction)Core_is_legal, METH_O,
     PyDoc_STR("is_legal($self, move, /)\n--\n\nTrue when `play(move)` would succeed.")},
    {"group_sides", (PyCFunction)Core_group_sides, METH_O,
     PyDoc_STR("group_sides($self, cell, /)\n--\n\nSide mask of the group holding `cell` (0 for an empty cell).")},
    {"_record_swap", (PyCFunction)Core_record_swap, METH_NOARGS,
     PyDoc_STR("Record an already validated pie swap.")},
    {NULL},
};

static PyGetSetDef Core_getset[] = {
    {"cells", (getter)Core_get_cells, NULL, PyDoc_STR("Colour on every cell (0 empty, 1 Black, 2 White): a new list."),
     NULL},
    {"moves", (getter)Core_get_moves, NULL, PyDoc_STR("Every action so far in order, SWAP included."), NULL},
    {"to_move", (getter)Core_get_to_move, NULL,
     PyDoc_STR("Colour of the stone the next move places (a swap never changes it)."), NULL},
    {"winner", (getter)Core_get_winner, NULL,
     PyDoc_STR("The winning colour once the game is decided (misère already applied), else None."), NULL},
    {"is_over", (getter)Core_get_is_over, NULL, PyDoc_STR("True once a player has completed a Y."), NULL},
    {"swapped", (getter)Core_get_swapped, NULL,
     PyDoc_STR("True when the second player took the first stone with the pie rule."), NULL},
    {"stones_left_this_turn", (getter)Core_get_stones_left, NULL,
     PyDoc_STR("Stones the side to move still places before the turn passes (handicap turns place several)."), NULL},
    {"num_stones", (getter)Core_get_num_stones, NULL, PyDoc_STR("Stones on the board."), NULL},
    {"handicap", (getter)Core_get_handicap, NULL, PyDoc_STR("Handicap level of the game (0 for an even game)."), NULL},
    {NULL},
};

static PyMemberDef Core_members[] = {
    {"board", T_OBJECT, offsetof(CoreObject, board), READONLY, PyDoc_STR("The board.")},
    {"rules", T_OBJECT, offsetof(CoreObject, rules), READONLY, PyDoc_STR("The rule options.")},
    {NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ytourney.games.y._gamecore.Core",
    .tp_doc = PyDoc_STR("C storage and hot path of ytourney.games.y.CGameState (use that class, not this one)."),
    .tp_basicsize = offsetof(CoreObject, data),
    .tp_itemsize = 1,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = Core_new,
    .tp_init = Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_traverse = (traverseproc)Core_traverse,
    .tp_clear = (inquiry)Core_clear,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
    .tp_members = Core_members,
};

/* --- module -------------------------------------------------------------------------------------------------- */

static PyObject *
configure(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"black", "white", "default_rules", "parse_board", "topology_for", "error", "all_sides",
                             "move_type", "place_kind", "swap_move", "outcomes", NULL};
    PyObject *black, *white, *default_rules, *parse_board, *topology_for, *error;
    PyObject *move_type = NULL, *place_kind = NULL, *swap_move = NULL, *outcomes = NULL;
    int all_sides;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "$OOOOOOiOOOO:configure", kwlist, &black, &white, &default_rules,
                                     &parse_board, &topology_for, &error, &all_sides, &move_type, &place_kind,
                                     &swap_move, &outcomes)) {
        return NULL;
    }
    if (outcomes != NULL) {
        if (!PyTuple_CheckExact(outcomes) || PyTuple_GET_SIZE(outcomes) != 2) {
            PyErr_SetString(PyExc_TypeError, "outcomes must be a tuple of two outcomes (Black wins, White wins)");
            return NULL;
        }
        Py_XSETREF(g_outcomes, Py_NewRef(outcomes));
    }
    if (move_type != NULL) {
        Py_XSETREF(g_move_type, Py_NewRef(move_type));
    }
    if (place_kind != NULL) {
        Py_XSETREF(g_place_kind, Py_NewRef(place_kind));
    }
    if (swap_move != NULL) {
        Py_XSETREF(g_swap_move, Py_NewRef(swap_move));
    }
    if (!PyCallable_Check(parse_board) || !PyCallable_Check(topology_for)) {
        PyErr_SetString(PyExc_TypeError, "parse_board and topology_for must be callable");
        return NULL;
    }
    if (!PyExceptionClass_Check(error)) {
        PyErr_SetString(PyExc_TypeError, "error must be an exception class");
        return NULL;
    }
    Py_XSETREF(g_black, Py_NewRef(black));
    Py_XSETREF(g_white, Py_NewRef(white));
    Py_XSETREF(g_default_rules, Py_NewRef(default_rules));
    Py_XSETREF(g_parse_board, Py_NewRef(parse_board));
    Py_XSETREF(g_topology_for, Py_NewRef(topology_for));
    Py_XSETREF(g_error, Py_NewRef(error));
    Py_CLEAR(g_last_board);
    Py_CLEAR(g_last_topology);
    Py_CLEAR(g_last_rules);
    g_all_sides = all_sides;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"configure", (PyCFunction)(void (*)(void))configure, METH_VARARGS | METH_KEYWORDS,
     PyDoc_STR("configure(*, black, white, default_rules, parse_board, topology_for, error, all_sides)\n--\n\n"
               "Hand the module the Python objects it returns and calls (done once by ytourney.games.y.state).")},
    {NULL},
};

static struct PyModuleDef gamecore_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ytourney.games.y._gamecore",
    .m_doc = PyDoc_STR("C core of ytourney's GameState (optional; ytourney.games.y.state falls back to pure Python)."),
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC
PyInit__gamecore(void)
{
    if (PyType_Ready(&TopologyType) < 0 || PyType_Ready(&CoreType) < 0) {
        return NULL;
    }
    for (int i = 0; i < 3; i++) {
        if (g_small[i] == NULL && (g_small[i] = PyLong_FromLong(i)) == NULL) {
            return NULL;
        }
    }
    if (g_str_play_slow == NULL) {
        g_str_play_slow = PyUnicode_InternFromString("_play_slow");
        g_str_misere = PyUnicode_InternFromString("misere");
        g_str_pie = PyUnicode_InternFromString("pie");
        g_str_spec = PyUnicode_InternFromString("spec");
        g_str_kind = PyUnicode_InternFromString("kind");
        g_str_path = PyUnicode_InternFromString("path");
        if (!g_str_play_slow || !g_str_misere || !g_str_pie || !g_str_spec || !g_str_kind || !g_str_path) {
            return NULL;
        }
    }
    PyObject *module = PyModule_Create(&gamecore_module);
    if (module == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(module, "Topology", (PyObject *)&TopologyType) < 0 ||
        PyModule_AddObjectRef(module, "Core", (PyObject *)&CoreType) < 0 ||
        PyModule_AddIntConstant(module, "MAX_NEIGHBORS", MAX_NEIGHBORS) < 0 ||
        PyModule_AddIntConstant(module, "MAX_CELLS", MAX_CELLS) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
