/* The virtual-connection solver of the `mcts-pro` search: bridges, two-cell edge templates and ziggurats with
 * disjoint carriers joining the three sides, and the cells one stone away from such a connection.
 *
 * ytourney.games.y.ysearch.PySearcher._vc_win and _vc_threats are the same in pure Python.
 */

#include "ysearch_core.h"

/* A cell of a virtual connection of `color` joining the three sides, or -1: its groups joined by bridges and
 * tied to sides by edge templates (two empty cells each), taken greedily in cell order with pairwise disjoint
 * carriers. Whoever moves, one stone a turn, `color` answers each intrusion in the other cell of its carrier and
 * completes a Y, so the position is won for `color` (sound, not complete: other templates are not looked for). */
int
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
    /* Then ziggurats: a third-row stone tied to its side by eight empty cells, none used by another link. */
    for (int k = 0; k < s->nzig; k++) {
        const int16_t *z = s->zig + 10 * k;
        if (c[z[0]] != color) {
            continue;
        }
        int ra = find(vp, z[0]);
        if (vm[ra] & z[1]) {
            continue;
        }
        int free = 1;
        for (int i = 2; i < 10; i++) {
            free &= c[z[i]] == 0 && !used[z[i]];
        }
        if (!free) {
            continue;
        }
        for (int i = 2; i < 10; i++) {
            used[z[i]] = 1;
        }
        vm[ra] |= (uint8_t)z[1];
        if (vm[ra] == 7) {
            return z[2];
        }
    }
    return -1;
}

/* The cells where one stone of `color` makes a virtual connection win (vc_win), each empty cell in turn: with
 * `every` 0, stops at the first; else also the must-play region against them in allow[] (each such cell and the
 * links' carriers, intersected over all: any other move lets `color` play there and win). Returns how many were
 * found, the first in *first. */
int
vc_threats(Searcher *s, int color, int every, int *first)
{
    int n = s->n, threats = 0;
    memcpy(s->sm, s->m, n);
    memcpy(s->sp, s->p, sizeof(int16_t) * n);
    if (every) {
        memset(s->allow, 1, n);
    }
    for (int x = 0; x < n; x++) {
        if (s->c[x]) {
            continue;
        }
        join(s, x, color);
        int won = vc_win(s, color) >= 0;
        s->c[x] = 0;
        memcpy(s->m, s->sm, n);
        memcpy(s->p, s->sp, sizeof(int16_t) * n);
        if (!won) {
            continue;
        }
        if (threats++ == 0) {
            *first = x;
            if (!every) {
                return 1;
            }
        }
        for (int y = 0; y < n; y++) {
            s->allow[y] &= (uint8_t)(s->vused[y] | (y == x));
        }
    }
    return threats;
}
