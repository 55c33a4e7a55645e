package dev.weft.stress.regression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.channels.Channel;
import dev.weft.channels.ChannelClosed;
import dev.weft.channels.ChannelDone;
import dev.weft.channels.ChannelError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Regression, issue 8 Bug 2: {@code error()} was not atomic for receivers. After {@code error(e)}
 * had been observed ({@code isClosedForReceive()} true, then a {@code ChannelError} from the
 * failed-cell shortcut that answers from the error bits), a later receive still returned a
 * buffered value: the close sweep had not discarded the buffer yet, and it read the receiver count
 * late, so receivers that came after the error bits kept their values. On a0d3073 this failed in
 * most rounds.
 *
 * <p>Setup (the issue's): a buffered channel of capacity {@value #M} is filled; one timed {@code
 * trySend(v, 1 ms)} times out, so a withdrawn send sits in the next cell; the m values are
 * received and m more sent, so the withdrawn cell sits at the receivers' position with m values
 * behind it. Thread A closes; thread B waits until {@code isClosedForSend()}, then observes and
 * receives. Required (issue 8): once any of B's calls observed the close ({@code
 * isClosedForReceive()} true, or a {@code ChannelClosed} from a receive), no later receive returns
 * a value. For {@code done()}, B also receives every value sent before the close, in order.
 */
class ErrorAtomicForReceiversTest {
    static final int M = 200_000;
    static final int ROUNDS = 10;
    static final RuntimeException BOOM = new RuntimeException("boom");

    /** The channel: a withdrawn send at the receivers' position, {@value #M} values behind it. */
    static Channel<Integer> withdrawnCellWithValuesBehind() throws InterruptedException {
        Channel<Integer> ch = Channel.newBufferedChannel(M);
        for (int i = 0; i < M; i++) {
            assertTrue(ch.trySend(i), "fill " + i);
        }
        assertFalse(ch.trySend(-1, Duration.ofMillis(1)), "a timed send into the full channel times out");
        for (int i = 0; i < M; i++) {
            assertEquals(i, ch.receive());
        }
        for (int i = 0; i < M; i++) {
            assertTrue(ch.trySend(M + i), "refill " + i);
        }
        return ch;
    }

    @Test
    void noValueAfterTheErrorWasObserved() throws Exception {
        List<String> failures = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            Channel<Integer> ch = withdrawnCellWithValuesBehind();
            Object[] seen = new Object[3];
            Thread b = Threads.start(() -> {
                while (!ch.isClosedForSend()) {
                    Thread.onSpinWait();
                }
                seen[0] = ch.isClosedForReceive();
                seen[1] = ch.receiveOrClosed();
                seen[2] = ch.receiveOrClosed();
            });
            Thread a = Threads.start(() -> ch.error(BOOM));
            Threads.join("round " + round, a, b);
            boolean observed = (Boolean) seen[0];
            for (int k = 1; k < seen.length; k++) {
                if (observed && !(seen[k] instanceof ChannelError)) {
                    failures.add("round " + round + ": isClosedForReceive, receiveOrClosed, receiveOrClosed = "
                            + seen[0] + ", " + seen[1] + ", " + seen[2]);
                    break;
                }
                observed |= seen[k] instanceof ChannelClosed;
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " of " + ROUNDS
                + " rounds received a value after observing error():\n" + String.join("\n", failures));
    }

    @Test
    void noValueAfterDoneWasObservedAndNoneLostBefore() throws Exception {
        List<String> failures = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            Channel<Integer> ch = withdrawnCellWithValuesBehind();
            List<Object> seen = new ArrayList<>(); // isClosedForReceive, receiveOrClosed, ... alternating
            Thread b = Threads.start(() -> {
                while (!ch.isClosedForSend()) {
                    Thread.onSpinWait();
                }
                int closedResults = 0;
                while (closedResults < 2) { // go on for one more pair after the first ChannelDone
                    seen.add(ch.isClosedForReceive());
                    Object r = ch.receiveOrClosed();
                    seen.add(r);
                    if (r instanceof ChannelClosed) {
                        closedResults++;
                    }
                }
            });
            Thread a = Threads.start(ch::done);
            Threads.join("round " + round, a, b);
            boolean observed = false;
            int next = M;
            for (int k = 0; k < seen.size(); k++) {
                Object o = seen.get(k);
                if (k % 2 == 0) {
                    if (observed && !(Boolean) o) {
                        failures.add("round " + round + ": isClosedForReceive() false after the close was observed");
                        break;
                    }
                    observed |= (Boolean) o;
                    continue;
                }
                if (o instanceof Integer v) {
                    if (observed) {
                        failures.add("round " + round + ": value " + v + " after the close was observed (call "
                                + k + " of " + seen.size() + ")");
                        break;
                    }
                    if (v != next) {
                        failures.add("round " + round + ": expected value " + next + ", got " + v);
                        break;
                    }
                    next++;
                } else {
                    if (!(o instanceof ChannelDone)) {
                        failures.add("round " + round + ": receive returned " + o);
                        break;
                    }
                    if (next != 2 * M) {
                        failures.add("round " + round + ": ChannelDone after " + (next - M) + " of " + M + " values");
                        break;
                    }
                    observed = true;
                }
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " of " + ROUNDS + " done() rounds failed:\n"
                + String.join("\n", failures));
    }
}
