/* setup.c - builds a playable scenario file (scenarios/bar/<n>-<name>.json)
 * from data/bar/: the map (map.json), the orders of battle (oob.json) and a
 * scenario's set-up and reinforcements (scenarios/<n>-<name>.json).
 *
 * The text places many pieces in areas ("within 1 hex of E1525", "with any
 * unit of his Command"); a game needs one hex each. This file makes that
 * choice once, deterministically, so the shipped scenario shows every
 * position and a designer can move a piece by editing its "hex". Our rule
 * for it (docs/bar.md "Placing the set-up"): pieces are taken in the order
 * the scenario lists them; an area gives the first hex, nearest the
 * centre first (ring by ring, in core's direction order), that is on the
 * map, allowed by the entry (column limit, exceptions, terrain), not lake,
 * and has room under the set-up stacking limit; "with" places join the
 * named piece's hex. tests/test_bar_game.c checks that the shipped files
 * are what this builds (MUSKET_WRITE_BAR_SCENARIOS=1 rewrites them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "rules/bar/bar_int.h"

#define SETUP_STACK_SP 12   /* at set-up: SPs a hex takes (our choice; see above) */

static const char *const scen_files[5] = {NULL, "1-lees-repulse", "2-washingtons-stand",
                                          "3-grand-battle", "4-general-engagement"};

static int first_bit(unsigned v)
{
    for (int i = 0; i < 16; i++)
        if (v & (1u << i))
            return i;
    return -1;
}

/* BAR_F_* (the set-up's allowed formations) -> the formation we start in. */
static int start_form(const bar_unit *u, unsigned allowed, bool reinforcement)
{
    bool art = u->type >= BAR_UT_ART_FIELD, cav = u->type == BAR_UT_CAVALRY;
    if (cav)
        return BAR_FM_CAVALRY;
    if (art) {
        if (allowed & BAR_F_UNLIMBERED)
            return BAR_FM_ARTILLERY;
        if (allowed || reinforcement)
            return BAR_FM_ARTILLERY_ROAD_COLUMN;
        return BAR_FM_ARTILLERY;
    }
    static const struct { unsigned bit; int form; } map[] = {
        {BAR_F_LINE, BAR_FM_LINE},           {BAR_F_HOOK, BAR_FM_HOOK},
        {BAR_F_ROAD_COLUMN, BAR_FM_ROAD_COLUMN}, {BAR_F_MARCH_COLUMN, BAR_FM_MARCH_COLUMN},
        {BAR_F_ATTACK_COLUMN, BAR_FM_ATTACK_COLUMN}, {BAR_F_GENERAL_ORDER, BAR_FM_GENERAL_ORDER},
        {BAR_F_SKIRMISH, BAR_FM_SKIRMISH},   {BAR_F_SQUARE, BAR_FM_SQUARE},
    };
    if (allowed && allowed != BAR_F_ANY)
        for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
            if (allowed & map[k].bit)
                return map[k].form;
    return reinforcement ? BAR_FM_ROAD_COLUMN : BAR_FM_LINE;
}

typedef struct builder {
    const bar_oob *o;
    const bar_scen *s;
    const bar_map *m;
    mk_hex uhex[BAR_OOB_MAX_UNITS], lhex[BAR_OOB_MAX_LEADERS];
    int sp[MK_MAX_HEX];
    int8_t side_at[MK_MAX_HEX];   /* -1 empty */
    /* the option bar.deploy (Monmouth 7.xb-c): each placed piece's area,
     * a run of pool (the oob unit's or leader's latest place; n 0: none) */
    int uat[BAR_OOB_MAX_UNITS], un[BAR_OOB_MAX_UNITS], lat[BAR_OOB_MAX_LEADERS], ln[BAR_OOB_MAX_LEADERS];
    int npool;
    mk_hex pool[1 << 15];
    bool mark[MK_MAX_HEX];
} builder;

/* May a place put a piece in h at all (the map, lake, the entry's
 * exceptions, column limit and terrain; not stacking or the enemy)? */
static bool hex_allowed(const builder *b, const bar_place *pl, mk_hex h)
{
    const mk_grid *g = &b->m->grid;
    if (h < 0 || h >= mk_grid_size(g) || b->m->terrain[h] == BAR_T_LAKE)
        return false;
    for (int k = 0; k < pl->nexcept; k++)
        if (pl->except[k] == h)
            return false;
    if (pl->max_col >= 0 && mk_hex_col(g, h) > pl->max_col)
        return false;
    return pl->terrain < 0 || b->m->terrain[h] == pl->terrain;
}

static bool hex_ok(const builder *b, const bar_place *pl, mk_hex h, int side, int sp)
{
    if (!hex_allowed(b, pl, h))
        return false;
    if (b->side_at[h] >= 0 && b->side_at[h] != side)
        return false;
    return b->sp[h] == 0 || b->sp[h] + sp <= SETUP_STACK_SP;
}

/* Is org `org` (or a Wing/Detachment above it) `anc`? */
static bool org_under(const bar_oob *o, int org, int anc)
{
    for (int k = 0; org >= 0 && k < BAR_OOB_MAX_ORGS; k++, org = o->org[org].parent)
        if (org == anc)
            return true;
    return false;
}

/* The hex of a place (a reinforcement: MK_NO_HEX). */
static mk_hex place_hex(builder *b, const bar_place *pl, int side, int sp)
{
    const mk_grid *g = &b->m->grid;
    switch (pl->at) {
    case BAR_AT_HEX:
        return pl->hex[0];
    case BAR_AT_HEXES:
        for (int k = 0; k < pl->nhex; k++)
            if (hex_ok(b, pl, pl->hex[k], side, sp))
                return pl->hex[k];
        return pl->hex[0];
    case BAR_AT_WITHIN: {
        /* ring by ring around the centre */
        mk_cube c0 = mk_hex_cube(g, pl->hex[0]);
        for (int r = 0; r <= pl->radius; r++)
            for (int dq = -r; dq <= r; dq++)
                for (int dr = -r; dr <= r; dr++) {
                    int ds = -dq - dr;
                    if ((abs(dq) > abs(dr) ? abs(dq) : abs(dr)) < r && abs(ds) < r)
                        continue;   /* inside the ring: done before */
                    if (abs(ds) > r)
                        continue;
                    mk_cube c = {c0.q + dq, c0.r + dr, c0.s + ds};
                    mk_hex h = mk_hex_from_cube(g, c);
                    if (h != MK_NO_HEX && hex_ok(b, pl, h, side, sp))
                        return h;
                }
        return pl->hex[0];
    }
    case BAR_AT_WITH:
        for (int k = 0; k < pl->nwith; k++) {
            if (pl->with_unit[k] >= 0 && b->uhex[pl->with_unit[k]] != MK_NO_HEX)
                return b->uhex[pl->with_unit[k]];
            if (pl->with_leader[k] >= 0 && b->lhex[pl->with_leader[k]] != MK_NO_HEX)
                return b->lhex[pl->with_leader[k]];
        }
        for (int u = 0; u < b->o->nunits; u++) {
            if (b->uhex[u] == MK_NO_HEX)
                continue;
            if ((pl->with_org >= 0 && org_under(b->o, b->o->unit[u].command, pl->with_org)) ||
                (pl->with_side >= 0 && b->o->unit[u].side == pl->with_side))
                return b->uhex[u];
        }
        return MK_NO_HEX;
    default:
        return MK_NO_HEX;
    }
}

/* Adds h to the area being built (once; b->mark). */
static void area_add(builder *b, mk_hex h)
{
    if (h == MK_NO_HEX || b->mark[h] || b->npool >= (int)(sizeof b->pool / sizeof b->pool[0]))
        return;
    b->mark[h] = true;
    b->pool[b->npool++] = h;
}

static void area_add_run(builder *b, int at, int n, mk_hex h)
{
    if (n == 0)
        area_add(b, h);
    for (int k = 0; k < n; k++)
        area_add(b, b->pool[at + k]);
}

/* The option bar.deploy (Monmouth 7.xb-c, the "B." paragraphs: "Where more
 * than one hex of deployment is allowed, different units of the same
 * Command may start in different, eligible hexes"): every hex the place
 * allows, chosen hex h first, the area's own order after it (a list in
 * its order, "within" ring by ring, "with" the named pieces' or the
 * Command's areas, or their hexes); stacking and the enemy are the
 * game's to check (bar_legal_deploy). Appended to b->pool from *at; returns
 * how many (0: a fixed hex, a reinforcement, or no choice). */
static int place_area(builder *b, const bar_place *pl, mk_hex h, int *at)
{
    const mk_grid *g = &b->m->grid;
    *at = b->npool;
    if (h == MK_NO_HEX || pl->at == BAR_AT_HEX || pl->at == BAR_AT_GROUP)
        return 0;
    memset(b->mark, 0, sizeof b->mark);
    area_add(b, h);
    switch (pl->at) {
    case BAR_AT_HEXES:
        for (int k = 0; k < pl->nhex; k++)
            if (hex_allowed(b, pl, pl->hex[k]))
                area_add(b, pl->hex[k]);
        break;
    case BAR_AT_WITHIN: {
        mk_cube c0 = mk_hex_cube(g, pl->hex[0]);
        for (int r = 0; r <= pl->radius; r++)
            for (int dq = -r; dq <= r; dq++)
                for (int dr = -r; dr <= r; dr++) {
                    int ds = -dq - dr;
                    if (((abs(dq) > abs(dr) ? abs(dq) : abs(dr)) < r && abs(ds) < r) || abs(ds) > r)
                        continue;
                    mk_cube c = {c0.q + dq, c0.r + dr, c0.s + ds};
                    mk_hex x = mk_hex_from_cube(g, c);
                    if (x != MK_NO_HEX && hex_allowed(b, pl, x))
                        area_add(b, x);
                }
        break;
    }
    case BAR_AT_WITH:
        for (int k = 0; k < pl->nwith; k++) {
            int u = pl->with_unit[k], l = pl->with_leader[k];
            if (u >= 0 && b->uhex[u] != MK_NO_HEX)
                area_add_run(b, b->uat[u], b->un[u], b->uhex[u]);
            if (l >= 0 && b->lhex[l] != MK_NO_HEX)
                area_add_run(b, b->lat[l], b->ln[l], b->lhex[l]);
        }
        for (int u = 0; u < b->o->nunits; u++)
            if (b->uhex[u] != MK_NO_HEX &&
                ((pl->with_org >= 0 && org_under(b->o, b->o->unit[u].command, pl->with_org)) ||
                 (pl->with_side >= 0 && b->o->unit[u].side == pl->with_side)))
                area_add_run(b, b->uat[u], b->un[u], b->uhex[u]);
        break;
    default:
        break;
    }
    int n = b->npool - *at;
    if (n < 2) {   /* no choice */
        b->npool = *at;
        return 0;
    }
    return n;
}

/* Place one piece: its hex (place_hex), its deploy area (place_area,
 * from *dat, *dn hexes) and the builder's record of it, which the later
 * places read (stacking, "with" areas). Returns the hex, MK_NO_HEX for a
 * reinforcement or no room (then nothing is recorded). */
static mk_hex place_piece(builder *b, const bar_place *pl, int *dat, int *dn)
{
    int side = pl->unit >= 0 ? b->o->unit[pl->unit].side : b->o->leader[pl->leader].side;
    int sp = pl->unit >= 0 ? b->o->unit[pl->unit].sp : 0;
    mk_hex h = place_hex(b, pl, side, sp);
    *dn = place_area(b, pl, h, dat);
    if (h == MK_NO_HEX)
        return h;
    if (pl->unit >= 0) {
        b->uat[pl->unit] = *dat;
        b->un[pl->unit] = *dn;
        b->uhex[pl->unit] = h;
        b->sp[h] += sp;
        b->side_at[h] = (int8_t)side;
    } else {
        b->lat[pl->leader] = *dat;
        b->ln[pl->leader] = *dn;
        b->lhex[pl->leader] = h;
    }
    return h;
}

static json_t *label(const mk_grid *g, mk_hex h)
{
    char lb[MK_HEX_LABEL_MAX];
    return h == MK_NO_HEX ? json_null() : json_string(mk_hex_label(g, h, lb));
}

static json_t *piece_json(builder *b, const bar_place *pl, mk_hex h, int dat, int dn)
{
    const mk_grid *g = &b->m->grid;
    json_t *o = json_object();
    const bar_group *gr = pl->at == BAR_AT_GROUP && pl->group >= 0 ? &b->s->group[pl->group] : NULL;
    if (pl->unit >= 0) {
        const bar_unit *u = &b->o->unit[pl->unit];
        json_object_set_new(o, "id", json_string(u->id));
        json_object_set_new(o, "side", json_string(u->side == BAR_AMERICAN ? "american" : "british"));
        int kind = u->type == BAR_UT_CAVALRY ? BK_CAVALRY
                   : u->type >= BAR_UT_ART_FIELD ? BK_ARTILLERY
                                                  : BK_INFANTRY;
        json_object_set_new(o, "kind", json_string(bar_kind_names[kind]));
        json_object_set_new(o, "mp", json_integer(u->mp_half / 2));
        json_object_set_new(o, "hex", label(g, h));
        unsigned allowed = gr ? gr->formations : pl->formations;
        json_object_set_new(o, "formation",
                            json_string(bar_formation_name(start_form(u, allowed, gr != NULL))));
    } else {
        const bar_leader *l = &b->o->leader[pl->leader];
        json_object_set_new(o, "id", json_string(l->id));
        if (l->name[0])
            json_object_set_new(o, "name", json_string(l->name));
        json_object_set_new(o, "side", json_string(l->side == BAR_AMERICAN ? "american" : "british"));
        json_object_set_new(o, "kind", json_string("leader"));
        json_object_set_new(o, "hex", label(g, h));
    }
    int side = pl->unit >= 0 ? b->o->unit[pl->unit].side : b->o->leader[pl->leader].side;
    int face = pl->face_road_east ? 3 : first_bit(pl->facings);
    if (face < 0)
        face = side == BAR_AMERICAN ? 3 : 9;   /* toward the enemy: east / west */
    json_object_set_new(o, "facing", json_integer(face * 30));
    if (gr) {
        char t[40];
        bar_turn_format(gr->first_turn, t, sizeof t);
        json_object_set_new(o, "arrive", json_string(t));
        mk_hex e = gr->nentry ? gr->entry[0] : (side == BAR_AMERICAN ? MK_NO_HEX : MK_NO_HEX);
        if (e == MK_NO_HEX) {
            /* an edge entry: the home hex of the side (7.0 B) */
            mk_hex_parse(g, side == BAR_AMERICAN ? "W0201" : "E3915", &e, NULL, 0);
        }
        json_object_set_new(o, "entry", label(g, e));
        if (gr->mp_limit_half >= 0)
            json_object_set_new(o, "entry_mp", json_real(gr->mp_limit_half / 2.0));
    }
    if (dn > 0) {   /* the option bar.deploy: the hexes the players may choose among */
        json_t *d = json_array();
        for (int k = 0; k < dn; k++)
            json_array_append_new(d, label(g, b->pool[dat + k]));
        json_object_set_new(o, "deploy", d);
    }
    if (pl->section[0])
        json_object_set_new(o, "section", json_string(pl->section));
    return o;
}

json_t *bar_build_scenario(int n, mk_error *err)
{
    if (n < 1 || n > 4) {
        mk_error_set(err, "bad_arg", "Monmouth scenarios are 1-4, not %d", n);
        return NULL;
    }
    static bar_oob o;
    static bar_scen s;
    static bar_map m;
    static builder b;
    if (bar_oob_load(&o, NULL, err) || bar_scen_load(&s, &o, n, NULL, err))
        return NULL;
    char buf[512];
    const char *path = NULL;
    json_t *mf = bar_data_read(&path, "map.json", buf, sizeof buf, err);
    if (!mf)
        return NULL;
    json_t *mj = json_object_get(mf, "map");
    mk_grid g;
    bar_oob_grid(&g);
    if (!mj || bar_map_parse(&m, &g, mj, err)) {
        if (!mj)
            mk_error_set(err, "scenario_invalid", "%s: no \"map\" object", path);
        json_decref(mf);
        return NULL;
    }
    memset(&b, 0, sizeof b);
    b.o = &o;
    b.s = &s;
    b.m = &m;
    for (int i = 0; i < BAR_OOB_MAX_UNITS; i++)
        b.uhex[i] = MK_NO_HEX;
    for (int i = 0; i < BAR_OOB_MAX_LEADERS; i++)
        b.lhex[i] = MK_NO_HEX;
    memset(b.side_at, -1, sizeof b.side_at);

    /* Places first, "with" places second (they need the others' hexes);
     * the standard pieces, then those of the 7.1a C variant. A place is
     * one or the other, so one set of per-place arrays serves both. */
    static mk_hex at[BAR_SC_MAX_PLACES];
    static int dat[BAR_SC_MAX_PLACES], dn[BAR_SC_MAX_PLACES];
    static int cdat[BAR_OOB_MAX_UNITS], cdn[BAR_OOB_MAX_UNITS];
    for (int variant = 0; variant < 2; variant++)
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < s.nplaces; i++) {
                const bar_place *pl = &s.place[i];
                if (pl->variant == variant && (pl->at == BAR_AT_WITH) == (pass == 1))
                    at[i] = place_piece(&b, pl, &dat[i], &dn[i]);
            }

    /* Monmouth 7.1a C (the optional variant, the game's option
     * "bar.7.1a.C"): its pieces go in the file too, marked "variant": 1,
     * placed the same way after every other piece (above); i: Morgan's
     * Command; ii: the British choice of up to 25 SPs from the Flank
     * Guards and the Jaeger Corps, ours: the units in the order of
     * battle's order while they fit, within 6 hexes of Clinton ("south of
     * the Monmouth Court House-Shrewsbury Road" is not checked: the
     * schematic map). */
    static bar_place vpl[BAR_OOB_MAX_UNITS];
    int nv = 0;
    if (s.nvariants > 0 && s.choice_max_sp > 0 && s.choice_leader >= 0 && b.lhex[s.choice_leader] != MK_NO_HEX) {
        int total = 0;
        for (int u = 0; u < o.nunits && nv < BAR_OOB_MAX_UNITS; u++) {
            bool from = false;
            for (int k = 0; k < s.choice_norgs; k++)
                from |= org_under(&o, o.unit[u].command, s.choice_org[k]);
            if (!from || b.uhex[u] != MK_NO_HEX || total + o.unit[u].sp > s.choice_max_sp)
                continue;
            bar_place *pl = &vpl[nv];
            memset(pl, 0, sizeof *pl);
            pl->unit = (int16_t)u;
            pl->leader = -1;
            pl->at = BAR_AT_WITHIN;
            pl->variant = 1;
            pl->hex[0] = b.lhex[s.choice_leader];
            pl->nhex = 1;
            pl->radius = s.choice_within;
            pl->max_col = -1;
            pl->terrain = -1;
            pl->with_org = -1;
            pl->with_side = -1;
            pl->group = -1;
            pl->order = -1;
            snprintf(pl->section, sizeof pl->section, "7.1a C ii");
            place_piece(&b, pl, &cdat[nv], &cdn[nv]);
            total += o.unit[u].sp;
            nv++;
        }
    }

    json_t *root = json_object();
    char id[64];
    snprintf(id, sizeof id, "bar/%s", scen_files[n]);
    json_object_set_new(root, "ruleset", json_string("bar"));
    json_object_set_new(root, "id", json_string(id));
    json_object_set_new(root, "title", json_string(s.title));
    json_object_set_new(root, "bar_scenario", json_integer(n));
    json_object_set_new(
        root, "note",
        json_string("BUILT FROM data/bar/ (map.json, oob.json, scenarios/) by rules/bar/setup.c. "
                    "The set-up and reinforcements are the Monmouth text's (each piece names its "
                    "section); where the text gives an area, the hex is our deterministic choice "
                    "(docs/bar.md). The map is OUR ORIGINAL SCHEMATIC of the ground, not the "
                    "published map; strengths and ratings are our estimates (oob.json)."));
    json_object_set(root, "map", mj);
    json_t *sides = json_array();
    json_array_append_new(sides, json_pack("{s:s,s:i,s:s}", "id", "american", "cap", 0, "home", "west"));
    json_array_append_new(sides, json_pack("{s:s,s:i,s:s}", "id", "british", "cap", 0, "home", "east"));
    json_object_set_new(root, "sides", sides);
    json_object_set_new(root, "first", json_string(s.deploys_first == BAR_BRITISH ? "british" : "american"));
    json_object_set_new(root, "turns", json_integer(s.last_turn - s.first_turn + 1));
    json_t *units = json_array();
    for (int i = 0; i < s.nplaces; i++)
        if (s.place[i].variant == 0)
            json_array_append_new(units, piece_json(&b, &s.place[i], at[i], dat[i], dn[i]));
    for (int i = 0; i < s.nplaces; i++)   /* 7.1a C: the variant's pieces, "variant": 1 */
        if (s.place[i].variant == 1) {
            json_t *pj = piece_json(&b, &s.place[i], at[i], dat[i], dn[i]);
            json_object_set_new(pj, "variant", json_integer(1));
            json_array_append_new(units, pj);
        }
    for (int k = 0; k < nv; k++) {
        json_t *pj = piece_json(&b, &vpl[k], b.uhex[vpl[k].unit], cdat[k], cdn[k]);
        json_object_set_new(pj, "variant", json_integer(1));
        json_array_append_new(units, pj);
    }
    json_object_set_new(root, "units", units);
    json_decref(mf);
    return root;
}
