/* charts.c - H&M's Player Aid Card charts as data (data/hm/charts.json):
 * the Small / Battles / Grand Battles charts (rule 3, 8), the Actions Table
 * (rule 6), movement rates (rule 7) and the Terrain Effects Chart (rule 2).
 * Read once per game at init (and at scenario check) into hm_charts, a
 * small fixed struct inside the game state; never read on the hot path. */
#include <stdio.h>
#include <string.h>

#include "core/catalog.h"
#include "hm_int.h"

const char *const hm_terrain_names[HT_COUNT] = {
    "clear", "river", "bridge", "woods", "hill", "swamp", "town", "entrenchment", "fort",
};

const char *const hm_kind_names[HK_COUNT] = {
    "line",    "elite",   "highlander", "militia",   "irregular",       "skirmisher", "native",
    "dragoon", "cavalry", "hussar",     "artillery", "siege_artillery", "leader",     "vp",
};

static int get_int(json_t *o, const char *key, int lo, int hi, int *out)
{
    json_t *v = json_object_get(o, key);
    if (json_is_boolean(v)) {
        *out = json_is_true(v);
        return 0;
    }
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return -1;
    *out = (int)json_integer_value(v);
    return 0;
}

/* Fills ch from the chart file for one scale ("small", "battles", "grand"). */
int hm_charts_load(hm_charts *ch, const char *scale, mk_error *err)
{
    char path[600];
    snprintf(path, sizeof path, "%s/data/hm/charts.json", mk_data_dir());
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (!root)
        return mk_error_set(err, "scenario_invalid", "%s: %d:%d: %s", path, je.line, je.column,
                            je.text);
    int rc = -1, v;
    memset(ch, 0, sizeof *ch);
    json_t *charts = json_object_get(json_object_get(root, "charts"), scale);
    json_t *mv = json_object_get(root, "movement"), *ac = json_object_get(root, "actions");
    json_t *cc = json_object_get(ac, "close_combat"), *ter = json_object_get(root, "terrain");
    if (!json_is_object(charts)) {
        mk_error_set(err, "scenario_invalid",
                     "%s: charts.%s: no such chart (small, battles, grand)", path, scale);
        goto done;
    }
    if (get_int(charts, "immune_range", 1, 9, &v)) {
        mk_error_set(err, "scenario_invalid", "%s: charts.%s.immune_range: 1-9 needed", path,
                     scale);
        goto done;
    }
    ch->immune_range = (int8_t)v;
    for (int k = 0; k < HK_COUNT; k++) {
        hm_kind_chart *kc = &ch->k[k];
        if (get_int(mv, hm_kind_names[k], 0, 9, &v)) {
            mk_error_set(err, "scenario_invalid", "%s: movement.%s: 0-9 needed", path,
                         hm_kind_names[k]);
            goto done;
        }
        kc->mr = (int8_t)v;
        if (!hm_is_unit(k))
            continue;
        json_t *e = json_object_get(charts, hm_kind_names[k]);
        json_t *f = json_object_get(e, "fire");
        if (!json_is_object(e) || !json_is_array(f) || json_array_size(f) != 3) {
            mk_error_set(err, "scenario_invalid", "%s: charts.%s.%s.fire: three numbers needed",
                         path, scale, hm_kind_names[k]);
            goto done;
        }
        for (int r = 0; r < 3; r++) {
            json_t *x = json_array_get(f, (size_t)r);
            if (!json_is_integer(x) || json_integer_value(x) < 0 || json_integer_value(x) > 10) {
                mk_error_set(err, "scenario_invalid", "%s: charts.%s.%s.fire[%d]: 0-10 needed",
                             path, scale, hm_kind_names[k], r);
                goto done;
            }
            kc->fire[r] = (int8_t)json_integer_value(x);
        }
        int c1, c2, cr, cost;
        if (get_int(e, "close", 0, 10, &c1) || get_int(e, "charge", 0, 10, &c2) ||
            get_int(e, "charge_range", 0, 6, &cr) || get_int(cc, hm_kind_names[k], 0, 9, &cost)) {
            mk_error_set(
                err, "scenario_invalid",
                "%s: charts.%s.%s: close, charge, charge_range (and actions.close_combat) needed",
                path, scale, hm_kind_names[k]);
            goto done;
        }
        kc->close = (int8_t)c1;
        kc->charge = (int8_t)c2;
        kc->charge_range = (int8_t)cr;
        kc->cc_cost = (int8_t)cost;
        json_t *od = json_object_get(e, "one_die");
        for (size_t i = 0; i < json_array_size(od); i++) {
            const char *col = json_string_value(json_array_get(od, i));
            if (!col)
                continue;
            if (strcmp(col, "fire") == 0)
                kc->one_die |= 1 << COL_FIRE;
            else if (strcmp(col, "close") == 0)
                kc->one_die |= 1 << COL_CLOSE;
            else if (strcmp(col, "charge") == 0)
                kc->one_die |= 1 << COL_CHARGE;
        }
    }
    int m, f, sk, ch2, ra, rs;
    if (get_int(ac, "move", 0, 9, &m) || get_int(ac, "fire", 0, 9, &f) ||
        get_int(ac, "skirmish", 0, 9, &sk) || get_int(ac, "charge", 0, 9, &ch2) ||
        get_int(ac, "rally", 0, 9, &ra) || get_int(ac, "resupply", 0, 9, &rs)) {
        mk_error_set(err, "scenario_invalid",
                     "%s: actions: move, fire, skirmish, charge, rally, resupply needed", path);
        goto done;
    }
    ch->cost_move = (int8_t)m;
    ch->cost_fire = (int8_t)f;
    ch->cost_skirmish = (int8_t)sk;
    ch->cost_charge = (int8_t)ch2;
    ch->cost_rally = (int8_t)ra;
    ch->cost_resupply = (int8_t)rs;
    for (int t = 0; t < HT_COUNT; t++) {
        json_t *e = json_object_get(ter, hm_terrain_names[t]);
        int st, sp, bl, ci, co, mo, im;
        if (!json_is_object(e) || get_int(e, "stack", 0, 2, &st) || get_int(e, "stop", 0, 1, &sp) ||
            get_int(e, "blocks_los", 0, 1, &bl) || get_int(e, "combat_in", -5, 5, &ci) ||
            get_int(e, "combat_out", -5, 5, &co) || get_int(e, "morale", -5, 5, &mo) ||
            get_int(e, "impassable", 0, 1, &im)) {
            mk_error_set(err, "scenario_invalid", "%s: terrain.%s: a full entry needed", path,
                         hm_terrain_names[t]);
            goto done;
        }
        hm_terrain_fx *x = &ch->t[t];
        x->stack = (int8_t)st;
        x->stop = (int8_t)sp;
        x->blocks = (int8_t)bl;
        x->combat_in = (int8_t)ci;
        x->combat_out = (int8_t)co;
        x->morale = (int8_t)mo;
        x->impassable = (int8_t)im;
    }
    rc = 0;
done:
    json_decref(root);
    return rc;
}
