// Checks of the C# binding Qe.cs beyond the demo (the test command builds it with mcs and runs it
// with mono): a string the library would read cut short, or cannot read, is refused before the
// call; a missing argument is an ArgumentNullException; a QeException carries the rule ID the
// library reports; WithOptions makes a game whose chance the caller supplies. Usage: mono
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

    static int Main()
    {
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
        Console.WriteLine("C# checks: {0}", failures == 0 ? "all passed" : "FAILED");
        return failures == 0 ? 0 : 1;
    }
}
