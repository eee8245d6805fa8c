// Qe.cs: C# P/Invoke binding of the qe C ABI (qe.h), usable as-is in Unity (Mono and IL2CPP) and
// in .NET/Mono console programs.
//
// - Native: the raw functions and blittable structs, one to one with qe.h.
// - Game: an IDisposable owner of a QeGame* with checked calls that throw QeException.
// - Bot: an IDisposable owner of a QeBot* (random, miser, value, search at a level) that decides
//   the command of a seat of a Game from what that seat may see.
//
// Strings: inputs are passed as NUL-terminated UTF-8 byte arrays; outputs arrive as IntPtr and are
// copied, then freed explicitly with qe_string_free. Structs hold only integers, so no marshalling
// work happens per call. The ABI has no callbacks; if you add one, make it a static method marked
// [AOT.MonoPInvokeCallback] (IL2CPP cannot call back into instance methods or lambdas).
//
// Threading: a Game is not synchronized; use it from one thread at a time (Unity's main thread or
// one worker). Error messages are per thread: read them on the thread whose call failed (the Game
// methods do).
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace Qe
{
    /// <summary>A signed 128-bit integer: value = Hi * 2^64 + Lo.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct QeI128
    {
        public ulong Lo;
        public long Hi;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct QeCommand
    {
        public ulong Amount;
        public uint Kind;
        public byte Seat;
        public byte Pile;
        public byte Turn;
        public byte Reserved;

        public static QeCommand Bid(byte seat, ulong amount)
        {
            return new QeCommand { Kind = Native.QE_COMMAND_BID, Seat = seat, Amount = amount };
        }

        public static QeCommand TakeAsset(byte seat, byte pile)
        {
            return new QeCommand { Kind = Native.QE_COMMAND_TAKE_ASSET, Seat = seat, Pile = pile };
        }

        public static QeCommand DiscardAsset(byte seat, byte pile)
        {
            return new QeCommand { Kind = Native.QE_COMMAND_DISCARD_ASSET, Seat = seat, Pile = pile };
        }

        public static QeCommand Peek(byte seat, byte turn)
        {
            return new QeCommand { Kind = Native.QE_COMMAND_PEEK, Seat = seat, Turn = turn };
        }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct QeState
    {
        public uint Phase;
        public byte Players;
        public byte Commodities;
        public byte Turn;
        public byte Turns;
        public byte PhaseSeat;
        public byte Tie;
        public byte ToAct;
        public byte GameOver;
        public byte Auctioneer;
        public byte Tile;
        public byte DeckRemaining;
        public byte GoldRemaining;
        public byte OilRemaining;
        public byte CryptoRemaining;
        public byte Expansions;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct QeBidRange
    {
        public ulong Min;
        public ulong Max;
        public ulong Forbidden;
        public byte CanBid;
        public byte HasForbidden;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct QeLegal
    {
        public QeBidRange Bid;
        public ushort Peek;
        public byte Take;
        public byte Discard;
        public byte MustAct;
    }

    /// <summary>What a viewer can prove about one seat's total spent (the deduction aid).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct QeSpendBounds
    {
        public QeI128 Lower;
        public QeI128 Upper;
        public ushort Won;
        public ushort KnownPrices;
        public byte Seat;
        public byte Exact;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct QeSeatInfo
    {
        public QeI128 Spent;
        public long SpentI64;
        public ulong Bid;
        public uint Tiles;
        public byte Seat;
        public byte Nation;
        public byte Industry;
        public byte ZeroMarks;
        public byte Gold;
        public byte Oil;
        public byte Crypto;
        public byte Peeked;
        public byte SpentKnown;
        public byte BidKnown;
        public byte HasBid;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct QeAuction
    {
        public ulong Opening;
        public ulong Price;
        public ulong AssetPrice;
        public byte Turn;
        public byte Tile;
        public byte Auctioneer;
        public byte Winner;
        public byte Awarded;
        public byte OpeningKnown;
        public byte PriceKnown;
        public byte ThirdTie;
        public byte ZeroBids;
        public byte Tie1;
        public byte Tie2;
        public byte Tie3;
        public byte AssetState;
        public byte AssetSeat;
        public byte AssetPile;
        public byte AssetToken;
        public byte AssetValue;
        public byte AssetPriceKnown;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct QeEvent
    {
        public ulong Amount;
        public uint Kind;
        public byte Turn;
        public byte Seat;
        public byte Tile;
        public byte Industry;
        public byte Pile;
        public byte Token;
        public byte Value;
        public byte Stage;
        public byte Tie;
        public byte Seats;
        public byte Marked;
        public byte SeenBy;
        public byte PriceSeenBy;
        public byte AmountKnown;
        public byte ThirdTie;
        public byte Asset;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct QeGameOptions
    {
        public uint StructSize;
        public uint Players;
        public uint Expansions;
        public uint Flags;
        public ulong Seed;
        public ulong Reserved0;
        public ulong Reserved1;
        public ulong Reserved2;
        public ulong Reserved3;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct QeSeatOutcome
    {
        public QeI128 Spent;
        public long SpentI64;
        public uint Companies;
        public uint ZeroBids;
        public uint Nationalization;
        public uint Monopolization;
        public uint Diversification;
        public uint Commodities;
        public uint Subtotal;
        public uint LeastSpentBonus;
        public uint Total;
        public byte Seat;
        public byte Nation;
        public byte Industry;
        public byte Eliminated;
        public byte Winner;
    }

    /// <summary>The raw C ABI. Every function returns a status (0 = QE_OK).</summary>
    public static class Native
    {
#if (UNITY_IOS || UNITY_WEBGL || (UNITY_ANDROID && !QE_ANDROID_SHARED)) && !UNITY_EDITOR
        // iOS, WebGL and Android (IL2CPP) link the static library libqe_ffi.a into the player:
        // the functions live in the app itself. (Define QE_ANDROID_SHARED when you ship an Android
        // libqe_ffi.so of your own instead.)
        const string Lib = "__Internal";
#else
        // libqe_ffi.so / qe_ffi.dll / libqe_ffi.dylib, loaded at run time (Runtime/Plugins in the package).
        const string Lib = "qe_ffi";
#endif

        public const byte QE_NONE = 255;

        public const byte QE_SPECTATOR = 255;

        public const uint QE_VERSION_MAJOR = 0;
        public const uint QE_VERSION_MINOR = 1;
        public const uint QE_VERSION_PATCH = 0;

        public const uint QE_ABI_VERSION = 1;

        public const uint QE_COMMAND_BID = 0;
        public const uint QE_COMMAND_TAKE_ASSET = 1;
        public const uint QE_COMMAND_DISCARD_ASSET = 2;
        public const uint QE_COMMAND_PEEK = 3;

        public const byte QE_PILE_GOLD = 0;
        public const byte QE_PILE_OIL = 1;
        public const byte QE_PILE_CRYPTO = 2;

        public const uint QE_PHASE_CHANCE = 0;
        public const uint QE_PHASE_OPENING_BID = 1;
        public const uint QE_PHASE_BIDDING = 2;
        public const uint QE_PHASE_REBID = 3;
        public const uint QE_PHASE_ASSET_REBID = 4;
        public const uint QE_PHASE_TAKE_ASSET = 5;
        public const uint QE_PHASE_DISCARD_ASSET = 6;
        public const uint QE_PHASE_GAME_OVER = 7;

        public const uint QE_EVENT_DEALT = 0;
        public const uint QE_EVENT_TILE_REVEALED = 1;
        public const uint QE_EVENT_OPENING_BID = 2;
        public const uint QE_EVENT_BID = 3;
        public const uint QE_EVENT_REBID_REQUIRED = 4;
        public const uint QE_EVENT_AWARDED = 5;
        public const uint QE_EVENT_ZERO_BIDS = 6;
        public const uint QE_EVENT_ASSET_TAKER = 7;
        public const uint QE_EVENT_ASSET_TAKEN = 8;
        public const uint QE_EVENT_NO_TAKER = 9;
        public const uint QE_EVENT_ASSET_DISCARDED = 10;
        public const uint QE_EVENT_PEEKED = 11;
        public const uint QE_EVENT_GAME_OVER = 12;
        public const uint QE_EVENT_OTHER = 255;

        public const uint QE_BOT_LEVEL_DEFAULT = 0;
        public const uint QE_BOT_LEVEL_EASY = 1;
        public const uint QE_BOT_LEVEL_MEDIUM = 2;
        public const uint QE_BOT_LEVEL_HARD = 3;

        public const uint QE_NAME_NATION = 0;
        public const uint QE_NAME_INDUSTRY = 1;
        public const uint QE_NAME_TILE = 2;
        public const uint QE_NAME_PILE = 3;
        public const uint QE_NAME_PHASE = 4;
        public const uint QE_NAME_EXPANSION = 5;

        public const uint QE_GAME_EXTERNAL_CHANCE = 1;

        public const uint QE_EXPANSION_COMMODITIES = 1;

        public const uint QE_OK = 0;

        public const uint QE_ERR_GAME_OVER = 100;
        public const uint QE_ERR_SEAT_OUT_OF_RANGE = 101;
        public const uint QE_ERR_NOT_AUCTIONEER = 102;
        public const uint QE_ERR_ALREADY_BID = 103;
        public const uint QE_ERR_NOT_REBIDDING = 104;
        public const uint QE_ERR_OPENING_BID_ZERO = 105;
        public const uint QE_ERR_BID_EQUALS_OPENING = 106;
        public const uint QE_ERR_BID_OUT_OF_RANGE = 107;
        public const uint QE_ERR_NOT_ASSET_TAKER = 108;
        public const uint QE_ERR_NOT_DISCARDER = 109;
        public const uint QE_ERR_PILE_EMPTY = 110;
        public const uint QE_ERR_WRONG_ACTION = 111;
        public const uint QE_ERR_PEEK_NOT_ALLOWED = 112;
        public const uint QE_ERR_PEEK_TWICE = 113;
        public const uint QE_ERR_PEEK_NOT_AWARDED = 114;
        public const uint QE_ERR_PEEK_ALREADY_SEEN = 115;
        public const uint QE_ERR_CHANCE_PENDING = 116;
        public const uint QE_ERR_INVALID_CHANCE = 117;
        public const uint QE_ERR_MALFORMED_COMMAND = 118;
        public const uint QE_ERR_UNKNOWN_NAME = 200;
        public const uint QE_ERR_VALUE_OUT_OF_RANGE = 201;
        public const uint QE_ERR_TOKEN_COUNT = 202;
        public const uint QE_ERR_CRYPTO_EIGHT = 203;
        public const uint QE_ERR_TILES_IN_PLAY = 204;
        public const uint QE_ERR_PLAYERS = 205;
        public const uint QE_ERR_COUNT = 206;
        public const uint QE_ERR_ENTRY = 207;
        public const uint QE_ERR_TABLE = 208;
        public const uint QE_ERR_PILES = 209;
        public const uint QE_ERR_RECORD = 210;
        public const uint QE_ERR_NULL_POINTER = 900;
        public const uint QE_ERR_INVALID_HANDLE = 901;
        public const uint QE_ERR_INVALID_UTF8 = 902;
        public const uint QE_ERR_INVALID_JSON = 903;
        public const uint QE_ERR_BUFFER_TOO_SMALL = 904;
        public const uint QE_ERR_PANIC = 905;
        public const uint QE_ERR_INVALID_ARGUMENT = 906;
        public const uint QE_ERR_NOT_OVER = 907;
        public const uint QE_ERR_NOT_TO_ACT = 908;

        [DllImport(Lib)] public static extern uint qe_abi_version(out uint version);
        [DllImport(Lib)] public static extern uint qe_version(out uint major, out uint minor, out uint patch);
        [DllImport(Lib)] public static extern uint qe_version_string(byte[] buf, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] public static extern uint qe_last_error_message(byte[] buf, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] public static extern uint qe_last_error_rule(byte[] buf, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] public static extern uint qe_last_error_status(out uint status);
        [DllImport(Lib)] public static extern uint qe_string_free(IntPtr s);
        [DllImport(Lib)] public static extern uint qe_name(uint kind, uint index, byte[] buf, UIntPtr cap, out UIntPtr len);

        [DllImport(Lib)] public static extern uint qe_game_new(byte players, byte commodities, ulong seed, out IntPtr game);
        [DllImport(Lib)] public static extern uint qe_game_options_init(out QeGameOptions options);
        [DllImport(Lib)] public static extern uint qe_game_new_with(ref QeGameOptions options, out IntPtr game);
        [DllImport(Lib)] public static extern uint qe_game_from_record(byte[] json, out UIntPtr failedIndex, out IntPtr game);
        [DllImport(Lib)] public static extern uint qe_game_clone(IntPtr game, out IntPtr copy);
        [DllImport(Lib)] public static extern uint qe_game_free(IntPtr game);

        [DllImport(Lib)] public static extern uint qe_game_apply(IntPtr game, QeCommand command);
        [DllImport(Lib)] public static extern uint qe_game_apply_json(IntPtr game, byte[] json);

        [DllImport(Lib)] public static extern uint qe_game_state(IntPtr game, out QeState state);
        [DllImport(Lib)] public static extern uint qe_game_to_act(IntPtr game, out byte mask);
        [DllImport(Lib)] public static extern uint qe_game_bid_range(IntPtr game, byte seat, out QeBidRange range);
        [DllImport(Lib)] public static extern uint qe_game_legal(IntPtr game, byte seat, out QeLegal legal);
        [DllImport(Lib)] public static extern uint qe_game_seat_info(IntPtr game, byte viewer, byte seat, out QeSeatInfo info);
        [DllImport(Lib)] public static extern uint qe_game_spend_bounds(IntPtr game, byte viewer, byte seat, out QeSpendBounds bounds);
        [DllImport(Lib)] public static extern uint qe_game_auction(IntPtr game, byte viewer, byte turn, out QeAuction auction);
        [DllImport(Lib)] public static extern uint qe_game_view_json(IntPtr game, byte viewer, out IntPtr json);
        [DllImport(Lib)] public static extern uint qe_game_events_pending(IntPtr game, byte viewer, out UIntPtr count);
        [DllImport(Lib)] public static extern uint qe_game_events(IntPtr game, byte viewer, [Out] QeEvent[] buf, UIntPtr cap, out UIntPtr count);
        [DllImport(Lib)] public static extern uint qe_game_events_json(IntPtr game, byte viewer, out IntPtr json);
        [DllImport(Lib)] public static extern uint qe_game_events_rewind(IntPtr game, byte viewer);
        [DllImport(Lib)] public static extern uint qe_game_outcome(IntPtr game, byte seat, out QeSeatOutcome outcome);
        [DllImport(Lib)] public static extern uint qe_game_outcome_json(IntPtr game, out IntPtr json);
        [DllImport(Lib)] public static extern uint qe_game_record_json(IntPtr game, out IntPtr json);

        [DllImport(Lib)] public static extern uint qe_game_chance_count(IntPtr game, out UIntPtr count);
        [DllImport(Lib)] public static extern uint qe_game_chance_json(IntPtr game, UIntPtr index, out IntPtr json);
        [DllImport(Lib)] public static extern uint qe_game_apply_chance(IntPtr game, UIntPtr index);
        [DllImport(Lib)] public static extern uint qe_bot_new(byte[] kind, uint level, ulong seed, out IntPtr bot);
        [DllImport(Lib)] public static extern uint qe_bot_decide(IntPtr bot, IntPtr game, byte seat, out QeCommand command);
        [DllImport(Lib)] public static extern uint qe_bot_free(IntPtr bot);

        static readonly UTF8Encoding StrictUtf8 = new UTF8Encoding(false, true);

        /// <summary>
        /// A NUL-terminated UTF-8 copy of a string, for string arguments. The library reads up to
        /// the first NUL, so a NUL inside the string is an ArgumentException (it would cut the
        /// string short unseen), as is text that is not valid UTF-16 (a lone surrogate).
        /// </summary>
        public static byte[] Utf8(string s, string name)
        {
            if (s == null) throw new ArgumentNullException(name);
            if (s.IndexOf('\0') >= 0) throw new ArgumentException(name + " contains a NUL character", name);
            try
            {
                int n = StrictUtf8.GetByteCount(s);
                byte[] bytes = new byte[n + 1];
                StrictUtf8.GetBytes(s, 0, s.Length, bytes, 0);
                return bytes;
            }
            catch (EncoderFallbackException e)
            {
                throw new ArgumentException(name + " is not valid text: " + e.Message, name);
            }
        }

        /// <summary>Copies a library string and frees it with qe_string_free.</summary>
        public static string Take(IntPtr s)
        {
            if (s == IntPtr.Zero) return null;
            try
            {
                int len = 0;
                while (Marshal.ReadByte(s, len) != 0) len++;
                byte[] bytes = new byte[len];
                Marshal.Copy(s, bytes, 0, len);
                return Encoding.UTF8.GetString(bytes);
            }
            finally
            {
                qe_string_free(s);
            }
        }

        private delegate uint LastErrorText(byte[] buf, UIntPtr cap, out UIntPtr len);

        /// <summary>The text one of the last-error readers copies.</summary>
        private static string LastText(LastErrorText read)
        {
            UIntPtr len;
            read(null, UIntPtr.Zero, out len);
            byte[] buf = new byte[(int)len.ToUInt64() + 1];
            read(buf, (UIntPtr)buf.Length, out len);
            return Encoding.UTF8.GetString(buf, 0, (int)len.ToUInt64());
        }

        /// <summary>This thread's last error message.</summary>
        public static string LastErrorMessage()
        {
            return LastText(qe_last_error_message);
        }

        /// <summary>The rule ID of this thread's last error ("R-AUC-3", "RECORD"), or "" for an
        /// error of the ABI.</summary>
        public static string LastErrorRule()
        {
            return LastText(qe_last_error_rule);
        }

        public static string Name(uint kind, uint index)
        {
            byte[] buf = new byte[32];
            UIntPtr len;
            Check(qe_name(kind, index, buf, (UIntPtr)buf.Length, out len));
            return Encoding.UTF8.GetString(buf, 0, (int)len.ToUInt64());
        }

        /// <summary>Throws QeException with the last error if status is not QE_OK.</summary>
        public static void Check(uint status)
        {
            if (status != QE_OK)
            {
                string rule = LastErrorRule();
                throw new QeException(status, LastErrorMessage(), rule.Length > 0 ? rule : null);
            }
        }
    }

    /// <summary>A failed call: the status code and the message (with its rule ID).</summary>
    public class QeException : Exception
    {
        public readonly uint Status;

        /// <summary>The rule ID the message names ("R-AUC-3", "RECORD"), or null for an error of
        /// the ABI (qe_last_error_rule).</summary>
        public readonly string Rule;

        public QeException(uint status, string message, string rule) : base(message)
        {
            Status = status;
            Rule = rule;
        }
    }

    /// <summary>A game of QE (owns a native QeGame*). Dispose it, or let the finalizer free it.</summary>
    public sealed class Game : IDisposable
    {
        // Every call on the handle is followed by GC.KeepAlive(this): without it the collector may
        // finalize (and free) a Game no longer referenced while the native call still runs.
        IntPtr handle;

        Game(IntPtr handle)
        {
            this.handle = handle;
        }

        public static Game Seeded(uint players, bool commodities, ulong seed)
        {
            return Seeded(players, commodities ? Native.QE_EXPANSION_COMMODITIES : 0u, seed);
        }

        /// A seeded game with a set of expansions (QE_EXPANSION_* bits ORed together).
        public static Game Seeded(uint players, uint expansions, ulong seed)
        {
            QeGameOptions options;
            Native.Check(Native.qe_game_options_init(out options));
            options.Players = players;
            options.Expansions = expansions;
            options.Seed = seed;
            return WithOptions(options);
        }

        /// <summary>
        /// A game of these options (from qe_game_options_init, then the fields to change): the way
        /// to a game whose chance the caller supplies (QE_GAME_EXTERNAL_CHANCE in Flags), played
        /// on with the Native.qe_game_chance_* calls on Handle.
        /// </summary>
        public static Game WithOptions(QeGameOptions options)
        {
            IntPtr g;
            Native.Check(Native.qe_game_new_with(ref options, out g));
            return new Game(g);
        }

        public static Game FromRecord(string json)
        {
            IntPtr g;
            UIntPtr failed;
            Native.Check(Native.qe_game_from_record(Native.Utf8(json, "json"), out failed, out g));
            return new Game(g);
        }

        public IntPtr Handle
        {
            get
            {
                if (handle == IntPtr.Zero) throw new ObjectDisposedException("Qe.Game");
                return handle;
            }
        }

        public Game Clone()
        {
            IntPtr g;
            Native.Check(Native.qe_game_clone(Handle, out g));
            GC.KeepAlive(this);
            return new Game(g);
        }

        /// <summary>Applies a command; throws QeException (game unchanged) if it is illegal.</summary>
        public void Apply(QeCommand command)
        {
            Native.Check(Native.qe_game_apply(Handle, command));
            GC.KeepAlive(this);
        }

        /// <summary>Applies a command; returns the status instead of throwing.</summary>
        public uint TryApply(QeCommand command)
        {
            uint status = Native.qe_game_apply(Handle, command);
            GC.KeepAlive(this);
            return status;
        }

        public void ApplyJson(string json)
        {
            Native.Check(Native.qe_game_apply_json(Handle, Native.Utf8(json, "json")));
            GC.KeepAlive(this);
        }

        public QeState State
        {
            get
            {
                QeState s;
                Native.Check(Native.qe_game_state(Handle, out s));
                GC.KeepAlive(this);
                return s;
            }
        }

        public QeLegal Legal(byte seat)
        {
            QeLegal l;
            Native.Check(Native.qe_game_legal(Handle, seat, out l));
            GC.KeepAlive(this);
            return l;
        }

        public QeSeatInfo SeatInfo(byte viewer, byte seat)
        {
            QeSeatInfo s;
            Native.Check(Native.qe_game_seat_info(Handle, viewer, seat, out s));
            GC.KeepAlive(this);
            return s;
        }

        /// <summary>What the viewer can prove about the total spent of a seat (lower/upper bounds).</summary>
        public QeSpendBounds SpendBounds(byte viewer, byte seat)
        {
            QeSpendBounds b;
            Native.Check(Native.qe_game_spend_bounds(Handle, viewer, seat, out b));
            GC.KeepAlive(this);
            return b;
        }

        /// <summary>The viewer's new events (marked read). Viewer: a seat or QE_SPECTATOR.</summary>
        public QeEvent[] Events(byte viewer)
        {
            UIntPtr pending;
            Native.Check(Native.qe_game_events_pending(Handle, viewer, out pending));
            GC.KeepAlive(this);
            QeEvent[] events = new QeEvent[(int)pending.ToUInt64()];
            UIntPtr n;
            Native.Check(Native.qe_game_events(Handle, viewer, events, (UIntPtr)events.Length, out n));
            GC.KeepAlive(this);
            return events;
        }

        public string EventsJson(byte viewer)
        {
            IntPtr s;
            Native.Check(Native.qe_game_events_json(Handle, viewer, out s));
            GC.KeepAlive(this);
            return Native.Take(s);
        }

        public string ViewJson(byte viewer)
        {
            IntPtr s;
            Native.Check(Native.qe_game_view_json(Handle, viewer, out s));
            GC.KeepAlive(this);
            return Native.Take(s);
        }

        public QeSeatOutcome Outcome(byte seat)
        {
            QeSeatOutcome o;
            Native.Check(Native.qe_game_outcome(Handle, seat, out o));
            GC.KeepAlive(this);
            return o;
        }

        public string OutcomeJson()
        {
            IntPtr s;
            Native.Check(Native.qe_game_outcome_json(Handle, out s));
            GC.KeepAlive(this);
            return Native.Take(s);
        }

        public string RecordJson()
        {
            IntPtr s;
            Native.Check(Native.qe_game_record_json(Handle, out s));
            GC.KeepAlive(this);
            return Native.Take(s);
        }

        public void Dispose()
        {
            Free();
            GC.SuppressFinalize(this);
        }

        ~Game()
        {
            Free();
        }

        void Free()
        {
            if (handle != IntPtr.Zero)
            {
                Native.qe_game_free(handle);
                handle = IntPtr.Zero;
            }
        }
    }

    /// <summary>
    /// A bot from the library (owns a native QeBot*): "random", "miser", "value", or "search" at
    /// a level (QE_BOT_LEVEL_EASY, _MEDIUM, _HARD; "search" alone is medium). It decides from what
    /// its seat may see only, and is deterministic for its seed. One bot plays one seat of one
    /// game. Dispose it, or let the finalizer free it.
    /// </summary>
    public sealed class Bot : IDisposable
    {
        IntPtr handle;

        public Bot(string kind, uint level, ulong seed)
        {
            Native.Check(Native.qe_bot_new(Native.Utf8(kind, "kind"), level, seed, out handle));
        }

        public IntPtr Handle
        {
            get
            {
                if (handle == IntPtr.Zero) throw new ObjectDisposedException("Qe.Bot");
                return handle;
            }
        }

        /// <summary>
        /// The command of the seat now (apply it with Game.Apply); throws QeException
        /// (QE_ERR_NOT_TO_ACT) if the seat has nothing to do. A peek leaves the seat to act:
        /// apply it and ask again.
        /// </summary>
        public QeCommand Decide(Game game, byte seat)
        {
            if (game == null) throw new ArgumentNullException("game");
            QeCommand c;
            Native.Check(Native.qe_bot_decide(Handle, game.Handle, seat, out c));
            GC.KeepAlive(game);
            GC.KeepAlive(this);
            return c;
        }

        public void Dispose()
        {
            Free();
            GC.SuppressFinalize(this);
        }

        ~Bot()
        {
            Free();
        }

        void Free()
        {
            if (handle != IntPtr.Zero)
            {
                Native.qe_bot_free(handle);
                handle = IntPtr.Zero;
            }
        }
    }
}
