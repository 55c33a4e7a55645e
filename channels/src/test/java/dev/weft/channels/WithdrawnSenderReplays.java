package dev.weft.channels;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The replays of {@link ExpansionPassesWithdrawnSenderTest}, also runnable in a child JVM
 * (the segment size is fixed per JVM; with {@code -Dweft.segmentSize=1} the withdrawn sender's
 * segment is removed before the expansion that passes it looks at it). Each replay returns
 * {@code null} when the channel behaved, or what went wrong; a step that did not happen as the
 * replay needs throws {@link IllegalStateException}. The main method prints one line per replay.
 */
public final class WithdrawnSenderReplays {
    private WithdrawnSenderReplays() {}

    private static final long JOIN_MILLIS = TimeUnit.SECONDS.toMillis(60);

    /**
     * Capacity 1: a receive expands the buffer past an empty cell and is held before it marks the
     * cell; a send claims the cell and is hit by an injected Error, so it withdraws from the
     * EMPTY cell; the receive goes on. The open channel, now empty, must take a try-send.
     */
    static String sendHitByAnError() throws Exception {
        Channel<Integer> ch = Channel.newBufferedChannel(1);
        check(ch.trySend(0), "the first try-send failed");
        Object[] outcome = new Object[2];
        Thread receiver = Thread.ofPlatform().unstarted(() -> outcome[0] = Forked.outcome(ch::receive));
        Thread sender = Thread.ofPlatform().unstarted(() -> outcome[1] = Forked.outcome(() -> {
            ch.send(1);
            return "sent";
        }));
        Holds holds = new Holds();
        Gate passing = holds.at(receiver, Faults.EXPAND_PASSING);
        holds.failAt(sender, Faults.SEND_CLAIMED);
        receiver.start();
        check(passing.awaitHeld(), "the receive did not expand the buffer past an empty cell");
        sender.start();
        sender.join(JOIN_MILLIS);
        check(outcome[1] instanceof StackOverflowError, "the send was not hit by the injected error: " + outcome[1]);
        passing.releaseAndAwaitLeft();
        receiver.join(JOIN_MILLIS);
        check(Integer.valueOf(0).equals(outcome[0]), "the receive got " + outcome[0]);
        if (!ch.trySend(5)) {
            return "a try-send into the empty buffer of an open channel failed\n" + ch.dumpCells();
        }
        return ch.receive() == 5 ? null : "wrong value";
    }

    /**
     * Capacity 1: a try-send sees room and is held; another sender takes the room; a receive
     * takes that value and is held while it passes the next cell; the try-send claims that cell
     * (late), a timed sender claims the one after and waits, the channel is closed, the late
     * try-send withdraws, and the receive goes on. The waiting sender claimed before the close and
     * must be moved into the buffer.
     */
    static String lateTrySendAfterTheClose() throws Exception {
        Channel<Integer> ch = Channel.newBufferedChannel(1);
        Object[] outcome = new Object[3];
        Thread trySender = Thread.ofPlatform().unstarted(() -> outcome[0] = Forked.outcome(() -> ch.trySend(1)));
        Thread receiver = Thread.ofPlatform().unstarted(() -> outcome[1] = Forked.outcome(ch::receive));
        Thread waiting = Thread.ofPlatform().unstarted(
                () -> outcome[2] = Forked.outcome(() -> ch.trySend(2, Duration.ofSeconds(20))));
        Holds holds = new Holds();
        Gate checked = holds.at(trySender, Faults.TRY_SEND_CHECKED);
        Gate claimed = holds.at(trySender, Faults.SEND_CLAIMED);
        Gate passing = holds.at(receiver, Faults.EXPAND_PASSING);

        trySender.start();
        check(checked.awaitHeld(), "the try-send did not see room");
        check(ch.trySend(0), "another sender did not take the room first");
        receiver.start();
        check(passing.awaitHeld(), "the receive did not expand the buffer past an empty cell");
        checked.releaseAndAwaitLeft();
        check(claimed.awaitHeld(), "the try-send did not claim the passing cell");
        waiting.start();
        check(Forked.awaitBlockedOrDone(waiting), "the timed sender did not wait: " + outcome[2]);
        check(ch.doneOrClosed() == null, "done() did not close the channel");

        claimed.releaseAndAwaitLeft();
        trySender.join(JOIN_MILLIS);
        check(outcome[0] instanceof ChannelDoneException, "the late try-send returned " + outcome[0]);
        passing.releaseAndAwaitLeft();
        receiver.join(JOIN_MILLIS);
        check(Integer.valueOf(0).equals(outcome[1]), "the receive got " + outcome[1]);
        waiting.join(JOIN_MILLIS);
        if (!Boolean.TRUE.equals(outcome[2])) {
            return "the sender that claimed before the close was not let into the buffer: " + outcome[2]
                    + "\n" + ch.dumpCells();
        }
        Object next = ch.receiveOrClosed();
        Object last = ch.receiveOrClosed();
        return Integer.valueOf(2).equals(next) && last instanceof ChannelDone ? null : "then received " + next + ", " + last;
    }

    /**
     * Capacity 1, one value buffered, a sender waiting for room in the next cell. A receive
     * claims the buffered cell and is held; a second receive claims the waiting sender's cell and
     * is held before it looks at it. The first receive goes on: its expansion finds the waiting
     * sender with that cell's receiver on its way, so it counts the cell as buffer space and
     * leaves the sender to the receiver ({@link Cells.WaiterEB}). Then the waiting sender is
     * interrupted and withdraws, so the counted cell will never hold a value; then the second
     * receive goes on, finds the withdrawn cell, and waits in the next one. A try-send must meet
     * it, and afterwards the empty channel must take exactly one value again.
     */
    static String countedSenderWithdraws() throws Exception {
        Channel<Integer> ch = Channel.newBufferedChannel(1);
        check(ch.trySend(0), "the first try-send failed");
        Object[] outcome = new Object[3];
        Thread sender = Thread.ofPlatform().unstarted(() -> outcome[0] = Forked.outcome(() -> {
            ch.send(1);
            return "sent";
        }));
        Thread first = Thread.ofPlatform().unstarted(() -> outcome[1] = Forked.outcome(ch::receive));
        Thread second = Thread.ofPlatform().unstarted(() -> outcome[2] = Forked.outcome(ch::receive));
        Holds holds = new Holds();
        Gate firstClaimed = holds.at(first, Faults.RECEIVE_CLAIMED);
        Gate secondClaimed = holds.at(second, Faults.RECEIVE_CLAIMED);

        sender.start();
        check(Forked.awaitBlockedOrDone(sender), "the sender did not wait for room: " + outcome[0]);
        check(outcome[0] == null, "the sender did not wait for room: " + outcome[0]);
        first.start();
        check(firstClaimed.awaitHeld(), "the first receive did not claim a cell");
        second.start();
        check(secondClaimed.awaitHeld(), "the second receive did not claim a cell");
        firstClaimed.releaseAndAwaitLeft();
        first.join(JOIN_MILLIS);
        check(Integer.valueOf(0).equals(outcome[1]), "the first receive got " + outcome[1]);
        check(outcome[0] == null, "the waiting sender was moved into the buffer: " + outcome[0]);

        sender.interrupt();
        sender.join(JOIN_MILLIS);
        check(outcome[0] instanceof InterruptedException, "the sender did not withdraw: " + outcome[0]);
        secondClaimed.releaseAndAwaitLeft();
        check(Forked.awaitBlockedOrDone(second), "the second receive did not wait: " + outcome[2]);
        check(ch.trySend(5), "a try-send did not meet the waiting receive");
        second.join(JOIN_MILLIS);
        check(Integer.valueOf(5).equals(outcome[2]), "the second receive got " + outcome[2]);

        // at rest every counted receive has moved the buffer end: it is at least the receiver
        // count plus the capacity. Read directly: since stop 38 a try-send also counts the
        // receivers' room, so the try-send below would succeed with the buffer end one short
        if (ch.lvBufferEnd() < ch.lvReceiverCount() + 1) {
            return "the buffer end is short: the withdrawn cell was not counted again\n" + ch.dumpCells();
        }
        if (!ch.trySend(6)) {
            return "the empty buffer of capacity 1 took no value\n" + ch.dumpCells();
        }
        if (ch.trySend(7)) {
            return "the full buffer of capacity 1 took a second value\n" + ch.dumpCells();
        }
        Object next = ch.tryReceive();
        return Integer.valueOf(6).equals(next) ? null : "then received " + next;
    }

    /** A step of a replay that did not happen as the replay needs. */
    static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException(what);
        }
    }

    /** A replay main's first line: false (and a hint) unless faults are on; else the segment size. */
    static boolean start() {
        if (!Faults.ENABLED) {
            System.out.println("run with -Dweft.faults=true");
            return false;
        }
        System.out.println("segmentSize=" + Channel.segmentSize());
        return true;
    }

    /** Runs the replays; prints {@code <name> ok} or {@code <name> FAILED: <reason>} for each. */
    public static void main(String[] args) throws Exception {
        if (!start()) {
            return;
        }
        report("sendHitByAnError", sendHitByAnError());
        Faults.probe = null;
        report("lateTrySendAfterTheClose", lateTrySendAfterTheClose());
        Faults.probe = null;
        report("countedSenderWithdraws", countedSenderWithdraws());
        Faults.probe = null;
    }

    private static void report(String name, String failure) {
        System.out.println(name + (failure == null ? " ok" : " FAILED: " + failure));
    }
}
