package dev.weft.channels;

import java.util.concurrent.TimeUnit;

/**
 * The replays of {@link SegmentBirthTest} that need segments of one cell, run in a child JVM with
 * {@code -Dweft.segmentSize=1 -Dweft.births.aboveSegments=1} (both are fixed per JVM). Each
 * returns {@code null} when the channel behaved, or what went wrong; a step that did not happen
 * as the replay needs throws {@link IllegalStateException}. The main method prints one line per
 * replay.
 */
public final class BirthReplays {
    private BirthReplays() {}

    private static final long JOIN_MILLIS = TimeUnit.SECONDS.toMillis(60);

    /**
     * Capacity 2 (a channel with births), full. A receive takes cell 0 and its expansion, having
     * moved the buffer end to cell 2, is held before it looks for the cell's segment, which does
     * not exist yet. A send claims cell 2: it creates segment 2, whose birth owns cell 2 (the
     * buffer end, read after the link, is 3), and is hit by an injected Error, so it withdraws
     * from the owned cell and makes its slot up itself. The next send moves the send pointer on,
     * so segment 2, every cell withdrawn, is removed. The held expansion then finds its segment
     * removed: only the journal tells it that the birth owned its cell. Counting another slot
     * would let the full buffer take a third value.
     */
    static String expansionFindsItsOwnedSegmentRemoved() throws Exception {
        WithdrawnSenderReplays.check(Channel.segmentSize() == 1, "needs segments of one cell");
        Channel<Integer> ch = Channel.newBufferedChannel(2);
        WithdrawnSenderReplays.check(ch.births(), "needs births at capacity 2 (-Dweft.births.aboveSegments=1)");
        WithdrawnSenderReplays.check(ch.trySend(0) && ch.trySend(1), "the first two try-sends failed");
        Object[] outcome = new Object[2];
        Thread receiver = Thread.ofPlatform().unstarted(() -> outcome[0] = Forked.outcome(ch::receive));
        Thread sender = Thread.ofPlatform().unstarted(() -> outcome[1] = Forked.outcome(() -> {
            ch.send(2);
            return "sent";
        }));
        Holds holds = new Holds();
        Gate passing = holds.at(receiver, Faults.EXPAND_PASSING);
        holds.failAt(sender, Faults.SEND_CLAIMED);
        receiver.start();
        WithdrawnSenderReplays.check(passing.awaitHeld(), "the receive did not expand the buffer past an empty cell");
        WithdrawnSenderReplays.check(ch.lvBufferEnd() == 3, "the buffer end is not past cell 2: " + ch.lvBufferEnd());
        sender.start();
        sender.join(JOIN_MILLIS);
        WithdrawnSenderReplays.check(outcome[1] instanceof StackOverflowError, "the send was not hit by the injected error: " + outcome[1]);
        WithdrawnSenderReplays.check(ch.trySend(3), "a send into the slot the withdrawn sender made up failed\n" + ch.dumpCells());
        WithdrawnSenderReplays.check(ch.reachableSegments() <= 3 && !ch.dumpCells().contains("Segment#2"),
                "segment 2 was not removed\n" + ch.dumpCells());
        passing.releaseAndAwaitLeft();
        receiver.join(JOIN_MILLIS);
        WithdrawnSenderReplays.check(Integer.valueOf(0).equals(outcome[0]), "the receive got " + outcome[0]);
        if (ch.trySend(4)) {
            return "the full buffer of capacity 2 took a third value\n" + ch.dumpCells();
        }
        Object a = ch.tryReceive();
        Object b = ch.tryReceive();
        Object c = ch.tryReceive();
        if (!Integer.valueOf(1).equals(a) || !Integer.valueOf(3).equals(b) || c != null) {
            return "then received " + a + ", " + b + ", " + c;
        }
        boolean two = ch.trySend(5) && ch.trySend(6);
        return two && !ch.trySend(7) ? null : "the empty buffer of capacity 2 did not take exactly two values\n" + ch.dumpCells();
    }

    /** Runs the replays; prints {@code <name> ok} or {@code <name> FAILED: <reason>} for each. */
    public static void main(String[] args) throws Exception {
        if (!WithdrawnSenderReplays.start()) {
            return;
        }
        String failure;
        try {
            failure = expansionFindsItsOwnedSegmentRemoved();
        } catch (IllegalStateException e) {
            failure = "precondition: " + e.getMessage();
        }
        System.out.println("expansionFindsItsOwnedSegmentRemoved" + (failure == null ? " ok" : " FAILED: " + failure));
        Faults.probe = null;
    }
}
