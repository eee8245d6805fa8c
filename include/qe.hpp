// qe.hpp: a header-only C++17 RAII wrapper over the C ABI of qe (qe.h).
//
// - qe::Game owns a QeGame* (move-only; freed in the destructor). Not thread-safe: use one Game
//   from one thread at a time, like the handle it wraps.
// - qe::Bot owns a QeBot* (random, miser, value, search at a level), which decides the command
//   of a seat of a Game from what that seat may see.
// - Every failing call throws qe::Error, carrying the status code and the message (with its rule
//   ID, e.g. "R-AUC-3: bid equals the auctioneer's bid (5)").
// - Strings from the library are copied into std::string and freed with qe_string_free at once.
#ifndef QE_HPP
#define QE_HPP

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "qe.h"

namespace qe {

/// A failed qe_ call: the status code, the last error message of this thread and its rule ID.
class Error : public std::runtime_error {
public:
    Error(QeStatus status, const std::string &message, std::string rule = std::string())
        : std::runtime_error(message), status_(status), rule_(std::move(rule)) {}
    /// The status code (100-199 rules, 200-299 set-up/record, 900+ ABI).
    QeStatus status() const noexcept { return status_; }
    /// The rule ID the message names ("R-AUC-3", "RECORD"); empty for an error of the ABI.
    const std::string &rule() const noexcept { return rule_; }

private:
    QeStatus status_;
    std::string rule_;
};

namespace detail {
/// The text one of the last-error readers (qe_last_error_message, qe_last_error_rule) copies.
template <typename Read> inline std::string last_text(Read read) {
    std::size_t len = 0;
    read(nullptr, 0, &len);
    std::string text(len + 1, '\0');
    read(text.data(), text.size(), nullptr);
    text.resize(len);
    return text;
}

inline std::string last_message() { return last_text(qe_last_error_message); }

inline void check(QeStatus status) {
    if (status != QE_OK) throw Error(status, last_message(), last_text(qe_last_error_rule));
}

/// `text` as a C string for the library, which reads up to the first NUL: a NUL inside `text`
/// would cut it short unseen, so it is an error (std::invalid_argument naming `what`).
inline const char *c_str(const std::string &text, const char *what) {
    if (text.find('\0') != std::string::npos) {
        throw std::invalid_argument(std::string(what) + " contains a NUL byte");
    }
    return text.c_str();
}

/// Takes ownership of a library string.
inline std::string take(char *s) {
    std::string out(s);
    qe_string_free(s);
    return out;
}
} // namespace detail

namespace detail {
/// A command of `kind` by `seat`, its other fields zero.
inline QeCommand command(std::uint32_t kind, std::uint8_t seat) {
    QeCommand c{};
    c.kind = kind;
    c.seat = seat;
    return c;
}
} // namespace detail

/// Commands for the fast path (qe_game_apply).
inline QeCommand bid(std::uint8_t seat, std::uint64_t amount) {
    QeCommand c = detail::command(QE_COMMAND_BID, seat);
    c.amount = amount;
    return c;
}

inline QeCommand take_asset(std::uint8_t seat, std::uint8_t pile) {
    QeCommand c = detail::command(QE_COMMAND_TAKE_ASSET, seat);
    c.pile = pile;
    return c;
}

inline QeCommand discard_asset(std::uint8_t seat, std::uint8_t pile) {
    QeCommand c = detail::command(QE_COMMAND_DISCARD_ASSET, seat);
    c.pile = pile;
    return c;
}

inline QeCommand peek(std::uint8_t seat, std::uint8_t turn) {
    QeCommand c = detail::command(QE_COMMAND_PEEK, seat);
    c.turn = turn;
    return c;
}

/// The name of a component (QE_NAME_NATION, QE_NAME_INDUSTRY, QE_NAME_TILE, QE_NAME_PILE, ...).
inline std::string name(std::uint32_t kind, std::uint32_t index) {
    char buf[32];
    detail::check(qe_name(kind, index, buf, sizeof buf, nullptr));
    return buf;
}

/// A game of QE with its history (owns a QeGame*).
class Game {
public:
    /// A seeded game: players 3-5 (any other count is qe::Error 205, R-SET-1) and a set of
    /// expansions (QE_EXPANSION_* bits ORed together, 0 for none).
    static Game seeded(std::uint32_t players, std::uint32_t expansions, std::uint64_t seed) {
        QeGameOptions options;
        detail::check(qe_game_options_init(&options));
        options.players = players;
        options.expansions = expansions;
        options.seed = seed;
        return with_options(options);
    }

    /// A seeded game with or without the Commodities expansion (`commodities` is a bool; any
    /// other type picks the overload above).
    template <typename B, typename = std::enable_if_t<std::is_same_v<B, bool>>>
    static Game seeded(std::uint32_t players, B commodities, std::uint64_t seed) {
        return seeded(players, commodities ? std::uint32_t{QE_EXPANSION_COMMODITIES} : 0u, seed);
    }

    /// A game of `options` (qe_game_options_init, then the fields to change): the way to a game
    /// whose chance outcomes the caller supplies (QE_GAME_EXTERNAL_CHANCE), played on with get().
    static Game with_options(const QeGameOptions &options) {
        QeGame *g = nullptr;
        detail::check(qe_game_new_with(&options, &g));
        return Game(g);
    }

    /// A game replayed from a qe-record/1 JSON record.
    static Game from_record(const std::string &json) {
        QeGame *g = nullptr;
        detail::check(qe_game_from_record(detail::c_str(json, "record"), nullptr, &g));
        return Game(g);
    }

    Game(const Game &) = delete;
    Game &operator=(const Game &) = delete;
    Game(Game &&other) noexcept : g_(std::exchange(other.g_, nullptr)) {}
    Game &operator=(Game &&other) noexcept {
        if (this != &other) {
            reset();
            g_ = std::exchange(other.g_, nullptr);
        }
        return *this;
    }
    ~Game() { reset(); }

    /// An independent copy (history and event cursors included).
    Game clone() const {
        QeGame *g = nullptr;
        detail::check(qe_game_clone(g_, &g));
        return Game(g);
    }

    /// Applies a command; throws qe::Error (game unchanged) if it is illegal.
    void apply(const QeCommand &c) { detail::check(qe_game_apply(g_, c)); }
    /// Applies a command; returns the status instead of throwing.
    QeStatus try_apply(const QeCommand &c) noexcept { return qe_game_apply(g_, c); }
    /// Applies a command in the record format, e.g. {"seat":0,"bid":5}.
    void apply_json(const std::string &json) {
        detail::check(qe_game_apply_json(g_, detail::c_str(json, "command")));
    }

    QeState state() const {
        QeState s{};
        detail::check(qe_game_state(g_, &s));
        return s;
    }
    QeLegal legal(std::uint8_t seat) const {
        QeLegal l{};
        detail::check(qe_game_legal(g_, seat, &l));
        return l;
    }
    QeSeatInfo seat_info(std::uint8_t viewer, std::uint8_t seat) const {
        QeSeatInfo s{};
        detail::check(qe_game_seat_info(g_, viewer, seat, &s));
        return s;
    }
    /// The new events of a viewer (a seat or QE_SPECTATOR), marked read.
    std::vector<QeEvent> events(std::uint8_t viewer) {
        std::vector<QeEvent> out;
        std::size_t pending = 0;
        detail::check(qe_game_events_pending(g_, viewer, &pending));
        out.resize(pending);
        std::size_t n = 0;
        detail::check(qe_game_events(g_, viewer, out.data(), out.size(), &n));
        out.resize(n);
        return out;
    }
    std::string events_json(std::uint8_t viewer) {
        char *s = nullptr;
        detail::check(qe_game_events_json(g_, viewer, &s));
        return detail::take(s);
    }
    std::string view_json(std::uint8_t viewer) const {
        char *s = nullptr;
        detail::check(qe_game_view_json(g_, viewer, &s));
        return detail::take(s);
    }
    QeSeatOutcome outcome(std::uint8_t seat) const {
        QeSeatOutcome o{};
        detail::check(qe_game_outcome(g_, seat, &o));
        return o;
    }
    std::string outcome_json() const {
        char *s = nullptr;
        detail::check(qe_game_outcome_json(g_, &s));
        return detail::take(s);
    }
    std::string record_json() const {
        char *s = nullptr;
        detail::check(qe_game_record_json(g_, &s));
        return detail::take(s);
    }

    /// The raw handle, for calls the wrapper does not cover. Still owned by this Game.
    QeGame *get() const noexcept { return g_; }

private:
    explicit Game(QeGame *g) noexcept : g_(g) {}
    void reset() noexcept {
        if (g_ != nullptr) qe_game_free(g_);
        g_ = nullptr;
    }
    QeGame *g_;
};

/// A bot from the library (move-only; freed in the destructor): "random", "miser", "value", or
/// "search" at a level (QE_BOT_LEVEL_EASY, _MEDIUM, _HARD). One bot plays one seat of one game.
class Bot {
public:
    Bot(const std::string &kind, std::uint32_t level, std::uint64_t seed) {
        detail::check(qe_bot_new(detail::c_str(kind, "bot kind"), level, seed, &b_));
    }
    Bot(const Bot &) = delete;
    Bot &operator=(const Bot &) = delete;
    Bot(Bot &&other) noexcept : b_(std::exchange(other.b_, nullptr)) {}
    Bot &operator=(Bot &&other) noexcept {
        if (this != &other) {
            reset();
            b_ = std::exchange(other.b_, nullptr);
        }
        return *this;
    }
    ~Bot() { reset(); }

    /// The seat's command now (apply it with Game::apply); throws qe::Error with
    /// QE_ERR_NOT_TO_ACT if the seat has nothing to do. After a peek, ask again.
    QeCommand decide(const Game &game, std::uint8_t seat) {
        QeCommand c{};
        detail::check(qe_bot_decide(b_, game.get(), seat, &c));
        return c;
    }

private:
    void reset() noexcept {
        if (b_ != nullptr) qe_bot_free(b_);
        b_ = nullptr;
    }
    QeBot *b_ = nullptr;
};

} // namespace qe

#endif // QE_HPP
