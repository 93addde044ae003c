/* serve.h - `musket serve`: the web server (HTTP API, live updates, the web
 * page) with games kept in SQLite. See docs/web.md. */
#ifndef MK_SERVE_H
#define MK_SERVE_H

/* `musket serve [--port N] [--bind ADDR] [--db PATH] [--web DIR]
 * [--ai-delay MS]`: runs until SIGINT or SIGTERM. Returns the exit status:
 * 0 after a clean stop, 1 when the database or the socket cannot be opened,
 * 2 for a usage error. argv[0] is "serve". */
int mk_cli_serve(int argc, char **argv);

#define MK_CLI_SERVE_SUMMARY "serve               the web page and HTTP API (--help for options)"

#endif
