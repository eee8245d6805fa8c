// The C++ wrapper qe.hpp beyond the example (the test command builds it with -Werror and runs it
// under valgrind): both seeded overloads take the header's constants, a player count is checked by
// the library (not cut to a byte), an error carries its rule ID, a string with a NUL inside is
// refused, a moved-from Game or Bot is empty, the command builders fill their fields, and
// with_options makes a game whose chance the caller supplies.
//
// Usage: wrapper
#include <cstdio>
#include <stdexcept>
#include <string>

#include "qe.hpp"

static int failures = 0;

static void check(bool ok, const char *what) {
    if (!ok) {
        std::fprintf(stderr, "FAILED: %s\n", what);
        failures++;
    }
}

template <typename F> static QeStatus status_of(F f) {
    try {
        f();
    } catch (const qe::Error &e) {
        return e.status();
    }
    return QE_OK;
}

template <typename F> static bool refused(F f) {
    try {
        f();
    } catch (const std::invalid_argument &) {
        return true;
    }
    return false;
}

int main() {
    // The expansions overload with the header's int constants, and the bool one.
    qe::Game with = qe::Game::seeded(4, QE_EXPANSION_COMMODITIES, 1);
    qe::Game none = qe::Game::seeded(4, 0, 1);
    qe::Game shorthand = qe::Game::seeded(4, true, 1);
    check(with.record_json() == shorthand.record_json(), "seeded(4, true) is Commodities");
    check(with.record_json() != none.record_json(), "seeded(4, 0) is the base game");
    // A player count past 255 reaches the library, which refuses it (R-SET-1).
    check(status_of([] { qe::Game::seeded(260, 0, 1); }) == QE_ERR_PLAYERS, "260 players");
    // The exception carries the rule ID the library reports, and none for an error of the ABI.
    try {
        none.apply_json("{\"seat\":1,\"bid\":3}");
        check(false, "seat 1 may not open");
    } catch (const qe::Error &e) {
        check(e.status() == QE_ERR_NOT_AUCTIONEER && e.rule() == "R-AUC-2", "rule R-AUC-2");
        const std::string message = e.what();
        check(message.rfind("R-AUC-2: ", 0) == 0 && message.size() > 9, "the message after its rule");
    }
    try {
        none.apply_json("{");
        check(false, "{ is not JSON");
    } catch (const qe::Error &e) {
        check(e.status() == QE_ERR_INVALID_JSON && e.rule().empty(), "no rule for bad JSON");
    }
    // A NUL inside a string would cut it short unseen: refused before the library.
    const std::string command("{\"seat\":0,\"bid\":5}\0JUNK", 24);
    check(refused([&] { none.apply_json(command); }), "a command with a NUL");
    check(refused([] { qe::Bot(std::string("search\0zzz", 10), QE_BOT_LEVEL_EASY, 1); }),
          "a bot kind with a NUL");
    check(refused([] { qe::Game::from_record(std::string("{\0}", 3)); }), "a record with a NUL");
    check(none.state().turn == 0 && none.legal(0).bid.can_bid, "the game is unchanged");
    // A moved-from Game or Bot holds no handle: using it is a null-pointer error, never a use of
    // the handle its new owner has.
    qe::Game moved = qe::Game::seeded(4, 0, 1);
    qe::Game owner = std::move(moved);
    check(moved.get() == nullptr && owner.get() != nullptr, "a moved Game gives up its handle");
    check(status_of([&] { moved.apply(qe::bid(0, 5)); }) == QE_ERR_NULL_POINTER, "a moved Game");
    check(owner.state().phase == QE_PHASE_OPENING_BID, "the new owner's game is untouched");
    qe::Game assigned = qe::Game::seeded(3, 0, 2);
    assigned = std::move(owner);
    check(owner.get() == nullptr && assigned.state().players == 4, "a move-assigned Game");
    qe::Bot bot("value", 0, 1);
    qe::Bot bot_owner = std::move(bot);
    check(status_of([&] { bot.decide(assigned, 0); }) == QE_ERR_NULL_POINTER, "a moved Bot");
    qe::Bot bot_assigned("random", 0, 2);
    bot_assigned = std::move(bot_owner);
    check(status_of([&] { bot_owner.decide(assigned, 0); }) == QE_ERR_NULL_POINTER &&
              bot_assigned.decide(assigned, 0).kind == QE_COMMAND_BID,
          "a move-assigned Bot");
    // The command builders fill the kind and the field of each command.
    const QeCommand b = qe::bid(1, 7), t = qe::take_asset(2, QE_PILE_OIL),
                    d = qe::discard_asset(3, QE_PILE_CRYPTO), p = qe::peek(4, 9);
    check(b.kind == QE_COMMAND_BID && b.seat == 1 && b.amount == 7, "bid");
    check(t.kind == QE_COMMAND_TAKE_ASSET && t.seat == 2 && t.pile == QE_PILE_OIL, "take_asset");
    check(d.kind == QE_COMMAND_DISCARD_ASSET && d.seat == 3 && d.pile == QE_PILE_CRYPTO,
          "discard_asset");
    check(p.kind == QE_COMMAND_PEEK && p.seat == 4 && p.turn == 9, "peek");
    // External chance: the game waits for its deal, which the caller applies.
    QeGameOptions options;
    qe_game_options_init(&options);
    options.players = 5;
    options.flags = QE_GAME_EXTERNAL_CHANCE;
    qe::Game dealt = qe::Game::with_options(options);
    check(dealt.state().phase == QE_PHASE_CHANCE, "an external-chance game waits for chance");
    std::size_t outcomes = 0;
    check(qe_game_chance_count(dealt.get(), &outcomes) == QE_OK && outcomes > 0, "chance outcomes");
    check(qe_game_apply_chance(dealt.get(), 0) == QE_OK, "the deal applies");
    // The peek builder makes a peek command (refused here: no auction has been won, R-VIS-5).
    check(status_of([&] { dealt.apply(qe::peek(0, 0)); }) != QE_OK, "an early peek is refused");
    {
        // clone() is an independent game with its own handle.
        qe::Game original = qe::Game::seeded(4, 0, 5);
        qe::Game copy = original.clone();
        check(copy.get() != original.get(), "clone has its own handle");
        copy.apply(qe::bid(0, 5));
        check(copy.state().phase != original.state().phase, "a command on the clone leaves the original");
        // try_apply returns the library's status.
        check(original.try_apply(qe::bid(1, 3)) == QE_ERR_NOT_AUCTIONEER, "try_apply returns the status");
        // seat_info(viewer, seat) is about `seat`, as `viewer` sees it.
        check(original.seat_info(0, 2).seat == 2 && original.seat_info(3, 1).seat == 1, "seat_info argument order");
        // events(viewer) counts that viewer's pending events, not the spectator's.
        check(!original.events(QE_SPECTATOR).empty(), "the spectator sees the deal");
        const auto mine = original.events(0);
        check(!mine.empty() && original.events(0).empty(), "seat 0 has its own cursor, read once");
        // view_json is the viewer's view, the same each time (not an event stream).
        const std::string view = original.view_json(0);
        check(view.rfind("{\"seat\":0,", 0) == 0 && view == original.view_json(0), "view_json");
        // Every name fits, the longest included.
        check(qe::name(QE_NAME_PHASE, QE_PHASE_ASSET_REBID) == "asset_rebid", "phase name asset_rebid");
        check(qe::name(QE_NAME_EXPANSION, 0) == "commodities", "expansion name commodities");
        // outcome_json of a finished game is its outcome, not its record.
        qe::Game played = qe::Game::seeded(4, 0, 3);
        qe::Bot bot("value", 0, 0);
        for (QeState s = played.state(); !s.game_over; s = played.state()) {
            std::uint8_t seat = 0;
            while (!(s.to_act & (1u << seat))) ++seat;
            played.apply(bot.decide(played, seat));
        }
        const std::string outcome = played.outcome_json();
        check(outcome.rfind("{\"seats\":[", 0) == 0 && outcome != played.record_json(), "outcome_json is not the record");
    }
    std::printf("wrapper: %s\n", failures == 0 ? "all checks passed" : "FAILED");
    return failures == 0 ? 0 : 1;
}
