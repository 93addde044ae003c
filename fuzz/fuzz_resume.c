/* fuzz_resume.c - libFuzzer target for `musket sim --resume F`: the input
 * is the CSV F, given through mk_cli_sim itself to a small study
 * (htl/tutorial, greedy with 2 samples against random, 4 games cut at 50
 * actions, so that two end before the cut and two are stopped by it).
 * Whatever F holds, sim must either refuse it with exit 2 and leave it as
 * it was (docs/ai.md, "`musket sim`": nothing lost), or take it and end
 * with the whole study's 4 games in it; never crash, leak or read past a
 * line. Seed corpus: fuzz/corpus/resume/ (CSVs that study wrote, whole,
 * in part and cut short, and three it refuses). */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/sim.h"

#define MUST(c) \
    do {                \
        if (!(c))       \
            abort();    \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* F: a name of our own in /tmp, made once; the file (and sim's F.part)
 * removed after each input, so that nothing is left behind when libFuzzer
 * ends without running atexit handlers. */
static char path[] = "/tmp/musket-fuzz-resume-XXXXXX";

/* The file's bytes, or NULL; *n its size. */
static char *slurp(const char *p, size_t *n)
{
    FILE *f = fopen(p, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 16);
    *n = buf ? fread(buf, 1, 1 << 16, f) : 0;
    fclose(f);
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool ready;
    if (!ready) {
        int fd = mkstemp(path);
        MUST(fd >= 0 && close(fd) == 0);
        MUST(freopen("/dev/null", "w", stdout));   /* the reports */
        ready = true;
    }
    if (size > 60000)
        return 0;
    FILE *f = fopen(path, "wb");
    MUST(f && fwrite(data, 1, size, f) == size && fclose(f) == 0);

    char a[][64] = {"sim", "htl/tutorial", "-n", "4", "--seed", "3", "--a", "greedy", "--b",
                    "random", "--samples", "2", "--max-actions", "50", "--quiet", "--resume",
                    ""};
    MUST(strlen(path) < sizeof a[16]);
    snprintf(a[16], sizeof a[16], "%s", path);
    char *argv[17];
    for (int i = 0; i < 17; i++)
        argv[i] = a[i];
    int rc = mk_cli_sim(17, argv);

    size_t n = 0;
    char *after = slurp(path, &n);
    MUST(after);
    if (rc == 2) {
        /* Refused: the file as it was. */
        MUST(n == size && memcmp(after, data, size) == 0);
    } else {
        /* Taken: the header and the study's 4 games, a line each. */
        MUST(rc == 0);
        int lines = 0;
        for (size_t i = 0; i < n; i++)
            lines += after[i] == '\n';
        MUST(lines == 5 && n && after[n - 1] == '\n');
    }
    if (getenv("MUSKET_FUZZ_VERBOSE"))
        fprintf(stderr, "fuzz_resume: exit %d, %zu bytes in, %zu after\n", rc, size, n);
    free(after);
    char part[64];
    snprintf(part, sizeof part, "%s.part", path);
    unlink(path);
    unlink(part);
    return 0;
}
