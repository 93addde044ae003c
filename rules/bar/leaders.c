/* leaders.c - Monmouth leaders: lines of seniority and succession (3.2a,
 * 4.2a), replacement values (2.4b, 3.2a B, 4.2a B), the Leader Loss
 * counters (2.4b; their values are series-chart data we do not have:
 * data/bar/leader-loss-counters.json, estimates), rifle sniping (2.6b),
 * wound duration (6.6e) and Lee's Out of Command table (3.2b G iv). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "bar.h"
#include "core/catalog.h"

/* 3.2a A. Dickinson is left out on purpose ("does not succeed any of the
 * above leaders"). */
static const char *const american_line[] = {
    "Washington", "Lee",       "Greene",   "Alexander", "Lafayette",  "von Steuben",
    "Maxwell",    "Smallwood", "Poor",     "Glover",    "Paterson",   "Wayne",
    "Woodford",   "Muhlenberg", "Scott",   "Huntington", "Bailey",    "Magaw",
    "Irvine",     "Morgan",    "Johnston", "Grayson",   "Jackson",    "Ferbiger",
};
/* 4.2a A. */
static const char *const british_line[] = {
    "Clinton", "Cornwallis", "Knyphausen", "Grey", "Stirn", "Grant",
    "Mathew",  "Leslie",     "Kospoth",    "Loos", "Wurmb",
};

#define NAMES(a) ((int)(sizeof a / sizeof a[0]))

static bool same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

int bar_seniority_count(int side)
{
    return side == BAR_AMERICAN ? NAMES(american_line)
           : side == BAR_BRITISH ? NAMES(british_line)
                                 : 0;
}

const char *bar_seniority_name(int side, int rank)
{
    if (rank < 0 || rank >= bar_seniority_count(side))
        return NULL;
    return side == BAR_AMERICAN ? american_line[rank] : british_line[rank];
}

/* Leaders outside the list (Dickinson; Clark and du Plessis-Mauduit, who
 * are missing from it, AMB-BAR-16; Knox, Pattison; generic commanders)
 * have no rank: "most senior" needs one, so they never succeed. The
 * reinforcement lists spell Ferbiger "Febiger": the same man. */
int bar_seniority(int side, const char *name)
{
    if (!name)
        return -1;
    if (side == BAR_AMERICAN && same_name(name, "Febiger"))
        name = "Ferbiger";
    for (int r = 0; r < bar_seniority_count(side); r++)
        if (same_name(name, bar_seniority_name(side, r)))
            return r;
    return -1;
}

static int most_senior(int side, const bar_cand *c, int n, int wing, bool wing_only)
{
    int best = -1, best_rank = 0;
    for (int i = 0; i < n; i++) {
        if (!c[i].available)
            continue;
        if (wing_only) {
            if (c[i].wing != wing)
                continue;
            /* 3.2a C: Special or Command Leader; 4.2a C: Command Leader. */
            bool ok = c[i].role == BAR_ROLE_COMMAND ||
                      (side == BAR_AMERICAN && c[i].role == BAR_ROLE_SPECIAL);
            if (!ok)
                continue;
        }
        int r = bar_seniority(side, c[i].name);
        if (r >= 0 && (best < 0 || r < best_rank)) {
            best = i;
            best_rank = r;
        }
    }
    return best;
}

/* 3.2a B, 4.2a B: "the most senior American/British leader". Which
 * leaders count is the caller's (AMB-BAR-17): we read "available" as on
 * the map now, not wounded, not yet to arrive. */
int bar_army_successor(int side, const bar_cand *c, int n)
{
    return most_senior(side, c, n, -1, false);
}

int bar_wing_successor(int side, int wing, const bar_cand *c, int n)
{
    return most_senior(side, c, n, wing, true);
}

bool bar_leader_replaceable(int side, const char *name)
{
    static const char *const american_special[] = {"Wayne", "von Steuben", "Knox",
                                                    "du Plessis-Mauduit"};
    if (!name)
        return false;
    if (side == BAR_AMERICAN) {
        for (int i = 0; i < NAMES(american_special); i++)
            if (same_name(name, american_special[i]))
                return false;   /* 3.2a C */
        return true;
    }
    return !same_name(name, "Pattison");   /* 4.2a C: Clinton can be replaced */
}

/* 3.2a B, 4.2a B: WAN 9, Command Rating +1; 3.2b G i: Lee as Army Leader
 * has +0 (the exception 3.2a B names). */
void bar_replacement_army_leader(int side, const char *name, int *wan, int *command_rating)
{
    *wan = 9;
    *command_rating = side == BAR_AMERICAN && name && same_name(name, "Lee") ? 0 : 1;
}

char bar_loss_counter_set(int side, const char *name, bool dickinson_line)
{
    if (side == BAR_AMERICAN && (dickinson_line || (name && same_name(name, "Dickinson"))))
        return 'B';   /* 2.4b A */
    return 'A';
}

/* 2.4b B: EM on the ER Bonus "cannot go higher than 0", IR on the
 * Initiative "cannot be less than 0", CM on the CV Bonus "cannot be less
 * than 0". */
bar_leader_values bar_apply_loss_counter(bar_leader_values orig, const bar_loss_counter *c)
{
    bar_leader_values v = orig;
    v.er_bonus += c->em;
    v.initiative += c->ir;
    v.cv_bonus += c->cm;
    if (v.er_bonus > 0)
        v.er_bonus = 0;
    if (v.initiative < 0)
        v.initiative = 0;
    if (v.cv_bonus < 0)
        v.cv_bonus = 0;
    return v;
}

static int load_set(json_t *root, const char *key, bar_loss_counter *set, int *n,
                    const char *path, mk_error *err)
{
    json_t *a = json_object_get(root, key);
    if (!json_is_array(a) || json_array_size(a) == 0 ||
        json_array_size(a) > BAR_MAX_LOSS_COUNTERS)
        return mk_error_set(err, "scenario_invalid", "%s: %s: an array of 1-%d counters needed",
                            path, key, BAR_MAX_LOSS_COUNTERS);
    *n = (int)json_array_size(a);
    for (int i = 0; i < *n; i++) {
        json_t *e = json_array_get(a, (size_t)i);
        const char *id = json_string_value(json_object_get(e, "id"));
        if (!json_is_object(e) || !id || !*id || strlen(id) >= sizeof set[i].id)
            return mk_error_set(err, "scenario_invalid",
                                "%s: %s[%d]: an object with an \"id\" of 1-%d characters needed",
                                path, key, i, (int)sizeof set[i].id - 1);
        snprintf(set[i].id, sizeof set[i].id, "%s", id);
        static const char *const fields[3] = {"em", "ir", "cm"};
        int8_t *dst[3] = {&set[i].em, &set[i].ir, &set[i].cm};
        for (int f = 0; f < 3; f++) {
            json_t *v = json_object_get(e, fields[f]);
            if (!json_is_integer(v) || json_integer_value(v) < -5 || json_integer_value(v) > 5)
                return mk_error_set(err, "scenario_invalid",
                                    "%s: %s[%d].%s: an integer -5..5 needed", path, key, i,
                                    fields[f]);
            *dst[f] = (int8_t)json_integer_value(v);
        }
    }
    return 0;
}

int bar_loss_counters_load(bar_loss_counters *out, const char *path, mk_error *err)
{
    char def[600];
    memset(out, 0, sizeof *out);
    json_t *root = bar_data_read(&path, "leader-loss-counters.json", def, sizeof def, err);
    if (!root)
        return -1;
    int rc = -1;
    json_t *est = json_object_get(root, "estimate");
    if (!json_is_object(root))
        mk_error_set(err, "scenario_invalid", "%s: an object needed", path);
    else if (!json_is_boolean(est))
        mk_error_set(err, "scenario_invalid",
                     "%s: estimate: true or false needed (are the values the chart's?)", path);
    else if (load_set(root, "A", out->set[0], &out->n[0], path, err) == 0 &&
             load_set(root, "B", out->set[1], &out->n[1], path, err) == 0) {
        out->estimate = json_is_true(est);
        rc = 0;
    }
    json_decref(root);
    if (rc)
        memset(out, 0, sizeof *out);
    return rc;
}

/* 2.6b B: 1 hex 91-99, 2 hexes 94-99, 3 hexes 97-99. */
int bar_snipe_need(int range)
{
    static const int need[4] = {-1, 91, 94, 97};
    return range >= 1 && range <= 3 ? need[range] : -1;
}

/* AMB-BAR-14: 2.7 D caps "Fire Combat range for all units" at 1 hex at
 * Night. Sniping is fire by a unit in its Fire Segment, "in addition to
 * normal" Fire Combat - a special kind of it, so we apply the cap. */
int bar_snipe_max_range(bar_light l)
{
    return l == BAR_NIGHT ? 1 : 3;
}

int bar_snipe(int range, int roll, int die, bar_snipe_result *out)
{
    int need = bar_snipe_need(range);
    if (need < 0 || roll < 0 || roll > 99)
        return -1;
    *out = BAR_SNIPE_MISS;
    if (roll < need)
        return 0;
    if (die < 0 || die > 9)
        return -1;
    *out = die <= 4 ? BAR_SNIPE_KILLED : BAR_SNIPE_WOUNDED;   /* 0-4 killed, 5-9 wounded */
    return 0;
}

/* 6.6e: "half the die roll (rounded)", .5 up (AMB-BAR-8); 0: stays. */
int bar_wound_turns(int die)
{
    return die < 0 ? 0 : bar_half_rounded(die);
}

/* 3.2b G iv. */
int bar_lee_ooc(int die, int ma, bar_rout now, bar_ooc_effect *out)
{
    if (die < 0 || die > 9)
        return -1;
    *out = (bar_ooc_effect){.kind = (bar_ooc)(die / 2), .mp = -1, .rout = now};
    switch (out->kind) {
    case BAR_OOC_HALF_MP:
        out->mp = bar_half_rounded(ma);   /* "half its MPs (rounded)" */
        break;
    case BAR_OOC_NO_MP:
        out->mp = 0;
        break;
    case BAR_OOC_ROUT:
        /* Voluntary Rout; already Voluntary: involuntary; already
         * involuntary: stays. 8 hexes in every case. */
        out->rout = now == BAR_ROUT_NONE ? BAR_ROUT_VOLUNTARY : BAR_ROUT_INVOLUNTARY;
        out->rout_hexes = 8;
        break;
    default:
        break;
    }
    return 0;
}

/* 3.2b G vi: scenario 1, until the beginning of the Noon turn (slot 36);
 * 3 and 4, until Washington relieves Lee. Lee is a Detachment Leader only
 * in scenarios 1, 3 and 4 (3.2b G). */
bool bar_lee_ooc_applies(int scenario, int turn, bool lee_relieved)
{
    if (bar_end_turn_number(scenario, turn) < 0)
        return false;
    if (scenario == 1)
        return turn < 36;
    if (scenario == 3 || scenario == 4)
        return !lee_relieved;
    return false;
}

/* 3.4a: in scenarios 1, 3, 4, not before the British 10:20 AM
 * reinforcements enter or the 10:40 AM 28 June turn (slot 32) begins. */
bool bar_american_vol_rout_allowed(int scenario, int turn, bool british_1020_entered)
{
    if (scenario == 2)
        return true;
    return british_1020_entered || turn >= 32;
}
