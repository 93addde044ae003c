/* cli.h - the subcommands of the musket program that live in cli/, for
 * main.c to dispatch to. Each takes the subcommand's own arguments with
 * argv[0] the subcommand name, and returns the process exit status. */
#ifndef MK_CLI_H
#define MK_CLI_H

/* `musket show SCENARIO`: prints a scenario (title, sides, turns, map,
 * units). Returns 0, or 2 for a usage error or a scenario that does not
 * load (the library's message on stderr). */
int mk_cli_show(int argc, char **argv);

/* `musket play [SCENARIO] [options]`: plays a game in the terminal, against
 * the computer or hotseat. Returns 0 when the game ends, the player quits or
 * input ends; 2 for a usage error or a scenario or option that is refused;
 * 1 when the record cannot be written. */
int mk_cli_play(int argc, char **argv);

/* One line each, for main.c's list of subcommands. */
#define MK_CLI_SHOW_SUMMARY "show SCENARIO       print a scenario: sides, turns, map and units"
#define MK_CLI_PLAY_SUMMARY "play [SCENARIO]     play a game in the terminal (--help for options)"

#endif
