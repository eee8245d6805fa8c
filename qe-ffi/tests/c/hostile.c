/* Hostile input through the C ABI under an address-space limit (the test command runs it with
 * `ulimit -v`): oversized records and commands must come back as errors, never abort the host.
 *
 * Usage: hostile MEGABYTES    (the size of each oversized input) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qe.h"

static int failures = 0;

static void expect(QeStatus got, QeStatus want, const char *what) {
    char message[256];
    qe_last_error_message(message, sizeof message, NULL);
    if (got != want) {
        fprintf(stderr, "%s: status %u, want %u (%s)\n", what, got, want, message);
        failures++;
    } else {
        printf("%s: %u as expected (%.80s)\n", what, got, message);
    }
}

/* A record with `count` commands: a valid document, far past any size or count limit. */
static char *huge_record(size_t bytes) {
    static const char head[] =
        "{\"format\":\"qe-record/1\",\"players\":4,\"industry_tokens\":[\"AGR\",\"FIN\",\"HOU\","
        "\"MAN\"],\"deck\":[],\"commands\":[";
    static const char command[] = "{\"seat\":0,\"bid\":1},";
    char *text = malloc(bytes + 64);
    if (text == NULL) {
        fprintf(stderr, "the test itself could not allocate %zu bytes\n", bytes);
        exit(2);
    }
    size_t n = strlen(head), c = strlen(command);
    memcpy(text, head, n);
    while (n + c + 3 < bytes) {
        memcpy(text + n, command, c);
        n += c;
    }
    memcpy(text + n, "{}]}", 5);
    return text;
}

int main(int argc, char **argv) {
    size_t megabytes = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 200;
    size_t bytes = megabytes << 20;
    char *record = huge_record(bytes);
    QeGame *game = NULL;
    size_t failed = 0;
    expect(qe_game_from_record(record, &failed, &game), QE_ERR_RECORD, "oversized record");
    if (game != NULL) {
        fprintf(stderr, "a game came back from an oversized record\n");
        failures++;
    }

    /* A legal game, then an oversized command: rejected, the game unchanged. */
    if (qe_game_new(4, 0, 1, &game) != QE_OK) {
        fprintf(stderr, "qe_game_new failed\n");
        return 1;
    }
    memset(record, ' ', bytes);
    memcpy(record + bytes - 24, "{\"seat\":0,\"bid\":1}", 19);
    expect(qe_game_apply_json(game, record), QE_ERR_MALFORMED_COMMAND, "oversized command");
    QeState state;
    expect(qe_game_state(game, &state), QE_OK, "the game still answers");
    if (state.turn != 0) {
        fprintf(stderr, "the game changed\n");
        failures++;
    }
    qe_game_free(game);
    free(record);
    if (failures == 0) {
        printf("hostile input through the C ABI: every check passed\n");
    }
    return failures == 0 ? 0 : 1;
}
