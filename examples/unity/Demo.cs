// Demo.cs: a console demo of Qe.cs: a game with the library's search and value bots at seats 1 and
// 2. Build: mcs -out:demo.exe Qe.cs Demo.cs; run: mono demo.exe [seed] [players] [commodities 0/1]
// (with libqe_ffi on the library path).
using System;
using System.Runtime.InteropServices;
using Qe;

static class Demo
{
    static int Fail(string why)
    {
        Console.Error.WriteLine("FAIL: " + why);
        return 1;
    }

    static int Main(string[] args)
    {
        ulong seed = args.Length > 0 ? ulong.Parse(args[0]) : 11;
        byte players = args.Length > 1 ? byte.Parse(args[1]) : (byte)4;
        bool commodities = args.Length > 2 && args[2] == "1";

        // The struct layouts must match qe.h (also checked in Rust and C).
        if (Marshal.SizeOf(typeof(QeCommand)) != 16 || Marshal.SizeOf(typeof(QeState)) != 20
            || Marshal.SizeOf(typeof(QeBidRange)) != 32 || Marshal.SizeOf(typeof(QeLegal)) != 40
            || Marshal.SizeOf(typeof(QeSeatInfo)) != 48 || Marshal.SizeOf(typeof(QeAuction)) != 48
            || Marshal.SizeOf(typeof(QeEvent)) != 32 || Marshal.SizeOf(typeof(QeSeatOutcome)) != 72
            || Marshal.SizeOf(typeof(QeGameOptions)) != 56)
            return Fail("struct layout differs from qe.h");
        uint abi;
        Native.Check(Native.qe_abi_version(out abi));
        if (abi != Native.QE_ABI_VERSION) return Fail("ABI version " + abi);

        using (Game game = Game.Seeded(players, commodities, seed))
        {
            Console.WriteLine("QE (C#): {0} players{1}, seed {2}", players,
                commodities ? " with Commodities" : "", seed);

            // An illegal command throws, names its rule, and changes nothing.
            string before = game.RecordJson();
            try
            {
                game.Apply(QeCommand.Bid(2, 4));
                return Fail("illegal command accepted");
            }
            catch (QeException e)
            {
                Console.WriteLine("illegal command -> {0} ({1}): {2}", e.Status, e.Rule, e.Message);
                if (e.Status != Native.QE_ERR_NOT_AUCTIONEER || e.Rule != "R-AUC-2") return Fail("wrong error");
            }
            if (game.RecordJson() != before) return Fail("game changed");

            // Seat 1 is the library's search bot (easy: a few milliseconds a decision), seat 2 its
            // value bot; the others follow the random policy below.
            using (Bot search = new Bot("search", Native.QE_BOT_LEVEL_EASY, seed + 1))
            using (Bot value = new Bot("value", Native.QE_BOT_LEVEL_DEFAULT, seed + 2))
            {
                try
                {
                    search.Decide(game, 1); // seat 0 opens first: seat 1 has nothing to do yet
                    return Fail("a bot decided for a seat that does not act");
                }
                catch (QeException e)
                {
                    if (e.Status != Native.QE_ERR_NOT_TO_ACT) return Fail("wrong error " + e.Status);
                }
                var rng = new Random((int)seed);
                int commands = 0, events = 0;
                for (QeState s = game.State; s.GameOver == 0; s = game.State)
                {
                    events += game.Events(0).Length; // seat 0's new events, as it may see them
                    for (byte seat = 0; seat < s.Players; seat++)
                    {
                        if ((s.ToAct & (1 << seat)) == 0) continue;
                        if (seat == 1 || seat == 2)
                        {
                            game.Apply((seat == 1 ? search : value).Decide(game, seat));
                            commands++;
                            break;
                        }
                        QeLegal l = game.Legal(seat);
                        if (l.Bid.CanBid == 1)
                        {
                            ulong amount = l.Bid.Min + (ulong)rng.Next(0, 5 + s.Turn);
                            if (l.Bid.HasForbidden == 1 && amount == l.Bid.Forbidden) amount++;
                            if (commands % 4 == 0)
                                game.ApplyJson("{\"seat\":" + seat + ",\"bid\":" + amount + "}");
                            else
                                game.Apply(QeCommand.Bid(seat, amount));
                        }
                        else
                        {
                            byte mask = l.Take != 0 ? l.Take : l.Discard;
                            byte pile = (mask & 1) != 0 ? Native.QE_PILE_GOLD : (mask & 2) != 0 ? Native.QE_PILE_OIL : Native.QE_PILE_CRYPTO;
                            game.Apply(l.Take != 0 ? QeCommand.TakeAsset(seat, pile) : QeCommand.DiscardAsset(seat, pile));
                        }
                        commands++;
                        break;
                    }
                }
                events += game.Events(0).Length;
                Console.WriteLine("{0} commands, {1} events seen by seat 0 (seat 1: search bot, seat 2: value bot)", commands, events);
            }

            for (byte seat = 0; seat < players; seat++)
            {
                QeSeatOutcome o = game.Outcome(seat);
                Console.WriteLine("seat {0} {1}/{2}: spent {3}, total {4}{5}{6}", seat,
                    Native.Name(Native.QE_NAME_NATION, o.Nation), Native.Name(Native.QE_NAME_INDUSTRY, o.Industry),
                    o.SpentI64, o.Total, o.Winner == 1 ? "  WINNER" : "", o.Eliminated == 1 ? "  eliminated" : "");
            }
            string outcome = game.OutcomeJson();
            using (Game replay = Game.FromRecord(game.RecordJson()))
            {
                if (replay.OutcomeJson() != outcome) return Fail("replay differs");
            }
            Console.WriteLine("outcome JSON: " + outcome.Substring(0, Math.Min(60, outcome.Length)) + "...");
        }

        // A bad record: the error carries the status and "RECORD".
        try
        {
            Game.FromRecord("{\"format\":\"nope\"}");
            return Fail("bad record accepted");
        }
        catch (QeException e)
        {
            Console.WriteLine("bad record -> {0} ({1})", e.Status, e.Rule);
            if (e.Status != Native.QE_ERR_RECORD) return Fail("wrong error");
        }
        Console.WriteLine("ok");
        return 0;
    }
}
