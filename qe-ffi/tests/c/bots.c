/* The bot handle through the C ABI, for valgrind (the test command runs it under valgrind): every
 * error path of qe_bot_new / qe_bot_decide / qe_bot_free, two decisions of the search bot, and a
 * whole game played by the library's bots through the handle.
 *
 * Usage: bots */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "qe.h"

static int failures = 0;

static void expect(QeStatus got, QeStatus want, const char *what) {
    char message[256];
    qe_last_error_message(message, sizeof message, NULL);
    if (got != want) {
        fprintf(stderr, "%s: status %u, want %u (%s)\n", what, (unsigned)got, (unsigned)want,
                message);
        failures++;
    }
}

int main(void) {
    QeGame *game = NULL;
    QeBot *bot = NULL, *freed = NULL, *bots[3] = {NULL, NULL, NULL};
    QeCommand c;
    QeState s;
    uint8_t seat;
    unsigned steps = 0;
    const char bad_utf8[] = {(char)0xff, 0};

    expect(qe_game_new(3, 1, 9, &game), QE_OK, "qe_game_new");

    /* Creating: names from the library's list, levels for search only. */
    expect(qe_bot_new("oracle", QE_BOT_LEVEL_DEFAULT, 1, &bot), QE_ERR_INVALID_ARGUMENT, "unknown");
    expect(qe_bot_new("value", QE_BOT_LEVEL_EASY, 1, &bot), QE_ERR_INVALID_ARGUMENT, "level");
    expect(qe_bot_new("search:hard", QE_BOT_LEVEL_EASY, 1, &bot), QE_ERR_INVALID_ARGUMENT, "twice");
    expect(qe_bot_new("search", 4, 1, &bot), QE_ERR_INVALID_ARGUMENT, "level 4");
    expect(qe_bot_new(NULL, 0, 1, &bot), QE_ERR_NULL_POINTER, "null kind");
    expect(qe_bot_new(bad_utf8, 0, 1, &bot), QE_ERR_INVALID_UTF8, "utf-8");
    expect(qe_bot_new("value", 0, 1, NULL), QE_ERR_NULL_POINTER, "null out");
    if (bot != NULL) failures++;

    /* Deciding: the seat must act; handles are checked. */
    expect(qe_bot_new("search", QE_BOT_LEVEL_EASY, 5, &bot), QE_OK, "search easy");
    expect(qe_bot_decide(bot, game, 1, &c), QE_ERR_NOT_TO_ACT, "not to act");
    expect(qe_bot_decide(bot, game, 3, &c), QE_ERR_SEAT_OUT_OF_RANGE, "seat 3 of 3");
    expect(qe_bot_decide(bot, game, 0, NULL), QE_ERR_NULL_POINTER, "null out_command");
    expect(qe_bot_decide(NULL, game, 0, &c), QE_ERR_NULL_POINTER, "null bot");
    expect(qe_bot_decide(bot, NULL, 0, &c), QE_ERR_NULL_POINTER, "null game");
    expect(qe_bot_decide((QeBot *)game, game, 0, &c), QE_ERR_INVALID_HANDLE, "game as bot");
    expect(qe_bot_decide(bot, (QeGame *)bot, 0, &c), QE_ERR_INVALID_HANDLE, "bot as game");
    /* Two decisions of the search bot: seat 0 opens, then (as seat 1's bot) a secret bid. */
    expect(qe_bot_decide(bot, game, 0, &c), QE_OK, "search opens");
    if (c.kind != QE_COMMAND_BID || c.seat != 0 || c.amount < 1) failures++;
    expect(qe_game_apply(game, c), QE_OK, "apply the opening");
    expect(qe_bot_new("search", QE_BOT_LEVEL_EASY, 6, &bots[1]), QE_OK, "search easy 2");
    expect(qe_bot_decide(bots[1], game, 1, &c), QE_OK, "search bids");
    expect(qe_game_apply(game, c), QE_OK, "apply the bid");

    /* Freeing: NULL is fine, twice is detected. */
    expect(qe_bot_new("miser", QE_BOT_LEVEL_DEFAULT, 0, &freed), QE_OK, "miser");
    expect(qe_bot_free(freed), QE_OK, "free");
    expect(qe_bot_free(freed), QE_ERR_INVALID_HANDLE, "double free");
    expect(qe_bot_decide(freed, game, 2, &c), QE_ERR_INVALID_HANDLE, "freed bot");
    expect(qe_bot_free(NULL), QE_OK, "free NULL");
    expect(qe_bot_free(bot), QE_OK, "free search");
    expect(qe_bot_free(bots[1]), QE_OK, "free search 2");

    /* The rest of the game by value and random bots through the handle. */
    expect(qe_bot_new("value", QE_BOT_LEVEL_DEFAULT, 1, &bots[0]), QE_OK, "value");
    expect(qe_bot_new("random", QE_BOT_LEVEL_DEFAULT, 2, &bots[1]), QE_OK, "random");
    expect(qe_bot_new("value", QE_BOT_LEVEL_DEFAULT, 3, &bots[2]), QE_OK, "value 2");
    for (;;) {
        expect(qe_game_state(game, &s), QE_OK, "state");
        if (s.game_over || failures > 0) break;
        for (seat = 0; seat < s.players; seat++) {
            if (!(s.to_act & (1u << seat))) continue;
            expect(qe_bot_decide(bots[seat], game, seat, &c), QE_OK, "decide");
            expect(qe_game_apply(game, c), QE_OK, "apply");
            steps++;
            break;
        }
    }
    for (seat = 0; seat < 3; seat++) expect(qe_bot_free(bots[seat]), QE_OK, "free");
    expect(qe_game_free(game), QE_OK, "free game");
    printf("bot handle: %u commands by bots, %d failures\n", steps, failures);
    return failures == 0 ? 0 : 1;
}
