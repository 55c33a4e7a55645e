package dev.weft.stress.regression;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.channels.Channel;
import dev.weft.channels.ChannelDone;
import dev.weft.channels.Select;
import org.junit.jupiter.api.Test;

/**
 * Regression, jox #38 (closing a channel vs completing a select: the closer's "channel closed"
 * notification races another party selecting a different clause of the same select). A
 * {@code selectOrClosed} over two rendezvous channels races {@code a.done()} and {@code
 * b.trySend}: exactly one may win; a trySend that "succeeded" into a select that returned
 * {@code ChannelDone} has lost its value.
 */
class Jox38SelectVsCloseTest {
    @Test
    void closeAndSendNeverBothCompleteTheSameSelect() throws Exception {
        int done = 0;
        int sent = 0;
        for (int i = 0; i < 3000; i++) {
            Channel<Integer> a = Channel.newRendezvousChannel();
            Channel<Integer> b = Channel.newRendezvousChannel();
            Object[] selected = new Object[1];
            boolean[] trySent = new boolean[1];
            Thread selector = Threads.start(() -> selected[0] = Select.selectOrClosed(a.receiveClause(), b.receiveClause()));
            Thread sender = Threads.start(() -> trySent[0] = b.trySend(2));
            Thread.onSpinWait();
            a.done();
            Threads.join("iteration " + i, selector, sender);
            boolean ok = selected[0] instanceof ChannelDone && !trySent[0]
                    || Integer.valueOf(2).equals(selected[0]) && trySent[0];
            assertTrue(ok, "iteration " + i + ": select returned " + selected[0] + ", trySend " + trySent[0]);
            if (trySent[0]) {
                sent++;
            } else {
                done++;
            }
        }
        System.out.printf("Jox38SelectVsCloseTest: %d selects completed by the close, %d by the send%n", done, sent);
    }
}
