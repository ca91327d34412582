/* The search of the `mcts-pro` bot, without the GIL: descents by RAVE value and knowledge, expansion with its
 * tactics (wins in one, forced blocks, virtual connections), bridge-saving playouts and the backups.
 *
 * ytourney.games.y.ysearch.PySearcher is the same algorithm in pure Python, step for step (same random numbers,
 * same floating-point operations in the same order); any change here must be made there too.
 */

#include "ysearch_core.h"

void
ys_reset_root(Searcher *s)
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

/* --- moves on the descent state ----------------------------------------------------------------------------- */

/* join(), and cell x leaves the list of empty cells. */
static inline int
place(Searcher *s, int x, int color)
{
    int last = s->e[--s->ne];
    int at = s->pos[x];
    s->e[at] = (int16_t)last;
    s->pos[last] = (int16_t)at;
    return join(s, x, color);
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

/* Expand `node` (the descent state, `mover` to move, `left` stones in its turn, `depth` plies below the root):
 * tactics first, then children. Returns 0 when expanded or solved, -1 when the node budget has no room. */
static int
expand(Searcher *s, Node *node, int mover, int left, int last, int depth)
{
    int root = depth == 0;
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
            /* At the root and its children: a virtual connection one stone away wins for the mover. */
            x = -1;
            if (s->vc1 && depth <= 1 && left == 1) {
                vc_threats(s, mover, 0, &x);
            }
            if (x >= 0) {
                node->outcome = (uint8_t)mover;
                node->best = (int16_t)x;
                return 0;
            }
            /* There too: against the opponent's threats of a virtual connection, only the must-play region. */
            int threat = -1;
            if (s->mustplay && depth <= 1 && left == 1 && vc_threats(s, opp, 1, &threat) > 0) {
                for (int y = 0; y < s->n; y++) {
                    if (s->c[y] == 0 && s->allow[y]) {
                        moves[count++] = (int16_t)y;
                    }
                }
                if (count == 0 && !root) {
                    node->outcome = (uint8_t)opp;
                    node->best = (int16_t)threat;
                    return 0;
                }
            }
        }
        if (count == 0) {
            for (int x = 0; x < s->n; x++) {
                if (s->c[x] == 0) {
                    moves[count++] = (int16_t)x;
                }
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
int
ys_iterate(Searcher *s)
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
                int32_t first = expand(s, node, mover, left, last, depth);
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
int
ys_choose(const Searcher *s, int *index)
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
int
ys_decided(const Searcher *s, double remaining)
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
