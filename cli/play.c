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
#include <strings.h>
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
#define SUMMARY_ABOVE 40     /* more than this: one line per unit, its actions on request */
#define UNITS_ALL_BELOW 40   /* t lists every unit when there are no more than this */
#define FULL_ROWS_MAX 30     /* a map with more rows is drawn as a window */
#define AI_SEED_SALT 0x9e3779b97f4a7c15ull   /* the computer's picks differ from the dice */

static void play_usage(FILE *out)
{
    fputs("usage: musket play [SCENARIO] [--seed N] [--option ID ...]\n"
          "                   [--hotseat | --ai ENGINE [--threads T]] [--side SIDE | --watch]\n"
          "                   [--record FILE] [--map MODE] [--no-color]\n"
          "\n"
          "Plays a game in the terminal. Each decision shows the map, the turn, the\n"
          "side to move, its points left and the victory points, then the legal\n"
          "actions numbered: type a number to play one. Every roll is printed with\n"
          "its dice, modifiers and the number it needed. A map too big for the\n"
          "terminal (Monmouth's 78 x 51 hexes) is drawn as a window that follows the\n"
          "play; long lists of actions are shown one line per unit (type a unit's id\n"
          "to see its actions).\n"
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
          "  --threads T     the computer searches on T threads at once, in the same\n"
          "                  time a move (default 1; at most one per core helps)\n"
          "  --side SIDE     the side you play against the computer (default: the\n"
          "                  side that moves first)\n"
          "  --watch         the computer plays both sides; you watch the actions\n"
          "                  and their rolls\n"
          "  --record FILE   write the game record (JSON) to FILE when play ends\n"
          "  --map MODE      the map at each decision: window (a part around the\n"
          "                  play), full (all of it), off (only when asked with m);\n"
          "                  by default full when it fits the terminal, else window\n"
          "  --no-color      never colour the map (colour is used only on a\n"
          "                  terminal, and never when NO_COLOR is set)\n"
          "  --help          print this text\n"
          "\n"
          "at the prompt:\n"
          "  N           play action number N\n"
          "  UNIT        list the actions of the unit with this id (or a hex, or a\n"
          "              word of the actions' text: fire, move ...)\n"
          "  u           undo your last action (if it rolled no dice)\n"
          "  m           draw the map again      l   list all the actions\n"
          "  m all, m o  the whole map; one character a hex\n"
          "  m HEX|UNIT  a window there; m n/s/e/w moves it, m auto follows play\n"
          "  t           table of units (t all, t TEXT)   h   this help\n"
          "  {JSON}      play an ACTION written as the engine protocol does\n"
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
         "  UNIT      list the actions of the unit with this id (e.g. LBn/LAF); a hex\n"
         "            lists those going to, aiming at or starting from it; any other\n"
         "            word lists the actions whose text holds it (fire, form ...)\n"
         "  l         list all the legal actions     l TEXT  the same as TEXT alone\n"
         "  u         undo your last action (not one that rolled dice)\n"
         "  m         draw the map again (a window on a big map, around the play)\n"
         "  m all     the whole map                  m o     one character a hex\n"
         "  m HEX     the window centred on a hex    m UNIT  on a unit\n"
         "  m n|s|e|w move the window half its size  m auto  follow the play again\n"
         "  m 20x10   the window's size (columns x rows)\n"
         "  m off|on  draw the map at each decision or only when asked\n"
         "  t         the units that can act now (SP, formation, status, facing)\n"
         "  t all     every unit                     t TEXT  units whose id, name\n"
         "                                                   or hex holds TEXT\n"
         "  {JSON}    play an action written as the engine protocol does, e.g.\n"
         "            {\"type\":\"activate\",\"command\":\"GD\"}\n"
         "  r FILE    save the game record to FILE\n"
         "  h         this help\n"
         "  q         quit");
}

/* How the map is drawn at each decision (--map, m on/off). */
enum { MAP_AUTO, MAP_WINDOW, MAP_FULL, MAP_OFF, MAP_OVERVIEW };

typedef struct play_args {
    const char *scenario;
    int map_mode;         /* MAP_AUTO: full when it fits, else a window */
    uint64_t seed;
    bool seed_given;
    json_t *options;      /* {"id": true, ...} */
    bool hotseat;
    bool watch;           /* the computer plays every side */
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
    int map_mode;           /* MAP_WINDOW, MAP_FULL or MAP_OFF */
    bool map_full;          /* the whole map fits: m on draws it whole */
    mk_draw_view view;      /* the window on a big map */
    bool pinned;            /* the person placed the window: it stays */
    bool view_sized;        /* the person sized it (m 20x10): no refitting */
    long actions;           /* actions played, both sides */
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
    if ((v = json_object_get(ev, "other")) && !json_is_null(v)) {   /* who the unit or side is with */
        bool against = type && strcmp(type, "decline") == 0, by = type && strcmp(type, "reaction") == 0;
        put(l, against ? " against " : by ? " attacked by " : " with "), put_value(l, v);
    }
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
    if ((v = json_object_get(ev, "text")) && !json_is_null(v)) {
        /* a text that only repeats "passed"/"failed" is left out */
        const char *t = json_string_value(v);
        json_t *passed = json_object_get(ev, "passed");
        bool said = t && json_is_boolean(passed) &&
                    (strcmp(t, "pass") == 0 || strcmp(t, "fail") == 0 || strcmp(t, "passed") == 0 ||
                     strcmp(t, "failed") == 0);
        if (!said && t)
            put(l, ", "), put_words(l, t);
        else if (!said)
            put(l, ", "), put_value(l, v);
    }
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
        if (known || json_is_null(v) || json_is_array(v))
            continue;
        if (json_is_object(v)) {
            /* a count per side or per thing: "army loss american 3, british 1" */
            const char *k2;
            json_t *x;
            bool numbers = json_object_size(v) > 0;
            json_object_foreach(v, k2, x)
                numbers &= json_is_number(x);
            if (!numbers)
                continue;
            put(&l, " | ");
            put_words(&l, key);
            int i = 0;
            json_object_foreach(v, k2, x) {
                put(&l, "%s %s ", i++ ? "," : "", k2);
                put_value(&l, x);
            }
            continue;
        }
        put(&l, " | ");
        put_words(&l, key);
        put(&l, " ");
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
        if (!strstr(buf, said) && !strstr(buf, " MP)") && !strstr(buf, " AP)"))
            put(l, "  [cost %d]", (int)json_integer_value(cost));
    }
}

/* Does s hold needle, without case? */
static bool has_text(const char *s, const char *needle)
{
    size_t n = strlen(needle);
    for (; s && *s; s++)
        if (strncasecmp(s, needle, n) == 0)
            return true;
    return false;
}

/* The STATE unit with this id, or NULL. */
static json_t *state_unit(json_t *st, const char *id)
{
    json_t *units = json_object_get(st, "units"), *u;
    size_t i;
    json_array_foreach(units, i, u) {
        const char *uid = jstr(u, "id");
        if (uid && id && strcmp(uid, id) == 0)
            return u;
    }
    return NULL;
}

/* A unit's place and condition from the state, for a group's heading:
 * "LBn/LAF (infantry at E1525, 7 SP, line, facing 120, 5 MP)"; the fields
 * a ruleset does not give are left out. */
static void unit_heading(json_t *st, const char *id, line *l)
{
    json_t *u = state_unit(st, id), *v;
    l->n = 0;
    l->s[0] = '\0';
    put(l, "%s", id);
    if (!u)
        return;
    put(l, " (%s", jstr(u, "kind") ? jstr(u, "kind") : "?");
    if (jstr(u, "hex"))
        put(l, " at %s", jstr(u, "hex"));
    if (json_is_integer(v = json_object_get(u, "sp")))
        put(l, ", %d SP", (int)json_integer_value(v));
    if (jstr(u, "formation"))
        put(l, ", "), put_words(l, jstr(u, "formation"));
    if (jstr(u, "hook"))   /* Monmouth (BAR): which end of the Hook is bent */
        put(l, " (%s end bent)", jstr(u, "hook"));
    if (jstr(u, "status") && strcmp(jstr(u, "status"), "good") != 0)
        put(l, ", "), put_words(l, jstr(u, "status"));
    if (json_is_integer(v = json_object_get(u, "facing")))
        put(l, ", facing %d", (int)json_integer_value(v));
    if (json_is_integer(v = json_object_get(u, "mp")))
        put(l, ", %d MP", (int)json_integer_value(v));
    put(l, ")");
}

/* Prints entries[0..n) in as many columns as fit in the terminal. */
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

/* Fetches the legal actions (when refetch or none are held) and numbers
 * them: in their own order when there are few, else per unit, the groups
 * in the order their first action comes and the actions about no unit
 * (end the phase, decisions) last, so that each group's numbers run on.
 * Sets S->order (number - 1 -> index in S->legal). */
static void number_actions(session *S, bool refetch)
{
    if (!refetch && S->legal)
        return;
    json_decref(S->legal);
    S->legal = mk_game_legal_json(S->g);
    free(S->order);
    int n = S->nlisted = (int)json_array_size(S->legal);
    S->order = calloc(n > 0 ? (size_t)n : 1, sizeof *S->order);
    bool *done = calloc(n > 0 ? (size_t)n : 1, sizeof *done);
    if (!S->order || !done) {
        free(done);
        S->nlisted = 0;
        return;
    }
    int k = 0;
    if (n <= GROUP_ABOVE) {
        for (int i = 0; i < n; i++)
            S->order[k++] = i;
    } else {
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < n; i++) {
                const char *unit = action_unit(json_array_get(S->legal, (size_t)i));
                if (done[i] || (pass == 0) != (unit != NULL))
                    continue;
                for (int j = i; j < n; j++) {
                    if (!done[j] && same_group(unit, action_unit(json_array_get(S->legal, (size_t)j)))) {
                        done[j] = true;
                        S->order[k++] = j;
                    }
                }
            }
        }
    }
    free(done);
}

/* Prints the actions whose index is marked in sel (NULL: all), in number
 * order, under a heading per unit when grouped (or when only some are
 * shown). */
static void print_actions(session *S, json_t *st, const bool *sel)
{
    int n = S->nlisted;
    line *entries = calloc(n > 0 ? (size_t)n : 1, sizeof *entries);
    if (!entries)
        return;
    bool grouped = n > GROUP_ABOVE || sel;
    int k = 0;
    const char *group = NULL;
    bool open = false;   /* entries[0..k) belong to group */
    for (int num = 0; num <= n; num++) {
        json_t *a = num < n ? json_array_get(S->legal, (size_t)S->order[num]) : NULL;
        if (a && sel && !sel[S->order[num]])
            continue;
        const char *unit = a ? action_unit(a) : NULL;
        if (grouped && open && (!a || !same_group(group, unit))) {
            print_columns(entries, k);
            k = 0;
            open = false;
        }
        if (!a)
            break;
        if (grouped && !open) {
            line head;
            if (unit)
                unit_heading(st, unit, &head), put(&head, ":");
            else
                snprintf(head.s, sizeof head.s, "Other:");
            printf("%s\n", head.s);
            group = unit;
            open = true;
        }
        action_entry(a, grouped ? unit : NULL, num + 1, &entries[k]);
        if (grouped)
            k++;
        else
            printf("  %s\n", entries[0].s);
    }
    free(entries);
}

/* Prints one line per unit that can act: its heading, its actions'
 * numbers and how many of each type ("move 6, face 5"); the actions about
 * no unit in full. For lists too long to read at each prompt. */
static void print_summary(session *S, json_t *st)
{
    int n = S->nlisted;
    line *heads = calloc(n > 0 ? (size_t)n : 1, sizeof *heads);
    int *first = calloc(n > 0 ? (size_t)n : 1, sizeof *first);
    if (!heads || !first) {
        free(heads);
        free(first);
        return;
    }
    int ng = 0;
    size_t w = 0;
    for (int num = 0; num < n; num++) {
        const char *unit = action_unit(json_array_get(S->legal, (size_t)S->order[num]));
        const char *prev = num ? action_unit(json_array_get(S->legal, (size_t)S->order[num - 1])) : NULL;
        if (!unit || (num && same_group(unit, prev)))
            continue;
        first[ng] = num;
        unit_heading(st, unit, &heads[ng]);
        w = heads[ng].n > w ? heads[ng].n : w;
        ng++;
    }
    bool *others = calloc((size_t)n, sizeof *others);
    bool any_other = false;
    for (int g = 0; g < ng; g++) {
        const char *unit = action_unit(json_array_get(S->legal, (size_t)S->order[first[g]]));
        int last = first[g];
        while (last + 1 < n &&
               same_group(unit, action_unit(json_array_get(S->legal, (size_t)S->order[last + 1]))))
            last++;
        /* counts per action type, types in the order met */
        line counts = {.n = 0};
        counts.s[0] = '\0';
        const char *types[16];
        int ntypes = 0, count[16] = {0};
        for (int num = first[g]; num <= last; num++) {
            const char *t = jstr(json_array_get(S->legal, (size_t)S->order[num]), "type");
            t = t ? t : "?";
            int k = 0;
            while (k < ntypes && strcmp(types[k], t) != 0)
                k++;
            if (k == ntypes && ntypes < 16)
                types[ntypes++] = t;
            if (k < 16)
                count[k]++;
        }
        for (int k = 0; k < ntypes; k++) {
            put(&counts, "%s%d ", k ? ", " : "", count[k]);
            put_words(&counts, types[k]);
        }
        char range[32];
        if (last > first[g])
            snprintf(range, sizeof range, "%d-%d", first[g] + 1, last + 1);
        else
            snprintf(range, sizeof range, "%d", first[g] + 1);
        printf("  %-*s  %-9s %s\n", (int)w, heads[g].s, range, counts.s);
    }
    for (int i = 0; others && i < n; i++)
        if (!action_unit(json_array_get(S->legal, (size_t)i)))
            others[i] = any_other = true;
    if (any_other)
        print_actions(S, st, others);
    free(others);
    free(heads);
    free(first);
}

/* Lists the legal actions (fetched again when refetch): all of them, or
 * when there are more than SUMMARY_ABOVE and all is false, one line per
 * unit with a hint on listing a unit's actions. */
static void list_actions(session *S, json_t *st, bool refetch, bool all)
{
    number_actions(S, refetch);
    int n = S->nlisted;
    if (n > SUMMARY_ABOVE && !all) {
        printf("Legal actions (%d), by unit:\n", n);
        print_summary(S, st);
        const char *example = NULL;
        for (int i = 0; i < n && !example; i++)
            example = action_unit(json_array_get(S->legal, (size_t)i));
        printf("Type a unit's id%s%s%s, a hex or a word (fire, move ...) to see those actions, l for all "
               "of them, or a number to play one.\n",
               example ? " (" : "", example ? example : "", example ? ")" : "");
        return;
    }
    printf("Legal actions (%d):\n", n);
    print_actions(S, st, NULL);
}

/* Does the action name text: its unit, leader or command is text, or
 * (hex) a hex of its path or its target, or its unit stands there.
 * Compared without case. */
static bool action_names(json_t *st, json_t *a, const char *text, bool hex)
{
    static const char *const keys[] = {"unit", "leader", "command"};
    if (!hex) {
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if (jstr(a, keys[k]) && strcasecmp(jstr(a, keys[k]), text) == 0)
                return true;
        return false;
    }
    if (jstr(a, "target") && strcasecmp(jstr(a, "target"), text) == 0)
        return true;
    json_t *path = json_object_get(a, "path"), *h;
    size_t i;
    json_array_foreach(path, i, h)
        if (json_is_string(h) && strcasecmp(json_string_value(h), text) == 0)
            return true;
    json_t *u = state_unit(st, action_unit(a));
    return u && jstr(u, "hex") && strcasecmp(jstr(u, "hex"), text) == 0;
}

/* Lists the legal actions that text picks out: those of the unit (or
 * leader, or Command) with that id; else, when text is a hex label, those
 * that go to, aim at or start from that hex; else those whose text holds
 * it (without case). Returns how many were listed. */
static int filter_actions(session *S, json_t *st, const char *text)
{
    number_actions(S, false);
    int n = S->nlisted, found = 0;
    bool *sel = calloc(n > 0 ? (size_t)n : 1, sizeof *sel);
    if (!sel)
        return 0;
    mk_hex h;
    char err[128];
    bool is_hex = mk_hex_parse(&S->g->sc->map.grid, text, &h, err, sizeof err) == 0;
    for (int pass = 0; pass < 3 && !found; pass++) {
        if (pass == 1 && !is_hex)
            continue;
        for (int i = 0; i < n; i++) {
            json_t *a = json_array_get(S->legal, (size_t)i);
            const char *t = jstr(a, "text");
            sel[i] = pass < 2 ? action_names(st, a, text, pass == 1) : has_text(t, text);
            found += sel[i];
        }
    }
    if (found)
        print_actions(S, st, sel);
    free(sel);
    return found;
}

/* ---- the map ------------------------------------------------------------ */

/* The hexes a window follows: those touched since the last map, and those
 * of the units the legal actions are about (the activated Command's); with
 * no such unit, the side to move's units on the map. Returns how many. */
static int focus_hexes(session *S, json_t *st, mk_hex *out, int cap)
{
    const mk_grid *g = &S->g->sc->map.grid;
    char err[128];
    int n = 0;
    for (int i = 0; i < S->nhighlight && n < cap; i++)
        out[n++] = S->highlight[i];
    int touched = n;
    for (int i = 0; i < S->nlisted && n < cap; i++) {
        json_t *u = state_unit(st, action_unit(json_array_get(S->legal, (size_t)i)));
        mk_hex h;
        if (u && jstr(u, "hex") && mk_hex_parse(g, jstr(u, "hex"), &h, err, sizeof err) == 0)
            out[n++] = h;
    }
    if (n > touched)
        return n;
    json_t *units = json_object_get(st, "units"), *u;
    size_t i;
    const char *to_move = jstr(st, "to_move");
    json_array_foreach(units, i, u) {
        mk_hex h;
        if (n < cap && to_move && jstr(u, "side") && strcmp(jstr(u, "side"), to_move) == 0 &&
            jstr(u, "hex") && mk_hex_parse(g, jstr(u, "hex"), &h, err, sizeof err) == 0)
            out[n++] = h;
    }
    return n;
}

/* Draws the map as S->map_mode says (MAP_FULL, MAP_WINDOW) or as asked
 * (how: MAP_FULL, MAP_WINDOW, MAP_OVERVIEW), marking the hexes touched
 * since the last map. A window follows the play unless the person placed
 * it. Needs S->legal for the window's focus. */
static void draw_map(session *S, json_t *st, int how)
{
    const mk_scenario *sc = S->g->sc;
    const mk_grid *g = &sc->map.grid;
    if (how == MAP_AUTO)
        how = S->map_mode == MAP_OFF ? MAP_WINDOW : S->map_mode;
    if (!S->view_sized)
        mk_draw_view_fit(sc, mk_draw_width(stdout), mk_draw_height(stdout), &S->view);
    if (!S->pinned) {
        mk_hex focus[MK_MAX_UNITS + MAX_HIGHLIGHT];
        int n = focus_hexes(S, st, focus, (int)(sizeof focus / sizeof focus[0]));
        mk_draw_view_centre(g, &S->view, focus, n);
    }
    putchar('\n');
    if (how == MAP_OVERVIEW) {
        mk_draw_overview(stdout, sc, st, S->color, &S->view);
        return;
    }
    if (how == MAP_FULL) {
        mk_draw_map_view(stdout, sc, st, S->highlight, S->nhighlight, S->color, NULL);
    } else {
        char a[MK_HEX_LABEL_MAX], b[MK_HEX_LABEL_MAX];
        mk_draw_map_view(stdout, sc, st, S->highlight, S->nhighlight, S->color, &S->view);
        printf("Window %s to %s (%d x %d of %d x %d hexes%s): m all, m o(verview), m n/s/e/w, "
               "m HEX or UNIT, m auto.\n",
               mk_hex_label(g, mk_hex_at(g, S->view.col0, S->view.row0), a),
               mk_hex_label(g, mk_hex_at(g, S->view.col0 + S->view.cols - 1,
                                         S->view.row0 + S->view.rows - 1), b),
               S->view.cols, S->view.rows, g->cols, g->rows, S->pinned ? ", placed by you" : "");
    }
    S->nhighlight = 0;
}

/* Carries out "m ARG": see prompt_help. */
static void map_command(session *S, const char *arg)
{
    const mk_grid *g = &S->g->sc->map.grid;
    json_t *st = mk_game_state_json(S->g);
    number_actions(S, false);
    int cols, rows;
    char x;
    mk_hex h;
    char err[128];
    json_t *u;
    if (!*arg) {
        draw_map(S, st, MAP_AUTO);
    } else if (strcmp(arg, "all") == 0) {
        draw_map(S, st, MAP_FULL);
    } else if (strcmp(arg, "o") == 0 || strcmp(arg, "overview") == 0) {
        draw_map(S, st, MAP_OVERVIEW);
    } else if (strcmp(arg, "auto") == 0) {
        S->pinned = false;
        draw_map(S, st, MAP_WINDOW);
    } else if (strcmp(arg, "off") == 0 || strcmp(arg, "on") == 0) {
        S->map_mode = arg[1] == 'f' ? MAP_OFF : S->map_full ? MAP_FULL : MAP_WINDOW;
        printf("The map is %s at each decision (m draws it).\n", arg[1] == 'f' ? "no longer drawn" : "drawn");
    } else if (strlen(arg) == 1 && strchr("nsew", arg[0])) {
        /* half a window north, south, east or west */
        S->view.row0 += arg[0] == 'n' ? -S->view.rows / 2 : arg[0] == 's' ? S->view.rows / 2 : 0;
        S->view.col0 += arg[0] == 'w' ? -S->view.cols / 2 : arg[0] == 'e' ? S->view.cols / 2 : 0;
        mk_draw_view_clip(g, &S->view);
        S->pinned = true;
        draw_map(S, st, MAP_WINDOW);
    } else if (sscanf(arg, "%dx%d%c", &cols, &rows, &x) == 2 && cols > 0 && rows > 0) {
        S->view.cols = cols;
        S->view.rows = rows;
        mk_draw_view_clip(g, &S->view);
        S->view_sized = true;
        draw_map(S, st, MAP_WINDOW);
    } else if (mk_hex_parse(g, arg, &h, err, sizeof err) == 0 ||
               ((u = state_unit(st, arg)) && jstr(u, "hex") &&
                mk_hex_parse(g, jstr(u, "hex"), &h, err, sizeof err) == 0)) {
        mk_draw_view_centre(g, &S->view, &h, 1);
        S->pinned = true;
        draw_map(S, st, MAP_WINDOW);
    } else if (state_unit(st, arg)) {
        printf("%s is not on the map.\n", arg);
    } else {
        printf("m %s: not a hex or a unit on the map (%s); m alone draws the map, h lists the "
               "rest.\n", arg, err);
    }
    json_decref(st);
}

/* ---- playing ------------------------------------------------------------ */

/* Draws the map (unless it is off), the status and the legal actions. */
static void show_position(session *S)
{
    json_t *st = mk_game_state_json(S->g);
    number_actions(S, true);
    if (S->map_mode != MAP_OFF)
        draw_map(S, st, MAP_AUTO);
    putchar('\n');
    print_status(S, st);
    if (!mk_game_over(S->g))
        list_actions(S, st, false, false);
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
    S->actions++;
    print_events(S);
    return 0;
}

/* Plays action a (a listed one, or one typed as JSON): prints it, and its
 * events, or why the game refused it (the game is then unchanged). */
static void human_act(session *S, int side, json_t *a)
{
    const char *text = jstr(a, "text");
    mk_error err = {0};
    if (text) {
        printf("%s: %s\n", S->g->sc->sides[side].id, text);
    } else {
        char *typed = json_dumps(a, JSON_COMPACT);
        printf("%s: %s\n", S->g->sc->sides[side].id, typed ? typed : "?");
        free(typed);
    }
    if (mk_game_act_json(S->g, a, &err) != 0) {
        printf("The game refused it: %s\n", err.msg[0] ? err.msg : "not a legal action now");
        return;
    }
    S->last_by_human = true;
    S->actions++;
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
    number_actions(S, true);
    if (S->map_mode != MAP_OFF)
        draw_map(S, st, MAP_AUTO);
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
    printf("%ld actions played.\n", S->actions);
    json_decref(st);
}

/* Carries out "t [all | TEXT]": the units table of the units that can act
 * now (when there are many units), of every unit, or of those whose id,
 * name, hex, side or kind holds TEXT. */
static void units_command(session *S, const char *arg)
{
    json_t *st = mk_game_state_json(S->g);
    json_t *units = json_object_get(st, "units"), *u;
    json_t *picked = json_array();
    size_t i;
    number_actions(S, false);
    bool all = strcmp(arg, "all") == 0 || json_array_size(units) <= UNITS_ALL_BELOW;
    json_array_foreach(units, i, u) {
        bool take;
        if (*arg && !all) {
            static const char *const keys[] = {"id", "name", "hex", "side", "kind"};
            take = false;
            for (size_t k = 0; k < sizeof keys / sizeof keys[0] && !take; k++)
                take = has_text(jstr(u, keys[k]), arg);
        } else if (!all) {
            take = false;
            for (int j = 0; j < S->nlisted && !take; j++) {
                const char *id = action_unit(json_array_get(S->legal, (size_t)j));
                take = id && jstr(u, "id") && strcmp(id, jstr(u, "id")) == 0;
            }
        } else {
            take = true;
        }
        if (take)
            json_array_append(picked, u);
    }
    if (json_array_size(picked) == 0) {
        printf(*arg && !all ? "No unit's id, name, hex, side or kind holds '%s'.\n"
                            : "No unit can act now%s; t all lists every unit.\n",
               arg);
    } else {
        json_t *view = json_object();
        json_object_set(view, "units", picked);
        mk_draw_units(stdout, S->g->sc, view, S->color);
        json_decref(view);
        if (!*arg && !all)
            printf("(the units that can act now; t all: every unit; t TEXT: the units whose id, "
                   "name or hex holds TEXT)\n");
    }
    json_decref(picked);
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
    uint64_t number;
    if (parse_u64(cmd, &number)) {
        if (number < 1 || number > (uint64_t)S->nlisted)
            printf("There is no action %s: choose 1 to %d.\n", cmd, S->nlisted);
        else
            human_act(S, side, json_array_get(S->legal, (size_t)S->order[number - 1]));
        return true;
    }
    if (*cmd == '-' || *cmd == '+') {
        printf("'%s' is not an action's number: choose 1 to %d.\n", cmd, S->nlisted);
        return true;
    }
    if (*cmd == '{') {   /* an ACTION as the protocol writes it */
        json_error_t jerr;
        json_t *a = json_loads(cmd, 0, &jerr);
        if (!json_is_object(a))
            printf("Not a JSON action: %s (column %d). See docs/protocol.md, ACTION.\n", jerr.text,
                   jerr.column);
        else
            human_act(S, side, a);
        json_decref(a);
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
        map_command(S, arg);
    } else if (strcmp(word, "l") == 0 || strcmp(word, "list") == 0) {
        json_t *st = mk_game_state_json(S->g);
        if (!*arg || strcmp(arg, "all") == 0)
            list_actions(S, st, false, true);
        else if (filter_actions(S, st, arg) == 0)
            printf("No legal action names '%s'.\n", arg);
        json_decref(st);
    } else if (strcmp(word, "t") == 0 || strcmp(word, "units") == 0) {
        units_command(S, arg);
    } else if (strcmp(word, "u") == 0 || strcmp(word, "undo") == 0) {
        mk_error err = {0};
        if (!S->hotseat && !S->last_by_human)
            printf("Nothing of yours to undo: the last action was the computer's.\n");
        else if (mk_game_undo(S->g, &err) != 0)
            printf("Cannot undo: %s\n", err.msg[0] ? err.msg : "nothing to undo");
        else {
            printf("Undone.\n");
            S->last_by_human = false;
            S->actions--;
        }
    } else if (strcmp(word, "r") == 0 || strcmp(word, "record") == 0) {
        if (!*arg)
            printf("Save the record where? Type r and a file name, e.g. r game.json\n");
        else
            save_record(S, arg);
    } else {
        /* a unit's id, a hex or a word of the actions' text */
        json_t *st = mk_game_state_json(S->g);
        if (filter_actions(S, st, cmd) == 0) {
            if (state_unit(st, cmd)) {
                line head;
                unit_heading(st, cmd, &head);
                printf("%s has no legal action now.\n", head.s);
            } else {
                printf("'%s' is not a command, nor a unit, hex or word of any legal action; type "
                       "an action's number, or h for help.\n", cmd);
            }
        }
        json_decref(st);
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
    int threads = 0;   /* --threads: the computer's search threads (0: not given) */
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
        } else if (strcmp(o, "--watch") == 0) {
            A->watch = true;
        } else if (strcmp(o, "--seed") == 0 || strcmp(o, "--option") == 0 ||
                   strcmp(o, "--ai") == 0 || strcmp(o, "--side") == 0 ||
                   strcmp(o, "--record") == 0 || strcmp(o, "--map") == 0 ||
                   strcmp(o, "--threads") == 0) {
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
            } else if (strcmp(o, "--threads") == 0) {
                uint64_t t;
                if (!parse_u64(v, &t) || t < 1 || t > MK_AI_THREADS_MAX) {
                    fprintf(stderr, "musket play: --threads '%s' is not a whole number from 1 to %d\n", v,
                            MK_AI_THREADS_MAX);
                    return 2;
                }
                threads = (int)t;
            } else if (strcmp(o, "--side") == 0) {
                A->side = v;
            } else if (strcmp(o, "--map") == 0) {
                A->map_mode = strcmp(v, "window") == 0 ? MAP_WINDOW
                              : strcmp(v, "full") == 0 ? MAP_FULL
                              : strcmp(v, "off") == 0  ? MAP_OFF
                              : strcmp(v, "auto") == 0 ? MAP_AUTO
                                                       : -1;
                if (A->map_mode < 0) {
                    fprintf(stderr, "musket play: --map '%s': window, full, off or auto\n", v);
                    return 2;
                }
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
    if (A->watch && (A->hotseat || A->side)) {
        fputs("musket play: --watch excludes --hotseat and --side\n", stderr);
        return 2;
    }
    if (threads && (A->hotseat || A->ai.engine != MK_AI_MCTS)) {
        fprintf(stderr, "musket play: --threads is for the computer's search (--ai easy, normal, hard "
                        "or mcts), not %s\n", A->hotseat ? "--hotseat" : A->ai_name);
        return 2;
    }
    if (threads)
        A->ai.threads = threads;
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
        S->human[s] = !A->watch && (A->hotseat || s == human);
    S->g = mk_game_new(sc, mask, A->seed, &err);   /* owns sc from here */
    if (!S->g) {
        fprintf(stderr, "musket play: %s\n", err.msg);
        return 2;
    }
    mk_rng_seed(&S->ai, A->seed ^ AI_SEED_SALT);
    S->ai_cfg = A->ai;
    if (!A->hotseat)
        mk_ai_reserve(S->g->rs, &S->ai_cfg);   /* the computer's first move allocates nothing */
    S->hotseat = A->hotseat;
    S->color = A->color;
    S->echo = !isatty(STDIN_FILENO);
    S->map_full = mk_draw_map_fits(S->g->sc, mk_draw_width(stdout), FULL_ROWS_MAX);
    S->map_mode = A->map_mode != MAP_AUTO ? A->map_mode : S->map_full ? MAP_FULL : MAP_WINDOW;
    S->map_full |= A->map_mode == MAP_FULL;

    const mk_scenario *gs = S->g->sc;
    printf("%s (%s), %s\n", gs->title[0] ? gs->title : gs->id, gs->id, gs->rs->name);
    if (A->hotseat)
        printf("Hotseat: both sides play at this keyboard.\n");
    else if (A->watch)
        printf("The computer (%s) plays both sides.\n", A->ai_name);
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
    } else if (ended && S.echo) {
        /* input from a pipe or file: its next line is not a file name
         * meant for this (`yes 1 | musket play` would write a file "1") */
        printf("(--record FILE saves the game record.)\n");
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
