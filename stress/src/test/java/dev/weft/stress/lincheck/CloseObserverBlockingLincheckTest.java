package dev.weft.stress.lincheck;

import dev.weft.channels.Channel;
import dev.weft.channels.ChannelClosed;
import dev.weft.channels.ChannelDone;
import dev.weft.channels.ChannelError;
import java.util.Arrays;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Close as a linearizable event with the blocking {@code receiveOrClosed} (issue 8), under
 * Lincheck's general-purpose model checker ({@link Lincheck#runConcurrentTest(int, Runnable)}),
 * three threads: a closer ({@code done()} or {@code error(t)}), a sender ({@code sendOrClosed(2)};
 * it waits while the channel is full, or for a receiver on a rendezvous channel) and an observer
 * ({@code isClosedForReceive()}, {@code receiveOrClosed()}, {@code isClosedForReceive()}, {@code
 * receiveOrClosed()}). Buffered channels start with value 1. Every receive has a partner (1, 2 or
 * the close), so no interleaving blocks forever. The same shape as the jcstress {@code
 * CloseObserved*} scenarios, which need a thread per CPU; the model checker needs none.
 *
 * <p>Checked: once the observer saw the channel closed ({@code true} or a {@code ChannelClosed}),
 * no later receive returns a value; {@code isClosedForReceive()} stays true; after {@code done()},
 * a send that reported success was received (values are not lost) and values arrive in order;
 * after {@code error(t)} the receives report that error.
 */
public class CloseObserverBlockingLincheckTest {
    static final int INVOCATIONS = Integer.getInteger("lincheck.blockingInvocations", 1000);
    static final RuntimeException BOOM = new RuntimeException("boom");

    static volatile Channel<Integer> ch;
    static volatile Object sent;

    @ParameterizedTest(name = "{0}, capacity {1}")
    @CsvSource({"done, 0", "done, 1", "done, -1", "error, 0", "error, 1", "error, -1"})
    void noValueAfterTheCloseWasObserved(String kind, int capacity) {
        Lincheck.runConcurrentTest(INVOCATIONS, BlockingScenariosLincheckTest.wrap(() -> {
            ch = capacity < 0 ? Channel.newUnlimitedChannel() : Channel.newBufferedChannel(capacity);
            if (capacity != 0) {
                ch.trySend(1);
            }
            sent = null;
            Thread sender = BlockingScenariosLincheckTest.start(() -> sent = ch.sendOrClosed(2));
            Thread closer = BlockingScenariosLincheckTest.start(() -> {
                if (kind.equals("done")) {
                    ch.doneOrClosed();
                } else {
                    ch.errorOrClosed(BOOM);
                }
            });
            Object[] seen = {ch.isClosedForReceive(), ch.receiveOrClosed(), ch.isClosedForReceive(),
                ch.receiveOrClosed()};
            sender.join();
            closer.join();
            Object last = ch.tryReceiveOrClosed();
            check(kind, capacity, seen, last);
        }));
    }

    private static void check(String kind, int capacity, Object[] seen, Object last) {
        String what = "observer saw " + Arrays.toString(seen) + ", then " + last + "; send of 2: " + sent;
        boolean observed = false;
        int expected = capacity != 0 ? 1 : 2;
        for (int k = 0; k < seen.length; k++) {
            Object o = seen[k];
            if (o instanceof Boolean closed) {
                BlockingScenariosLincheckTest.check(!observed || closed, "closed, then open again: " + what);
                observed |= closed;
            } else if (o instanceof Integer v) {
                BlockingScenariosLincheckTest.check(!observed, "a value after the close was observed: " + what);
                BlockingScenariosLincheckTest.check(v == expected, "out of order: " + what);
                expected = 2;
            } else {
                Class<?> closedClass = kind.equals("done") ? ChannelDone.class : ChannelError.class;
                BlockingScenariosLincheckTest.check(closedClass.isInstance(o), "unexpected result: " + what);
                observed = true;
            }
        }
        BlockingScenariosLincheckTest.check(last instanceof ChannelClosed, "a value after the close: " + what);
        if (kind.equals("done")) {
            boolean received2 = seen[1].equals(2) || seen[3].equals(2);
            BlockingScenariosLincheckTest.check(received2 == (sent == null), "send of 2 and receives disagree: " + what);
        }
    }
}
