/* victory.c - Monmouth victory (7.1d, 7.2d, 7.3d, 7.4d), the loss counting
 * it reads (artillery 2.2d H, leaders 2.4c) and the militia raids on the
 * British baggage train of scenario 4 (7.4a F). Pure functions over small
 * input structs: the future ruleset gathers the figures from its state.
 *
 * Ratios are kept as integers: scenario 1 in hundredths ("round this
 * result down to the second decimal place", 7.1d A), scenarios 2-4 in
 * tenths ("down to the first decimal place"), so floor division is the
 * rule's rounding exactly and no floating point is involved. */
#include "bar.h"

/* 7.3d B / 7.4d B, in the order of the track. */
static const int advance_mod[10] = {-30, -25, -20, -10, -5, 5, 10, 15, 20, 25};

/* "The modifier used is that which is of the highest value and where all
 * hexes of lesser value were occupied": the longest run of occupied hexes
 * from step 1. With step 1 (E1623) never reached no modifier is given:
 * 0, the literal reading (AMB-BAR-5), although it favours the British
 * more than reaching E1623 (-30) does. */
int bar_advance_modifier(uint16_t advance)
{
    int m = 0;
    for (int i = 0; i < 10 && (advance >> i & 1); i++)
        m = advance_mod[i];
    return m;
}

/* 2.2d H: separate counts; a Field loss and a Light loss make no box. */
int bar_artillery_loss_boxes(int field_sp, int light_rgt_sp)
{
    return (field_sp > 0 ? field_sp / 2 : 0) + (light_rgt_sp > 0 ? light_rgt_sp / 4 : 0);
}

/* 2.4c. A replaced leader worth 1 or 0 would give a negative count; we
 * keep it at 0 (a kill never removes boxes). */
int bar_leader_loss_value(int chart_value, bool replacement)
{
    int v = replacement ? chart_value - 2 : chart_value;
    return v < 0 ? 0 : v;
}

/* 7.1d G, 7.2d D, 7.3d E, 7.4d E: the loss value of "the side with the
 * greater number of SPs lost" must reach the threshold (AMB-BAR-7: the
 * side is chosen by roster SPs, the figure compared is that side's Loss
 * Chart value; with equal SPs lost either side's value may reach it). */
static bool auto_draw(const int sp_lost[2], const int value[2], int threshold)
{
    int v;
    if (sp_lost[0] > sp_lost[1])
        v = value[0];
    else if (sp_lost[1] > sp_lost[0])
        v = value[1];
    else
        v = value[0] > value[1] ? value[0] : value[1];
    return v < threshold;
}

static int check_in(int scenario, const bar_victory_in *in, mk_error *err)
{
    if (scenario < 1 || scenario > 4)
        return mk_error_set(err, "bad_arg", "Monmouth victory: no scenario %d (1-4)", scenario);
    for (int s = 0; s < 2; s++)
        if (in->loss[s] < 0 || in->sp_lost[s] < 0)
            return mk_error_set(err, "bad_arg", "Monmouth victory: negative losses for side %d",
                                s);
    if (in->british_on_map < 0)
        return mk_error_set(err, "bad_arg", "Monmouth victory: negative british_on_map");
    if (in->baggage < 0 || in->baggage > BAR_BAGGAGE_MAX)
        return mk_error_set(err, "bad_arg", "Monmouth victory: baggage %d outside 0-%d",
                            in->baggage, BAR_BAGGAGE_MAX);
    if (in->advance >> 10)
        return mk_error_set(err, "bad_arg", "Monmouth victory: advance has bits above the 10 hexes");
    return 0;
}

/* 7.1d: American total over British total, to hundredths, plus B-E. */
static void scenario1(const bar_victory_in *in, bar_victory_out *out)
{
    out->auto_draw = auto_draw(in->sp_lost, in->loss, 8);   /* 7.1d G */
    out->am_total = in->loss[BAR_AMERICAN];
    out->br_total = in->loss[BAR_BRITISH];
    int mod = 0;
    if (in->orchard)
        mod += 25;                              /* B */
    if (in->w2220)
        mod += in->interdicted ? 25 : 100;      /* D, C */
    if (in->american_e3915)
        mod -= 100;                             /* E */
    out->modifier = mod;
    if (out->br_total == 0) {
        /* AMB-BAR-15: 0 British losses. The ratio grows without bound as
         * the divisor goes to 0, so with any American loss it is above
         * every range after the bounded modifiers: British Major. 0/0
         * (only reachable past the automatic draw if SPs and values
         * disagree) is a Draw. */
        out->unbounded = out->am_total > 0;
        out->ratio = 0;
        if (!out->unbounded || out->auto_draw)
            return;
        out->winner = BAR_BRITISH;
        out->level = BAR_LEVEL_MAJOR;
        return;
    }
    int r = out->am_total * 100 / out->br_total + mod;
    out->ratio = r;
    if (out->auto_draw)
        return;
    if (r >= 300) {                    /* F: 3.00 or higher */
        out->winner = BAR_BRITISH;
        out->level = BAR_LEVEL_MAJOR;
    } else if (r >= 225) {             /* 2.25 or greater but less than 3.00 */
        out->winner = BAR_BRITISH;
        out->level = BAR_LEVEL_MINOR;
    } else if (r > 175) {              /* less than 2.25 but greater than 1.75 */
        return;
    } else if (r > 100) {              /* 1.75 or less but greater than 1.00 */
        out->winner = BAR_AMERICAN;
        out->level = BAR_LEVEL_MINOR;
    } else {                           /* 1.00 or lower */
        out->winner = BAR_AMERICAN;
        out->level = BAR_LEVEL_MAJOR;
    }
}

/* 7.2d, 7.3d, 7.4d: higher total over lower, to tenths; the side with the
 * lower total wins at the level of C/D. */
static void scenarios234(int scenario, const bar_victory_in *in, bar_victory_out *out)
{
    int am = in->loss[BAR_AMERICAN];
    int br = in->loss[BAR_BRITISH];
    int unmodified[2] = {am, br};
    if (scenario == 4) {
        /* 7.4a F iii: each baggage loss counts as an SP; it is marked on
         * the British Loss Chart (F ii), so it is part of the unmodified
         * value of 7.4d E too (AMB-BAR-7). */
        br += in->baggage;
        unmodified[BAR_BRITISH] = br;
    }
    if (scenario >= 3) {
        int mod = bar_advance_modifier(in->advance);
        out->modifier = mod;
        /* "cannot be decreased to less than 1": a negative modifier stops
         * at 1 (a total of 0 is not decreased at all, so it stays 0). */
        if (mod < 0) {
            int floor = am < 1 ? am : 1;
            am = am + mod < floor ? floor : am + mod;
        } else {
            am += mod;
        }
    }
    br += in->british_on_map;   /* 7.2d B, 7.3d C, 7.4d C */
    out->am_total = am;
    out->br_total = br;
    /* 7.2d D: 10 on the values "as recorded on that side's Loss Charts"
     * (the units left on the map are not recorded there); 7.3d E, 7.4d E:
     * 15 on the "unmodified" values (before B and C). AMB-BAR-7. */
    out->auto_draw = auto_draw(in->sp_lost, unmodified, scenario == 2 ? 10 : 15);
    int hi = am > br ? am : br, lo = am > br ? br : am;
    int low_side = am < br ? BAR_AMERICAN : BAR_BRITISH;
    if (lo == 0) {
        /* AMB-BAR-15: the side with no losses at all (after modifiers) has
         * an unbounded ratio: Major; 0 and 0 is a Draw. */
        out->unbounded = hi > 0;
        out->ratio = hi > 0 ? 0 : 10;
        if (out->unbounded && !out->auto_draw) {
            out->winner = low_side;
            out->level = BAR_LEVEL_MAJOR;
        }
        return;
    }
    int r = hi * 10 / lo;
    out->ratio = r;
    if (out->auto_draw || am == br)
        return;
    if (r >= 20)
        out->level = BAR_LEVEL_MAJOR;      /* 2.0 or more */
    else if (r >= 15)
        out->level = BAR_LEVEL_MINOR;      /* 1.5 or more but less than 2.0 */
    else if (r >= 11)
        out->level = BAR_LEVEL_MARGINAL;   /* 1.1 or more but less than 1.5 */
    else
        return;                            /* less than 1.1: Draw */
    out->winner = low_side;
}

int bar_victory(int scenario, const bar_victory_in *in, bar_victory_out *out, mk_error *err)
{
    if (check_in(scenario, in, err))
        return -1;
    *out = (bar_victory_out){.winner = -1, .level = BAR_LEVEL_DRAW};
    if (scenario == 1)
        scenario1(in, out);
    else
        scenarios234(scenario, in, out);
    return 0;
}

/* 7.4a F ii. */
int bar_raid_threshold(bar_light l)
{
    switch (l) {
    case BAR_DAY: return 80;
    case BAR_DAWN: case BAR_DUSK: return 70;
    case BAR_MOONLIT: return 60;
    default: return 50;
    }
}

bool bar_raids_on(int scenario, int turn)
{
    /* 7:20 PM 28 June (slot 58) to the end of scenario 4. */
    return scenario == 4 && turn >= 58 && turn <= bar_scenario_last_turn(4);
}

/* 7.4a F ii-iv. The 00-09 Special Results are read on the natural roll
 * (AMB-BAR-9): a modified roll can go below 0, and a natural 00-09 less
 * the guard can never reach 50, so the Special Result replaces the raid
 * check without taking anything from it. On the re-rolls of 04 "another
 * roll of 01-09 is no effect": 00 is not in that list and keeps its
 * effect (AMB-BAR-9, the literal reading); 10-99 are raids as usual. */
int bar_baggage_raid(const bar_raid_in *in, bar_raid_out *out, mk_error *err)
{
    if (in->roll < 0 || in->roll > 99 || in->die < 0 || in->die > 9)
        return mk_error_set(err, "bad_arg", "baggage raid: roll %d (0-99), die %d (0-9)",
                            in->roll, in->die);
    if (in->guard_sp < 0 || in->baggage < 0 || in->baggage > BAR_BAGGAGE_MAX ||
        (unsigned)in->light > BAR_NIGHT)
        return mk_error_set(err, "bad_arg", "baggage raid: guard %d, baggage %d (0-%d), light %d",
                            in->guard_sp, in->baggage, BAR_BAGGAGE_MAX, (int)in->light);
    *out = (bar_raid_out){.special = -1, .ambush_used = in->ambush_used};
    int bag = 0, guard = 0;
    if (in->roll >= 10) {
        if (in->roll - in->guard_sp >= bar_raid_threshold(in->light)) {
            out->success = true;
            bag = 1;
        }
    } else if (!(in->reroll && in->roll >= 1)) {
        int sr = in->roll;
        if (sr == 0 && in->ambush_used)
            sr = 1;   /* 00 "can only happen once per game": 01 instead */
        out->special = sr;
        switch (sr) {
        case 0: {   /* Guard Ambushed: die / 2, rounded down, at least 1 */
            int n = in->die / 2 < 1 ? 1 : in->die / 2;
            guard = n;
            bag = n;
            out->ambush_used = true;
            break;
        }
        case 1: guard = 1; bag = 1; break;   /* Guard Casualties */
        case 2: bag = 2; break;              /* Baggage Train Explosion */
        case 3: bag = 1; break;              /* Successful Raid */
        case 4: out->rerolls = 2; break;     /* Raids Intensify */
        case 5: case 6: break;               /* Raids Pause */
        case 7: out->skip_turns = 1; break;  /* Raids Slacken: this turn or next */
        case 8: out->skip_turns = in->die; break;   /* Guard Riposte */
        default:                             /* 09 Raids End, on a Day turn */
            out->raids_end = in->light == BAR_DAY;
            break;
        }
    }
    /* The guard cannot lose SPs it does not have. 7.4a F iii: baggage
     * losses stop at 24, the checks (and guard losses) go on. */
    out->guard_loss = guard < in->guard_sp ? guard : in->guard_sp;
    int room = BAR_BAGGAGE_MAX - in->baggage;
    out->baggage = bag < room ? bag : room;
    return 0;
}
