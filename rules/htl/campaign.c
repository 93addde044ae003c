/* campaign.c - Hold the Line campaigns (HtL 12): the four campaigns, the
 * VP a finished scenario carries into its campaign, and the running total.
 * See campaign.h for the contract. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign.h"
#include "core/catalog.h"
#include "htl_int.h"
#include "rules/rules.h"

const char *const htl_campaign_sides[2] = {"american", "british"};

/* HtL 12: "The following are the campaigns". */
static const htl_campaign campaigns[] = {
    {"new-york", "New York Campaign", 3,
     {"htl/long-island", "htl/harlem-heights", "htl/white-plains"}},
    {"christmas", "Washington's Christmas Campaign", 2, {"htl/trenton", "htl/princeton"}},
    {"turning-point", "Turning Point", 4,
     {"htl/brandywine", "htl/bemis-heights", "htl/monmouth-morning", "htl/monmouth-afternoon"}},
    {"down-south", "Down South", 4,
     {"htl/kings-mountain", "htl/hobkirks-hill", "htl/eutaw-springs", "htl/weitzels-mill"}},
};

const htl_campaign *htl_campaigns(int *n)
{
    *n = (int)(sizeof campaigns / sizeof campaigns[0]);
    return campaigns;
}

const htl_campaign *htl_campaign_find(const char *id)
{
    int n;
    const htl_campaign *c = htl_campaigns(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(c[i].id, id) == 0)
            return &c[i];
    return NULL;
}

int htl_campaign_missing(const htl_campaign *c, char *missing, size_t n, mk_error *err)
{
    mk_catalog_entry *all = malloc(sizeof *all * MK_CATALOG_MAX);
    if (!all)
        return mk_error_set(err, "internal", "out of memory");
    int ncat = mk_catalog_list(all, MK_CATALOG_MAX, err);
    if (ncat < 0) {
        free(all);
        return -1;
    }
    int nmissing = 0;
    size_t used = 0;
    if (n)
        missing[0] = '\0';
    for (int i = 0; i < c->nscenarios; i++) {
        bool found = false;
        for (int k = 0; k < ncat && !found; k++)
            found = strcmp(all[k].id, c->scenarios[i]) == 0;
        if (found)
            continue;
        if (used < n)
            used += (size_t)snprintf(missing + used, n - used, "%s%s", nmissing ? ", " : "",
                                     c->scenarios[i]);
        nmissing++;
    }
    free(all);
    return nmissing;
}

/* HtL 12, see campaign.h. */
int htl_campaign_score_game(const mk_scenario *sc, const void *st, htl_campaign_score *out,
                            mk_error *err)
{
    const htl_state *s = st;
    memset(out, 0, sizeof *out);
    out->winner = -1;
    if (sc->rs != &mk_htl_ruleset)
        return mk_error_set(err, "bad_arg", "%s: not a Hold the Line scenario", sc->id);
    if (!s->over)
        return mk_error_set(err, "bad_arg", "%s: the scenario is not over", sc->id);
    int side[2];   /* campaign side -> scenario side */
    for (int c = 0; c < 2; c++) {
        side[c] = mk_scenario_side(sc, htl_campaign_sides[c]);
        if (side[c] < 0)
            return mk_error_set(err, "bad_arg", "%s: no side '%s' for the campaign", sc->id,
                                htl_campaign_sides[c]);
    }
    for (int c = 0; c < 2; c++)
        out->earned[c] = out->vp[c] = s->vp[side[c]];
    int w = s->winner < 0 ? -1 : s->winner == side[0] ? 0 : 1;
    out->winner = w;
    if (w >= 0 && (s->reason == HR_TIME || s->reason == HR_TIME_VP)) {
        /* HtL 12: the victor on time gets "the maximum VP for the scenario
         * needed to win": its own target (AMB-HTL-10), else the loser's */
        int target = s->vp_target[side[w]];
        if (target <= 0)
            target = s->vp_target[side[1 - w]];
        if (target > out->vp[w])
            out->vp[w] = target;
        out->on_time = true;
    }
    if (w < 0)
        snprintf(out->why, sizeof out->why,
                 "%s: a draw: each side carries the VP it earned, %d-%d (HtL 12)", sc->id,
                 out->vp[0], out->vp[1]);
    else if (out->on_time)
        snprintf(out->why, sizeof out->why,
                 "%s: %s won on time: it carries the VP needed to win, %d (earned %d); %s "
                 "carries what it earned, %d (HtL 12, AMB-HTL-10)",
                 sc->id, htl_campaign_sides[w], out->vp[w], out->earned[w],
                 htl_campaign_sides[1 - w], out->vp[1 - w]);
    else
        snprintf(out->why, sizeof out->why,
                 "%s: %s won on VP: each side carries the VP it earned, %d-%d (HtL 12)", sc->id,
                 htl_campaign_sides[w], out->vp[0], out->vp[1]);
    return 0;
}

void htl_campaign_tally_init(htl_campaign_tally *t, const htl_campaign *c)
{
    memset(t, 0, sizeof *t);
    t->c = c;
}

int htl_campaign_tally_add(htl_campaign_tally *t, const mk_scenario *sc, const void *st,
                           mk_error *err)
{
    if (t->played >= t->c->nscenarios)
        return mk_error_set(err, "bad_arg", "%s: every scenario has been played", t->c->id);
    if (strcmp(sc->id, t->c->scenarios[t->played]) != 0)
        return mk_error_set(err, "bad_arg", "%s: scenario %d is %s, not %s", t->c->id,
                            t->played + 1, t->c->scenarios[t->played], sc->id);
    htl_campaign_score *e = &t->each[t->played];
    if (htl_campaign_score_game(sc, st, e, err))
        return -1;
    t->vp[0] += e->vp[0];
    t->vp[1] += e->vp[1];
    t->played++;
    return 0;
}

bool htl_campaign_tally_done(const htl_campaign_tally *t)
{
    return t->played == t->c->nscenarios;
}

/* HtL 12: "victory conditions are determined by the total VP earned in all
 * of the scenarios for that campaign combined". */
int htl_campaign_tally_winner(const htl_campaign_tally *t)
{
    return t->vp[0] > t->vp[1] ? 0 : t->vp[1] > t->vp[0] ? 1 : -1;
}
