// Checks of the C# binding Qe.cs beyond the demo (the test command builds it with mcs and runs it
// with mono): a string the library would read cut short, or cannot read, is refused before the
// call; a missing argument is an ArgumentNullException; a QeException carries the rule ID the
// library reports; names, the bool Seeded, per-viewer events and disposal behave as documented;
// WithOptions makes a game whose chance the caller supplies. Usage: mono
// checks.exe (with libqe_ffi on the library path).
using System;
using Qe;

static class Checks
{
    static int failures = 0;

    static void Expect<E>(Action call, string what) where E : Exception
    {
        try
        {
            call();
        }
        catch (E)
        {
            return;
        }
        catch (Exception e)
        {
            Console.Error.WriteLine("FAILED: {0}: {1}", what, e.GetType().Name);
            failures++;
            return;
        }
        Console.Error.WriteLine("FAILED: {0}: no exception", what);
        failures++;
    }

    static void ExpectRule(Action call, uint status, string rule, string what)
    {
        try
        {
            call();
        }
        catch (QeException e)
        {
            if (e.Status != status || e.Rule != rule)
            {
                Console.Error.WriteLine("FAILED: {0}: {1} {2} ({3})", what, e.Status, e.Rule ?? "null", e.Message);
                failures++;
            }
            return;
        }
        Console.Error.WriteLine("FAILED: {0}: no QeException", what);
        failures++;
    }

    static void Check(bool ok, string what)
    {
        if (!ok)
        {
            Console.Error.WriteLine("FAILED: {0}", what);
            failures++;
        }
    }

    static int Main()
    {
        // Names are the name's bytes only; the bool overload of Seeded is Commodities when true.
        Check(Native.Name(Native.QE_NAME_NATION, 0) == "US", "nation 0 is \"US\"");
        using (Game with = Game.Seeded(4, true, 1))
        using (Game without = Game.Seeded(4, false, 1))
        using (Game flags = Game.Seeded(4, Native.QE_EXPANSION_COMMODITIES, 1))
        {
            Check(with.State.Commodities == 1 && without.State.Commodities == 0, "Seeded(4, true/false)");
            Check(with.RecordJson() == flags.RecordJson(), "Seeded(4, true) is Seeded(4, COMMODITIES)");
        }
        // Events: each viewer's own, each read once; seat 0 sees its industry token, the
        // spectator does not.
        using (Game game = Game.Seeded(4, false, 3))
        {
            QeEvent[] mine = game.Events(0);
            QeEvent[] again = game.Events(0);
            QeEvent[] spectator = game.Events(Native.QE_SPECTATOR);
            Check(Array.Exists(mine, e => e.Kind == Native.QE_EVENT_DEALT && e.Seat == 0 && e.Industry != Native.QE_NONE),
                "seat 0 sees its own industry token");
            Check(again.Length == 0, "events are read once");
            Check(spectator.Length == mine.Length && Array.TrueForAll(spectator, e => e.Kind != Native.QE_EVENT_DEALT || e.Industry == Native.QE_NONE),
                "the spectator has its own events, without the tokens");
        }
        // A disposed Game or Bot is ObjectDisposedException, and disposing twice is harmless.
        Game disposed = Game.Seeded(4, false, 1);
        disposed.Dispose();
        disposed.Dispose();
        Expect<ObjectDisposedException>(() => { QeState s = disposed.State; }, "a disposed Game");
        Bot gone = new Bot("value", 0, 1);
        gone.Dispose();
        gone.Dispose();
        using (Game game = Game.Seeded(4, false, 1))
            Expect<ObjectDisposedException>(() => gone.Decide(game, 0), "a disposed Bot");

        using (Game game = Game.Seeded(4, false, 1))
        {
            string before = game.RecordJson();
            Expect<ArgumentException>(() => game.ApplyJson("{\"seat\":0,\"bid\":5}\0JUNK"), "a command with a NUL");
            Expect<ArgumentException>(() => game.ApplyJson("\ud800"), "a lone surrogate");
            Expect<ArgumentNullException>(() => game.ApplyJson(null), "a null command");
            Expect<ArgumentException>(() => new Bot("search\0zzz", Native.QE_BOT_LEVEL_EASY, 1), "a bot kind with a NUL");
            Expect<ArgumentException>(() => Game.FromRecord("{\0}"), "a record with a NUL");
            using (Bot bot = new Bot("value", 0, 1))
                Expect<ArgumentNullException>(() => bot.Decide(null, 0), "Decide without a game");
            ExpectRule(() => game.ApplyJson("{\"seat\":1,\"bid\":3}"), Native.QE_ERR_NOT_AUCTIONEER, "R-AUC-2", "seat 1 opens");
            ExpectRule(() => game.ApplyJson("{"), Native.QE_ERR_INVALID_JSON, null, "a command that is not JSON");
            ExpectRule(() => Game.FromRecord("{\"format\":\"qe-record/2\"}"), Native.QE_ERR_RECORD, "RECORD", "a record without its fields");
            if (game.RecordJson() != before)
            {
                Console.Error.WriteLine("FAILED: the game changed");
                failures++;
            }
        }
        QeGameOptions options;
        Native.Check(Native.qe_game_options_init(out options));
        options.Players = 5;
        options.Flags = Native.QE_GAME_EXTERNAL_CHANCE;
        using (Game dealt = Game.WithOptions(options))
        {
            if (dealt.State.Phase != Native.QE_PHASE_CHANCE)
            {
                Console.Error.WriteLine("FAILED: an external-chance game waits for chance");
                failures++;
            }
            Native.Check(Native.qe_game_apply_chance(dealt.Handle, UIntPtr.Zero));
        }
        // Every string the library hands out is freed once read: 100,000 record copies of a finished
        // game (about 1.5 KB each, 150 MB if kept) leave the process about as large as it was.
        using (Game played = Game.Seeded(4, false, 3))
        {
            Bot bot = new Bot("value", 0, 0);
            while (played.State.GameOver == 0)
            {
                byte toAct = played.State.ToAct;
                byte seat = 0;
                while ((toAct & (1 << seat)) == 0) seat++;
                played.Apply(bot.Decide(played, seat));
            }
            int length = played.RecordJson().Length;
            GC.Collect();
            GC.WaitForPendingFinalizers();
            long before = System.Diagnostics.Process.GetCurrentProcess().WorkingSet64;
            for (int i = 0; i < 100000; i++)
                if (played.RecordJson().Length != length) Check(false, "the same record each time");
            GC.Collect();
            GC.WaitForPendingFinalizers();
            System.Diagnostics.Process self = System.Diagnostics.Process.GetCurrentProcess();
            self.Refresh();
            long grown = self.WorkingSet64 - before;
            Check(grown < 32L << 20, string.Format("100,000 records of {0} bytes grew the process by {1} MB, not under 32 MB", length, grown >> 20));
            bot.Dispose();
        }
        {
            // Strings go to the library NUL-terminated.
            byte[] kind = Native.Utf8("value", "kind");
            Check(kind.Length == 6 && kind[5] == 0, "Utf8 appends the NUL");
            // The command builders fill the kind and the field of each command, and nothing else.
            QeCommand b = QeCommand.Bid(1, 7), t = QeCommand.TakeAsset(2, Native.QE_PILE_OIL),
                d = QeCommand.DiscardAsset(3, Native.QE_PILE_CRYPTO), p = QeCommand.Peek(4, 9);
            Check(b.Kind == Native.QE_COMMAND_BID && b.Seat == 1 && b.Amount == 7 && b.Pile == 0 && b.Turn == 0, "Bid");
            Check(t.Kind == Native.QE_COMMAND_TAKE_ASSET && t.Seat == 2 && t.Pile == Native.QE_PILE_OIL && t.Turn == 0, "TakeAsset");
            Check(d.Kind == Native.QE_COMMAND_DISCARD_ASSET && d.Seat == 3 && d.Pile == Native.QE_PILE_CRYPTO && d.Turn == 0, "DiscardAsset");
            Check(p.Kind == Native.QE_COMMAND_PEEK && p.Seat == 4 && p.Turn == 9 && p.Pile == 0, "Peek");
            // Every name fits, the longest included.
            Check(Native.Name(Native.QE_NAME_PHASE, Native.QE_PHASE_ASSET_REBID) == "asset_rebid", "phase name asset_rebid");
            Check(Native.Name(Native.QE_NAME_EXPANSION, 0) == "commodities", "expansion name commodities");
            using (Game game = Game.Seeded(4, false, 5))
            {
                // TryApply returns the library's status; SpendBounds and SeatInfo are about `seat`.
                Check(game.TryApply(QeCommand.Bid(1, 3)) == Native.QE_ERR_NOT_AUCTIONEER, "TryApply returns the status");
                Check(game.SpendBounds(0, 2).Seat == 2 && game.SpendBounds(3, 1).Seat == 1, "SpendBounds argument order");
                Check(game.SeatInfo(0, 2).Seat == 2, "SeatInfo argument order");
                // Clone is an independent game with its own handle.
                using (Game copy = game.Clone())
                {
                    Check(copy.Handle != game.Handle, "Clone has its own handle");
                    copy.Apply(QeCommand.Bid(0, 5));
                    Check(copy.State.Phase != game.State.Phase, "a command on the clone leaves the original");
                }
                Check(game.State.Phase == Native.QE_PHASE_OPENING_BID, "the original survives the clone's disposal");
            }
            // Dispose frees the native game: 40,000 games made and disposed leave the process about
            // as large as it was (about 1 KB each if leaked).
            GC.Collect(); GC.WaitForPendingFinalizers();
            System.Diagnostics.Process self = System.Diagnostics.Process.GetCurrentProcess();
            long disposedBefore = self.WorkingSet64;
            for (int i = 0; i < 40000; i++)
                using (Game g = Game.Seeded(4, false, (ulong)i)) { }
            GC.Collect(); GC.WaitForPendingFinalizers();
            self.Refresh();
            long grown = self.WorkingSet64 - disposedBefore;
            Check(grown < 16L << 20, string.Format("40,000 disposed games grew the process by {0} MB", grown >> 20));
        }
        Console.WriteLine("C# checks: {0}", failures == 0 ? "all passed" : "FAILED");
        return failures == 0 ? 0 : 1;
    }
}
