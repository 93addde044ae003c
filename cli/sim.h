/* sim.h - `musket sim`: many games of one AI engine against another, for
 * balance studies and engine strength (docs/ai.md). */
#ifndef MK_CLI_SIM_H
#define MK_CLI_SIM_H

/* `musket sim SCENARIO -n N --a ENGINE --b ENGINE [options]`: plays N games,
 * engine A on side 0 in even games and side 1 in odd ones, and reports win
 * rates with 95% Wilson intervals, VP and game lengths; writes JSON, CSV and
 * an SVG chart on request. Ctrl-C stops after the games in progress and
 * reports what finished. Returns 0, 2 for a usage error, 1 for a failure. */
int mk_cli_sim(int argc, char **argv);

#define MK_CLI_SIM_SUMMARY "sim SCENARIO -n N --a ENGINE --b ENGINE   AI against AI, win rates (--help)"

#endif
