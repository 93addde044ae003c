/* test_bar_charts.c - the BAR series charts (rules/bar/charts.c,
 * data/bar/charts.json): every value the Monmouth text fixes is what the
 * loaded file holds; the loader refuses each kind of malformed file with a
 * message naming the file, the JSON path and the value; each lookup on its
 * boundaries. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "check.h"
#include "core/catalog.h"
#include "rules/bar/bar.h"

static bar_charts ch;

static json_t *original(void)
{
    char path[600];
    snprintf(path, sizeof path, "%s/data/bar/charts.json", mk_data_dir());
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    if (!j)
        fprintf(stderr, "  cannot read %s: %s\n", path, je.text);
    return j;
}

/* Writes root to a temporary file, expects the load to fail with needle
 * (and the file name) in the message, and the struct zeroed. */
static void refuses(json_t *root, const char *needle, int line)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/test_bar_charts_XXXXXX");
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    close(fd);
    CHECK_EQ(json_dump_file(root, path, 0), 0);
    bar_charts c;
    mk_error err = {0};
    int rc = bar_charts_load(&c, path, &err);
    CHECK_EQ(rc, -1);
    CHECK_STR(err.code, "scenario_invalid");
    CHECK(strstr(err.msg, path) != NULL);
    bool found = strstr(err.msg, needle) != NULL;
    CHECK(found);
    if (!found || rc != -1)
        fprintf(stderr, "  line %d: wanted \"%s\", message was: %s\n", line, needle, err.msg);
    CHECK_EQ(c.fire.ncolumns + c.nchecks, 0);
    unlink(path);
    json_decref(root);
}

static json_t *at(json_t *root, const char *a, const char *b)
{
    json_t *o = json_object_get(root, a);
    return b ? json_object_get(o, b) : o;
}

#define REFUSES(mutate, needle)                                                    \
    do {                                                                           \
        json_t *root = original();                                                 \
        if (!root) { CHECK(0); break; }                                            \
        mutate;                                                                    \
        refuses(root, needle, __LINE__);                                           \
    } while (0)

static void test_loader_refuses(void)
{
    mk_error err = {0};
    bar_charts c;
    CHECK_EQ(bar_charts_load(&c, "/nonexistent/charts.json", &err), -1);
    CHECK(strstr(err.msg, "/nonexistent/charts.json") != NULL);
    REFUSES(json_object_del(root, "estimate"), "estimate: true or false");
    REFUSES(json_object_del(root, "fire_combat_table"), "fire_combat_table: an object needed, got nothing");
    REFUSES(json_object_del(at(root, "fire_combat_table", NULL), "source"), "fire_combat_table.source: a string");
    REFUSES(json_array_set_new(at(root, "fire_combat_table", "columns"), 2, json_string("1:1")),
            "fire_combat_table.columns[2]: odds \"a-b\" (1-99 each) needed, got \"1:1\"");
    REFUSES(json_array_set_new(at(root, "fire_combat_table", "columns"), 2, json_string("1-3")),
            "fire_combat_table.columns[2]: odds higher than the column before needed, got \"1-3\"");
    REFUSES(json_array_remove(at(root, "fire_combat_table", "bands"), 0), "fire_combat_table.bands: an array of 13-13");
    REFUSES(json_array_set_new(json_array_get(json_array_get(at(root, "fire_combat_table", "bands"), 4), 1), 0,
                               json_integer(50)),
            "fire_combat_table.bands[4][1][0]: an integer 69..99 needed, got 50");
    REFUSES(json_object_set_new(at(root, "fire_combat_table", "morale_check"), "on", json_string("odd")),
            "morale_check.on: \"even_roll_with_loss\" needed, got \"odd\"");
    REFUSES(json_object_set_new(json_array_get(at(root, "fire_special", "infantry"), 1), "from", json_integer(3)),
            "fire_special.infantry[1].from: ranges without gaps or overlaps: from 2 needed, got 3");
    REFUSES(json_object_set_new(json_array_get(at(root, "fire_special", "infantry"), 1), "result",
                                json_string("rapid_fire")),
            "fire_special.infantry[1].result: a result name of this table needed, got \"rapid_fire\"");
    REFUSES(json_array_remove(at(root, "fire_special", "defensive"), 2), "fire_special.defensive: ranges up to 9 needed");
    REFUSES(json_array_set_new(json_object_get(json_array_get(at(root, "fire_multiples", "rows"), 0), "multiples"), 0,
                               json_real(1.005)),
            "fire_multiples.rows[0].multiples[0]: a number 0-20 in steps of 0.01 needed, got 1.00");
    REFUSES(json_object_set_new(json_array_get(at(root, "fire_multiples", "rows"), 1), "type", json_string("foot")),
            "fire_multiples.rows[1].type: each type once needed, got \"foot\"");
    REFUSES(json_object_del(json_array_get(at(root, "fire_multiples", "rows"), 8), "bracketed"),
            "fire_multiples.rows[8].bracketed: an array of 10-10 needed, got nothing");
    REFUSES(json_object_set_new(at(root, "max_sps_firing", NULL), "lien", json_integer(6)),
            "max_sps_firing.lien: a known key (no such entry) needed, got 6");
    REFUSES(json_object_set_new(at(root, "max_sps_firing", NULL), "line", json_integer(0)),
            "max_sps_firing.line: an integer 1..40 needed, got 0");
    REFUSES(json_object_del(at(root, "fire_defence", "terrain"), "marsh/woods"),
            "fire_defence.terrain.marsh/woods: an integer 1..20 needed, got nothing");
    REFUSES(json_object_set_new(json_object_get(at(root, "terrain_effects", "hexes"), "woods"), "line", json_real(1.25)),
            "terrain_effects.hexes.woods.line: MPs 0-10 in steps of 0.5, \"P\" or \"all\" needed, got 1.25");
    REFUSES(json_object_set_new(json_object_get(at(root, "terrain_effects", "hexsides"), "creek"), "scm",
                                json_string("no")),
            "terrain_effects.hexsides.creek.scm: MPs");
    REFUSES(json_object_set_new(json_object_get(at(root, "terrain_effects", "hexsides"), "bridge"),
                                "disorder_check", json_integer(1)),
            "terrain_effects.hexsides.bridge.disorder_check: true or false needed, got 1");
    REFUSES(json_object_del(json_object_get(at(root, "terrain_effects", "stacking"), "square"), "source"),
            "terrain_effects.stacking.square.source: a string");
    REFUSES(json_object_set_new(json_array_get(at(root, "checks", "tables"), 1), "letter", json_string("A")),
            "checks.tables[1].letter: each kind and letter once");
    REFUSES(json_object_set_new(json_array_get(at(root, "checks", "tables"), 0), "kind", json_string("panic")),
            "checks.tables[0].kind: \"morale\" or \"disorder\" needed, got \"panic\"");
    {
        json_t *root = original();
        json_t *step = json_array_get(
            json_object_get(json_array_get(json_object_get(json_array_get(at(root, "checks", "tables"), 0), "special"), 1),
                            "hierarchy"),
            0);
        json_object_set_new(step, "effect", json_string("explode"));
        refuses(root, "checks.tables[0].special[1].hierarchy[0].effect: an effect", __LINE__);
        root = original();
        step = json_array_get(
            json_object_get(json_array_get(json_object_get(json_array_get(at(root, "checks", "tables"), 0), "special"), 1),
                            "hierarchy"),
            1);
        json_object_set_new(step, "n", json_integer(3));
        refuses(root, "checks.tables[0].special[1].hierarchy[1].n: an integer 2..2 needed, got 3", __LINE__);
        root = original();
        step = json_array_get(
            json_object_get(json_array_get(json_object_get(json_array_get(at(root, "checks", "tables"), 0), "special"), 1),
                            "hierarchy"),
            1);
        json_object_set_new(step, "reroll", json_integer(5));
        refuses(root, "hierarchy[1].reroll: no reroll modifier unless", __LINE__);
    }
    REFUSES(json_array_set_new(json_object_get(at(root, "leader_loss_table", "subrolls"), "fate") ?
                                   json_object_get(json_object_get(at(root, "leader_loss_table", "subrolls"), "fate"), "killed") : NULL,
                               1, json_integer(12)),
            "leader_loss_table.subrolls.fate.killed[1]: an integer 0..9 needed, got 12");
    REFUSES(json_array_set_new(json_array_get(at(root, "close_combat", "bands"), 2), 3, json_string("both")),
            "close_combat.bands[2][3]: \"none\", \"attacker\" or \"defender\" needed, got \"both\"");
    REFUSES(json_object_set_new(json_array_get(at(root, "close_combat", "special_results"), 0), "result",
                                json_string("Leader!")),
            "close_combat.special_results[0].result: a name of 1-23 characters");
    REFUSES(json_array_remove(at(root, "pursuit", "pp"), 9), "pursuit.pp: an array of 10-10 needed");
    REFUSES(json_object_set_new(json_array_get(at(root, "initiative", "british"), 0), "result", json_string("panic")),
            "initiative.british[0].result: a result name of this table needed, got \"panic\"");
    REFUSES(json_array_set_new(json_object_get(at(root, "army_morale", "loss_levels"), "british"), 1, json_integer(30)),
            "army_morale.loss_levels.british[1]: an integer 31..999 needed, got 30");
    REFUSES(json_array_remove(at(root, "army_morale", "table"), 0), "army_morale.table: an array of 4-4 needed");
    /* Not JSON, duplicate keys, not an object. */
    char path[64];
    snprintf(path, sizeof path, "/tmp/test_bar_charts_XXXXXX");
    int fd = mkstemp(path);
    if (fd >= 0) {
        static const char *const bad_text[3] = {"{\"estimate\": tru", "{\"estimate\": true, \"estimate\": true}", "[1]"};
        static const char *const needle[3] = {"1:", "duplicate", "(top): an object needed"};
        for (int i = 0; i < 3; i++) {
            FILE *f = fopen(path, "w");
            fputs(bad_text[i], f);
            fclose(f);
            CHECK_EQ(bar_charts_load(&c, path, &err), -1);
            CHECK(strstr(err.msg, needle[i]) != NULL);
            CHECK(strstr(err.msg, path) != NULL);
        }
        close(fd);
        unlink(path);
    }
}

/* ---- the values the Monmouth text fixes ------------------------------- */
static void test_text_values(void)
{
    CHECK(ch.estimate);
    /* 2.1e */
    CHECK_EQ(bar_max_sps_firing(&ch, BAR_FM_ARTILLERY), 8);
    CHECK_EQ(bar_max_sps_firing(&ch, BAR_FM_ATTACK_COLUMN), 2);
    CHECK_EQ(bar_max_sps_firing(&ch, BAR_FM_GENERAL_ORDER), 6);
    CHECK_EQ(bar_max_sps_firing(&ch, BAR_FM_LINE), 6);
    CHECK_EQ(bar_max_sps_firing(&ch, BAR_FM_SKIRMISH), 6);
    CHECK_EQ(bar_max_sps_firing(&ch, BAR_FM_SQUARE), 8);
    CHECK_EQ(bar_max_sps_firing(&ch, BAR_FM_MARCH_COLUMN), -1);   /* not listed */
    /* 2.1c, 2.1d stacking, marked as the text's */
    CHECK_EQ(ch.stacking[BAR_FM_ROAD_COLUMN], 8);
    CHECK_EQ(ch.stacking[BAR_FM_ARTILLERY_ROAD_COLUMN], 2);
    CHECK_EQ(ch.stacking[BAR_FM_SKIRMISH], 6);
    CHECK(!ch.stacking_estimate[BAR_FM_ROAD_COLUMN] && !ch.stacking_estimate[BAR_FM_SKIRMISH] &&
          !ch.stacking_estimate[BAR_FM_ARTILLERY_ROAD_COLUMN]);
    CHECK(ch.stacking_estimate[BAR_FM_LINE]);
    CHECK(ch.stacking[BAR_FM_SQUARE] >= 6);   /* 2.1b: a Square needs 6 */
    /* 5.2-5.3 CV modifiers, 2.2c, 5.2d, 2.7 ER modifiers, 5.3c-d fire */
    CHECK_EQ(ch.cv_woods_defending, 1);
    CHECK_EQ(ch.cv_grade, -1);
    CHECK_EQ(ch.cv_bridge, -1);
    CHECK_EQ(ch.cv_creek, -3);
    CHECK_EQ(ch.cv_hedgerow, -2);
    CHECK_EQ(ch.cv_regular_slope, -2);
    CHECK_EQ(ch.cv_gentle_slope, -1);
    CHECK_EQ(ch.er_woods_morale, -5);
    CHECK_EQ(ch.er_terrain_normal, 5);
    CHECK_EQ(ch.er_terrain_light, 3);
    CHECK_EQ(ch.er_moonlit_move, 5);
    CHECK_EQ(ch.er_night_move, 10);
    CHECK_EQ(ch.hedgerow_pct, 75);
    CHECK_EQ(ch.slope_pct, 50);
    /* 1.2b, 2.6b A: ranges of the infantry rows */
    for (int r = BAR_FR_FOOT; r <= BAR_FR_LINE; r++)
        CHECK_EQ(ch.row[r].range, 1);
    CHECK_EQ(ch.row[BAR_FR_LIGHT].range, 2);
    CHECK_EQ(ch.row[BAR_FR_RIFLE].range, 3);
    CHECK_EQ(ch.row[BAR_FR_JAEGER].range, 3);
    /* 2.7 B-C, 3.2b C: artillery fires beyond 5 hexes (and 4+) */
    CHECK(ch.row[BAR_FR_FIELD].range > 5);
    /* 6.3-6.5: 00-09 special, evens a leader loss check */
    CHECK_EQ(ch.fire_special.lo, 0);
    CHECK_EQ(ch.fire_special.hi, 9);
    CHECK_EQ(ch.fire_special.leader_rolls, 0x155);
    CHECK_EQ(ch.fire.morale_letter, 'A');   /* 6.4e */
    /* 2.2b: 00 is Army Morale for both sides */
    CHECK_EQ(bar_initiative_special(&ch, BAR_AMERICAN, 0), BAR_INI_ARMY_MORALE);
    CHECK_EQ(bar_initiative_special(&ch, BAR_BRITISH, 0), BAR_INI_ARMY_MORALE);
    /* 6.2a A, C */
    CHECK_EQ(ch.army_morale.special_00, -1);
    CHECK_EQ(ch.army_morale.natural_0, -5);
    /* 6.6a-d sub-rolls and the -1 */
    CHECK_EQ(ch.leader_loss.modifier, -1);
    static const int kl[BAR_NLL][4] = {{0, 0, 1, 1}, {0, 3, 4, 7}, {0, 2, 3, 5}, {0, 2, 3, 5}};
    for (int k = 0; k < BAR_NLL; k++) {
        CHECK_EQ(ch.leader_loss.killed[k][0], kl[k][0]);
        CHECK_EQ(ch.leader_loss.killed[k][1], kl[k][1]);
        CHECK_EQ(ch.leader_loss.wounded[k][0], kl[k][2]);
        CHECK_EQ(ch.leader_loss.wounded[k][1], kl[k][3]);
    }
    for (int r = 0; r < 10; r++)
        CHECK_EQ(bar_leader_loss_kind(&ch, r) >= 0, r % 2 == 0);   /* 6.6: even rolls only */
    /* 6.7b */
    CHECK_EQ(ch.pursuit.no_control_add, 5);
    /* 2.3b: no SCM into bridge, hedgerow, lake, marsh; 5.3b-c: no charge across creek, hedgerow */
    CHECK_EQ(ch.side[0].cost[BAR_MV_SCM], BAR_COST_PROHIBITED);   /* bridge */
    CHECK_EQ(ch.side[1].cost[BAR_MV_SCM], BAR_COST_PROHIBITED);   /* creek */
    CHECK_EQ(ch.side[2].cost[BAR_MV_SCM], BAR_COST_PROHIBITED);   /* hedgerow */
    CHECK_EQ(ch.side[5].cost[BAR_MV_SCM], BAR_COST_PROHIBITED);   /* lake */
    CHECK_EQ(ch.hex[BAR_T_MARSH].cost[BAR_MV_SCM], BAR_COST_PROHIBITED);
    CHECK_EQ(ch.hex[BAR_T_LAKE].cost[BAR_MV_SCM], BAR_COST_PROHIBITED);
    /* 5.2e: artillery may not enter marsh; 5.2i: lake prohibited */
    CHECK_EQ(ch.hex[BAR_T_MARSH].cost[BAR_MV_ARTILLERY], BAR_COST_PROHIBITED);
    CHECK_EQ(ch.hex[BAR_T_MARSH_WOODS].cost[BAR_MV_ARTILLERY], BAR_COST_PROHIBITED);
    for (int m = 0; m < BAR_NMOVE; m++) {
        CHECK_EQ(ch.hex[BAR_T_LAKE].cost[m], BAR_COST_PROHIBITED);
        CHECK_EQ(ch.side[5].cost[m], BAR_COST_PROHIBITED);
    }
    /* 5.3c: all MPs across the hedgerow; 5.2e, 5.3b: cease movement */
    for (int m = BAR_MV_LINE; m <= BAR_MV_ARTILLERY; m++) {
        CHECK_EQ(ch.side[2].cost[m], BAR_COST_ALL);
        CHECK_EQ(ch.side[1].cost[m], BAR_COST_ALL);
    }
    CHECK_EQ(ch.hex[BAR_T_MARSH].cost[BAR_MV_LINE], BAR_COST_ALL);
    /* 5.3e: Column never pays for a gentle slope; 5.2h: streams cost nothing */
    CHECK_EQ(ch.side[4].cost[BAR_MV_COLUMN], 0);
    for (int m = 0; m < BAR_NMOVE; m++)
        CHECK_EQ(ch.side[6].cost[m], 0);
    /* non-clear for a Disorder Check (A): grade, woods, marsh, bridge, creek,
     * hedgerow, regular slope; clear: open, orchard, gentle slope (5.2-5.3) */
    CHECK(!ch.hex[BAR_T_OPEN].disorder_check && ch.hex[BAR_T_GRADE].disorder_check &&
          !ch.hex[BAR_T_ORCHARD].disorder_check && ch.hex[BAR_T_WOODS].disorder_check &&
          ch.hex[BAR_T_MARSH].disorder_check && ch.hex[BAR_T_MARSH_WOODS].disorder_check);
    CHECK(ch.side[0].disorder_check && ch.side[1].disorder_check && ch.side[2].disorder_check &&
          ch.side[3].disorder_check && !ch.side[4].disorder_check);
    /* no prolonge: grade (5.2b), woods (5.2d), regular slope (5.3d) */
    CHECK(ch.hex[BAR_T_GRADE].no_prolonge && ch.hex[BAR_T_WOODS].no_prolonge && ch.side[3].no_prolonge);
    CHECK(!ch.hex[BAR_T_OPEN].no_prolonge && !ch.side[4].no_prolonge);
    /* the letters the text names exist */
    static const char *const need[] = {"DA", "DF", "MA", "MB", "MI", "MJ"};
    bar_check_out o;
    for (int i = 0; i < 6; i++)
        CHECK_EQ(bar_check(&ch, need[i][0], need[i][1], 50, 40, 0, &o), 0);
}

/* ---- lookups ----------------------------------------------------------- */
static void test_fire_lookups(void)
{
    /* columns: 1-3 1-2 1-1 3-2 2-1 ... 15-1 (the file's), boundaries exact */
    CHECK_EQ(bar_fire_column(&ch, 33, 1), -1);    /* 0.33 : 1 < 1-3 */
    CHECK_EQ(bar_fire_column(&ch, 34, 1), 0);     /* 0.34 >= 1/3 */
    CHECK_EQ(bar_fire_column(&ch, 100, 3), 0);    /* exactly 1-3 */
    CHECK_EQ(bar_fire_column(&ch, 100, 1), 2);    /* 1-1 */
    CHECK_EQ(bar_fire_column(&ch, 149, 1), 2);
    CHECK_EQ(bar_fire_column(&ch, 150, 1), 3);    /* 3-2 */
    CHECK_EQ(bar_fire_column(&ch, 1500, 1), 12);  /* 15-1 */
    CHECK_EQ(bar_fire_column(&ch, 99900, 1), 12); /* beyond the table: the last column */
    CHECK_EQ(bar_fire_column(&ch, 0, 1), -1);
    CHECK_EQ(bar_fire_column(&ch, 100, 0), -1);
    /* 2.1f doubles the defence: 4 vs 1 is 4-1, vs 2 is 2-1 */
    int d1 = bar_fire_defence(&ch, BAR_T_OPEN, false), d2 = bar_fire_defence(&ch, BAR_T_OPEN, true);
    CHECK_EQ(d2, 2 * d1);
    CHECK_EQ(bar_fire_defence(&ch, BAR_NTERRAIN, false), -1);
    /* shifts 6.3d -1, 6.4c / 6.5b +1, kept on the table */
    CHECK_EQ(bar_fire_special_shift(BAR_FS_POOR_DISCIPLINE), -1);
    CHECK_EQ(bar_fire_special_shift(BAR_FS_ACCURATE_FIRE), 1);
    CHECK_EQ(bar_fire_special_shift(BAR_FS_WHITES_OF_EYES), 1);
    CHECK_EQ(bar_fire_special_shift(BAR_FS_FREE_FIRE), 0);
    CHECK_EQ(bar_fire_column_shift(&ch, 3, -1), 2);
    CHECK_EQ(bar_fire_column_shift(&ch, 0, -1), 0);
    CHECK_EQ(bar_fire_column_shift(&ch, 12, 1), 12);
    CHECK_EQ(bar_fire_column_shift(&ch, -1, -1), -1);
    CHECK_EQ(bar_fire_column_shift(&ch, -1, 1), 0);
    /* results: 1-1 column bands [78,1] [91,2] */
    bar_fire_result r;
    CHECK_EQ(bar_fire_result_of(&ch, 2, 77, 77, &r), 0);
    CHECK_EQ(r.sp, 0);
    CHECK_EQ(r.morale, 0);
    CHECK_EQ(bar_fire_result_of(&ch, 2, 78, 78, &r), 0);
    CHECK_EQ(r.sp, 1);
    CHECK_EQ(r.morale, 'A');   /* even natural roll with a loss: 6.4e */
    CHECK_EQ(bar_fire_result_of(&ch, 2, 79, 79, &r), 0);
    CHECK_EQ(r.sp, 1);
    CHECK_EQ(r.morale, 0);     /* odd */
    CHECK_EQ(bar_fire_result_of(&ch, 2, 91, 90, &r), 0);   /* modified 91, natural even */
    CHECK_EQ(r.sp, 2);
    CHECK_EQ(r.morale, 'A');
    CHECK_EQ(bar_fire_result_of(&ch, 2, 130, 99, &r), 0);   /* above 99 reads 99 */
    CHECK_EQ(r.sp, 2);
    CHECK_EQ(bar_fire_result_of(&ch, 2, -15, 5, &r), 0);     /* 6.3e -20 */
    CHECK_EQ(r.sp, 0);
    CHECK_EQ(bar_fire_result_of(&ch, -1, 99, 98, &r), 0);    /* below the table */
    CHECK_EQ(r.sp, 0);
    CHECK_EQ(bar_fire_result_of(&ch, 13, 50, 50, &r), -1);
    CHECK_EQ(bar_fire_result_of(&ch, 2, 50, 100, &r), -1);
    /* specials */
    bool leader = true;
    CHECK_EQ(bar_fire_special_of(&ch, BAR_FIRE_INFANTRY, 10, false, &leader), BAR_FS_NONE);
    CHECK(!leader);
    CHECK_EQ(bar_fire_special_of(&ch, BAR_FIRE_INFANTRY, 0, false, &leader), BAR_FS_FREE_FIRE);
    CHECK(leader);
    CHECK_EQ(bar_fire_special_of(&ch, BAR_FIRE_INFANTRY, 9, false, &leader), BAR_FS_AMMO_LOW);
    CHECK(!leader);
    CHECK_EQ(bar_fire_special_of(&ch, BAR_FIRE_INFANTRY, 0, true, &leader), BAR_FS_NONE);   /* re-roll */
    CHECK_EQ(bar_fire_special_of(&ch, BAR_FIRE_ARTILLERY, 9, false, NULL), BAR_FS_AMMO_EXHAUSTED);
    CHECK_EQ(bar_fire_special_of(&ch, BAR_FIRE_DEFENSIVE, 8, false, &leader), BAR_FS_BLOWING_SMOKE);
    CHECK(leader);
    /* every special of every table belongs to its section (6.3, 6.4, 6.5) */
    for (int k = 0; k < 3; k++)
        for (int roll = 0; roll <= 9; roll++) {
            int s = bar_fire_special_of(&ch, (bar_fire_kind)k, roll, false, NULL);
            CHECK(s >= 0 && s < BAR_NFIRE_SPECIAL);
        }

    /* strength: a foot line of 6 SPs at 1 hex = 6 x its multiple */
    int m = ch.row[BAR_FR_FOOT].mult[0];
    CHECK_EQ(bar_fire_strength(&ch, BAR_FR_FOOT, 6, 1, 0), 6 * m);
    CHECK_EQ(bar_fire_strength(&ch, BAR_FR_FOOT, 6, 2, 0), -1);        /* 1.2b: 1 hex */
    CHECK(bar_fire_strength(&ch, BAR_FR_LIGHT, 4, 2, 0) >= 0);         /* lights: 2 */
    CHECK_EQ(bar_fire_strength(&ch, BAR_FR_LIGHT, 4, 3, 0), -1);
    CHECK(bar_fire_strength(&ch, BAR_FR_RIFLE, 4, 3, 0) >= 0);         /* 2.6b A: 3 */
    CHECK_EQ(bar_fire_strength(&ch, BAR_FR_RIFLE, 4, 4, 0), -1);
    CHECK_EQ(bar_fire_strength(&ch, BAR_FR_FOOT, 6, 0, 0), -1);
    CHECK_EQ(bar_fire_strength(&ch, BAR_NFIRE_ROWS, 6, 1, 0), -1);
    /* 5.3c hedgerow x .75 (fractions kept): 4 SPs x 1.00 = 4.00 -> 3.00; 3 SPs -> 2.25 */
    bar_charts c = ch;
    c.row[BAR_FR_FOOT].mult[0] = 100;
    CHECK_EQ(bar_fire_strength(&c, BAR_FR_FOOT, 4, 1, BAR_FSF_HEDGEROW), 300);
    CHECK_EQ(bar_fire_strength(&c, BAR_FR_FOOT, 3, 1, BAR_FSF_HEDGEROW), 225);
    /* 5.3d uphill halved (rounded, .5 up): 5 -> 3, 4 -> 2, 3 x 1.00 -> 2 */
    CHECK_EQ(bar_fire_strength(&c, BAR_FR_FOOT, 5, 1, BAR_FSF_UPHILL_SLOPE), 300);
    CHECK_EQ(bar_fire_strength(&c, BAR_FR_FOOT, 4, 1, BAR_FSF_UPHILL_SLOPE), 200);
    CHECK_EQ(bar_fire_strength(&c, BAR_FR_FOOT, 1, 1, BAR_FSF_UPHILL_SLOPE), 100);   /* 0.5 -> 1 */
    /* both: 3.00 x .75 = 2.25, halved 1.125 -> 1 */
    CHECK_EQ(bar_fire_strength(&c, BAR_FR_FOOT, 3, 1, BAR_FSF_HEDGEROW | BAR_FSF_UPHILL_SLOPE), 100);
    /* artillery: brackets (2.7 B-C) and heat (2.8 F, fractions kept) */
    c.row[BAR_FR_FIELD].mult[6] = 100;
    c.row[BAR_FR_FIELD].bracketed[6] = 50;
    CHECK_EQ(bar_fire_strength(&c, BAR_FR_FIELD, 3, 7, 0), 300);
    CHECK_EQ(bar_fire_strength(&c, BAR_FR_FIELD, 3, 7, BAR_FSF_BRACKETED), 150);
    CHECK_EQ(bar_fire_strength(&c, BAR_FR_FIELD, 3, 7, BAR_FSF_BRACKETED | BAR_FSF_HEAT), 75);
    CHECK_EQ(bar_fire_strength(&c, BAR_FR_FOOT, 3, 1, BAR_FSF_HEAT | BAR_FSF_BRACKETED), 300);   /* infantry: no */
    CHECK_EQ(bar_fire_strength(&c, BAR_FR_FIELD, 3, ch.row[BAR_FR_FIELD].range + 1, 0), -1);
    c.row[BAR_FR_FIELD].min_range = 2;
    CHECK_EQ(bar_fire_strength(&c, BAR_FR_FIELD, 3, 1, 0), -1);   /* inside the minimum */
    /* 6.3f / 6.4g / 6.5c halve (rounded): 5 -> 3, 4 -> 2, 2.25 -> 1, 0.5 -> 0 (.25 rounds down) */
    CHECK_EQ(bar_fire_strength_halved(500), 300);
    CHECK_EQ(bar_fire_strength_halved(400), 200);
    CHECK_EQ(bar_fire_strength_halved(225), 100);
    CHECK_EQ(bar_fire_strength_halved(300), 200);   /* 1.5 -> 2 */
    CHECK_EQ(bar_fire_strength_halved(0), 0);
}

static void test_cv_modifiers(void)
{
    CHECK_EQ(bar_cv_modifier(&ch, BAR_T_OPEN, BAR_T_OPEN, 0, false, false), 0);
    CHECK_EQ(bar_cv_modifier(&ch, BAR_T_OPEN, BAR_T_WOODS, 0, false, false), 1);          /* 5.2d */
    CHECK_EQ(bar_cv_modifier(&ch, BAR_T_OPEN, BAR_T_MARSH_WOODS, 0, false, false), 1);    /* woods for combat */
    CHECK_EQ(bar_cv_modifier(&ch, BAR_T_OPEN, BAR_T_WOODS, 0, false, true), 0);           /* 2.3e cavalry */
    CHECK_EQ(bar_cv_modifier(&ch, BAR_T_GRADE, BAR_T_GRADE, 0, false, false), -1);        /* 5.2b */
    CHECK_EQ(bar_cv_modifier(&ch, BAR_T_GRADE, BAR_T_GRADE, BAR_HS_GENTLE_SLOPE, false, false), 0);
    CHECK_EQ(bar_cv_modifier(&ch, BAR_T_GRADE, BAR_T_OPEN, 0, false, false), 0);
    CHECK_EQ(bar_cv_modifier(&ch, BAR_T_OPEN, BAR_T_OPEN, BAR_HS_CREEK, false, false), -3);
    CHECK_EQ(bar_cv_modifier(&ch, BAR_T_OPEN, BAR_T_OPEN, BAR_HS_CREEK | BAR_HS_BRIDGE, false, false), -1);
    CHECK_EQ(bar_cv_modifier(&ch, BAR_T_OPEN, BAR_T_OPEN, BAR_HS_HEDGEROW, false, false), -2);
    CHECK_EQ(bar_cv_modifier(&ch, BAR_T_OPEN, BAR_T_OPEN, BAR_HS_REGULAR_SLOPE, true, false), -2);
    CHECK_EQ(bar_cv_modifier(&ch, BAR_T_OPEN, BAR_T_OPEN, BAR_HS_REGULAR_SLOPE, false, false), 0);   /* downhill */
    CHECK_EQ(bar_cv_modifier(&ch, BAR_T_OPEN, BAR_T_OPEN, BAR_HS_GENTLE_SLOPE, true, false), -1);
    CHECK_EQ(bar_cv_modifier(&ch, BAR_T_OPEN, BAR_T_WOODS, BAR_HS_CREEK | BAR_HS_REGULAR_SLOPE, true, false), -4);
}

static void test_checks(void)
{
    bar_check_out o;
    /* no special: the roll against the ER (at or above passes) */
    CHECK_EQ(bar_check(&ch, 'M', 'B', 50, 50, 0, &o), 0);
    CHECK(o.pass);
    CHECK_EQ(o.effect, BAR_CE_PASS);
    CHECK_EQ(o.special, -1);
    CHECK_EQ(bar_check(&ch, 'M', 'B', 49, 50, 0, &o), 0);
    CHECK(!o.pass);
    CHECK_EQ(o.effect, BAR_CE_FAIL);
    bar_charts c = ch;
    c.pass_at_or_above = false;
    CHECK_EQ(bar_check(&c, 'M', 'B', 50, 50, 0, &o), 0);
    CHECK(!o.pass);
    /* the hierarchy (6.9a): Disorder A, 00-02: #1 disordered -> shaken/disordered, else #2 */
    CHECK_EQ(bar_check(&ch, 'D', 'A', 2, 40, BAR_CC_DISORDERED, &o), 0);
    CHECK_EQ(o.special, 0);
    CHECK_EQ(o.step, 1);
    CHECK_EQ(o.effect, BAR_CE_SHAKEN_DISORDERED);
    CHECK_EQ(bar_check(&ch, 'D', 'A', 2, 40, BAR_CC_GOOD_ORDER, &o), 0);
    CHECK_EQ(o.step, 2);
    CHECK_EQ(o.effect, BAR_CE_DISORDERED);
    /* 03-05: #1 in woods -> re-roll with its own modifier */
    CHECK_EQ(bar_check(&ch, 'D', 'A', 3, 40, BAR_CC_IN_WOODS | BAR_CC_DISORDERED, &o), 0);
    CHECK_EQ(o.special, 1);
    CHECK_EQ(o.effect, BAR_CE_REROLL);
    CHECK_EQ(o.reroll, 10);
    /* asterisked results (leader loss): Morale A 00-01 */
    CHECK_EQ(bar_check(&ch, 'M', 'A', 1, 40, BAR_CC_SHAKEN, &o), 0);
    CHECK_EQ(o.effect, BAR_CE_ROUT);
    CHECK(o.leader_loss);
    CHECK_EQ(bar_check(&ch, 'M', 'A', 10, 40, BAR_CC_SHAKEN, &o), 0);   /* 10: no special */
    CHECK_EQ(o.special, -1);
    CHECK(!o.leader_loss);
    /* a step whose conditions all hold must hold them all */
    c.check[0].special[0].step[0].cond = BAR_CC_DISORDERED | BAR_CC_SKIRMISH;
    CHECK_EQ(bar_check(&c, 'D', 'A', 0, 40, BAR_CC_DISORDERED, &o), 0);
    CHECK_EQ(o.step, 2);
    CHECK_EQ(bar_check(&c, 'D', 'A', 0, 40, BAR_CC_DISORDERED | BAR_CC_SKIRMISH, &o), 0);
    CHECK_EQ(o.step, 1);
    /* no step applies: an ordinary roll */
    c.check[0].special[0].nsteps = 1;
    CHECK_EQ(bar_check(&c, 'D', 'A', 0, 40, 0, &o), 0);
    CHECK_EQ(o.special, -1);
    CHECK_EQ(o.effect, BAR_CE_FAIL);
    /* unknown letter, bad roll */
    CHECK_EQ(bar_check(&ch, 'M', 'Z', 50, 40, 0, &o), -1);
    CHECK_EQ(bar_check(&ch, 'X', 'A', 50, 40, 0, &o), -1);
    CHECK_EQ(bar_check(&ch, 'M', 'A', 100, 40, 0, &o), -1);
    CHECK_EQ(bar_check(&ch, 'M', 'A', -1, 40, 0, &o), -1);
}

static void test_other_tables(void)
{
    /* 6.6: Fate ignores the -1; the others take it (Lucky Shot 0-3 killed, 4-7 wounded) */
    CHECK_EQ(bar_leader_loss_subroll(&ch, BAR_LL_LUCKY_SHOT, 4, false), 2);
    CHECK_EQ(bar_leader_loss_subroll(&ch, BAR_LL_LUCKY_SHOT, 4, true), 1);
    CHECK_EQ(bar_leader_loss_subroll(&ch, BAR_LL_LUCKY_SHOT, 8, true), 2);
    CHECK_EQ(bar_leader_loss_subroll(&ch, BAR_LL_LUCKY_SHOT, 9, true), 0);
    CHECK_EQ(bar_leader_loss_subroll(&ch, BAR_LL_FATE, 1, true), 2);   /* not 0 */
    CHECK_EQ(bar_leader_loss_subroll(&ch, BAR_LL_FATE, 0, false), 1);
    CHECK_EQ(bar_leader_loss_subroll(&ch, BAR_LL_FATE, 2, false), 0);
    CHECK_EQ(bar_leader_loss_subroll(&ch, BAR_LL_LINE_OF_FIRE, 0, true), 1);   /* -1 stops at 0 */
    CHECK_EQ(bar_leader_loss_subroll(&ch, BAR_LL_BRAVING_FIRE, 6, true), 2);
    CHECK_EQ(bar_leader_loss_subroll(&ch, BAR_LL_BRAVING_FIRE, 6, false), 0);
    CHECK_EQ(bar_leader_loss_subroll(&ch, BAR_NLL, 0, false), -1);
    CHECK_EQ(bar_leader_loss_kind(&ch, 1), -1);
    CHECK_EQ(bar_leader_loss_kind(&ch, 10), -1);
    /* 6.7: the special roll; re-rolled it is read off the table */
    CHECK_EQ(bar_pursuit_points(&ch, 0, false), -1);
    CHECK_EQ(bar_pursuit_points(&ch, 0, true), 0);
    CHECK_EQ(bar_pursuit_points(&ch, 9, false), ch.pursuit.pp[9]);
    CHECK_EQ(bar_pursuit_points(&ch, 10, false), -2);
    for (int d = 0; d < 10; d++) {
        int s = bar_pursuit_special_of(&ch, d);
        CHECK(s >= 0 && s < BAR_NPU);
    }
    CHECK_EQ(bar_pursuit_special_of(&ch, -1), -1);
    /* initiative */
    CHECK_EQ(bar_initiative_special(&ch, BAR_AMERICAN, 10), -1);
    CHECK_EQ(bar_initiative_special(&ch, BAR_AMERICAN, 99), -1);
    CHECK_EQ(bar_initiative_special(&ch, 2, 0), -1);
    /* close combat: specials, steps and the band edges */
    CHECK_EQ(bar_cc_band(&ch, 5, 0), -1);
    int b = bar_cc_band(&ch, 44, 0);
    CHECK_EQ(b, 1);
    CHECK_EQ(bar_cc_band(&ch, 45, 0), 2);
    CHECK_EQ(bar_cc_band(&ch, 35, 1), 2);   /* +10 a CV point */
    CHECK_EQ(bar_cc_band(&ch, 10, -5), 0);  /* far below: the first band */
    CHECK_EQ(bar_cc_band(&ch, 99, 5), ch.cc.nbands - 1);
    CHECK_EQ(bar_cc_band(&ch, 100, 0), -1);
    /* army morale: levels and modifiers (0, +5, +13 of 7.4a D) */
    CHECK_EQ(bar_army_loss_level(&ch, BAR_AMERICAN, ch.army_morale.level[0][0] - 1), -1);
    CHECK_EQ(bar_army_loss_level(&ch, BAR_AMERICAN, ch.army_morale.level[0][0]), 0);
    CHECK_EQ(bar_army_loss_level(&ch, BAR_BRITISH, 9999), ch.army_morale.nlevels[1] - 1);
    CHECK_EQ(bar_army_loss_level(&ch, 5, 10), -1);
    for (int lv = 0; lv < ch.army_morale.nlevels[0]; lv++)
        for (int d = -2; d <= 9; d++) {
            int m = bar_army_morale_modifier(&ch, lv, d);
            CHECK(m == 0 || m == 5 || m == 13);
        }
    CHECK_EQ(bar_army_morale_modifier(&ch, BAR_CH_MAX_LEVELS, 5), -1);
}

int main(void)
{
    mk_error err = {0};
    CHECK_EQ(bar_charts_load(&ch, NULL, &err), 0);
    if (err.code) {
        fprintf(stderr, "  %s\n", err.msg);
        return check_done("test_bar_charts");
    }
    test_text_values();
    test_fire_lookups();
    test_cv_modifiers();
    test_checks();
    test_other_tables();
    test_loader_refuses();
    return check_done("test_bar_charts");
}
