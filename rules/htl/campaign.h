/* campaign.h - Hold the Line campaigns (HtL 12): the four campaigns of the
 * rulebook and the VP a finished scenario carries into its campaign.
 *
 * A campaign is won by the side with the most VP over all its scenarios.
 * The campaigns are a const table (campaign.c), not a file under
 * scenarios/: the catalog takes every scenarios/<ruleset>/<name>.json for a
 * scenario. Sides are named by id; every HtL scenario has the sides
 * "american" and "british". */
#ifndef HTL_CAMPAIGN_H
#define HTL_CAMPAIGN_H

#include <stdbool.h>
#include <stddef.h>

#include "core/ruleset.h"

#define HTL_CAMPAIGN_MAX 4   /* scenarios in one campaign */

typedef struct htl_campaign {
    const char *id;                           /* "new-york" */
    const char *title;                        /* "New York Campaign" */
    int nscenarios;
    const char *scenarios[HTL_CAMPAIGN_MAX];  /* built-in scenario ids, in order of play */
} htl_campaign;

/* The campaign sides, in the order of every array below. */
extern const char *const htl_campaign_sides[2];   /* "american", "british" */

/* The four campaigns (static storage); *n gets the count. */
const htl_campaign *htl_campaigns(int *n);
/* A campaign by id, or NULL. */
const htl_campaign *htl_campaign_find(const char *id);
/* Which of c's scenarios are not built in (not in the catalog): writes
 * their ids, comma separated, into missing (room n; "" when none) and
 * returns how many. -1 with err if the catalog cannot be read. */
int htl_campaign_missing(const htl_campaign *c, char *missing, size_t n, mk_error *err);

/* What one finished scenario gives each side in a campaign (HtL 12). */
typedef struct htl_campaign_score {
    int earned[2];     /* VP scored on the board, by campaign side */
    int vp[2];         /* VP carried into the campaign */
    int winner;        /* campaign side that won the scenario, -1 for a draw */
    bool on_time;      /* the scenario was lost on time: the victor got its target */
    char why[200];     /* one line for people */
} htl_campaign_score;

/* Scores a finished HtL game (state st of scenario sc), HtL 12:
 *  - a victory on VP: each side carries the VP it earned;
 *  - a loss on time (HtL 10.C: the time limit ran out, with the winner
 *    named by the scenario or the one with more VP): the victor carries
 *    "the maximum VP for the scenario needed to win", read as the victor's
 *    own VP target (AMB-HTL-10; a victor with no target gets the loser's,
 *    and never less than it earned), the loser what it earned;
 *  - a draw: each side what it earned.
 * Returns 0, or -1 with err (not HtL, not over, sides not american and
 * british). */
int htl_campaign_score_game(const mk_scenario *sc, const void *st, htl_campaign_score *out,
                            mk_error *err);

/* A campaign in progress: the scenarios played so far and the totals. */
typedef struct htl_campaign_tally {
    const htl_campaign *c;
    int played;                                   /* scenarios scored */
    int vp[2];                                    /* running totals, by campaign side */
    htl_campaign_score each[HTL_CAMPAIGN_MAX];
} htl_campaign_tally;

void htl_campaign_tally_init(htl_campaign_tally *t, const htl_campaign *c);
/* Scores the next scenario of the campaign (sc must be c->scenarios
 * [t->played], by id) and adds it to the totals. 0, or -1 with err. */
int htl_campaign_tally_add(htl_campaign_tally *t, const mk_scenario *sc, const void *st,
                           mk_error *err);
/* Every scenario played. */
bool htl_campaign_tally_done(const htl_campaign_tally *t);
/* The campaign winner by most VP: 0 american, 1 british, -1 equal. */
int htl_campaign_tally_winner(const htl_campaign_tally *t);

#endif
