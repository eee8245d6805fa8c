/*
 * play.c: a full seeded game of QE through the C ABI (qe.h): seat 0 plays a simple bidding policy
 * written here, seat 1 the library's search bot, the other seats its value bot.
 *
 *   usage: play [seed] [players 3-5] [commodities 0/1] [search level 1-3, 0: value bot at seat 1]
 *
 * Shows: creating and freeing a game, the hot loop with flat structs (state, legal moves,
 * commands, events), bots (qe_bot_new / qe_bot_decide / qe_bot_free), error handling with rule
 * IDs, JSON views, the outcome, and the record round trip. C99; builds with -std=c99 -Wall -Wextra
 * -Werror -pedantic and runs clean under valgrind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qe.h"

/* The struct layouts this program was compiled against (also checked in Rust and C#). */
typedef char check_command[sizeof(QeCommand) == 16 ? 1 : -1];
typedef char check_event[sizeof(QeEvent) == 32 ? 1 : -1];
typedef char check_outcome[sizeof(QeSeatOutcome) == 72 ? 1 : -1];
typedef char check_options[sizeof(QeGameOptions) == 56 ? 1 : -1];

/* Prints the last error and exits: every qe_ call returns a status. */
static void die(const char *what, QeStatus status) {
    char msg[256];
    qe_last_error_message(msg, sizeof msg, NULL);
    fprintf(stderr, "%s failed: status %u: %s\n", what, (unsigned)status, msg);
    exit(1);
}

#define CHECK(call)                                                                                \
    do {                                                                                           \
        QeStatus st_ = (call);                                                                     \
        if (st_ != QE_OK) die(#call, st_);                                                         \
    } while (0)

static const char *name(uint32_t kind, uint32_t index, char *buf, size_t cap) {
    if (qe_name(kind, index, buf, cap, NULL) != QE_OK) strcpy(buf, "?");
    return buf;
}

/* A tiny deterministic generator, so the same seed plays the same game. */
static uint64_t rng_state;
static uint64_t rng_next(void) {
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return rng_state >> 33;
}

/* The policy: bid a small amount that grows with the turn, never the forbidden amount; take or
 * discard from the first non-empty pile. */
static QeCommand choose(const QeLegal *legal, uint8_t seat, uint8_t turn) {
    QeCommand c;
    memset(&c, 0, sizeof c);
    c.seat = seat;
    if (legal->bid.can_bid) {
        c.kind = QE_COMMAND_BID;
        c.amount = legal->bid.min + rng_next() % (4u + turn);
        if (legal->bid.has_forbidden && c.amount == legal->bid.forbidden) c.amount += 1;
    } else {
        uint8_t mask = legal->take ? legal->take : legal->discard;
        c.kind = legal->take ? QE_COMMAND_TAKE_ASSET : QE_COMMAND_DISCARD_ASSET;
        c.pile = (uint8_t)(mask & 1 ? QE_PILE_GOLD : mask & 2 ? QE_PILE_OIL : QE_PILE_CRYPTO);
    }
    return c;
}

int main(int argc, char **argv) {
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 42;
    uint8_t players = (uint8_t)(argc > 2 ? atoi(argv[2]) : 4);
    uint8_t commodities = (uint8_t)(argc > 3 ? atoi(argv[3]) : 0);
    uint32_t level = (uint32_t)(argc > 4 ? atoi(argv[4]) : QE_BOT_LEVEL_EASY);
    uint32_t abi = 0;
    QeGameOptions options;
    QeGame *game = NULL;
    QeGame *replayed = NULL;
    QeBot *bots[5] = {NULL, NULL, NULL, NULL, NULL};
    QeState state;
    QeEvent events[16];
    size_t n_events = 0, total_events = 0, n = 0;
    unsigned commands = 0;
    char buf[64], buf2[64];
    char *json = NULL, *record = NULL, *record2 = NULL;
    QeCommand bad;
    QeStatus st;
    uint8_t seat;

    CHECK(qe_abi_version(&abi));
    if (abi != QE_ABI_VERSION) {
        fprintf(stderr, "library ABI %u, header ABI %u\n", (unsigned)abi, QE_ABI_VERSION);
        return 1;
    }
    rng_state = seed;
    CHECK(qe_game_options_init(&options));
    options.players = players;
    options.expansions = commodities ? QE_EXPANSION_COMMODITIES : 0;
    options.seed = seed;
    CHECK(qe_game_new_with(&options, &game));
    printf("QE: %u players%s, seed %llu\n", (unsigned)players,
           commodities ? " with Commodities" : "", (unsigned long long)seed);

    /* Bots from the library: seat 1 the search bot (easy by default: a few milliseconds a
     * decision), the others from seat 2 the value bot; each seeded, so the game replays exactly. */
    if (level == QE_BOT_LEVEL_DEFAULT)
        CHECK(qe_bot_new("value", QE_BOT_LEVEL_DEFAULT, seed + 1, &bots[1]));
    else
        CHECK(qe_bot_new("search", level, seed + 1, &bots[1]));
    for (seat = 2; seat < players; seat++)
        CHECK(qe_bot_new("value", QE_BOT_LEVEL_DEFAULT, seed + seat, &bots[seat]));
    printf("seat 0: the policy of this program; seat 1: %s; seats 2+: value\n",
           level == QE_BOT_LEVEL_DEFAULT ? "value" : "search");
    /* A bot only decides for a seat that must act: seat 1 does not open the first auction. */
    {
        QeCommand c;
        st = qe_bot_decide(bots[1], game, 1, &c);
        if (st != QE_ERR_NOT_TO_ACT) return 1;
        st = qe_bot_new("value", QE_BOT_LEVEL_HARD, 0, &bots[0]);
        qe_last_error_message(buf, sizeof buf, NULL);
        printf("a level for the value bot -> status %u: %.40s...\n", (unsigned)st, buf);
        if (st != QE_ERR_INVALID_ARGUMENT || bots[0] != NULL) return 1;
    }

    /* An illegal command: rejected with its rule ID; the game is unchanged (R-AUC-12). */
    memset(&bad, 0, sizeof bad);
    bad.kind = QE_COMMAND_BID;
    bad.seat = 1; /* seat 0 opens the first auction */
    bad.amount = 3;
    st = qe_game_apply(game, bad);
    qe_last_error_message(buf, sizeof buf, NULL);
    printf("illegal command -> status %u: %s\n", (unsigned)st, buf);
    if (st != QE_ERR_NOT_AUCTIONEER || strncmp(buf, "R-AUC-2", 7) != 0) return 1;

    /* The hot loop: flat structs only. */
    for (;;) {
        CHECK(qe_game_state(game, &state));
        /* Seat 0 reads its new events as they happen (as it may see them). */
        do {
            CHECK(qe_game_events(game, 0, events, 16, &n_events));
            for (n = 0; n < n_events; n++) {
                if (events[n].kind == QE_EVENT_AWARDED && events[n].seat != QE_NONE) {
                    printf("  turn %2u: %-7s -> seat %u", (unsigned)events[n].turn,
                           name(QE_NAME_TILE, events[n].tile, buf, sizeof buf),
                           (unsigned)events[n].seat);
                    if (events[n].amount_known)
                        printf(" for %llu", (unsigned long long)events[n].amount);
                    printf("\n");
                }
            }
            total_events += n_events;
        } while (n_events == 16);
        if (state.game_over) break;
        for (seat = 0; seat < state.players; seat++) {
            QeLegal legal;
            QeCommand c;
            if (!(state.to_act & (1u << seat))) continue;
            if (bots[seat] != NULL) {
                /* The bot sees only what the seat may see; its command may be a peek (5 players),
                 * after which the seat is asked again. */
                CHECK(qe_bot_decide(bots[seat], game, seat, &c));
            } else {
                CHECK(qe_game_legal(game, seat, &legal));
                c = choose(&legal, seat, state.turn);
            }
            CHECK(qe_game_apply(game, c));
            commands++;
            break; /* re-read the state: one command may change who acts */
        }
    }
    printf("%u commands, %lu events seen by seat 0\n", commands, (unsigned long)total_events);

    /* The outcome, as flat structs... */
    printf("seat nation industry spent  total  winner eliminated\n");
    for (seat = 0; seat < players; seat++) {
        QeSeatOutcome o;
        CHECK(qe_game_outcome(game, seat, &o));
        printf("%4u %-6s %-8s %6lld %6u %6s %s\n", (unsigned)seat,
               name(QE_NAME_NATION, o.nation, buf, sizeof buf),
               name(QE_NAME_INDUSTRY, o.industry, buf2, sizeof buf2), (long long)o.spent_i64,
               (unsigned)o.total, o.winner ? "yes" : "", o.eliminated ? "yes" : "");
    }
    /* ...and as JSON. Strings from the library are freed with qe_string_free. */
    CHECK(qe_game_outcome_json(game, &json));
    printf("outcome JSON: %.60s...\n", json);
    CHECK(qe_string_free(json));
    CHECK(qe_game_view_json(game, 0, &json));
    printf("view JSON of seat 0: %lu bytes\n", (unsigned long)strlen(json));
    CHECK(qe_string_free(json));

    /* The record replays to the same game. */
    CHECK(qe_game_record_json(game, &record));
    CHECK(qe_game_from_record(record, NULL, &replayed));
    CHECK(qe_game_record_json(replayed, &record2));
    printf("record: %lu bytes, replay %s\n", (unsigned long)strlen(record),
           strcmp(record, record2) == 0 ? "identical" : "DIFFERENT");
    if (strcmp(record, record2) != 0) return 1;
    CHECK(qe_string_free(record));
    CHECK(qe_string_free(record2));

    for (seat = 0; seat < 5; seat++) CHECK(qe_bot_free(bots[seat])); /* NULL is accepted */
    CHECK(qe_game_free(replayed));
    CHECK(qe_game_free(game));
    /* A freed handle is detected, not undefined behaviour. */
    st = qe_game_free(game);
    printf("double free -> status %u (QE_ERR_INVALID_HANDLE = %u)\n", (unsigned)st,
           (unsigned)QE_ERR_INVALID_HANDLE);
    return st == QE_ERR_INVALID_HANDLE ? 0 : 1;
}
