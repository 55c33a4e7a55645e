package dev.weft.channels;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The two replays of {@link ExpansionPassesWithdrawnSenderTest}, also runnable in a child JVM
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

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException(what);
        }
    }

    /** Runs both replays; prints {@code <name> ok} or {@code <name> FAILED: <reason>} for each. */
    public static void main(String[] args) throws Exception {
        if (!Faults.ENABLED) {
            System.out.println("run with -Dweft.faults=true");
            return;
        }
        System.out.println("segmentSize=" + Channel.segmentSize());
        report("sendHitByAnError", sendHitByAnError());
        Faults.probe = null;
        report("lateTrySendAfterTheClose", lateTrySendAfterTheClose());
        Faults.probe = null;
    }

    private static void report(String name, String failure) {
        System.out.println(name + (failure == null ? " ok" : " FAILED: " + failure));
    }
}
