/* main.c - the `musket` command: parses the subcommand and hands over.
 * No rule of any game lives here (STYLE.md: programs are thin). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "campaign.h"
#include "cli.h"
#include "sim.h"
#include "core/catalog.h"
#include "core/game.h"
#include "core/protocol.h"
#include "rules/rules.h"
#include "server/serve.h"

static const char usage[] =
    "usage: musket <command> [arguments]\n"
    "\n"
    "A rules-enforcing engine for horse-and-musket hex wargames.\n"
    "\n"
    "commands:\n"
    "  play [SCENARIO]      play in the terminal, against the computer or hotseat\n"
    "  list                 list the built-in scenarios\n"
    "  show SCENARIO        draw a scenario's map and list its units\n"
    "  validate FILE...     check scenario files and report every problem found\n"
    "  replay FILE          replay a game record and check its final hash\n"
    "  engine               speak the engine protocol (JSON lines) on stdin/stdout\n"
    "  sim SCENARIO -n N --a ENGINE --b ENGINE   AI against AI: win rates, charts\n"
    "  campaign CAMPAIGN    play a Hold the Line campaign (musket campaign --list)\n"
    "  serve                the web page and HTTP API (musket serve --help)\n"
    "  help [COMMAND]       this text, or a command's own help\n"
    "\n"
    "SCENARIO is a built-in id such as htl/tutorial (see `musket list`) or a\n"
    "path to a .json file. `musket COMMAND --help` explains each command.\n";

static bool wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return true;
    return false;
}

static int cmd_list(int argc, char **argv)
{
    if (wants_help(argc, argv)) {
        printf("usage: musket list\n\nLists the built-in scenarios: id, ruleset and title.\n"
               "Scenarios live in %s/scenarios/<ruleset>/<name>.json\n"
               "(set MUSKET_DATA to use another folder).\n", mk_data_dir());
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "musket list: unexpected argument '%s' (see musket list --help)\n", argv[1]);
        return 2;
    }
    mk_catalog_entry *all = malloc(sizeof *all * MK_CATALOG_MAX);
    mk_error err;
    int n = all ? mk_catalog_list(all, MK_CATALOG_MAX, &err) : -1;
    if (n < 0) {
        fprintf(stderr, "musket list: %s\n", all ? err.msg : "out of memory");
        free(all);
        return 1;
    }
    for (int i = 0; i < n; i++)
        printf("%-28s %s\n", all[i].id, all[i].title);
    free(all);
    return 0;
}

static int cmd_validate(int argc, char **argv)
{
    if (wants_help(argc, argv) || argc < 2) {
        fprintf(argc < 2 ? stderr : stdout,
                "usage: musket validate FILE...\n\n"
                "Checks each scenario file (or built-in id) against the scenario format and\n"
                "its ruleset's rules. Prints 'ok' or the problem, with the JSON path or\n"
                "line:column. Exits 0 only if every file is valid.\n");
        return argc < 2 ? 2 : 0;
    }
    int n, bad = 0;
    const mk_ruleset *const *rs = mk_rulesets(&n);
    for (int i = 1; i < argc; i++) {
        mk_error err;
        mk_error_clear(&err);
        mk_scenario *sc = mk_catalog_load(argv[i], rs, n, &err);
        if (sc) {
            /* Setting up a game is the last check: the ruleset may refuse. */
            mk_game *g = mk_game_new(sc, 0, 1, &err);
            if (g) {
                printf("%s: ok (%s, %d units, %d turns)\n", argv[i], g->sc->id, g->sc->nunits,
                       g->sc->turns);
                mk_game_free(g);
                continue;
            }
        }
        fprintf(stderr, "%s\n", err.msg);
        bad++;
    }
    return bad ? 1 : 0;
}

static json_t *load_json_file(const char *path, mk_error *err)
{
    json_error_t je;
    json_t *j = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!j)
        mk_error_set(err, "bad_json", "%s:%d:%d: %s", path, je.line, je.column, je.text);
    return j;
}

static int cmd_replay(int argc, char **argv)
{
    if (wants_help(argc, argv) || argc != 2) {
        fprintf(argc != 2 ? stderr : stdout,
                "usage: musket replay FILE\n\n"
                "Replays a game record (as written by `musket play --record`, the protocol's\n"
                "record command, or the web server) from its scenario, options, seed and\n"
                "actions, and checks that it reaches the record's final hash. Prints the final\n"
                "state's summary; exits 0 if the replay matches, 1 if not.\n");
        return argc != 2 ? 2 : 0;
    }
    int n;
    const mk_ruleset *const *rs = mk_rulesets(&n);
    mk_error err;
    mk_error_clear(&err);
    json_t *rec = load_json_file(argv[1], &err);
    mk_game *g = rec ? mk_game_replay(rec, rs, n, &err) : NULL;
    if (!g) {
        fprintf(stderr, "musket replay: %s\n", err.msg);
        json_decref(rec);
        return 1;
    }
    json_t *st = mk_game_state_json(g);
    json_t *result = json_object_get(st, "result");
    printf("%s: replayed %zu actions of %s, turn %lld, hash %s (matches the record)\n", argv[1],
           json_array_size(json_object_get(rec, "actions")), g->sc->id,
           (long long)json_integer_value(json_object_get(st, "turn")),
           json_string_value(json_object_get(st, "hash")));
    if (json_is_object(result)) {
        char *txt = json_dumps(result, JSON_COMPACT);
        printf("result: %s\n", txt);
        free(txt);
    }
    json_decref(st);
    json_decref(rec);
    mk_game_free(g);
    return 0;
}

static int cmd_engine(int argc, char **argv)
{
    if (wants_help(argc, argv)) {
        printf("usage: musket engine\n\n"
               "Speaks the musket engine protocol: one JSON request per line on stdin, one\n"
               "JSON response per line on stdout, flushed after each. Start with\n"
               "  {\"cmd\": \"hello\"}\n"
               "  {\"cmd\": \"new\", \"scenario\": \"htl/tutorial\", \"seed\": 1}\n"
               "See docs/protocol.md for every command. End of input ends the program.\n");
        return 0;
    }
    int n;
    const mk_ruleset *const *rs = mk_rulesets(&n);
    mk_session s;
    mk_session_init(&s, rs, n, mk_ai_choose);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while (!s.quit && (len = getline(&line, &cap, stdin)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            len--;
        if (len == 0)
            continue;
        char *out = mk_session_line(&s, line, (size_t)len);
        if (out) {
            fputs(out, stdout);
            fputc('\n', stdout);
            fflush(stdout);
            free(out);
        }
    }
    free(line);
    mk_session_free(&s);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    const char *cmd = argv[1];
    char *hargv[3];   /* "help COMMAND" becomes "COMMAND --help" */
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        if (argc > 2 && strcmp(cmd, "help") == 0) {
            hargv[0] = argv[2];
            hargv[1] = "--help";
            hargv[2] = NULL;
            argv = hargv;
            argc = 2;
            cmd = argv[0];
        } else {
            fputs(usage, stdout);
            return 0;
        }
    } else {
        argc--;
        argv++;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("musket %s\n", MUSKET_VERSION);
        return 0;
    }
    if (strcmp(cmd, "list") == 0)
        return cmd_list(argc, argv);
    if (strcmp(cmd, "sim") == 0)
        return mk_cli_sim(argc, argv);
    if (strcmp(cmd, "show") == 0)
        return mk_cli_show(argc, argv);
    if (strcmp(cmd, "validate") == 0)
        return cmd_validate(argc, argv);
    if (strcmp(cmd, "replay") == 0)
        return cmd_replay(argc, argv);
    if (strcmp(cmd, "engine") == 0)
        return cmd_engine(argc, argv);
    if (strcmp(cmd, "campaign") == 0) return mk_cli_campaign(argc, argv);
    if (strcmp(cmd, "play") == 0)
        return mk_cli_play(argc, argv);
    if (strcmp(cmd, "serve") == 0) return mk_cli_serve(argc, argv);
    fprintf(stderr, "musket: unknown command '%s'\n\n%s", cmd, usage);
    return 2;
}
