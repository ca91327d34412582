/* Optional C search core of the `mcts-pro` bot: UCT with RAVE, knowledge priors, bridge-saving playouts that
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

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NB 6
#define TIME_EVERY 16  /* iterations between clock reads */
#define STOP_EVERY 64  /* iterations between early-stop checks */
#define SIGNAL_EVERY 256 /* iterations between taking the GIL back to let Ctrl-C (or any signal) through */

typedef struct {
    int32_t n, w, an, aw; /* visits and wins (for the player who moved into the node), AMAF visits and wins */
    int32_t first;        /* pool index of the first child, -1 when not expanded */
    int16_t num;          /* children */
    int16_t move;         /* the cell played into this node */
    int16_t know;         /* prior knowledge bonus */
    int16_t best;         /* for a solved node: the move that proves it */
    uint8_t outcome;      /* 0 unknown, else the colour known to win from here */
    uint8_t pad[3];
} Node;

typedef struct {
    PyObject_HEAD
    int n;
    int16_t *nbr;
    uint8_t *sides;
    int32_t *bstart;  /* n + 1 offsets into btab */
    int16_t *btab;    /* (a, b, y) triples: after an intrusion at x, y saves the link a-b (b = -1: a to a side) */
    uint8_t *dist;    /* n * n cell distances, clipped at 4 */
    int rollouts, expand_at, k_local, k_near, k_connect, k_bridge, pattern;
    double rave, fpu, explore;
    int64_t max_nodes, used, cap;
    Node *pool;
    uint8_t *cells, *mask;  /* the root position */
    int16_t *parent;
    int to_move, stones_left, misere, last;
    uint8_t *c, *m, *lc, *lm;       /* descent state and saved leaf state */
    int16_t *p, *e, *pos, *lp, *le, *lpos;
    int ne, lne;
    int32_t *path;
    uint8_t *pmover;
    int16_t *vp;       /* scratch union-find, side masks and carrier marks of the virtual-connection check */
    uint8_t *vm, *vused;
    int vc, lgr;
    int16_t *reply;    /* last good reply: per colour and previous cell, the cell that won a playout after it */
    int16_t *seq;      /* the moves of the current playout */
    uint64_t rng;
    int busy;  /* a search runs without the GIL: no other call may touch the tree meanwhile */
} Searcher;

static inline uint64_t
next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline int
below(uint64_t *state, int k)
{
    return (int)(((next_random(state) >> 32) * (uint64_t)k) >> 32);
}

static inline int
find(int16_t *parent, int x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

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
                      s->vp, s->vm, s->vused, s->reply, s->seq};
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

static void
reset_root(Searcher *s)
{
    s->used = 1;
    memset(&s->pool[0], 0, sizeof(Node));
    s->pool[0].first = -1;
    s->pool[0].move = -1;
    s->pool[0].best = -1;
    for (int i = 0; i < 2 * s->n; i++) {
        s->reply[i] = -1;
    }
}

static PyObject *
Searcher_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"neighbors", "sides", "bridges", "distances", "rollouts", "rave", "fpu", "expand_at",
                             "local", "near", "connect", "bridge", "pattern", "max_nodes", "vc", "lgr", "explore", NULL};
    PyObject *neighbors, *sides, *bridges, *distances;
    int rollouts, expand_at, k_local, k_near, k_connect, k_bridge, pattern;
    double rave, fpu;
    long long max_nodes;
    int vc = 1, lgr = 0;
    double explore = 0.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOiddiiiiipL|ppd:Searcher", kwlist, &neighbors, &sides, &bridges,
                                     &distances, &rollouts, &rave, &fpu, &expand_at, &k_local, &k_near, &k_connect,
                                     &k_bridge, &pattern, &max_nodes, &vc, &lgr, &explore)) {
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
    s->reply = malloc(sizeof(int16_t) * 2 * n);
    s->seq = malloc(sizeof(int16_t) * n);
    if (!s->nbr || !s->sides || !s->bstart || !s->dist || !s->pool || !s->cells || !s->mask || !s->parent || !s->c ||
        !s->m || !s->lc || !s->lm || !s->p || !s->e || !s->pos || !s->lp || !s->le || !s->lpos || !s->path ||
        !s->pmover || !s->vp || !s->vm || !s->vused || !s->reply || !s->seq) {
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
    reset_root(s);
    return (PyObject *)s;
fail:
    Py_DECREF(s);
    return NULL;
}

/* --- moves on the descent state ----------------------------------------------------------------------------- */

/* Place a stone of colour `color` on empty cell x of the descent state; returns the side mask of its group. */
static inline int
place(Searcher *s, int x, int color)
{
    uint8_t *c = s->c, *m = s->m;
    int16_t *p = s->p;
    c[x] = (uint8_t)color;
    int last = s->e[--s->ne];
    int at = s->pos[x];
    s->e[at] = (int16_t)last;
    s->pos[last] = (int16_t)at;
    int sides = m[x], root = x;
    const int16_t *row = s->nbr + NB * x;
    for (int k = 0; k < NB && row[k] >= 0; k++) {
        if (c[row[k]] == color) {
            int r = find(p, row[k]);
            if (root == x) { /* the stone joins the first neighbouring group: no tree grows taller */
                root = r;
                p[x] = (int16_t)r;
                sides |= m[r];
            }
            else if (r != root) {
                p[r] = (int16_t)root;
                sides |= m[r];
            }
        }
    }
    m[root] = (uint8_t)sides;
    return sides;
}

/* Sides a stone of `color` on empty cell x would join (the cell's own sides and its neighbouring groups'). */
static inline int
reach(Searcher *s, int x, int color)
{
    int sides = s->sides[x];
    const int16_t *row = s->nbr + NB * x;
    for (int k = 0; k < NB && row[k] >= 0; k++) {
        if (s->c[row[k]] == color) {
            sides |= s->m[find(s->p, row[k])];
        }
    }
    return sides;
}

/* The cell that saves a link of `color` broken by a stone on `last` (the first in table order), or -1; with
 * y_wanted >= 0, whether that cell saves one. */
static inline int
bridge_save(Searcher *s, int last, int color, int y_wanted)
{
    const int16_t *t = s->btab + 3 * s->bstart[last], *end = s->btab + 3 * s->bstart[last + 1];
    const uint8_t *c = s->c;
    if (y_wanted >= 0) {
        for (; t < end; t += 3) {
            if (t[2] == y_wanted && c[t[0]] == color && (t[1] < 0 || c[t[1]] == color) && c[y_wanted] == 0) {
                return y_wanted;
            }
        }
        return -1;
    }
    /* Branch-free, last triple first, so that the first match in table order is the one left: colours are 1
     * and 2, so `c & color` is nonzero exactly on `color`'s stones, and an edge template (b < 0) counts as 3. */
    int found = -1;
    while (end > t) {
        end -= 3;
        int cb = end[1] < 0 ? 3 : c[end[1]];
        int ok = (c[end[0]] & cb & color) != 0 && c[end[2]] == 0;
        found = ok ? end[2] : found;
    }
    return found;
}

/* --- the tree ------------------------------------------------------------------------------------------------- */

static inline double
value(const Searcher *s, const Node *c, int32_t parent_n)
{
    double v = s->fpu;
    if (c->n > 0 || c->an > 0) {
        double alpha = s->rave > 0 ? s->rave / (s->rave + c->n) : 0.0;
        v = 0.0;
        if (c->an > 0) {
            v += alpha * ((double)c->aw / (double)c->an);
        }
        if (c->n > 0) {
            v += (1.0 - alpha) * ((double)c->w / (double)c->n);
        }
    }
    if (c->know > 0) {
        if (c->n <= 1) {
            v += 0.01 * c->know;
        }
        else if (c->n < 1000) {
            v += 0.01 * c->know / sqrt((double)c->n);
        }
    }
    if (s->explore > 0 && c->n > 0) {
        v += s->explore * sqrt(log((double)parent_n) / (double)c->n);
    }
    return v;
}

static inline int
select_child(const Searcher *s, const Node *node, int mover)
{
    int best = 0;
    double top = -1e300;
    const Node *c = s->pool + node->first;
    for (int i = 0; i < node->num; i++, c++) {
        double v;
        if (c->outcome) {
            if (c->outcome == mover) {
                return i;
            }
            v = -2.0;
        }
        else {
            v = value(s, c, node->n);
        }
        if (v > top) {
            top = v;
            best = i;
        }
    }
    return best;
}

/* A cell of a virtual connection of `color` joining the three sides, or -1: its groups joined by bridges and
 * tied to sides by edge templates (two empty cells each), taken greedily in cell order with pairwise disjoint
 * carriers. Whoever moves, one stone a turn, `color` answers each intrusion in the other cell of its carrier and
 * completes a Y, so the position is won for `color` (sound, not complete: other templates are not looked for). */
static int
vc_win(Searcher *s, int color)
{
    int n = s->n;
    int16_t *vp = s->vp;
    uint8_t *vm = s->vm, *used = s->vused, *c = s->c;
    for (int x = 0; x < n; x++) {
        vp[x] = s->p[x];
        vm[x] = s->m[x];
        used[x] = 0;
    }
    for (int x = 0; x < n; x++) {
        if (c[x] || used[x]) {
            continue;
        }
        const int16_t *t = s->btab + 3 * s->bstart[x], *end = s->btab + 3 * s->bstart[x + 1];
        for (; t < end; t += 3) {
            int a = t[0], b = t[1], y = t[2];
            if (c[a] != color || c[y] || used[y]) {
                continue;
            }
            int ra = find(vp, a);
            if (b >= 0) {
                if (c[b] != color) {
                    continue;
                }
                int rb = find(vp, b);
                if (ra == rb) {
                    continue;
                }
                vp[rb] = (int16_t)ra;
                vm[ra] |= vm[rb];
            }
            else {
                int side = s->sides[x] & s->sides[y];
                if ((vm[ra] | side) == vm[ra]) {
                    continue;
                }
                vm[ra] |= (uint8_t)side;
            }
            used[x] = used[y] = 1;
            if (vm[ra] == 7) {
                return x;
            }
            break;
        }
    }
    return -1;
}

/* Expand `node` (the descent state, `mover` to move, `left` stones in its turn): tactics first, then children.
 * Returns 0 when expanded or solved, -1 when the node budget has no room. */
static int
expand(Searcher *s, Node *node, int mover, int left, int last, int root)
{
    int opp = 3 - mover, count = 0, threats = 0, first_threat = -1;
    int16_t *moves = s->lp; /* scratch: the leaf copies are free during expansion */
    if (!s->misere) {
        for (int x = 0; x < s->n; x++) {
            if (s->c[x] == 0 && reach(s, x, mover) == 7) {
                node->outcome = (uint8_t)mover;
                node->best = (int16_t)x;
                return 0;
            }
        }
    }
    for (int x = 0; x < s->n; x++) {
        if (s->c[x]) {
            continue;
        }
        if (s->misere) {
            if (reach(s, x, mover) != 7) {
                moves[count++] = (int16_t)x;
            }
        }
        else if (left == 1 && reach(s, x, opp) == 7) {
            if (first_threat < 0) {
                first_threat = x;
            }
            threats++;
        }
    }
    if (s->misere) {
        if (count == 0) {
            node->outcome = (uint8_t)opp;
            for (int x = 0; x < s->n; x++) {
                if (s->c[x] == 0) {
                    node->best = (int16_t)x;
                    break;
                }
            }
            return 0;
        }
    }
    else if (threats >= 2) {
        node->outcome = (uint8_t)opp;
        node->best = (int16_t)first_threat;
        return 0;
    }
    else if (threats == 1) {
        moves[0] = (int16_t)first_threat;
        count = 1;
    }
    else {
        if (s->vc) {
            int x = vc_win(s, mover);
            if (x >= 0) {
                node->outcome = (uint8_t)mover;
                node->best = (int16_t)x;
                return 0;
            }
            /* Not at the root: a lost root is searched for the move that resists longest. */
            x = root || left != 1 ? -1 : vc_win(s, opp);
            if (x >= 0) {
                node->outcome = (uint8_t)opp;
                node->best = (int16_t)x;
                return 0;
            }
        }
        for (int x = 0; x < s->n; x++) {
            if (s->c[x] == 0) {
                moves[count++] = (int16_t)x;
            }
        }
    }
    if (s->used + count > s->max_nodes) {
        return -1;
    }
    if (s->used + count > s->cap) {
        int64_t cap = s->cap * 2;
        while (cap < s->used + count) {
            cap *= 2;
        }
        if (cap > s->max_nodes) {
            cap = s->max_nodes;
        }
        Node *grown = realloc(s->pool, sizeof(Node) * cap);
        if (grown == NULL) {
            return -1;
        }
        s->pool = grown;
        s->cap = cap;
        node = NULL; /* the pool moved: callers re-read their node pointers */
    }
    int32_t first = (int32_t)s->used;
    Node *child = s->pool + first;
    int last_is_opp = last >= 0 && s->c[last] == opp;
    for (int i = 0; i < count; i++, child++) {
        int x = moves[i];
        int know = 0;
        if (last >= 0 && s->k_local) {
            int d = s->dist[last * s->n + x];
            if (d < 4) {
                know += s->k_local * (4 - d);
            }
        }
        const int16_t *row = s->nbr + NB * x;
        if (s->k_near) {
            for (int k = 0; k < NB && row[k] >= 0; k++) {
                if (s->c[row[k]]) {
                    know += s->k_near;
                    break;
                }
            }
        }
        if (s->k_connect) {
            int r = reach(s, x, mover);
            know += s->k_connect * (((r & 1) != 0) + ((r & 2) != 0) + ((r & 4) != 0));
        }
        if (s->k_bridge && last_is_opp && bridge_save(s, last, mover, x) >= 0) {
            know += s->k_bridge;
        }
        memset(child, 0, sizeof(Node));
        child->first = -1;
        child->move = (int16_t)x;
        child->best = -1;
        child->know = (int16_t)(know > 32767 ? 32767 : know);
    }
    s->used += count;
    return first;
}

/* Random playout from the descent state until a Y; returns the winner (misère applied). An intrusion into a
 * bridge is answered; else the last good reply to the previous move, if its cell is empty; else a random cell.
 * Afterwards the winner's replies are remembered and the loser's forgotten (LGRF-1). */
static int
playout(Searcher *s, int mover, int left, int last)
{
    int n = s->n, len = 0, start = last, winner;
    for (;;) {
        int x = -1;
        if (s->pattern && last >= 0 && s->c[last] == 3 - mover) {
            x = bridge_save(s, last, mover, -1);
        }
        if (x < 0 && s->lgr && last >= 0) {
            int r = s->reply[(mover - 1) * n + last];
            if (r >= 0 && s->c[r] == 0) {
                x = r;
            }
        }
        if (x < 0) {
            x = s->e[below(&s->rng, s->ne)];
        }
        s->seq[len++] = (int16_t)x;
        if (place(s, x, mover) == 7) {
            winner = s->misere ? 3 - mover : mover;
            break;
        }
        if (left > 1) {
            left--;
        }
        else {
            mover = 3 - mover;
        }
        last = x;
    }
    if (s->lgr) {
        for (int i = 0; i < len; i++) {
            int prev = i ? s->seq[i - 1] : start, x = s->seq[i], color = s->c[x];
            if (prev < 0) {
                continue;
            }
            int16_t *slot = s->reply + (color - 1) * n + prev;
            if (color == winner) {
                *slot = (int16_t)x;
            }
            else if (*slot == x) {
                *slot = -1;
            }
        }
    }
    return winner;
}

static void
load_root(Searcher *s)
{
    int n = s->n;
    memcpy(s->c, s->cells, n);
    memcpy(s->m, s->mask, n);
    memcpy(s->p, s->parent, sizeof(int16_t) * n);
    s->ne = 0;
    for (int x = 0; x < n; x++) {
        if (s->cells[x] == 0) {
            s->pos[x] = (int16_t)s->ne;
            s->e[s->ne++] = (int16_t)x;
        }
    }
}

/* One descent, its playouts and backups; returns the simulations it counts. */
static int
iterate(Searcher *s)
{
    int n = s->n, depth = 0, mover = s->to_move, left = s->stones_left, last = s->last, result = 0;
    int32_t idx = 0;
    load_root(s);
    s->path[0] = 0;
    s->pmover[0] = (uint8_t)mover;
    for (;;) {
        Node *node = s->pool + idx;
        if (node->outcome) {
            result = node->outcome;
            break;
        }
        if (node->first < 0) {
            if (idx == 0 || node->n >= s->expand_at) {
                int32_t first = expand(s, node, mover, left, last, idx == 0);
                node = s->pool + idx;
                if (node->outcome) {
                    result = node->outcome;
                    break;
                }
                if (first >= 0) {
                    node->first = first;
                    node->num = (int16_t)(s->used - first);
                }
            }
            if (node->first < 0) {
                break;
            }
        }
        int i = select_child(s, node, mover);
        idx = node->first + i;
        int x = s->pool[idx].move;
        int won = place(s, x, mover) == 7;
        s->path[++depth] = idx;
        if (won) { /* not reached: expansion finds every win in one */
            result = s->misere ? 3 - mover : mover;
            s->pool[idx].outcome = (uint8_t)result;
            break;
        }
        if (left > 1) {
            left--;
        }
        else {
            left = 1;
            mover = 3 - mover;
        }
        last = x;
        s->pmover[depth] = (uint8_t)mover;
    }
    int sims = 0;
    if (result) {
        for (int d = 1; d <= depth; d++) {
            Node *node = s->pool + s->path[d];
            node->n += 1;
            node->w += s->pmover[d - 1] == result;
        }
        s->pool[0].n += 1;
        sims = 1;
        /* proven results travel up while they decide the parent */
        for (int d = depth; d >= 1; d--) {
            Node *child = s->pool + s->path[d], *parent = s->pool + s->path[d - 1];
            int pm = s->pmover[d - 1];
            if (!child->outcome || parent->outcome) {
                break;
            }
            if (child->outcome == pm) {
                parent->outcome = (uint8_t)pm;
                parent->best = child->move;
                continue;
            }
            int all = 1;
            for (int k = 0; k < parent->num; k++) {
                if (s->pool[parent->first + k].outcome != 3 - pm) {
                    all = 0;
                    break;
                }
            }
            if (!all) {
                break;
            }
            parent->outcome = (uint8_t)(3 - pm);
            parent->best = child->move;
        }
        return sims;
    }
    memcpy(s->lc, s->c, n);
    memcpy(s->lm, s->m, n);
    int16_t *saved_p = s->lp;
    memcpy(saved_p, s->p, sizeof(int16_t) * n);
    memcpy(s->le, s->e, sizeof(int16_t) * n);
    memcpy(s->lpos, s->pos, sizeof(int16_t) * n);
    s->lne = s->ne;
    for (int r = 0; r < s->rollouts; r++) {
        if (r) {
            memcpy(s->c, s->lc, n);
            memcpy(s->m, s->lm, n);
            memcpy(s->p, s->lp, sizeof(int16_t) * n);
            memcpy(s->e, s->le, sizeof(int16_t) * n);
            memcpy(s->pos, s->lpos, sizeof(int16_t) * n);
            s->ne = s->lne;
        }
        int winner = playout(s, mover, left, last);
        for (int d = 0; d <= depth; d++) {
            Node *node = s->pool + s->path[d];
            node->n += 1;
            if (d) {
                node->w += s->pmover[d - 1] == winner;
            }
            if (node->first >= 0) {
                int pm = s->pmover[d], won = winner == pm;
                Node *c = s->pool + node->first;
                for (int k = 0; k < node->num; k++, c++) { /* branch-free: the test is a coin flip */
                    int hit = s->c[c->move] == pm;
                    c->an += hit;
                    c->aw += hit & won;
                }
            }
        }
        sims++;
    }
    return sims;
}

/* The move to play: a proven one, else the most visited child not proven lost (ties: more wins, lower index). */
static int
choose(const Searcher *s, int *index)
{
    const Node *root = s->pool;
    *index = -1;
    if (root->first < 0) {
        return root->best;
    }
    int mover = s->to_move, best = -1;
    for (int pass = 0; pass < 2 && best < 0; pass++) {
        for (int k = 0; k < root->num; k++) {
            const Node *c = s->pool + root->first + k;
            if (c->outcome == mover) {
                *index = k;
                return c->move;
            }
            if (pass == 0 && c->outcome) {
                continue;
            }
            if (best < 0 || c->n > s->pool[root->first + best].n ||
                (c->n == s->pool[root->first + best].n && c->w > s->pool[root->first + best].w)) {
                best = k;
            }
        }
    }
    *index = best;
    return s->pool[root->first + best].move;
}

/* True once the most visited child cannot be overtaken within `remaining` more simulations. */
static int
decided(const Searcher *s, double remaining)
{
    const Node *root = s->pool;
    if (root->outcome) {
        return 1;
    }
    if (root->first < 0) {
        return 0;
    }
    int32_t top = -1, second = -1;
    for (int k = 0; k < root->num; k++) {
        const Node *c = s->pool + root->first + k;
        if (c->outcome) {
            continue;
        }
        if (c->n > top) {
            second = top;
            top = c->n;
        }
        else if (c->n > second) {
            second = c->n;
        }
    }
    if (second < 0) {
        return 1;
    }
    return (double)(top - second) > remaining;
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
            reset_root(s);
        }
        sims += iterate(s);
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
            stop = decided(s, remaining);
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
    int move = choose(s, &index);
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
        reset_root(s);
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
    reset_root(s);
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
