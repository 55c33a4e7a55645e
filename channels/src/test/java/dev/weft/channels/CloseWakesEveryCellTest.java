package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A close wakes a waiter in every cell, the last cell of each segment included: waiters fill two
 * segments and one more cell of a rendezvous channel, all park, then {@code done()} (receivers) or
 * {@code error()} (receivers and senders), and each must return the close at once. Found missing
 * by stop 34's mutation survey (helper 29): a close sweep that skipped each segment's last cell
 * was caught only by two stress tests that then hung, by chance. Runs with the default segments
 * and with the suite's tiny ones.
 */
@Timeout(60)
class CloseWakesEveryCellTest {
    enum Close {
        DONE_WAKES_RECEIVERS,
        ERROR_WAKES_RECEIVERS,
        ERROR_WAKES_SENDERS
    }

    @ParameterizedTest
    @EnumSource(Close.class)
    void aCloseWakesTheWaiterOfEveryCell(Close close) throws Exception {
        for (ThreadKind kind : ThreadKind.values()) {
            Channel<Integer> ch = Channel.newRendezvousChannel();
            int n = 2 * Segment.SIZE + 1;
            boolean senders = close == Close.ERROR_WAKES_SENDERS;
            Object[] results = new Object[n];
            Thread[] ts = new Thread[n];
            for (int j = 0; j < n; j++) {
                int me = j;
                ts[j] = kind.builder().start(() -> {
                    try {
                        results[me] = senders ? ch.sendOrClosed(me) : ch.receiveOrClosed();
                    } catch (InterruptedException e) {
                        results[me] = e;
                    }
                });
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            for (Thread t : ts) {
                while (t.getState() != Thread.State.WAITING) {
                    assertTrue(t.isAlive(), kind + ": " + t + " finished before the close");
                    assertTrue(System.nanoTime() - deadline < 0, kind + ": " + t + " never parked");
                    Thread.sleep(1);
                }
            }
            if (close == Close.DONE_WAKES_RECEIVERS) {
                ch.done();
            } else {
                ch.error(new IllegalStateException("closed with waiters in every cell"));
            }
            for (int j = 0; j < n; j++) {
                ts[j].join(TimeUnit.SECONDS.toMillis(10));
                if (ts[j].isAlive()) {
                    fail(kind + ": the waiter of one of " + n + " cells (segments of " + Segment.SIZE
                            + ") was not woken by " + close + "\n" + ch.dumpCells());
                }
                Object r = results[j];
                assertTrue(close == Close.DONE_WAKES_RECEIVERS ? r instanceof ChannelDone : r instanceof ChannelError,
                        kind + ": waiter " + j + " returned " + r);
            }
            assertTrue(ch.trySendOrClosed(1) instanceof ChannelClosed, kind + ": closed");
        }
    }
}
