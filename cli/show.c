/* show.c - `musket show SCENARIO`: prints a scenario as a player reads it
 * before a game: title, sides, turns, optional rules, the map and the units. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "core/catalog.h"
#include "draw.h"
#include "rules/rules.h"

static void show_usage(FILE *out)
{
    fputs("usage: musket show [--no-color] SCENARIO\n"
          "\n"
          "Prints a scenario: its title, the sides (id, command points, home edge,\n"
          "which moves first), the number of turns, the optional rules of its ruleset,\n"
          "the map with its terrain and the units at set-up, and a table of the units.\n"
          "\n"
          "SCENARIO is a built-in id such as htl/tutorial, or the path of a scenario\n"
          "file ending in .json.\n"
          "\n"
          "options:\n"
          "  --no-color   never colour the map (colour is used only on a terminal,\n"
          "               and never when NO_COLOR is set)\n"
          "  --help       print this text\n"
          "\n"
          "exit status: 0 shown, 2 a usage error or a scenario that does not load\n",
          out);
}

int mk_cli_show(int argc, char **argv)
{
    const char *name = NULL;
    bool color = mk_draw_want_color(stdout);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            show_usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--no-color") == 0) {
            color = false;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "musket show: unknown option '%s' (see musket show --help)\n", argv[i]);
            return 2;
        } else if (name) {
            fprintf(stderr, "musket show: one scenario at a time ('%s' and '%s')\n", name, argv[i]);
            return 2;
        } else {
            name = argv[i];
        }
    }
    if (!name) {
        fputs("musket show: which scenario? (a built-in id such as htl/tutorial, or a .json file)\n",
              stderr);
        show_usage(stderr);
        return 2;
    }

    int nrs;
    const mk_ruleset *const *rulesets = mk_rulesets(&nrs);
    mk_error err = {0};
    mk_scenario *sc = mk_catalog_load(name, rulesets, nrs, &err);
    if (!sc) {
        fprintf(stderr, "musket show: %s\n", err.msg[0] ? err.msg : "cannot load the scenario");
        return 2;
    }

    printf("%s  (%s)\n", sc->title[0] ? sc->title : "(untitled)", sc->id);
    printf("Ruleset: %s (%s)\n", sc->rs->id, sc->rs->name);
    printf("Turns:   %d\n", sc->turns);
    printf("Sides:\n");
    for (int s = 0; s < sc->nsides; s++) {
        const char *home = mk_edge_name(sc->sides[s].home);
        printf("  %-12s command points %d, home edge %s%s\n", sc->sides[s].id, sc->sides[s].cap,
               home ? home : "none", s == sc->first ? ", moves first" : "");
    }
    if (sc->rs->noptions > 0) {
        printf("Optional rules (play --option ID):\n");
        for (int i = 0; i < sc->rs->noptions; i++)
            printf("  %-24s %s\n", sc->rs->options[i].id,
                   sc->rs->options[i].title ? sc->rs->options[i].title : "");
    }
    printf("\n");
    mk_draw_map(stdout, sc, NULL, NULL, 0, color);
    printf("\nUnits at set-up (%d):\n", sc->nunits);
    mk_draw_units(stdout, sc, NULL, color);
    mk_scenario_free(sc);
    return 0;
}
