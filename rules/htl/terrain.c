/* terrain.c - Hold the Line terrain effects: the chart of HtL 2.3, one row
 * per terrain, each value citing its section. The rulebook prints the whole
 * chart, so it lives here as a const table. */
#include "htl_int.h"

const char *const htl_terrain_names[HT_COUNT] = {
    "clear", "swamp", "waterway", "bridge", "ford",
    "forest", "hill", "town", "fence", "entrenchment",
};

/* combat: added to each attacker die when the DEFENDER is in the hex
 * (HtL 2.2.1, 8.2.1, 8.4.3); morale: added to the defender's MP for the
 * close-combat retreat check (HtL 8.4.2, 8.4.4); stop: a unit entering must
 * stop (HtL 2.2.1 Movement); impassable; blocks_los (HtL 8.3). */
const htl_terrain_fx htl_terrain_table[HT_COUNT] = {
    /* HtL 2.3.1 Clear: no effect */
    [HT_CLEAR] = {0, 0, 0, 0, 0, NULL, NULL},
    /* HtL 2.3.2 Swamp: impassable (no unit can stand there to be attacked) */
    [HT_SWAMP] = {0, 0, 0, 1, 0, NULL, NULL},
    /* HtL 2.3.3 Waterway: attacker +1, stop and no further actions, morale -1 */
    [HT_WATERWAY] = {+1, -1, 1, 0, 0, "defender on waterway (HtL 2.3.3)",
                     "defender on waterway (HtL 2.3.3)"},
    /* HtL 2.3.4 Bridge: no effect, negates the waterway movement effect */
    [HT_BRIDGE] = {0, 0, 0, 0, 0, NULL, NULL},
    /* HtL 2.3.4 Ford: attacker +1, negates the waterway movement effect */
    [HT_FORD] = {+1, 0, 0, 0, 0, "defender on ford (HtL 2.3.4)", NULL},
    /* HtL 2.3.5 Forest: -1, stop, blocks LOS, morale +1 */
    [HT_FOREST] = {-1, +1, 1, 0, 1, "defender in forest (HtL 2.3.5)",
                   "defender in forest (HtL 2.3.5)"},
    /* HtL 2.3.6 Hill: -1, stop, blocks LOS, morale +1 */
    [HT_HILL] = {-1, +1, 1, 0, 1, "defender on hill (HtL 2.3.6)",
                 "defender on hill (HtL 2.3.6)"},
    /* HtL 2.3.7 Town/Buildings: -1, no movement effect, blocks LOS, morale +1 */
    [HT_TOWN] = {-1, +1, 0, 0, 1, "defender in town (HtL 2.3.7)",
                 "defender in town (HtL 2.3.7)"},
    /* HtL 2.3.8 Fence: -1, no movement or LOS effect, morale +1 */
    [HT_FENCE] = {-1, +1, 0, 0, 0, "defender behind fence (HtL 2.3.8)",
                  "defender behind fence (HtL 2.3.8)"},
    /* HtL 2.3.9 Entrenchment: -1, stop, blocks LOS, morale +1 */
    [HT_ENTRENCHMENT] = {-1, +1, 1, 0, 1, "defender in entrenchment (HtL 2.3.9)",
                         "defender in entrenchment (HtL 2.3.9)"},
};

/* htl_terrain and htl_stops are inline in htl_int.h (move generation). */

/* The modifier added to each attack die against hex (HtL 2.2.1, 8.2.1,
 * 8.4.3), and why. Optional 11.5: artillery firing into forest gets -2
 * instead of -1 (AMB-HTL-13: it replaces the -1). */
int htl_attack_mod(const htl_state *s, const mk_scenario *sc, int attacker, int hex, bool close,
                   const char **why)
{
    const htl_terrain_fx *t = htl_terrain(sc, hex);
    *why = t->combat_why;
    if (!close && HTL_OPT(s, 5) && sc->units[attacker].kind == HK_ARTILLERY &&
        sc->map.terrain[hex] == HT_FOREST) {
        *why = "artillery firing into forest (HtL 11.5)";
        return -2;
    }
    return t->combat;
}
