/* c-bot: a Bhabhi program bot in C99, libc only (docs/protocol.md).
 *
 *   gcc -O2 -std=c99 -o c-bot bot.c
 *   arena check-bot "program:examples/c-bot"
 *
 * Strategy: lead the lowest card of the longest suit; follow with the highest
 * card that still loses the trick (the lowest if every card wins, the highest
 * when it is the last to play and so wins a clean trick anyway); when void,
 * throw the highest card (of the shorter suit on a tie); dump the highest card
 * on a free trick 1; never take a neighbour's cards (it only adds cards).
 *
 * It reads each line into a small JSON tree (any key order, unknown keys
 * ignored) and writes one line back for every message but shutdown.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a minimal JSON reader: one tree per line, freed by resetting a pool ---- */

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };
typedef struct J {
    int type, n;          /* n: number of children (array/object) */
    double num;           /* number, or 0/1 for a bool */
    char *str;            /* string value */
    char *key;            /* key, when a member of an object */
    struct J *kid, *next; /* first child, next sibling */
} J;

static J *pool;
static size_t pool_used, pool_cap;
static const char *p; /* read position in the current line */

static J *node(int type) {
    if (pool_used == pool_cap) return NULL; /* pool sized from the line: cannot happen */
    J *j = &pool[pool_used++];
    memset(j, 0, sizeof *j);
    j->type = type;
    return j;
}

static void ws(void) { while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++; }

/* Decodes a string in place (the output is never longer than the input). */
static char *string(void) {
    char *out = (char *)++p, *start = out; /* skip the opening quote */
    while (*p && *p != '"') {
        if (*p != '\\') { *out++ = *p++; continue; }
        p++;
        switch (*p) {
        case 'n': *out++ = '\n'; break;
        case 't': *out++ = '\t'; break;
        case 'r': *out++ = '\r'; break;
        case 'b': *out++ = '\b'; break;
        case 'f': *out++ = '\f'; break;
        case 'u': { /* \uXXXX: the code unit as UTF-8 (surrogates kept apart: we only read cards) */
            if (!p[1] || !p[2] || !p[3] || !p[4]) { *out = 0; return start; } /* a cut-off escape */
            unsigned c = (unsigned)strtoul((char[5]){p[1], p[2], p[3], p[4], 0}, NULL, 16);
            if (c < 0x80) *out++ = (char)c;
            else if (c < 0x800) { *out++ = (char)(0xC0 | c >> 6); *out++ = (char)(0x80 | (c & 63)); }
            else { *out++ = (char)(0xE0 | c >> 12); *out++ = (char)(0x80 | (c >> 6 & 63)); *out++ = (char)(0x80 | (c & 63)); }
            p += 4;
            break;
        }
        default: *out++ = *p; /* \" \\ \/ */
        }
        if (*p) p++;
    }
    if (*p == '"') p++;
    *out = 0;
    return start;
}

static J *value(void) {
    ws();
    J *j;
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        j = node(close == '}' ? J_OBJ : J_ARR);
        if (!j) return NULL;
        p++;
        J **tail = &j->kid;
        for (ws(); *p && *p != close; ws()) {
            char *key = NULL;
            if (close == '}') {
                if (*p != '"') return NULL;
                key = string();
                ws();
                if (*p++ != ':') return NULL;
            }
            J *kid = value();
            if (!kid) return NULL;
            kid->key = key;
            *tail = kid;
            tail = &kid->next;
            j->n++;
            ws();
            if (*p == ',') p++;
        }
        if (*p != close) return NULL;
        p++;
    } else if (*p == '"') {
        j = node(J_STR);
        if (!j) return NULL;
        j->str = string();
    } else if (!strncmp(p, "true", 4) || !strncmp(p, "false", 5)) {
        j = node(J_BOOL);
        if (!j) return NULL;
        j->num = *p == 't';
        p += *p == 't' ? 4 : 5;
    } else if (!strncmp(p, "null", 4)) {
        j = node(J_NULL);
        p += 4;
    } else {
        char *end;
        double d = strtod(p, &end);
        if (end == p) return NULL;
        j = node(J_NUM);
        if (!j) return NULL;
        j->num = d;
        p = end;
    }
    return j;
}

static J *get(J *obj, const char *key) { /* NULL when missing or obj is not an object */
    if (!obj || obj->type != J_OBJ) return NULL;
    for (J *k = obj->kid; k; k = k->next)
        if (!strcmp(k->key, key)) return k;
    return NULL;
}
static const char *str(J *j) { return j && j->type == J_STR ? j->str : ""; }
static int is(J *j, const char *s) { return !strcmp(str(j), s); }

/* ---- cards ---- */

static int rank(const char *c) { const char *r = strchr("23456789TJQKA", c[0]); return r ? (int)(r - "23456789TJQKA") : -1; }
static int suit(const char *c) { const char *s = c[0] ? strchr("CDHS", c[1]) : NULL; return s && c[1] ? (int)(s - "CDHS") : -1; }

/* Does card a beat card b, the trick's winner so far? (b played first wins ties.) */
static int beats(const char *a, const char *b, int trump) {
    if (suit(a) == suit(b)) return rank(a) > rank(b);
    return trump >= 0 && suit(a) == trump;
}

/* ---- the strategy ---- */

static const char *choose_card(J *view) {
    J *legal = get(view, "legal"), *trick = get(view, "trick"), *c;
    int count[4] = {0, 0, 0, 0}, active = 0;
    for (c = get(view, "hand") ? get(view, "hand")->kid : NULL; c; c = c->next)
        if (suit(str(c)) >= 0) count[suit(str(c))]++;
    for (c = get(view, "active") ? get(view, "active")->kid : NULL; c; c = c->next) active += c->num != 0;
    J *best = legal->kid;
    if (legal->n == 1) return str(best);

    if (!trick || trick->n == 0) { /* leading: lowest card of the longest suit */
        for (c = legal->kid; c; c = c->next) {
            int cs = count[suit(str(c))], bs = count[suit(str(best))];
            if (cs > bs || (cs == bs && rank(str(c)) < rank(str(best)))) best = c;
        }
        return str(best);
    }

    J *tr = get(view, "trump");
    int trump = tr && tr->type == J_NUM ? (int)tr->num : -1;
    const char *winner = NULL;
    for (c = trick->kid; c; c = c->next) { /* each entry is [seat, card] */
        const char *card = c->kid && c->kid->next ? str(c->kid->next) : "";
        if (!winner || beats(card, winner, trump)) winner = card;
    }
    int led = suit(str(trick->kid->kid ? trick->kid->kid->next : NULL));
    int s0 = suit(str(legal->kid));
    int following = s0 == led || (trump >= 0 && s0 == trump);
    J *free1 = get(view, "first_trick");
    int free_trick = free1 && free1->num && is(get(get(view, "rules"), "first_trick"), "free");

    if (free_trick || !following) { /* everything goes to the pile, or a thulla: rid itself of its highest */
        for (c = legal->kid; c; c = c->next) {
            int r = rank(str(c)), br = rank(str(best));
            if (r > br || (r == br && count[suit(str(c))] < count[suit(str(best))])) best = c;
        }
        return str(best);
    }
    J *under = NULL, *low = legal->kid, *high = legal->kid;
    for (c = legal->kid; c; c = c->next) {
        int r = rank(str(c));
        if (!beats(str(c), winner, trump) && (!under || r > rank(str(under)))) under = c;
        if (r < rank(str(low))) low = c;
        if (r > rank(str(high))) high = c;
    }
    if (under) return str(under);                   /* the highest card that still loses */
    return str(trick->n == active - 1 ? high : low); /* last to play wins a clean trick: spend the highest */
}

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while ((len = getline(&line, &cap, stdin)) > 0) {
        if ((size_t)len + 1 > pool_cap) { /* a JSON text of n bytes has fewer than n values */
            free(pool);
            pool_cap = (size_t)len + 1;
            pool = malloc(pool_cap * sizeof *pool);
            if (!pool) { printf("{\"type\": \"error\", \"message\": \"out of memory\"}\n"); return 1; }
        }
        pool_used = 0;
        p = line;
        J *msg = value(), *type = get(msg, "type");
        if (!msg) {
            printf("{\"type\": \"error\", \"message\": \"could not parse a line\"}\n");
        } else if (is(type, "hello")) {
            printf("{\"type\": \"hello\", \"protocol\": 1, \"name\": \"c-bot\", \"version\": \"1.0\"}\n");
        } else if (is(type, "new_game")) {
            printf("{\"type\": \"ready\"}\n");
        } else if (is(type, "decide")) {
            J *view = get(msg, "view"), *legal = get(view, "legal");
            if (is(get(view, "decision"), "take")) printf("{\"action\": false}\n");
            else if (!legal || legal->type != J_ARR || !legal->n) printf("{\"type\": \"error\", \"message\": \"no legal cards\"}\n");
            else printf("{\"action\": \"%s\"}\n", choose_card(view)); /* card texts need no escaping */
        } else if (is(type, "end_game")) {
            printf("{\"type\": \"done\"}\n");
        } else if (is(type, "shutdown")) {
            break;
        } else { /* never sent to a version-1 bot; one reply to each message all the same */
            printf("{\"type\": \"error\", \"message\": \"unknown message type\"}\n");
        }
    }
    free(line);
    free(pool);
    return 0;
}
