/* The mcts-pro search core shared by its two C files: the tree node, the searcher's state, the random numbers
 * and union-find helpers, and the entry points ysearch_core.c gives the Python binding (_ysearch.c). */

#ifndef YTOURNEY_YSEARCH_CORE_H
#define YTOURNEY_YSEARCH_CORE_H

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
    uint8_t *sm;       /* the descent's side masks and union-find, saved while a move is tried (vc_threats) */
    int16_t *sp;
    int vc, vc1, lgr, mustplay;
    uint8_t *allow;    /* the cells a must-play region leaves the mover */
    int nzig;          /* ziggurats (third-row edge templates): per template its stone, side bit and 8 carrier cells */
    int16_t *zig;
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

/* Place a stone of colour `color` on empty cell x of the descent state; returns the side mask of its group. */
static inline int
join(Searcher *s, int x, int color)
{
    uint8_t *c = s->c, *m = s->m;
    int16_t *p = s->p;
    c[x] = (uint8_t)color;
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

/* A cell of a virtual connection of `color` joining the three sides in the descent state, or -1 (ysearch_vc.c). */
int vc_win(Searcher *s, int color);
/* The cells one stone of `color` away from such a connection: the first in *first, and with `every` the
 * must-play region against all of them in allow[]; returns how many were found (ysearch_vc.c). */
int vc_threats(Searcher *s, int color, int every, int *first);

/* Empty the tree (and the last-good-reply table): the root alone, unexpanded. */
void ys_reset_root(Searcher *s);
/* One descent, its playouts and backups; returns the simulations it counts. */
int ys_iterate(Searcher *s);
/* The move to play; *index is its root child (-1 when the root was solved unexpanded). */
int ys_choose(const Searcher *s, int *index);
/* True once the most visited move cannot be overtaken within `remaining` more simulations. */
int ys_decided(const Searcher *s, double remaining);

#endif
