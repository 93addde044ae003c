/* test_protocol.c - the engine protocol (PROTOCOL.md) and the game layer
 * behind it, driven line by line on a toy ruleset: every command, every
 * error code, and the promise that an error leaves the game unchanged. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "check.h"
#include "core/protocol.h"
#include "toy_ruleset.h"

static const mk_ruleset *const toys[] = {&toy_ruleset};

/* Sends one line, returns the parsed response (caller decrefs). */
static json_t *ask(mk_session *s, const char *line)
{
    char *out = mk_session_line(s, line, strlen(line));
    json_error_t je;
    json_t *r = json_loads(out, 0, &je);
    if (!r)
        fprintf(stderr, "unparsable response: %s\n", out);
    free(out);
    return r;
}

static const char *code_of(json_t *r)
{
    return json_string_value(json_object_get(json_object_get(r, "error"), "code"));
}

static bool is_ok(json_t *r) { return json_is_true(json_object_get(r, "ok")); }

static char *hash_of(mk_session *s)
{
    json_t *r = ask(s, "{\"cmd\":\"state\"}");
    char *h = strdup(json_string_value(json_object_get(json_object_get(r, "state"), "hash")));
    json_decref(r);
    return h;
}

/* Asks a line that must fail with code, and checks the game did not change. */
static void refused(mk_session *s, const char *line, const char *code)
{
    char *before = s->game ? hash_of(s) : NULL;
    json_t *r = ask(s, line);
    CHECK(!is_ok(r));
    CHECK_STR(code_of(r), code);
    if (check_failed) fprintf(stderr, "  after: %s\n", line);
    CHECK(json_string_value(json_object_get(json_object_get(r, "error"), "message")) != NULL);
    if (before) {
        char *after = hash_of(s);
        CHECK_STR(after, before);
        free(after);
    }
    free(before);
    json_decref(r);
}

static char *new_line(const char *extra)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "{\"cmd\":\"new\",\"scenario\":%s%s}", toy_scenario, extra);
    return buf;
}

int main(void)
{
    mk_session s;
    mk_session_init(&s, toys, 1, NULL);

    json_t *r = ask(&s, "{\"cmd\":\"hello\",\"id\":42}");
    CHECK(is_ok(r));
    CHECK_EQ(json_integer_value(json_object_get(r, "protocol")), 1);
    CHECK_EQ(json_integer_value(json_object_get(r, "id")), 42);
    CHECK_STR(json_string_value(json_array_get(json_object_get(r, "rulesets"), 0)), "toy");
    json_decref(r);

    /* Errors before any game. */
    refused(&s, "{\"cmd\":\"state\"}", "no_game");
    refused(&s, "{\"cmd\":\"legal\"}", "no_game");
    refused(&s, "not json", "bad_json");
    refused(&s, "[1,2]", "bad_json");
    refused(&s, "{\"cmd\":5}", "bad_arg");
    refused(&s, "{\"cmd\":\"fly\"}", "unknown_cmd");
    refused(&s, "{\"cmd\":\"hello\",\"cmd\":\"hello\"}", "bad_json");
    refused(&s, "{\"cmd\":\"h\xc3\x28llo\"}", "bad_json");   /* invalid UTF-8 */
    refused(&s, "{\"cmd\":\"new\"}", "bad_arg");
    refused(&s, "{\"cmd\":\"new\",\"scenario\":{\"ruleset\":\"toy\"}}", "scenario_invalid");

    /* A game. */
    r = ask(&s, new_line(",\"seed\":7"));
    CHECK(is_ok(r));
    CHECK_EQ(json_integer_value(json_object_get(r, "seed")), 7);
    CHECK_EQ(strlen(json_string_value(json_object_get(json_object_get(r, "state"), "hash"))), 16);
    json_decref(r);
    char *start = hash_of(&s);

    /* Bad requests now leave this game exactly as it was. */
    refused(&s, "{\"cmd\":\"new\",\"scenario\":{\"ruleset\":\"toy\"}}", "scenario_invalid");
    refused(&s, new_line(",\"options\":{\"toy.nope\":true}"), "bad_arg");
    refused(&s, new_line(",\"options\":{\"toy.double\":1}"), "bad_arg");
    refused(&s, new_line(",\"seed\":\"x\""), "bad_arg");
    refused(&s, "{\"cmd\":\"act\"}", "bad_arg");
    refused(&s, "{\"cmd\":\"act\",\"action\":{\"type\":\"fly\"}}", "bad_arg");
    refused(&s, "{\"cmd\":\"act\",\"action\":{\"type\":\"move\",\"unit\":\"R1\",\"path\":[\"D1\"]}}",
            "illegal_action");
    refused(&s, "{\"cmd\":\"act\",\"action\":{\"type\":\"move\",\"unit\":\"B1\",\"path\":[\"Z9\"]}}",
            "bad_arg");
    refused(&s, "{\"cmd\":\"undo\"}", "not_undoable");
    refused(&s, "{\"cmd\":\"dice\",\"values\":[]}", "bad_arg");
    refused(&s, "{\"cmd\":\"dice\",\"values\":[1,\"x\"]}", "bad_arg");
    refused(&s, "{\"cmd\":\"ai\"}", "bad_arg");   /* no AI in this session */
    refused(&s, "{\"cmd\":\"replay\",\"record\":3}", "bad_arg");
    {
        /* A 1 MiB + 1 line is refused without being parsed. */
        size_t n = MK_LINE_MAX + 1;
        char *big = malloc(n);
        memset(big, ' ', n);
        char *out = mk_session_line(&s, big, n);
        CHECK(strstr(out, "\"bad_json\"") != NULL);
        free(out);
        free(big);
    }
    /* Deep nesting is an error, not a crash. */
    {
        char *deep = malloc(200020);
        size_t k = 0;
        for (int i = 0; i < 100000; i++)
            deep[k++] = '[';
        for (int i = 0; i < 100000; i++)
            deep[k++] = ']';
        deep[k] = 0;
        char *out = mk_session_line(&s, deep, k);
        CHECK(strstr(out, "\"ok\":false") != NULL);
        free(out);
        free(deep);
    }
    char *same = hash_of(&s);
    CHECK_STR(same, start);
    free(same);

    /* legal lists moves, a roll and end_turn, each with text and cost. */
    r = ask(&s, "{\"cmd\":\"legal\"}");
    json_t *acts = json_object_get(r, "actions");
    CHECK(json_array_size(acts) >= 3);
    CHECK(json_object_get(json_array_get(acts, 0), "text") != NULL);
    CHECK(json_object_get(json_array_get(acts, 0), "cost") != NULL);
    json_decref(r);

    /* A move without dice can be undone, once. */
    r = ask(&s, "{\"cmd\":\"act\",\"action\":{\"type\":\"move\",\"unit\":\"B1\",\"path\":[\"A3\"]}}");
    CHECK(is_ok(r));
    CHECK_STR(json_string_value(json_object_get(json_array_get(json_object_get(r, "events"), 0), "to")), "A3");
    json_decref(r);
    char *moved = hash_of(&s);
    CHECK(strcmp(moved, start) != 0);
    r = ask(&s, "{\"cmd\":\"undo\"}");
    CHECK(is_ok(r));
    json_decref(r);
    char *back = hash_of(&s);
    CHECK_STR(back, start);
    free(back);
    refused(&s, "{\"cmd\":\"undo\"}", "not_undoable");

    /* Forced dice are used in order; a roll cannot be undone. */
    r = ask(&s, "{\"cmd\":\"dice\",\"values\":[4,2]}");
    CHECK(is_ok(r));
    CHECK_EQ(json_integer_value(json_object_get(r, "queued")), 2);
    json_decref(r);
    r = ask(&s, "{\"cmd\":\"act\",\"action\":{\"type\":\"roll\"}}");
    json_t *ev = json_array_get(json_object_get(r, "events"), 0);
    CHECK_STR(json_string_value(json_object_get(ev, "type")), "roll");
    CHECK_EQ(json_integer_value(json_array_get(json_object_get(ev, "values"), 0)), 4);
    CHECK_EQ(json_integer_value(json_object_get(ev, "die")), 6);
    CHECK_STR(json_string_value(json_object_get(json_array_get(json_object_get(ev, "mods"), 0), "why")),
              "no modifier (toy rule 2)");
    json_decref(r);
    refused(&s, "{\"cmd\":\"undo\"}", "not_undoable");
    r = ask(&s, "{\"cmd\":\"act\",\"action\":{\"type\":\"roll\"}}");
    CHECK_EQ(json_integer_value(json_array_get(json_object_get(json_array_get(json_object_get(r, "events"), 0), "values"), 0)), 2);
    json_decref(r);

    /* A forced value the die cannot show is an error at that roll: the game
     * is unchanged and the queue emptied. */
    r = ask(&s, "{\"cmd\":\"dice\",\"values\":[7]}");
    CHECK(is_ok(r));
    json_decref(r);
    refused(&s, "{\"cmd\":\"act\",\"action\":{\"type\":\"roll\"}}", "bad_arg");
    r = ask(&s, "{\"cmd\":\"act\",\"action\":{\"type\":\"roll\"}}");
    CHECK(is_ok(r));
    int v = (int)json_integer_value(json_array_get(json_object_get(json_array_get(json_object_get(r, "events"), 0), "values"), 0));
    CHECK(v >= 1 && v <= 6);
    json_decref(r);

    /* Play to the end. */
    for (int i = 0; i < 6; i++) {
        r = ask(&s, "{\"cmd\":\"act\",\"action\":{\"type\":\"end_turn\"}}");
        CHECK(is_ok(r));
        json_decref(r);
    }
    r = ask(&s, "{\"cmd\":\"state\"}");
    CHECK(json_is_true(json_object_get(json_object_get(r, "state"), "over")));
    json_decref(r);
    refused(&s, "{\"cmd\":\"act\",\"action\":{\"type\":\"end_turn\"}}", "illegal_action");
    r = ask(&s, "{\"cmd\":\"legal\"}");
    CHECK_EQ(json_array_size(json_object_get(r, "actions")), 0);
    json_decref(r);

    /* The record replays to the same hash, in this session and a fresh one. */
    char *final = hash_of(&s);
    r = ask(&s, "{\"cmd\":\"record\"}");
    json_t *rec = json_incref(json_object_get(r, "record"));
    json_decref(r);
    CHECK_STR(json_string_value(json_object_get(rec, "hash")), final);
    CHECK(json_array_size(json_object_get(rec, "actions")) >= 10);
    mk_session s2;
    mk_session_init(&s2, toys, 1, NULL);
    json_t *req = json_pack("{s:s, s:O}", "cmd", "replay", "record", rec);
    r = mk_session_request(&s2, req);
    CHECK(is_ok(r));
    CHECK_STR(json_string_value(json_object_get(json_object_get(r, "state"), "hash")), final);
    json_decref(r);
    json_decref(req);

    /* A record whose hash is wrong, or with an illegal step, is refused and
     * the session keeps its game. */
    json_t *bad = json_deep_copy(rec);
    json_object_set_new(bad, "hash", json_string("0123456789abcdef"));
    req = json_pack("{s:s, s:o}", "cmd", "replay", "record", bad);
    char *before = hash_of(&s2);
    r = mk_session_request(&s2, req);
    CHECK(!is_ok(r));
    CHECK_STR(code_of(r), "replay_mismatch");
    json_decref(r);
    json_decref(req);
    bad = json_deep_copy(rec);
    json_array_insert_new(json_object_get(bad, "actions"), 0,
                          json_pack("{s:s, s:s, s:[s]}", "type", "move", "unit", "R1", "path", "D1"));
    req = json_pack("{s:s, s:o}", "cmd", "replay", "record", bad);
    r = mk_session_request(&s2, req);
    CHECK(!is_ok(r));
    CHECK(strstr(json_string_value(json_object_get(json_object_get(r, "error"), "message")),
                 "actions[0]") != NULL);
    json_decref(r);
    json_decref(req);
    char *after = hash_of(&s2);
    CHECK_STR(after, before);
    free(after);
    free(before);
    json_decref(rec);
    mk_session_free(&s2);

    /* A networked session refuses forced dice. */
    mk_session net;
    mk_session_init(&net, toys, 1, NULL);
    net.networked = true;
    r = ask(&net, new_line(",\"seed\":1"));
    json_decref(r);
    refused(&net, "{\"cmd\":\"dice\",\"values\":[6]}", "bad_arg");
    mk_session_free(&net);

    r = ask(&s, "{\"cmd\":\"quit\"}");
    CHECK(is_ok(r) && s.quit);
    json_decref(r);
    free(final);
    free(moved);
    free(start);
    mk_session_free(&s);
    return check_done("test_protocol");
}
