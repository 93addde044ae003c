/* play.c - `musket play`: a game in the terminal, a person against the
 * computer or two people at one keyboard. It reads the game only through
 * its JSON views (state, legal actions, events) and prints them. */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "core/catalog.h"
#include "core/game.h"
#include "draw.h"
#include "ai/ai.h"
#include "rules/rules.h"

#define DEFAULT_SCENARIO "htl/tutorial"
#define LINE_MAX_IN 1024
#define MAX_HIGHLIGHT 64
#define GROUP_ABOVE 15       /* more legal actions than this are grouped per unit */
#define AI_SEED_SALT 0x9e3779b97f4a7c15ull   /* the computer's picks differ from the dice */

static void play_usage(FILE *out)
{
    fputs("usage: musket play [SCENARIO] [--seed N] [--option ID ...]\n"
          "                   [--hotseat | --ai ENGINE] [--side SIDE]\n"
          "                   [--record FILE] [--no-color]\n"
          "\n"
          "Plays a game in the terminal. Each decision shows the map, the turn, the\n"
          "side to move, its points left and the victory points, then the legal\n"
          "actions numbered: type a number to play one. Every roll is printed with\n"
          "its dice, modifiers and the number it needed.\n"
          "\n"
          "SCENARIO is a built-in id (default " DEFAULT_SCENARIO ") or a .json file.\n"
          "\n"
          "options:\n"
          "  --seed N        seed the dice (and the computer's choices), to replay a\n"
          "                  game exactly; by default a seed from the clock, printed\n"
          "  --option ID     turn on an optional rule (repeatable); see below\n"
          "  --hotseat       two people take turns at this keyboard\n"
          "  --ai ENGINE     who the computer is: easy, normal (the default) or hard\n"
          "                  (Monte Carlo tree search thinking 0.1, 0.3 or 1 s a\n"
          "                  move), or an engine by name: mcts, greedy, random\n"
          "  --side SIDE     the side you play against the computer (default: the\n"
          "                  side that moves first)\n"
          "  --record FILE   write the game record (JSON) to FILE when play ends\n"
          "  --no-color      never colour the map (colour is used only on a\n"
          "                  terminal, and never when NO_COLOR is set)\n"
          "  --help          print this text\n"
          "\n"
          "at the prompt:\n"
          "  N           play action number N\n"
          "  u           undo your last action (if it rolled no dice)\n"
          "  m           draw the map again      l   list the actions again\n"
          "  t           table of units          h   this help\n"
          "  r FILE      save the game record to FILE\n"
          "  q           quit (end of input quits too)\n",
          out);
    int n;
    const mk_ruleset *const *all = mk_rulesets(&n);
    for (int r = 0; r < n; r++) {
        if (all[r]->noptions == 0)
            continue;
        fprintf(out, "\noptional rules of %s (%s):\n", all[r]->id, all[r]->name);
        for (int i = 0; i < all[r]->noptions; i++)
            fprintf(out, "  %-22s %s\n", all[r]->options[i].id,
                    all[r]->options[i].title ? all[r]->options[i].title : "");
    }
    fputs("\nexit status: 0 the game ended or was left, 1 the record could not be\n"
          "written, 2 a usage error or a scenario or option that was refused\n",
          out);
}

static void prompt_help(void)
{
    puts("  N         play action number N (the list above)\n"
         "  u         undo your last action (not one that rolled dice)\n"
         "  m         draw the map again\n"
         "  l         list the legal actions again\n"
         "  t         table of units\n"
         "  r FILE    save the game record to FILE\n"
         "  h         this help\n"
         "  q         quit");
}

typedef struct play_args {
    const char *scenario;
    uint64_t seed;
    bool seed_given;
    json_t *options;      /* {"id": true, ...} */
    bool hotseat;
    const char *side;
    const char *record;
    bool color;
    mk_ai_config ai;
    const char *ai_name;
} play_args;

/* One game at the terminal. */
typedef struct session {
    mk_game *g;
    bool human[MK_MAX_SIDES];
    bool hotseat;
    mk_rng ai;              /* seeds for the computer's choices */
    mk_ai_config ai_cfg;    /* how the computer plays */
    bool color;
    bool echo;              /* input is not a terminal: echo it */
    bool shown;             /* the map and list for shown_hash are on screen */
    uint64_t shown_hash;
    json_t *legal;          /* the legal actions listed, or NULL */
    int *order;             /* listed number - 1 -> index in legal */
    int nlisted;
    mk_hex highlight[MAX_HIGHLIGHT];   /* hexes touched since the last map */
    int nhighlight;
    bool last_by_human;     /* who took the last action, for undo */
} session;

static const char *jstr(json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

/* Parses a whole decimal number into *out; false if s is not one. */
static bool parse_u64(const char *s, uint64_t *out)
{
    if (!s || !isdigit((unsigned char)s[0]))
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = (uint64_t)v;
    return true;
}

/* Reads one line from stdin without its newline into buf. Returns false at
 * end of input. A line too long for buf is cut, and the rest dropped. */
static bool read_line(char *buf, size_t size, bool echo)
{
    fflush(stdout);
    if (!fgets(buf, (int)size, stdin))
        return false;
    size_t len = strlen(buf);
    if (len > 0 && buf[len - 1] == '\n') {
        buf[--len] = '\0';
    } else {
        int c;
        while ((c = getchar()) != EOF && c != '\n')
            ;
    }
    while (len > 0 && isspace((unsigned char)buf[len - 1]))
        buf[--len] = '\0';
    if (echo)
        printf("%s\n", buf);
    return true;
}

/* ---- printing events ---------------------------------------------------- */

/* A line being built, cut safely at its size. */
typedef struct line {
    char s[1024];
    size_t n;
} line;

static void put(line *l, const char *fmt, ...) MK_PRINTF(2, 3);

static void put(line *l, const char *fmt, ...)
{
    if (l->n >= sizeof l->s - 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(l->s + l->n, sizeof l->s - l->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        l->n = l->n + (size_t)k < sizeof l->s ? l->n + (size_t)k : sizeof l->s - 1;
}

/* A JSON value as text: strings bare, the rest as compact JSON. */
static void put_value(line *l, json_t *v)
{
    if (json_is_string(v)) {
        put(l, "%s", json_string_value(v));
    } else {
        char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        put(l, "%s", text ? text : "?");
        free(text);
    }
}

static void put_words(line *l, const char *s)
{
    for (; s && *s && l->n < sizeof l->s - 1; s++)
        l->s[l->n++] = *s == '_' ? ' ' : *s;
    l->s[l->n] = '\0';
}

/* The EVENT fields event_text knows how to place; others are appended as
 * "key value". */
static const char *const known_event_fields[] = {
    "type", "purpose", "side", "unit", "other", "target", "hex", "from", "to", "die",
    "values", "value", "mods", "need", "hits", "passed", "mp", "points", "eliminated",
    "text", "rule",
};

static bool known_event_field(const char *key)
{
    for (size_t i = 0; i < sizeof known_event_fields / sizeof known_event_fields[0]; i++)
        if (strcmp(known_event_fields[i], key) == 0)
            return true;
    return false;
}

/* Writes an EVENT as one line a player can check by hand, e.g.
 * "fire: A-ART-1 -> F6, d6 [5 5 6] -1 target in forest (HtL 2.3.5), need 5: 1 hit". */
static void event_text(json_t *ev, line *l)
{
    const char *type = jstr(ev, "type"), *purpose = jstr(ev, "purpose");
    bool roll = type && strcmp(type, "roll") == 0;
    l->n = 0;
    l->s[0] = '\0';
    put_words(l, roll && purpose ? purpose : type ? type : "event");
    if (!roll && purpose) {
        put(l, " (");
        put_words(l, purpose);
        put(l, ")");
    }
    size_t head = l->n;   /* the ": " goes here once something follows */
    json_t *v;
    if ((v = json_object_get(ev, "side")) && !json_is_null(v))
        put(l, " "), put_value(l, v);
    if ((v = json_object_get(ev, "unit")) && !json_is_null(v))
        put(l, " "), put_value(l, v);
    if ((v = json_object_get(ev, "other")) && !json_is_null(v))
        put(l, " with "), put_value(l, v);
    if ((v = json_object_get(ev, "hex")) && !json_is_null(v))
        put(l, " at "), put_value(l, v);
    json_t *from = json_object_get(ev, "from"), *to = json_object_get(ev, "to");
    if (from && !json_is_null(from))
        put(l, " "), put_value(l, from);
    if (to && !json_is_null(to))
        put(l, " -> "), put_value(l, to);
    if ((v = json_object_get(ev, "target")) && !json_is_null(v))
        put(l, " -> "), put_value(l, v);

    json_t *die = json_object_get(ev, "die"), *values = json_object_get(ev, "values");
    json_t *value = json_object_get(ev, "value");
    bool have_values = json_is_array(values) && json_array_size(values) > 0;
    if (json_is_integer(die) && json_integer_value(die) > 0)
        put(l, ", d%d", (int)json_integer_value(die));
    else if (have_values || (value && !json_is_null(value)))
        put(l, ",");
    if (have_values) {
        put(l, " [");
        size_t i;
        json_t *x;
        json_array_foreach(values, i, x) {
            if (i)
                put(l, " ");
            put_value(l, x);
        }
        put(l, "]");
        if (value && !json_is_null(value))
            put(l, " = "), put_value(l, value);
    } else if (value && !json_is_null(value)) {
        if (json_is_integer(die) && json_integer_value(die) > 0)
            put(l, " ["), put_value(l, value), put(l, "]");
        else
            put(l, " value "), put_value(l, value);
    }
    json_t *mods = json_object_get(ev, "mods");
    if (json_is_array(mods)) {
        size_t i;
        json_t *m;
        json_array_foreach(mods, i, m) {
            json_t *mv = json_object_get(m, "value");
            put(l, "%s %+d %s", i ? "," : "", json_is_integer(mv) ? (int)json_integer_value(mv) : 0,
                jstr(m, "why") ? jstr(m, "why") : "");
        }
    }
    if ((v = json_object_get(ev, "need")) && !json_is_null(v))
        put(l, ", need "), put_value(l, v);
    if ((v = json_object_get(ev, "hits")) && json_is_integer(v))
        put(l, ": %d hit%s", (int)json_integer_value(v), json_integer_value(v) == 1 ? "" : "s");
    if ((v = json_object_get(ev, "passed")) && json_is_boolean(v))
        put(l, ": %s", json_is_true(v) ? "passed" : "failed");
    if ((v = json_object_get(ev, "mp")) && !json_is_null(v))
        put(l, ", now "), put_value(l, v), put(l, " MP");
    if ((v = json_object_get(ev, "points")) && !json_is_null(v))
        put(l, ", points "), put_value(l, v);
    if ((v = json_object_get(ev, "eliminated")) && json_is_boolean(v))
        put(l, ", %s", json_is_true(v) ? "eliminated" : "not eliminated");
    if ((v = json_object_get(ev, "text")) && !json_is_null(v))
        put(l, ", "), put_value(l, v);
    const char *key;
    json_object_foreach(ev, key, v) {
        if (known_event_field(key) || json_is_null(v))
            continue;
        put(l, ", %s ", key);
        put_value(l, v);
    }
    /* "type: details", with the separator fixed up after the head. */
    if (l->n > head) {
        char rest[sizeof l->s];
        const char *r = l->s + head;
        while (*r == ' ' || *r == ',')
            r++;
        snprintf(rest, sizeof rest, "%s", r);
        l->n = head;
        l->s[head] = '\0';
        if (rest[0] == ':')
            put(l, "%s", rest);
        else
            put(l, ": %s", rest);
    }
    const char *rule = jstr(ev, "rule");
    if (rule && !strstr(l->s, rule))
        put(l, " (%s)", rule);
}

static void add_highlight(session *S, const char *label)
{
    mk_hex h;
    char err[128];
    if (!label || mk_hex_parse(&S->g->sc->map.grid, label, &h, err, sizeof err) != 0)
        return;
    for (int i = 0; i < S->nhighlight; i++)
        if (S->highlight[i] == h)
            return;
    if (S->nhighlight < MAX_HIGHLIGHT)
        S->highlight[S->nhighlight++] = h;
}

/* Prints the last action's events, indented, and notes their hexes for the
 * next map. */
static void print_events(session *S)
{
    json_t *events = mk_game_events_json(S->g);
    size_t i;
    json_t *ev;
    line l;
    json_array_foreach(events, i, ev) {
        event_text(ev, &l);
        printf("    %s\n", l.s);
        static const char *const hex_fields[] = {"hex", "from", "to", "target"};
        for (size_t k = 0; k < sizeof hex_fields / sizeof hex_fields[0]; k++)
            add_highlight(S, jstr(ev, hex_fields[k]));
    }
    json_decref(events);
}

/* ---- the state ---------------------------------------------------------- */

static int side_of(const mk_scenario *sc, json_t *state, const char *key)
{
    const char *id = jstr(state, key);
    return id ? mk_scenario_side(sc, id) : -1;
}

/* The STATE fields print_status places; other scalar fields of a ruleset's
 * state are shown as "key value". */
static const char *const known_state_fields[] = {
    "ruleset", "scenario", "turn", "turns", "active", "to_move", "phase", "points",
    "units", "vp", "over", "result", "hash", "undoable",
};

static void print_status(const session *S, json_t *st)
{
    const mk_scenario *sc = S->g->sc;
    line l = {.n = 0};
    l.s[0] = '\0';
    json_t *v;
    put(&l, "Turn ");
    put_value(&l, json_object_get(st, "turn"));
    put(&l, " of ");
    put_value(&l, json_object_get(st, "turns"));
    put(&l, " | %s's turn", jstr(st, "active") ? jstr(st, "active") : "?");
    if ((v = json_object_get(st, "phase")) && !json_is_null(v))
        put(&l, ", "), put_value(&l, v), put(&l, " phase");
    if ((v = json_object_get(st, "points")) && !json_is_null(v))
        put(&l, " | points left "), put_value(&l, v);
    json_t *vp = json_object_get(st, "vp");
    if (json_is_object(vp)) {
        put(&l, " | VP");
        for (int s = 0; s < sc->nsides; s++) {
            json_t *x = json_object_get(vp, sc->sides[s].id);
            put(&l, "%s %s ", s ? "," : "", sc->sides[s].id);
            if (x)
                put_value(&l, x);
            else
                put(&l, "0");
        }
    }
    const char *key;
    json_object_foreach(st, key, v) {
        bool known = false;
        for (size_t i = 0; i < sizeof known_state_fields / sizeof known_state_fields[0]; i++)
            known |= strcmp(known_state_fields[i], key) == 0;
        if (known || json_is_null(v) || json_is_object(v) || json_is_array(v))
            continue;
        put(&l, " | %s ", key);
        put_value(&l, v);
    }
    puts(l.s);
    const char *active = jstr(st, "active"), *to_move = jstr(st, "to_move");
    if (active && to_move && strcmp(active, to_move) != 0)
        printf("%s must decide now, in the middle of %s's action.\n", to_move, active);
    if (json_is_true(json_object_get(st, "undoable")) && !json_is_true(json_object_get(st, "over")) &&
        (S->hotseat || S->last_by_human))
        printf("(u takes back the last action.)\n");
}

/* ---- the list of legal actions ------------------------------------------ */

/* The unit an action is about, for grouping: its "unit", else "leader". */
static const char *action_unit(json_t *a)
{
    const char *u = jstr(a, "unit");
    return u ? u : jstr(a, "leader");
}

static bool same_group(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The entry of one action: its number, its text and its cost. Grouped
 * under a unit, the text leaves out that unit's id (the heading names it);
 * the cost is left out where the text already ends in it, "(1 AP)". */
static void action_entry(json_t *a, const char *unit, int number, line *l)
{
    const char *text = jstr(a, "text");
    char buf[512];
    if (!text) {
        char *dump = json_dumps(a, JSON_COMPACT);
        snprintf(buf, sizeof buf, "%s", dump ? dump : "?");
        free(dump);
    } else {
        snprintf(buf, sizeof buf, "%s", text);
    }
    size_t ul = unit ? strlen(unit) : 0;
    for (char *p = buf; ul && (p = strstr(p, unit)) != NULL; p += ul) {
        bool starts = p == buf || p[-1] == ' ', ends = p[ul] == ' ' || p[ul] == ':';
        if (starts && ends) {
            size_t skip = ul + 1;
            memmove(p, p + skip, strlen(p + skip) + 1);
            break;
        }
    }
    l->n = 0;
    l->s[0] = '\0';
    put(l, "%3d  %s", number, buf);
    json_t *cost = json_object_get(a, "cost");
    if (json_is_integer(cost)) {
        char said[32];
        snprintf(said, sizeof said, "(%d ", (int)json_integer_value(cost));
        if (!strstr(buf, said))
            put(l, "  [cost %d]", (int)json_integer_value(cost));
    }
}

/* A unit's place and strength from the state, for a group's heading. */
static void unit_heading(json_t *st, const char *id, line *l)
{
    json_t *units = json_object_get(st, "units"), *u;
    size_t i;
    l->n = 0;
    l->s[0] = '\0';
    put(l, "%s", id);
    json_array_foreach(units, i, u) {
        const char *uid = jstr(u, "id");
        if (!uid || strcmp(uid, id) != 0)
            continue;
        put(l, " (%s", jstr(u, "kind") ? jstr(u, "kind") : "?");
        if (jstr(u, "hex"))
            put(l, " at %s", jstr(u, "hex"));
        if (json_is_integer(json_object_get(u, "mp")))
            put(l, ", %d MP", (int)json_integer_value(json_object_get(u, "mp")));
        put(l, ")");
        break;
    }
    put(l, ":");
}

/* Prints entries[0..n) in as many columns as fit in LIST_WIDTH. */
static void print_columns(line *entries, int n)
{
    size_t w = 0;
    for (int i = 0; i < n; i++)
        if (entries[i].n > w)
            w = entries[i].n;
    int width = mk_draw_width(stdout);
    int per = (int)((size_t)(width - 2) / (w + 2));
    if (per < 1)
        per = 1;
    for (int i = 0; i < n; i++) {
        bool last = (i + 1) % per == 0 || i + 1 == n;
        printf("  %s", entries[i].s);
        if (last)
            putchar('\n');
        else
            printf("%*s", (int)(w - entries[i].n), "");
    }
}

/* Fetches the legal actions and lists them, numbered from 1, grouped per
 * unit when there are many. Sets S->order to map numbers to actions. */
static void list_actions(session *S, json_t *st, bool refetch)
{
    if (refetch || !S->legal) {
        json_decref(S->legal);
        S->legal = mk_game_legal_json(S->g);
        free(S->order);
        S->nlisted = (int)json_array_size(S->legal);
        S->order = calloc(S->nlisted > 0 ? (size_t)S->nlisted : 1, sizeof *S->order);
    }
    int n = S->nlisted;
    if (!S->order)
        return;
    line *entries = calloc(n > 0 ? (size_t)n : 1, sizeof *entries);
    if (!entries)
        return;
    bool grouped = n > GROUP_ABOVE;
    printf("Legal actions (%d):\n", n);
    if (!grouped) {
        for (int i = 0; i < n; i++) {
            S->order[i] = i;
            action_entry(json_array_get(S->legal, (size_t)i), NULL, i + 1, &entries[0]);
            printf("  %s\n", entries[0].s);
        }
        free(entries);
        return;
    }
    /* Groups in the order their first action is listed; actions about no
     * unit (end the turn, decisions) come last. */
    bool *done = calloc((size_t)n, sizeof *done);
    int number = 0;
    for (int pass = 0; pass < 2 && done; pass++) {
        for (int i = 0; i < n; i++) {
            const char *unit = action_unit(json_array_get(S->legal, (size_t)i));
            if (done[i] || (pass == 0) != (unit != NULL))
                continue;
            line head;
            if (unit)
                unit_heading(st, unit, &head);
            else
                snprintf(head.s, sizeof head.s, "Other:");
            printf("%s\n", head.s);
            int k = 0;
            for (int j = i; j < n; j++) {
                json_t *a = json_array_get(S->legal, (size_t)j);
                if (done[j] || !same_group(unit, action_unit(a)))
                    continue;
                done[j] = true;
                S->order[number] = j;
                action_entry(a, unit, ++number, &entries[k++]);
            }
            print_columns(entries, k);
        }
    }
    free(done);
    free(entries);
}

/* ---- playing ------------------------------------------------------------ */

/* Draws the map (marking the hexes touched since the last one), the
 * status and the legal actions. */
static void show_position(session *S)
{
    json_t *st = mk_game_state_json(S->g);
    putchar('\n');
    mk_draw_map(stdout, S->g->sc, st, S->highlight, S->nhighlight, S->color);
    S->nhighlight = 0;
    putchar('\n');
    print_status(S, st);
    if (!mk_game_over(S->g))
        list_actions(S, st, true);
    S->shown = true;
    S->shown_hash = mk_game_hash(S->g);
    json_decref(st);
}

/* The computer takes one action, chosen by its engine (S->ai_cfg).
 * Returns 0, or -1 if it has none or the game refuses it. */
static int computer_move(session *S, int side)
{
    mk_action *acts = malloc(MK_MAX_ACTIONS * sizeof *acts);
    if (!acts)
        return -1;
    int n = mk_game_legal(S->g, acts, MK_MAX_ACTIONS);
    if (n <= 0) {
        fprintf(stderr, "musket play: the computer (%s) has no legal action, but the game is not over\n",
                S->g->sc->sides[side].id);
        free(acts);
        return -1;
    }
    free(acts);
    mk_action a;
    mk_ai_config cfg = S->ai_cfg;
    cfg.seed = ((uint64_t)mk_rng_next(&S->ai) << 32) | mk_rng_next(&S->ai);
    if (mk_ai_pick(S->g->rs, S->g->sc, S->g->st, &cfg, &a) != 0) {
        fprintf(stderr, "musket play: the computer could not choose an action\n");
        return -1;
    }
    json_t *aj = mk_game_action_json(S->g, &a);
    const char *text = jstr(aj, "text");
    printf("%s (computer): %s\n", S->g->sc->sides[side].id, text ? text : "?");
    json_decref(aj);
    mk_error err = {0};
    if (mk_game_act(S->g, &a, &err) != 0) {
        fprintf(stderr, "musket play: the game refused the computer's action: %s\n", err.msg);
        return -1;
    }
    S->last_by_human = false;
    print_events(S);
    return 0;
}

/* Plays the listed action number (1-based). */
static void human_move(session *S, int side, long number)
{
    json_t *a = json_array_get(S->legal, (size_t)S->order[number - 1]);
    const char *text = jstr(a, "text");
    mk_error err = {0};
    printf("%s: %s\n", S->g->sc->sides[side].id, text ? text : "?");
    if (mk_game_act_json(S->g, a, &err) != 0) {
        printf("The game refused it: %s\n", err.msg);
        return;
    }
    S->last_by_human = true;
    print_events(S);
}

/* Writes the record as indented JSON. Returns 0, or -1 with a message. */
static int save_record(session *S, const char *path)
{
    json_t *rec = mk_game_record(S->g);
    if (!rec) {
        fprintf(stderr, "musket play: the game gave no record\n");
        return -1;
    }
    errno = 0;
    int rc = json_dump_file(rec, path, JSON_INDENT(2));
    json_decref(rec);
    if (rc != 0) {
        fprintf(stderr, "musket play: cannot write '%s': %s\n", path,
                errno ? strerror(errno) : "write failed");
        return -1;
    }
    printf("Record saved to %s.\n", path);
    return 0;
}

static void print_result(session *S)
{
    json_t *st = mk_game_state_json(S->g);
    json_t *res = json_object_get(st, "result");
    const char *winner = jstr(res, "winner"), *level = jstr(res, "level"), *reason = jstr(res, "reason");
    putchar('\n');
    mk_draw_map(stdout, S->g->sc, st, S->highlight, S->nhighlight, S->color);
    putchar('\n');
    print_status(S, st);
    printf("Game over: %s", winner ? winner : "no winner");
    if (winner)
        printf(" wins");
    if (level)
        printf(" (%s)", level);
    if (reason && reason[0])
        printf(": %s", reason);
    printf(".\n");
    json_decref(st);
}

/* Reads and carries out one thing the person types. Returns false when
 * play should stop (quit or end of input). */
static bool human_turn(session *S, int side)
{
    char buf[LINE_MAX_IN];
    if (!S->shown || S->shown_hash != mk_game_hash(S->g))
        show_position(S);
    if (S->nlisted == 0) {
        fputs("musket play: the game lists no legal action, but it is not over\n", stderr);
        return false;
    }
    printf("%s> ", S->g->sc->sides[side].id);
    if (!read_line(buf, sizeof buf, S->echo)) {
        printf("\nEnd of input: leaving the game.\n");
        return false;
    }
    char *cmd = buf;
    while (isspace((unsigned char)*cmd))
        cmd++;
    if (!*cmd)
        return true;
    if (isdigit((unsigned char)*cmd) || *cmd == '-' || *cmd == '+') {
        char *end;
        errno = 0;
        long number = strtol(cmd, &end, 10);
        if (errno || *end) {
            printf("'%s' is not a number; type an action's number, or h for help.\n", cmd);
        } else if (number < 1 || number > S->nlisted) {
            printf("There is no action %s: choose 1 to %d.\n", cmd, S->nlisted);
        } else {
            human_move(S, side, number);
        }
        return true;
    }
    char word[32];
    size_t wl = 0;
    while (cmd[wl] && !isspace((unsigned char)cmd[wl]) && wl < sizeof word - 1) {
        word[wl] = cmd[wl];
        wl++;
    }
    word[wl] = '\0';
    char *arg = cmd + wl;
    while (isspace((unsigned char)*arg))
        arg++;

    if (strcmp(word, "q") == 0 || strcmp(word, "quit") == 0) {
        return false;
    } else if (strcmp(word, "h") == 0 || strcmp(word, "help") == 0 || strcmp(word, "?") == 0) {
        prompt_help();
    } else if (strcmp(word, "m") == 0 || strcmp(word, "map") == 0) {
        show_position(S);
    } else if (strcmp(word, "l") == 0 || strcmp(word, "list") == 0) {
        json_t *st = mk_game_state_json(S->g);
        list_actions(S, st, false);
        json_decref(st);
    } else if (strcmp(word, "t") == 0 || strcmp(word, "units") == 0) {
        json_t *st = mk_game_state_json(S->g);
        mk_draw_units(stdout, S->g->sc, st, S->color);
        json_decref(st);
    } else if (strcmp(word, "u") == 0 || strcmp(word, "undo") == 0) {
        mk_error err = {0};
        if (!S->hotseat && !S->last_by_human)
            printf("Nothing of yours to undo: the last action was the computer's.\n");
        else if (mk_game_undo(S->g, &err) != 0)
            printf("Cannot undo: %s\n", err.msg[0] ? err.msg : "nothing to undo");
        else {
            printf("Undone.\n");
            S->last_by_human = false;
        }
    } else if (strcmp(word, "r") == 0 || strcmp(word, "record") == 0) {
        if (!*arg)
            printf("Save the record where? Type r and a file name, e.g. r game.json\n");
        else
            save_record(S, arg);
    } else {
        printf("'%s' is not a command; type an action's number, or h for help.\n", cmd);
    }
    return true;
}

/* Parses the arguments into *A. Returns -1 to go on, else an exit status. */
static int parse_args(int argc, char **argv, play_args *A)
{
    A->color = mk_draw_want_color(stdout);
    mk_ai_config_init(&A->ai);
    mk_ai_difficulty(&A->ai, "normal");
    A->ai_name = "normal";
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        bool has_next = i + 1 < argc;
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            play_usage(stdout);
            return 0;
        } else if (strcmp(o, "--no-color") == 0) {
            A->color = false;
        } else if (strcmp(o, "--hotseat") == 0) {
            A->hotseat = true;
        } else if (strcmp(o, "--seed") == 0 || strcmp(o, "--option") == 0 ||
                   strcmp(o, "--ai") == 0 || strcmp(o, "--side") == 0 ||
                   strcmp(o, "--record") == 0) {
            if (!has_next) {
                fprintf(stderr, "musket play: %s needs a value (see musket play --help)\n", o);
                return 2;
            }
            const char *v = argv[++i];
            if (strcmp(o, "--seed") == 0) {
                if (!parse_u64(v, &A->seed)) {
                    fprintf(stderr, "musket play: --seed '%s' is not a whole number >= 0\n", v);
                    return 2;
                }
                A->seed_given = true;
            } else if (strcmp(o, "--option") == 0) {
                json_object_set_new(A->options, v, json_true());
            } else if (strcmp(o, "--ai") == 0) {
                int engine = mk_ai_engine_parse(v);
                if (engine >= 0) {
                    A->ai.engine = engine;
                    if (engine == MK_AI_MCTS)
                        mk_ai_difficulty(&A->ai, "normal");
                } else if (mk_ai_difficulty(&A->ai, v) != 0) {
                    fprintf(stderr, "musket play: unknown AI '%s' (easy, normal, hard, mcts, "
                                    "greedy, random)\n", v);
                    return 2;
                }
                A->ai_name = v;
            } else if (strcmp(o, "--side") == 0) {
                A->side = v;
            } else {
                A->record = v;
            }
        } else if (o[0] == '-' && o[1] != '\0') {
            fprintf(stderr, "musket play: unknown option '%s' (see musket play --help)\n", o);
            return 2;
        } else if (A->scenario) {
            fprintf(stderr, "musket play: one scenario at a time ('%s' and '%s')\n", A->scenario, o);
            return 2;
        } else {
            A->scenario = o;
        }
    }
    bool ai_given = false;
    for (int i = 1; i < argc; i++)
        ai_given |= strcmp(argv[i], "--ai") == 0;
    if (A->hotseat && ai_given) {
        fputs("musket play: --hotseat and --ai exclude each other\n", stderr);
        return 2;
    }
    if (!A->scenario)
        A->scenario = DEFAULT_SCENARIO;
    if (!A->seed_given)
        A->seed = (uint64_t)time(NULL);
    return -1;
}

/* Sets up the game from the arguments. Returns -1 to play, else an exit
 * status (the reason already printed). */
static int start_game(session *S, const play_args *A)
{
    int nrs;
    const mk_ruleset *const *rulesets = mk_rulesets(&nrs);
    mk_error err = {0};
    mk_scenario *sc = mk_catalog_load(A->scenario, rulesets, nrs, &err);
    if (!sc) {
        fprintf(stderr, "musket play: %s\n", err.msg[0] ? err.msg : "cannot load the scenario");
        return 2;
    }
    uint64_t mask = 0;
    if (mk_options_parse(sc->rs, json_object_size(A->options) ? A->options : NULL, &mask, &err) != 0) {
        fprintf(stderr, "musket play: %s\n", err.msg);
        mk_scenario_free(sc);
        return 2;
    }
    int human = sc->first;
    if (A->side) {
        human = mk_scenario_side(sc, A->side);
        if (human < 0) {
            fprintf(stderr, "musket play: --side '%s' is not a side of %s (sides:", A->side, sc->id);
            for (int s = 0; s < sc->nsides; s++)
                fprintf(stderr, " %s", sc->sides[s].id);
            fputs(")\n", stderr);
            mk_scenario_free(sc);
            return 2;
        }
    }
    for (int s = 0; s < MK_MAX_SIDES; s++)
        S->human[s] = A->hotseat || s == human;
    S->g = mk_game_new(sc, mask, A->seed, &err);   /* owns sc from here */
    if (!S->g) {
        fprintf(stderr, "musket play: %s\n", err.msg);
        return 2;
    }
    mk_rng_seed(&S->ai, A->seed ^ AI_SEED_SALT);
    S->ai_cfg = A->ai;
    S->hotseat = A->hotseat;
    S->color = A->color;
    S->echo = !isatty(STDIN_FILENO);

    const mk_scenario *gs = S->g->sc;
    printf("%s (%s), %s\n", gs->title[0] ? gs->title : gs->id, gs->id, gs->rs->name);
    if (A->hotseat)
        printf("Hotseat: both sides play at this keyboard.\n");
    else
        printf("You play %s; the computer plays the other side (%s).\n", gs->sides[human].id,
               A->ai_name);
    printf("Seed %llu (play the same game again with --seed %llu). Type h for help.\n",
           (unsigned long long)A->seed, (unsigned long long)A->seed);
    return -1;
}

int mk_cli_play(int argc, char **argv)
{
    play_args A = {0};
    A.options = json_object();
    int rc = parse_args(argc, argv, &A);
    if (rc >= 0) {
        json_decref(A.options);
        return rc;
    }
    session S = {0};
    rc = start_game(&S, &A);
    json_decref(A.options);
    if (rc >= 0)
        return rc;

    rc = 0;
    bool ended = false;
    for (;;) {
        if (mk_game_over(S.g)) {
            print_result(&S);
            ended = true;
            break;
        }
        json_t *st = mk_game_state_json(S.g);
        int side = side_of(S.g->sc, st, "to_move");
        json_decref(st);
        if (side < 0 || side >= MK_MAX_SIDES) {
            fputs("musket play: the state names no side to move\n", stderr);
            rc = 1;
            break;
        }
        if (S.human[side]) {
            if (!human_turn(&S, side))
                break;
        } else if (computer_move(&S, side) != 0) {
            rc = 1;
            break;
        }
    }

    if (A.record) {
        if (save_record(&S, A.record) != 0)
            rc = 1;
    } else if (ended) {
        char buf[LINE_MAX_IN];
        printf("Save the game record? Type a file name, or press Enter to skip: ");
        if (!read_line(buf, sizeof buf, S.echo))
            printf("\n");
        else if (buf[0] && save_record(&S, buf) != 0)
            rc = 1;
    }
    json_decref(S.legal);
    free(S.order);
    mk_game_free(S.g);
    return rc;
}
