/* units.c - Hold the Line unit types (HtL 3.4): movement rates, ranges and
 * hit numbers (the 8.2.1 / 8.2.3 charts), and the unit hex limits (HtL 4.3). */
#include <stdio.h>
#include <string.h>

#include "htl_int.h"

const char *const htl_kind_names[HK_COUNT] = {
    "regular", "elite", "light", "militia", "dragoon", "artillery", "leader", "vp",
};

/* HtL 8.2.3 Range and Firepower Chart: infantry 2, dragoons 1, artillery 3. */
int htl_fire_range(int kind)
{
    if (htl_is_infantry(kind))
        return 2;
    if (kind == HK_DRAGOON)
        return 1;
    if (kind == HK_ARTILLERY)
        return 3;
    return 0;
}

/* HtL 8.2.1 Combat Chart "Hit Numbers": the lowest die that hits, before
 * terrain; range 0 is close combat. 0: no such attack. */
int htl_hit_number(int kind, int range)
{
    static const int8_t inf[4] = {4, 5, 6, 0}, drag[4] = {0, 5, 0, 0}, art[4] = {0, 4, 5, 6};
    if (range < 0 || range > 3)
        return 0;
    if (htl_is_infantry(kind))
        return inf[range];
    if (kind == HK_DRAGOON)
        return drag[range];
    if (kind == HK_ARTILLERY)
        return art[range];
    return 0;
}

int htl_kind(const mk_scenario *sc, int u) { return sc->units[u].kind; }
int htl_side(const mk_scenario *sc, int u) { return sc->units[u].side; }

/* Fills o with the occupant of each hex, per hex-limit class (one pass over
 * the units; -1 bytes make every index -1). */
void htl_occ_build(htl_occ *o, const htl_state *s, const mk_scenario *sc)
{
    int n = mk_grid_size(&sc->map.grid);
    if (n > HTL_MAX_HEX)
        n = HTL_MAX_HEX;
    memset(o->h, 0xff, sizeof o->h[0] * (size_t)n);
    memset(o->side, 0, (size_t)n);
    for (int i = 0; i < s->nunits; i++) {
        int h = s->u[i].hex;
        if (h < 0)
            continue;
        int k = sc->units[i].kind, sd = sc->units[i].side & 1;
        o->side[h] |= (uint8_t)(HO_PIECE(sd) | (htl_is_combat(k) ? HO_COMBAT(sd) : 0));
        switch (htl_slot(k)) {
        case HS_FOOT: o->h[h].foot = (int16_t)i; break;
        case HS_ART: o->h[h].art = (int16_t)i; break;
        case HS_LEADER: o->h[h].leader = (int16_t)i; break;
        default: o->h[h].vp = (int16_t)i; break;
        }
    }
}

/* Does hex hold a combat unit of the side opposed to `side`? */
int htl_enemy_combat_in(const htl_state *s, const mk_scenario *sc, int hex, int side)
{
    for (int i = 0; i < s->nunits; i++)
        if (s->u[i].hex == hex && hex >= 0 && sc->units[i].side != side &&
            htl_is_combat(sc->units[i].kind))
            return 1;
    return 0;
}

/* The combat units of `side` in hex, foot before artillery (HtL 8.5.4);
 * returns the count (at most 2 by the hex limits). */
int htl_combat_units_in(const htl_state *s, const mk_scenario *sc, int hex, int side, int *out)
{
    int n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < s->nunits; i++) {
            int k = sc->units[i].kind;
            if (s->u[i].hex != hex || hex < 0 || sc->units[i].side != side || !htl_is_combat(k))
                continue;
            if ((pass == 0) == (k != HK_ARTILLERY) && n < 4)
                out[n++] = i;
        }
    return n;
}

/* The leader of `side` in hex (side -1: any), or -1. */
int htl_leader_in(const htl_state *s, const mk_scenario *sc, int hex, int side)
{
    for (int i = 0; i < s->nunits; i++)
        if (s->u[i].hex == hex && hex >= 0 && sc->units[i].kind == HK_LEADER &&
            (side < 0 || sc->units[i].side == side))
            return i;
    return -1;
}

/* A full check of the state's invariants (tests and debug builds): hex
 * limits (HtL 4.3), MP bounds, AP >= 0. Returns true, or false with why. */
bool htl_state_ok(const htl_state *s, const mk_scenario *sc, char *why, size_t n)
{
    int size = mk_grid_size(&sc->map.grid);
    int16_t cnt[HTL_MAX_HEX][4];
    for (int h = 0; h < size; h++)
        cnt[h][0] = cnt[h][1] = cnt[h][2] = cnt[h][3] = 0;
    if (s->ap < 0) {
        snprintf(why, n, "AP %d < 0", s->ap);
        return false;
    }
    for (int i = 0; i < s->nunits; i++) {
        const htl_unit *u = &s->u[i];
        int k = sc->units[i].kind;
        if (u->hex < -1 || u->hex >= size) {
            snprintf(why, n, "%s: bad hex %d", sc->units[i].id, u->hex);
            return false;
        }
        if (htl_is_combat(k) && (u->mp < 0 || u->mp > sc->units[i].mp_start ||
                                 (u->hex >= 0 && u->mp < 1))) {
            snprintf(why, n, "%s: MP %d outside 1..%d", sc->units[i].id, u->mp,
                     sc->units[i].mp_start);
            return false;
        }
        if (u->hex < 0)
            continue;
        if (sc->map.terrain[u->hex] == HT_SWAMP) {
            snprintf(why, n, "%s: in a swamp", sc->units[i].id);
            return false;
        }
        int sl = htl_slot(k);
        if (++cnt[u->hex][sl] > 1) {
            snprintf(why, n, "%s: hex limit (HtL 4.3) broken", sc->units[i].id);
            return false;
        }
        /* enemy combat units never share a hex; a lone enemy leader never
         * stands with them either (HtL 7.3) */
        for (int j = 0; j < i; j++)
            if (s->u[j].hex == u->hex && sc->units[j].side != sc->units[i].side &&
                sc->units[j].kind != HK_VP && k != HK_VP) {
                snprintf(why, n, "%s and %s: enemies in one hex", sc->units[i].id,
                         sc->units[j].id);
                return false;
            }
    }
    return true;
}
