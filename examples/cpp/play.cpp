// play.cpp: a seeded game through the C++ RAII wrapper qe.hpp; seat 0 is the library's search bot.
//   usage: play [seed] [players 3-5] [commodities 0/1]
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "qe.hpp"

static_assert(sizeof(QeEvent) == 32 && sizeof(QeSeatOutcome) == 72, "ABI layout changed");

int main(int argc, char **argv) {
    const std::uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 7;
    const auto players = static_cast<std::uint32_t>(argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 5);
    const bool commodities = argc > 3 ? std::atoi(argv[3]) != 0 : true;

    qe::Game game = qe::Game::seeded(players, commodities, seed);
    std::cout << "QE (C++): " << int(players) << " players, seed " << seed << "\n";

    // Errors are exceptions carrying the status and the rule ID.
    try {
        game.apply_json(R"({"seat":0,"bid":0})");
    } catch (const qe::Error &e) {
        std::cout << "illegal command -> " << e.status() << ": " << e.what() << "\n";
        if (e.status() != QE_ERR_OPENING_BID_ZERO) return 1;
    }

    // Seat 0: the search bot (easy). The others: the auctioneer opens at 2; others bid 1 more
    // than a seat-dependent amount; take or discard from the last non-empty pile.
    qe::Bot bot("search", QE_BOT_LEVEL_EASY, seed);
    std::uint64_t tick = seed;
    unsigned steps = 0;
    for (QeState s = game.state(); !s.game_over; s = game.state()) {
        for (std::uint8_t seat = 0; seat < s.players; ++seat) {
            if (!(s.to_act & (1u << seat))) continue;
            const QeLegal l = game.legal(seat);
            QeCommand c{};
            if (seat == 0) {
                c = bot.decide(game, seat);
            } else if (l.bid.can_bid) {
                tick = tick * 2862933555777941757ULL + 3037000493ULL;
                std::uint64_t amount = l.bid.min + (tick >> 40) % (3 + s.turn);
                if (l.bid.has_forbidden && amount == l.bid.forbidden) ++amount;
                c = qe::bid(seat, amount);
            } else {
                const std::uint8_t mask = l.take ? l.take : l.discard;
                const std::uint8_t pile = mask & 4 ? QE_PILE_CRYPTO : mask & 2 ? QE_PILE_OIL : QE_PILE_GOLD;
                c = l.take ? qe::take_asset(seat, pile) : qe::discard_asset(seat, pile);
            }
            game.apply(c);
            ++steps;
            break;
        }
    }
    const auto events = game.events(QE_SPECTATOR);
    std::cout << steps << " commands, " << events.size() << " public events\n";

    // A copy replayed from the record gives the same outcome.
    qe::Game copy = qe::Game::from_record(game.record_json());
    if (copy.outcome_json() != game.outcome_json()) return 1;

    for (std::uint8_t seat = 0; seat < players; ++seat) {
        const QeSeatOutcome o = game.outcome(seat);
        std::cout << "seat " << int(seat) << " " << qe::name(QE_NAME_NATION, o.nation) << "/"
                  << qe::name(QE_NAME_INDUSTRY, o.industry) << ": spent " << o.spent_i64
                  << ", total " << o.total << (o.winner ? "  WINNER" : "")
                  << (o.eliminated ? "  eliminated" : "") << "\n";
    }
    return 0;
}
